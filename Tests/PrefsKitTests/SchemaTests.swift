import Foundation
import PrefsKit
import PrefsTutorial
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// Schemas: reading them, the fallback table, findings, coercion, effective values and lint.
@Suite struct SchemaTests {
  let schema = Schema.userSettings

  func findings(_ json: String, schema: Schema = .userSettings) throws -> [String] {
    let value = try Format.json.codec.decode(Data(json.utf8))
    return schema.check(value.dictionaryValue!).map(\.description)
  }

  // MARK: Reading

  @Test func theSampleSchemaIsTheBuiltInOne() throws {
    let url = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.schema.yaml")
    #expect(try Schema.read(Data(contentsOf: url), path: url.path) == Schema.userSettings)
    #expect(Schema.builtIn("user-settings") == Schema.userSettings)
    #expect(Schema.builtIn("nope") == nil)
  }

  @Test func nestedKeysAndJSONSchemasRead() throws {
    let json = """
      {"keys": {"window": {"type": "dictionary", "keys": {"width": {"type": "int", "default": 800},
       "scale": {"type": "real", "default": 1}}}}}
      """
    let read = try Schema.read(Data(json.utf8))
    let window = try #require(read.key("window"))
    #expect(window.type == .dict)
    #expect(window.keys?.key("width")?.defaultValue == .integer(800))
    // An integer default of a real key is that real.
    #expect(window.keys?.key("scale")?.defaultValue == .real(1))
  }

  @Test(arguments: [
    ("keys: {a: {type: sting}}", "keys.a.type", "unknown type 'sting'"),
    ("keys: {a: {default: 1}}", "keys.a", "needs a 'type'"),
    ("keys: {a: {type: bool, default: 'yes'}}", "keys.a.default", "a string is not a bool"),
    ("keys: {a: {type: string, values: [x, 1]}}", "keys.a.values.1", "an integer is not a string"),
    ("keys: {a: {type: string, colour: red}}", "keys.a.colour", "unknown field"),
    ("keys: {a: {type: string, keys: {}}}", "keys.a.keys", "only a dict has keys"),
    ("{a: 1}", "a", "unknown field"),
    ("description: x", "keys", "a schema needs 'keys', a dictionary of the keys the app reads"),
  ])
  func invalidSchemasAreRefusedNamingThePlace(text: String, path: String, problem: String) throws {
    let error = #expect(throws: PrefsError.self) { try Schema.read(Data(text.utf8), path: "s.yaml") }
    if case .schema(let at, problem)? = error?.kind {
      #expect(at.description == path)
    } else {
      Issue.record("\(String(describing: error))")
    }
    #expect(error?.file == "s.yaml")
  }

  // MARK: The fallback table

  @Test func linuxCastsOnlyTheMatchingKind() {
    #expect(TypedRead.read(.integer(1), as: .bool, on: .linux) == nil)
    #expect(TypedRead.read(.string("true"), as: .bool, on: .linux) == nil)
    #expect(TypedRead.read(.integer(42), as: .real, on: .linux) == nil)
    #expect(TypedRead.read(.real(1), as: .integer, on: .linux) == nil)
    #expect(TypedRead.read(.integer(.max), as: .integer, on: .linux) == nil)
    #expect(TypedRead.read(.integer(.max - 1), as: .integer, on: .linux) == .integer(.max - 1))
    #expect(TypedRead.read(.bool(false), as: .bool, on: .linux) == .bool(false))
  }

  @Test func macOSBridgesNumbersThatFitExactly() {
    #expect(TypedRead.read(.integer(1), as: .bool, on: .macOS) == .bool(true))
    #expect(TypedRead.read(.integer(0), as: .bool, on: .macOS) == .bool(false))
    #expect(TypedRead.read(.integer(2), as: .bool, on: .macOS) == nil)
    #expect(TypedRead.read(.real(1.5), as: .integer, on: .macOS) == nil)
    #expect(TypedRead.read(.real(42), as: .integer, on: .macOS) == .integer(42))
    #expect(TypedRead.read(.bool(true), as: .integer, on: .macOS) == .integer(1))
    #expect(TypedRead.read(.integer(42), as: .real, on: .macOS) == .real(42))
    #expect(TypedRead.read(.unsignedInteger(.max), as: .integer, on: .macOS) == nil)
    #expect(TypedRead.read(.string("1"), as: .bool, on: .macOS) == nil)
    #expect(TypedRead.platformsDiffer(.integer(1), as: .bool))
    #expect(!TypedRead.platformsDiffer(.string("true"), as: .bool))
  }

  @Test func theDiagonalReadsTheValueEverywhereAndAUIDNowhere() {
    let samples: [PrefValue] = [
      .string("x"), .integer(5), .real(0.5), .bool(true), .date(Date(timeIntervalSinceReferenceDate: 0)),
      .data(Data([1])), .array([]), .dictionary([:]),
    ]
    for (value, type) in zip(samples, [ValueText.TypeName.string, .integer, .real, .bool, .date, .data, .array, .dict])
    {
      for platform in Platform.allCases {
        #expect(TypedRead.read(value, as: type, on: platform) == value, "\(value) as \(type) on \(platform)")
      }
    }
    for type in ValueText.TypeName.allCases {
      #expect(TypedRead.read(.uid(1), as: type, on: .macOS) == nil)
    }
    #expect(TypedRead.read(nil, as: .string, on: .linux) == nil)
  }

  // MARK: Findings

  @Test func aStringWhereTheAppWantsABoolIsTheSilentBug() throws {
    #expect(
      try findings(#"{"isAccountPrivate": "false"}"#) == [
        #"isAccountPrivate: stored as string "false"; the app reads true (fallback)"#
      ])
  }

  @Test func findingsNameThePlatformWhereLinuxAndMacOSDiffer() throws {
    #expect(
      try findings(#"{"isAccountPrivate": 0}"#) == [
        "isAccountPrivate: stored as integer 0; on Linux the app reads true (fallback); on macOS it reads false"
      ])
    #expect(
      try findings(#"{"username": 42, "ringtone": [1]}"#) == [
        #"username: stored as integer 42; the app reads "" (fallback)"#,
        #"ringtone: stored as array (1 item); the app reads "Chimes" (fallback)"#,
      ])
  }

  @Test func valuesOutsideTheListAndUnknownKeysAreFound() throws {
    let value = try Format.json.codec.decode(Data(#"{"ringtone": "Bells", "ringtones": "x", "volume": 3}"#.utf8))
    let found = schema.check(value.dictionaryValue!)
    #expect(
      found.map(\.description) == [
        #"ringtone: "Bells" is not one of "Chimes", "Signal", "Waves""#,
        "ringtones: not in the schema; the app does not read it (did you mean 'ringtone'?)",
        "volume: not in the schema; the app does not read it",
      ])
    #expect(found.map(\.isError) == [true, false, false])
    #expect(try findings(#"{"username": "ada", "isAccountPrivate": false, "ringtone": "Waves"}"#) == [])
  }

  @Test func nestedDictionariesAreCheckedAndAKeyWithoutFallbackReadsNil() throws {
    let nested = try Schema.read(
      Data("keys: {window: {type: dict, keys: {width: {type: integer}, title: {type: string, default: Main}}}}".utf8))
    #expect(
      try findings(#"{"window": {"width": "800", "title": 1, "x": 1}}"#, schema: nested) == [
        #"window.width: stored as string "800"; the app reads nil (the schema gives no fallback)"#,
        #"window.title: stored as integer 1; the app reads "Main" (fallback)"#,
        "window.x: not in the schema; the app does not read it",
      ])
  }

  // MARK: Coercion

  @Test(arguments: [
    (PrefValue.string("false"), ValueText.TypeName.bool, PrefValue.bool(false), CoercionRule.boolWord),
    (.string("YES"), .bool, .bool(true), .boolWord),
    (.string("no"), .bool, .bool(false), .boolWord),
    (.string("1"), .bool, .bool(true), .boolWord),
    (.string("0"), .bool, .bool(false), .boolWord),
    (.integer(1), .bool, .bool(true), .boolNumber),
    (.integer(0), .bool, .bool(false), .boolNumber),
    (.integer(42), .string, .string("42"), .numberToString),
    (.real(1.5), .string, .string("1.5"), .numberToString),
    (.string("-42"), .integer, .integer(-42), .integerString),
    (.string("1.5"), .real, .real(1.5), .realString),
    (.string("42"), .real, .real(42), .realString),
    (.integer(3), .real, .real(3), .integerToReal),
    (.real(42), .integer, .integer(42), .wholeReal),
    (.string("2023-11-14T22:13:20Z"), .date, .date(Date(timeIntervalSinceReferenceDate: 721_692_800)), .isoDate),
  ])
  func eachCoercionRule(from: PrefValue, type: ValueText.TypeName, to: PrefValue, rule: CoercionRule) {
    #expect(Schema.coerced(from, to: type)! == (to, rule))
  }

  @Test(arguments: [
    (PrefValue.string("maybe"), ValueText.TypeName.bool), (.integer(2), .bool), (.bool(true), .string),
    (.string("4x"), .integer), (.real(1.5), .integer), (.string("0x10"), .real), (.string("inf"), .real),
    (.string("tomorrow"), .date), (.data(Data()), .string), (.array([]), .dict),
  ])
  func valuesNoRuleCoversAreLeftAlone(value: PrefValue, type: ValueText.TypeName) {
    #expect(Schema.coerced(value, to: type) == nil)
  }

  @Test func coercionReportsEachChangeAndWhatStillDoesNotFit() throws {
    let input = try Format.json.codec.decode(
      Data(#"{"username": 7, "isAccountPrivate": "no", "ringtone": true, "extra": 1}"#.utf8))
    let (result, coercions, remaining) = schema.coerce(input.dictionaryValue!)
    #expect(result["username"] == .string("7"))
    #expect(result["isAccountPrivate"] == .bool(false))
    #expect(result["ringtone"] == .bool(true))
    #expect(
      coercions.map(\.description) == [
        #"username: coerced integer 7 to string "7" (number as text)"#,
        #"isAccountPrivate: coerced string "no" to bool false (boolean word)"#,
      ])
    #expect(
      remaining.map(\.description) == [
        #"ringtone: stored as bool true; the app reads "Chimes" (fallback)"#,
        "extra: not in the schema; the app does not read it",
      ])
  }

  // MARK: Effective values

  @Test func anEmptyDomainReadsAsTheFallbacks() {
    #expect(
      schema.effective(PrefDictionary(), on: .linux)
        == ["username": .string(""), "isAccountPrivate": .bool(true), "ringtone": .string("Chimes")])
  }

  @Test func effectiveValuesFollowThePlatformAndKeepOtherKeys() {
    let stored: PrefDictionary = ["isAccountPrivate": .integer(0), "username": .string("ada"), "other": .integer(1)]
    #expect(schema.effective(stored, on: .linux)["isAccountPrivate"] == .bool(true))
    #expect(schema.effective(stored, on: .macOS)["isAccountPrivate"] == .bool(false))
    #expect(schema.effective(stored, on: .linux)["username"] == .string("ada"))
    #expect(schema.effective(stored, on: .linux)["other"] == .integer(1))
  }

  // MARK: Lint

  @Test(arguments: [
    ("a.json", "{\n  \"a\": [1,]\n}", "a.json:2:11: unexpected ']': expected a value"),
    ("a.yaml", "a: 1\na: 2\n", "a.yaml:2:1: duplicate key \"a\""),
    ("a.plist", "<plist><dict><key>a</key></dict></plist>", "a.plist"),
    ("a.bplist", "bplist00xx", "a.bplist: at byte"),
  ])
  func syntaxErrorsOfEveryFormatArePositioned(file: String, text: String, prefix: String) {
    let found = Lint.check(Data(text.utf8), file: file, path: file)
    #expect(found.count == 1)
    #expect(found.first?.severity == .error)
    #expect(found.first?.description.hasPrefix(prefix) == true, "\(found)")
  }

  @Test func ambiguousYAMLScalarsAreWarningsWithPositions() {
    let text = "a: yes\nb: '0755'\nc: 0755\nd: 1:20\ne: [off, 'on']\n"
    let found = Lint.check(Data(text.utf8), file: "f.yaml", path: "f.yaml")
    #expect(
      found.map(\.description) == [
        "f.yaml:1:4: 'yes' is a string in YAML 1.2 but bool true in YAML 1.1 (PyYAML); quote it, or write true",
        "f.yaml:3:4: '0755' is integer 755 in YAML 1.2 but integer 493 in YAML 1.1 (PyYAML); quote it, or write 755 or 493",
        "f.yaml:4:4: '1:20' is a string in YAML 1.2 but integer 80 in YAML 1.1 (PyYAML); quote it, or write 80",
        "f.yaml:5:5: 'off' is a string in YAML 1.2 but bool false in YAML 1.1 (PyYAML); quote it, or write false",
      ])
    #expect(found.allSatisfy { $0.severity == .warning })
  }

  @Test func schemaFindingsCarryTheKeyPathAndWhereItIsWritten() {
    let found = Lint.check(Data(#"{"isAccountPrivate": "false"}"#.utf8), file: "s.json", schema: schema)
    #expect(found.map(\.severity) == [.error])
    #expect(found.first?.keyPath?.description == "isAccountPrivate")
    #expect(
      found.first?.description
        == #"s.json:1:2: isAccountPrivate: stored as string "false"; the app reads true (fallback)"#)
    // In every format that has lines; a binary plist has none.
    let plist = Lint.check(
      try! Format.xml.codec.encode(.dictionary(["ringtone": .integer(1)])), file: "s.plist", schema: schema)
    #expect(plist.first?.position == .lineColumn(line: 5, column: 2))
    let binary = Lint.check(
      try! Format.binary.codec.encode(.dictionary(["ringtone": .integer(1)])), file: "s.bplist", schema: schema)
    #expect(binary.first?.position == nil)
    #expect(binary.first?.description.hasPrefix("s.bplist: ringtone: stored as integer 1") == true)
    let array = Lint.check(Data("[1]".utf8), file: "s.json", schema: schema)
    #expect(array.map(\.description) == ["s.json: the top level: a domain is a dictionary, but this holds an array"])
  }
}
