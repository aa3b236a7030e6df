import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

// MARK: - Helpers

private let codec = YAMLCodec()

private func read(_ text: String, _ version: YAMLVersion = .v1_2, dropNulls: Bool = false) throws
  -> PrefValue
{
  try codec.decode(
    Data(text.utf8), options: ReadOptions(dropNulls: dropNulls, yamlVersion: version))
}

private func written(_ value: PrefValue, sortKeys: Bool = false) throws -> String {
  String(
    decoding: try codec.encode(value, options: WriteOptions(sortKeys: sortKeys)), as: UTF8.self)
}

/// The error reading `text` throws (a failure is recorded when it reads).
private func readError(
  _ text: String, _ version: YAMLVersion = .v1_2, options: ReadOptions? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) -> PrefsError? {
  var opts = options ?? ReadOptions(yamlVersion: version)
  if options == nil { opts.yamlVersion = version }
  do {
    let value = try codec.decode(Data(text.utf8), options: opts)
    Issue.record("expected an error, read \(value)", sourceLocation: sourceLocation)
    return nil
  } catch let error as PrefsError {
    return error
  } catch {
    Issue.record("unexpected error type \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

private func date(_ text: String) -> PrefValue { .date(TextForms.parseDate(text)!) }

// MARK: - Resolver

/// Every YAML suite lives in here, so that `swift test --filter YAMLCodecTests` runs them all.
@Suite("YAML codec")
struct YAMLCodecTests {}

extension YAMLCodecTests {
  @Suite("YAML resolver")
  struct Resolver {
    typealias R = YAMLPlainReading
    static let t = R.scalar(.bool(true))
    static let f = R.scalar(.bool(false))
    static func i(_ n: Int64) -> R { .scalar(.integer(n)) }
    static func r(_ x: Double) -> R { .scalar(.real(x)) }

    /// Plain scalar, YAML 1.2 reading, YAML 1.1 (PyYAML) reading.
    static let table: [(String, R, R)] = [
      ("true", t, t), ("True", t, t), ("TRUE", t, t), ("tRUE", .string, .string),
      ("false", f, f), ("False", f, f), ("FALSE", f, f),
      ("yes", .string, t), ("Yes", .string, t), ("YES", .string, t), ("yEs", .string, .string),
      ("no", .string, f), ("No", .string, f), ("NO", .string, f),
      ("on", .string, t), ("On", .string, t), ("ON", .string, t),
      ("off", .string, f), ("Off", .string, f), ("OFF", .string, f),
      ("y", .string, .string), ("n", .string, .string), ("Y", .string, .string),
      ("null", .null, .null), ("Null", .null, .null), ("NULL", .null, .null), ("~", .null, .null),
      ("", .null, .null), ("nULL", .string, .string), ("~~", .string, .string),
      ("0", i(0), i(0)), ("-0", i(0), i(0)), ("12", i(12), i(12)), ("+12", i(12), i(12)),
      ("-12", i(-12), i(-12)),
      ("0755", i(755), i(493)), ("0o17", i(15), .string), ("0x1F", i(31), i(31)),
      ("0x_1F", .string, i(31)),
      ("-0x1F", .string, i(-31)), ("0b101", .string, i(5)), ("1_000", .string, i(1000)),
      ("09", i(9), .string),
      ("0_7", .string, i(7)), ("0b_", .string, .invalid("integer has no digits")),
      ("1:20", .string, i(80)), ("190:20:30", .string, i(685_230)), ("-1:20", .string, i(-80)),
      ("1:60", .string, .string), ("0:20", .string, .string), ("1:20.5", .string, r(80.5)),
      ("1.5", r(1.5), r(1.5)), ("-1.5", r(-1.5), r(-1.5)), ("1.", r(1), r(1)), (".5", r(0.5), r(0.5)),
      ("-.5", r(-0.5), .string), ("1e3", r(1000), .string), ("1.0e3", r(1000), .string),
      ("1.0e+3", r(1000), r(1000)), ("1_0.5", .string, r(10.5)), ("1.5e", .string, .string),
      (".inf", r(.infinity), r(.infinity)), (".Inf", r(.infinity), r(.infinity)),
      (".INF", r(.infinity), r(.infinity)),
      ("-.inf", r(-.infinity), r(-.infinity)), ("+.inf", r(.infinity), r(.infinity)),
      (".inF", .string, .string),
      (".nan", r(.nan), r(.nan)), (".NaN", r(.nan), r(.nan)), (".NAN", r(.nan), r(.nan)),
      ("+.nan", .string, .string),
      (".Nan", .string, .string),
      ("9223372036854775807", i(.max), i(.max)), ("-9223372036854775808", i(.min), i(.min)),
      (
        "9223372036854775808", .scalar(.unsignedInteger(9_223_372_036_854_775_808)),
        .scalar(.unsignedInteger(9_223_372_036_854_775_808))
      ),
      ("18446744073709551615", .scalar(.unsignedInteger(.max)), .scalar(.unsignedInteger(.max))),
      ("18446744073709551616", .invalid("integer out of range"), .invalid("integer out of range")),
      ("-9223372036854775809", .invalid("integer out of range"), .invalid("integer out of range")),
      ("0x10000000000000000", .invalid("integer out of range"), .invalid("integer out of range")),
      ("1e400", .invalid("real out of range"), .string),
      ("1.0e+400", .invalid("real out of range"), .invalid("real out of range")),
      ("2001-12-14", .scalar(date("2001-12-14")), .scalar(date("2001-12-14"))),
      (
        "2001-12-14t21:59:43.10-05:00", .scalar(date("2001-12-15T02:59:43.1Z")),
        .scalar(date("2001-12-15T02:59:43.1Z"))
      ),
      (
        "2001-12-14 21:59:43.10 -5", .scalar(date("2001-12-15T02:59:43.1Z")),
        .scalar(date("2001-12-15T02:59:43.1Z"))
      ),
      (
        "2001-12-15 2:59:43.10", .scalar(date("2001-12-15T02:59:43.1Z")),
        .scalar(date("2001-12-15T02:59:43.1Z"))
      ),
      (
        "2001-1-2 3:04:05Z", .scalar(date("2001-01-02T03:04:05Z")),
        .scalar(date("2001-01-02T03:04:05Z"))
      ),
      ("2001-1-2", .string, .string), ("2001-12-14 21:59", .string, .string),
      ("2001-12-14T21:59:43 x", .string, .string),
      ("2001-02-30", .invalid("invalid date"), .invalid("invalid date")),
      ("<<", .merge, .merge), ("=", .string, .string), ("abc", .string, .string),
      ("1.0.0", .string, .string),
      ("-", .string, .string), (".", .string, .string), ("+", .string, .string),
    ]

    @Test("each plain scalar resolves as the table says, in both versions", arguments: table)
    func resolves(_ row: (String, YAMLPlainReading, YAMLPlainReading)) {
      #expect(YAMLResolver.resolve(row.0, version: .v1_2) == row.1, "1.2: \(row.0)")
      #expect(YAMLResolver.resolve(row.0, version: .v1_1) == row.2, "1.1: \(row.0)")
    }

    @Test("the YAML 1.1 rows agree with PyYAML's safe_load", .needsPython("yaml"))
    func agreesWithPyYAML() throws {
      let python = try #require(Python.find())
      // Rows PyYAML loads (it fails on `0b_`, `<<`, `=`, the invalid date, and `k: -`; its 1e400 is inf).
      let rows = Self.table.filter {
        if case .invalid = $0.2 { return false }
        return !["<<", "=", "-"].contains($0.0)
      }
      let script =
        Python.typed + """
          import yaml
          texts = json.loads(sys.stdin.read())
          print(json.dumps([t(yaml.safe_load('k: ' + s + '\\n')['k']) for s in texts]))
          """
      let input = try JSONSerialization.data(withJSONObject: rows.map(\.0))
      let output = try Python.run(python, script, input: input)
      let decoded = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [Any])
      try #require(decoded.count == rows.count)
      for (row, result) in zip(rows, decoded) {
        switch row.2 {
        case .string: #expect(Python.matches(.string(row.0), result), "\(row.0): \(result)")
        case .null: #expect((result as? [Any])?.first as? String == "null", "\(row.0)")
        case .scalar(let v): #expect(Python.matches(v, result), "\(row.0): \(result)")
        default: Issue.record("row \(row.0)")
        }
      }
    }

    @Test("a string is quoted exactly when some reader would take it for another kind")
    func quoting() {
      let quoted = [
        "yes", "no", "on", "off", "y", "n", "Y", "N", "true", "False", "~", "null", "", "1e3", "0755",
        "1:20",
        "2024-01-02", "<<", "=", ".inf", "-.5", "0o7", "0x1", "0b1", "1_000", "0_9", "12", "1.5",
        " lead",
        "trail ", "- a", "-", "a: b", "a #b", "#x", "&a", "*a", "!t", "|x", ">x", "'x", "\"x", "%x",
        "@x", "`x",
        "[x", "]x", "{x", "}x", ",x", "---", "...", "? x", ": x", "tab\there", "\u{FEFF}x", "x\u{85}",
      ]
      for s in quoted {
        #expect(
          YAMLScalarStyle.choose(for: s, isKey: false) == .doubleQuoted, "\(s.debugDescription)")
      }
      let plain = [
        "Chimes", "a#b", "a:b", "http://x.org/a?b=c", "1.0.0", "café", "x y", "-x", "?x", "a,b",
        "yes!", "0x", "1e",
      ]
      for s in plain {
        #expect(YAMLScalarStyle.choose(for: s, isKey: false) == .plain, "\(s.debugDescription)")
      }
    }
  }

  // MARK: - Writer

}

extension YAMLCodecTests {
  @Suite("YAML writer")
  struct Writer {
    /// A value and its exact text as the value of key `k`.
    static let forms: [(PrefValue, String)] = [
      (.integer(42), "42"), (.integer(-1), "-1"), (.integer(.min), "-9223372036854775808"),
      (.unsignedInteger(.max), "18446744073709551615"),
      (.real(1), "1.0"), (.real(0.1), "0.1"), (.real(1e20), "1.0e+20"), (.real(1e-7), "1.0e-07"),
      (.real(-0.0), "-0.0"), (.real(123456.789), "123456.789"), (.real(.infinity), ".inf"),
      (.real(-.infinity), "-.inf"), (.real(.nan), ".nan"),
      (.bool(true), "true"), (.bool(false), "false"),
      (.date(Date(timeIntervalSinceReferenceDate: 721_692_800)), "!!timestamp 2023-11-14T22:13:20Z"),
      (
        .date(Date(timeIntervalSinceReferenceDate: 721_692_800.123)),
        "!!timestamp 2023-11-14T22:13:20.123Z"
      ),
      (.date(Date(timeIntervalSinceReferenceDate: -978_307_200)), "!!timestamp 1970-01-01T00:00:00Z"),
      (.data(Data([0, 1, 2, 255])), "!!binary AAEC/w=="), (.data(Data()), "!!binary \"\""),
      (.uid(5), "!uid 5"), (.array([]), "[]"), (.dictionary([:]), "{}"),
      (.string("Chimes"), "Chimes"), (.string("café 中"), "café 中"), (.string(""), "\"\""),
      (.string("yes"), "\"yes\""), (.string("no"), "\"no\""), (.string("on"), "\"on\""),
      (.string("off"), "\"off\""),
      (.string("y"), "\"y\""), (.string("n"), "\"n\""), (.string("true"), "\"true\""),
      (.string("~"), "\"~\""),
      (.string("null"), "\"null\""), (.string("1e3"), "\"1e3\""), (.string("0755"), "\"0755\""),
      (.string("1:20"), "\"1:20\""), (.string("2024-01-02"), "\"2024-01-02\""),
      (.string("<<"), "\"<<\""),
      (.string(".inf"), "\".inf\""), (.string("="), "\"=\""), (.string(" lead"), "\" lead\""),
      (.string("trail "), "\"trail \""), (.string("1.0"), "\"1.0\""), (.string("a: b"), "\"a: b\""),
      (.string("tab\there"), "\"tab\\there\""), (.string("say \"hi\""), "say \"hi\""),
      (.string("\"hi\""), "\"\\\"hi\\\"\""), (.string("back\\slash"), "back\\slash"),
      (.string("\u{1F600}"), "\"\\U0001F600\""), (.string("bell\u{7}"), "\"bell\\a\""),
      // Multi-line: literal blocks when they read back exactly.
      (.string("a\nb"), "|-\n  a\n  b"), (.string("a\nb\n"), "|\n  a\n  b"),
      (.string("a\nb\n\n"), "|+\n  a\n  b\n\n..."),
      (.string(" lead\nx"), "|2-\n   lead\n  x"), (.string("\nx"), "|2-\n\n  x"),
      (.string("  indented\n  code\n"), "|2\n    indented\n    code"),
      (.string("# not a comment\nx: y"), "|-\n  # not a comment\n  x: y"),
      // …else double-quoted with escapes.
      (.string("trail \nx"), "\"trail \\nx\""), (.string("a\r\nb"), "\"a\\r\\nb\""),
      (.string("a\n\tb"), "\"a\\n\\tb\""),
      (.string("a\u{2028}b"), "\"a\\Lb\""), (.string("a\u{85}b"), "\"a\\Nb\""),
      (.string("x\n "), "\"x\\n \""),
    ]

    @Test("each value is written in its exact text form", arguments: forms)
    func form(_ row: (PrefValue, String)) throws {
      #expect(try written(.dictionary(["k": row.0])) == "k: \(row.1)\n")
    }

    @Test("each written form reads back to the same value, in YAML 1.2 and 1.1", arguments: forms)
    func formReadsBack(_ row: (PrefValue, String)) throws {
      let value = PrefValue.dictionary(["k": row.0])
      let text = try written(value)
      #expect(try read(text, .v1_2) == value)
      #expect(try read(text, .v1_1) == value)
    }

    @Test func longDataIsALiteralBlockOf76CharacterLines() throws {
      let data = Data((0..<100).map { UInt8($0) })
      let text = try written(.dictionary(["k": .data(data)]))
      let b64 = data.base64EncodedString()
      let first = String(b64.prefix(76))
      let rest = String(b64.dropFirst(76))
      #expect(text == "k: !!binary |\n  \(first)\n  \(rest)\n")
      #expect(try read(text) == .dictionary(["k": .data(data)]))
    }

    @Test func layoutOfNestedCollections() throws {
      let value: PrefValue = .dictionary([
        "list": .array([
          .string("a"), .dictionary(["x": .integer(1), "y": .array([])]), .array([.integer(2)]),
        ]),
        "map": .dictionary(["inner": .dictionary(["deep": .bool(true)])]),
        "yes": .string("key is quoted too"),
      ])
      let expected = """
        list:
        - a
        - x: 1
          "y": []
        - - 2
        map:
          inner:
            deep: true
        "yes": key is quoted too

        """
      let text = try written(value)
      #expect(text == expected, "\(text)")
    }

    @Test func topLevelValuesOfEveryShape() throws {
      #expect(try written(.string("x")) == "x\n")
      #expect(try written(.integer(3)) == "3\n")
      #expect(try written(.array([])) == "[]\n")
      #expect(try written(.dictionary([:])) == "{}\n")
      #expect(try written(.array([.integer(1), .string("no")])) == "- 1\n- \"no\"\n")
      for value: PrefValue in [
        .string("x"), .integer(3), .array([]), .dictionary([:]), .string("a\nb\n\n"),
        .date(Date(timeIntervalSinceReferenceDate: TextForms.dateRange.lowerBound)),
      ] {
        #expect(try read(written(value)) == value)
      }
    }

    @Test func sortKeysSortsByCodePointAtEveryDepth() throws {
      let value: PrefValue = .dictionary([
        "b": .integer(1), "a": .dictionary(["é": .integer(1), "z": .integer(2), "Z": .integer(3)]),
      ])
      #expect(try written(value, sortKeys: true) == "a:\n  Z: 3\n  z: 2\n  é: 1\nb: 1\n")
      #expect(try written(value) == "b: 1\na:\n  é: 1\n  z: 2\n  Z: 3\n")
    }

    @Test func longKeysStillReadBack() throws {
      let key = String(repeating: "k", count: 200)
      let value: PrefValue = .dictionary([key: .string("v"), "multi\nline": .integer(1)])
      #expect(try read(written(value)) == value)
    }

    @Test func datesOutsideYearsZeroTo9999AreRefused() {
      #expect(throws: PrefsError.self) {
        try written(.date(Date(timeIntervalSinceReferenceDate: 1e12)))
      }
    }

    @Test func everyKindRoundTripsTypeStrict() throws {
      let back = try TestSupport.roundTrip(TestSupport.everyKind, through: .yaml)
      #expect(back == TestSupport.everyKind)
      // The writer keeps the order it was given.
      #expect(back.dictionaryValue?.keys == TestSupport.everyKind.dictionaryValue?.keys)
      let text = try written(TestSupport.everyKind)
      #expect(try read(text, .v1_1) == TestSupport.everyKind)
      let sorted = try TestSupport.roundTrip(
        TestSupport.everyKind, through: .yaml, options: WriteOptions(sortKeys: true))
      #expect(sorted == TestSupport.everyKind)
      #expect(
        sorted.dictionaryValue?.keys == TestSupport.everyKind.dictionaryValue?.sortedByKey().keys)
    }

    @Test func trickyValuesRoundTripInBothVersions() throws {
      let value = PrefValue.array(CrossCheck.tricky)
      let text = try written(value)
      #expect(try read(text, .v1_2) == value)
      #expect(try read(text, .v1_1) == value)
    }

    @Test func writesStreamToAFileDescriptor() throws {
      let folder = try TestSupport.temporaryFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let path = folder.appendingPathComponent("out.yaml").path
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      try #require(fd >= 0)
      let writer = ByteWriter(fileDescriptor: fd)
      let big = PrefValue.array((0..<20_000).map { .string("item \($0)") })
      try codec.write(big, to: writer, options: WriteOptions(), warnings: Warnings())
      try writer.flush()
      close(fd)
      #expect(try read(String(contentsOfFile: path, encoding: .utf8)) == big)
    }
  }

  @Suite("YAML writer in parallel parts")
  struct Parts {
    /// One emitter's bytes for `value`.
    static func serial(_ value: PrefValue, sortKeys: Bool) throws -> Data {
      let writer = ByteWriter()
      try YAMLEmitter(writer: writer, sortKeys: sortKeys).document(value)
      return try writer.data
    }

    /// The bytes of `parts` emitters, each on its own thread, for any size of document.
    static func parallel(_ value: PrefValue, sortKeys: Bool, parts: Int) throws -> Data {
      let writer = ByteWriter()
      try YAMLParts.write(value, to: writer, sortKeys: sortKeys, expandData: false, parts: parts, minimumSize: 0)
      return try writer.data
    }

    /// Root entries of every kind, with what is hard for the joins: blocks with and
    /// without a final break, long keys written as `? key`, empty collections, tags.
    static func generatedRoot(seed: UInt64) -> PrefDictionary {
      var g = SeededGenerator(state: seed)
      var root = PrefDictionary()
      let extras: [PrefValue] = [
        .string("block\nend\n"), .string("block\nno end"), .string("kept\n\n"), .string("\nx"), .array([]),
        .dictionary([:]),
        .data(Data(repeating: 7, count: 100)), .date(Date(timeIntervalSinceReferenceDate: 0.5)), .uid(3),
      ]
      for i in 0..<Int.random(in: 2...30, using: &g) {
        let key = i % 7 == 3 ? String(repeating: "long key ", count: 20) + "\(i)" : "key\(i)"
        let value =
          Bool.random(using: &g)
          ? extras.randomElement(using: &g)! : PlistCodecTests.generate(&g, wholeDates: false)
        root.insertNew(key, value)
      }
      return root
    }

    @Test("the joined parts are the bytes one emitter writes", arguments: [2, 3, 4])
    func partsJoinToTheSingleEmitterBytes(parts: Int) throws {
      var cut = 0
      for seed in UInt64(1)...60 {
        let root = Self.generatedRoot(seed: seed)
        if YAMLParts.split(root, sortKeys: false, minimumSize: 0, into: { parts }) != nil { cut += 1 }
        for sortKeys in [false, true] {
          let one = try Self.serial(.dictionary(root), sortKeys: sortKeys)
          let many = try Self.parallel(.dictionary(root), sortKeys: sortKeys, parts: parts)
          #expect(many == one, "seed \(seed), sortKeys \(sortKeys)")
        }
      }
      // Most documents are really cut (the others hold a `|+` block early on).
      #expect(cut >= 30, "\(cut) of 60 cut")
    }

    @Test func aDocumentIsCutIntoPartsOfAboutEqualSize() throws {
      let root = PrefDictionary((100..<200).map { ("key\($0)", .string(String(repeating: "x", count: 100))) })
      let slices = try #require(YAMLParts.split(root, sortKeys: false, minimumSize: 0, into: { 4 }))
      #expect(slices.map(\.count) == [25, 25, 25, 25])
      #expect(YAMLParts.split(root, sortKeys: false, minimumSize: 1 << 20, into: { 4 }) == nil)
    }

    /// After a block that keeps its final breaks, libyaml ends the stream with `...`:
    /// such a block outside the last part leaves the whole document to one emitter.
    @Test func aBlockKeepingItsBreaksOutsideTheLastPartMeansOneEmitter() throws {
      var root = PrefDictionary((0..<10).map { ("key\($0)", .integer($0)) })
      #expect(YAMLParts.split(root, sortKeys: false, minimumSize: 0, into: { 2 }) != nil)
      root["key0"] = .string("kept\n\n")
      #expect(YAMLParts.split(root, sortKeys: false, minimumSize: 0, into: { 2 }) == nil)
      let text = try Self.parallel(.dictionary(root), sortKeys: false, parts: 2)
      #expect(String(decoding: text, as: UTF8.self).hasSuffix("key9: 9\n...\n"))
      #expect(text == (try Self.serial(.dictionary(root), sortKeys: false)))
      // In the last part it changes nothing.
      root["key0"] = .integer(0)
      root["key9"] = .string("\n")
      #expect(YAMLParts.split(root, sortKeys: false, minimumSize: 0, into: { 2 }) != nil)
      #expect(
        try Self.parallel(.dictionary(root), sortKeys: false, parts: 2)
          == (try Self.serial(.dictionary(root), sortKeys: false)))
    }
  }

  // MARK: - Reader

}

extension YAMLCodecTests {
  @Suite("YAML reader")
  struct Reader {
    @Test func plainQuotedAndBlockScalars() throws {
      let text = """
        a: yes
        b: "yes"
        c: 'on'
        d: 0755
        e: |
          line
        f: >-
          folded
          text
        g: 1.5
        h: 2001-12-14
        i: -.inf
        """
      #expect(
        try read(text)
          == .dictionary([
            "a": .string("yes"), "b": .string("yes"), "c": .string("on"), "d": .integer(755),
            "e": .string("line\n"),
            "f": .string("folded text"), "g": .real(1.5), "h": date("2001-12-14"),
            "i": .real(-.infinity),
          ]))
      #expect(
        try read(text, .v1_1)
          == .dictionary([
            "a": .bool(true), "b": .string("yes"), "c": .string("on"), "d": .integer(493),
            "e": .string("line\n"),
            "f": .string("folded text"), "g": .real(1.5), "h": date("2001-12-14"),
            "i": .real(-.infinity),
          ]))
    }

    @Test func keysKeepTheirOrder() throws {
      let value = try read("z: 1\na: 2\nm: 3\n")
      #expect(value.dictionaryValue?.keys == ["z", "a", "m"])
    }

    @Test func topLevelMayBeAnyKind() throws {
      #expect(try read("hello") == .string("hello"))
      #expect(try read("- 1\n- two") == .array([.integer(1), .string("two")]))
      #expect(try read("[]") == .array([]))
      #expect(try read("{}") == .dictionary([:]))
      #expect(try read("!!binary AAEC") == .data(Data([0, 1, 2])))
      #expect(try read("--- 12\n...\n") == .integer(12))
    }

    // MARK: Tags

    static let tagged: [(String, PrefValue)] = [
      ("!!str 12", .string("12")), ("!!str", .string("")), ("!!str true", .string("true")),
      ("!!int \"12\"", .integer(12)), ("!!int 0x10", .integer(16)), ("!!float 1", .real(1.0)),
      ("!!float \"2.5\"", .real(2.5)), ("!!float .nan", .real(.nan)),
      ("!!bool \"true\"", .bool(true)),
      ("!!timestamp 2001-12-14", date("2001-12-14")),
      ("!!timestamp \"2001-12-14T21:59:00Z\"", date("2001-12-14T21:59:00Z")),
      ("!!binary \"AAEC\"", .data(Data([0, 1, 2]))),
      ("!!binary |\n  AA\n  EC\n", .data(Data([0, 1, 2]))),
      ("!uid 7", .uid(7)), ("!uid 18446744073709551615", .uid(.max)), ("! 12", .string("12")),
      ("! true", .string("true")),
      ("!<tag:yaml.org,2002:int> \"3\"", .integer(3)), ("!<tag:yaml.org,2002:str> 3", .string("3")),
      ("!!map {a: 1}", .dictionary(["a": .integer(1)])), ("!!seq [1]", .array([.integer(1)])),
      ("! [1]", .array([.integer(1)])),
      ("%TAG !e! tag:yaml.org,2002:\n---\n!e!int \"5\"", .integer(5)),
    ]

    @Test("explicit tags are obeyed", arguments: tagged)
    func tag(_ row: (String, PrefValue)) throws {
      #expect(try read(row.0) == row.1)
    }

    static let badTags: [(String, String)] = [
      ("k: !!int abc", "1:4: !!int value 'abc' is not an integer"),
      ("k: !!int 1.5", "1:4: !!int value '1.5' is not an integer"),
      ("k: !!float abc", "1:4: !!float value 'abc' is not a real"),
      ("k: !!bool yes", "1:4: !!bool value 'yes' is not a bool"),
      ("k: !!null x", "1:4: !!null value 'x' is not null"),
      ("k: !!timestamp soon", "1:4: !!timestamp value 'soon' is not a timestamp"),
      ("k: !!binary '@@'", "1:4: !!binary value '@@' is not base64 (byte 0x40 is not base64)"),
      ("k: !uid -1", "1:4: !uid value '-1' is not a non-negative integer"),
      ("k: !foo x", "1:4: unknown tag !foo"), ("k: !!set {a: 1}", "1:4: unknown tag !!set"),
      ("k: !!omap []", "1:4: unknown tag !!omap"),
      ("k: !<tag:example.com,2000:x> 1", "1:4: unknown tag tag:example.com,2000:x"),
      ("k: !!map x", "1:4: !!map tag on a scalar"), ("k: !!seq {}", "1:4: !!seq tag on a mapping"),
    ]

    @Test("a tag that is unknown, or whose content does not fit, is an error", arguments: badTags)
    func badTag(_ row: (String, String)) {
      #expect(readError(row.0)?.description == row.1)
    }

    // MARK: Anchors, aliases, merge keys

    @Test func anchorsAndAliases() throws {
      let text = "a: &x {n: 1}\nb: *x\nc: &s str\nd: [*s, *x]\n"
      let n: PrefValue = .dictionary(["n": .integer(1)])
      #expect(
        try read(text)
          == .dictionary(["a": n, "b": n, "c": .string("str"), "d": .array([.string("str"), n])]))
      #expect(readError("a: *nope")?.description == "1:4: unknown alias *nope")
      // An anchor can be redefined; an alias sees the latest one.
      #expect(
        try read("- &a 1\n- *a\n- &a 2\n- *a")
          == .array([.integer(1), .integer(1), .integer(2), .integer(2)]))
    }

    @Test(arguments: [YAMLVersion.v1_2, .v1_1])
    func mergeKeys(_ version: YAMLVersion) throws {
      let text = """
        base: &base {x: 1, y: 2}
        more: &more {y: 20, z: 30}
        one:
          <<: *base
          y: 3
        many:
          w: 0
          <<: [*base, *more]
        quoted:
          "<<": not a merge
        """
      let value = try read(text, version).dictionaryValue!
      #expect(value["one"] == .dictionary(["x": .integer(1), "y": .integer(3)]))
      #expect(value["one"]?.dictionaryValue?.keys == ["x", "y"])
      // Earlier sources win over later ones; explicit keys over all.
      #expect(
        value["many"]
          == .dictionary(["w": .integer(0), "x": .integer(1), "y": .integer(2), "z": .integer(30)]))
      #expect(value["quoted"] == .dictionary(["<<": .string("not a merge")]))
      #expect(try read("k: <<\n", version) == .dictionary(["k": .string("<<")]))
      #expect(
        readError("a:\n  <<: 1\n", version)?.description
          == "2:7: a merge key (<<) takes a mapping or a sequence of mappings, not a integer")
      #expect(readError("a:\n  <<: [{}, 2]\n", version)?.message.contains("not a integer") == true)
      #expect(
        readError("a: {x: 1, <<: {x: 2}, x: 3}", version)?.description == "1:23: duplicate key \"x\"")
    }

    // MARK: Nulls

    @Test func nullsAreErrorsWithTheirPosition() {
      #expect(
        readError("a: 1\nb:\n")?.description == "2:3: null has no plist form (the value of 'b')")
      #expect(readError("a: ~")?.description == "1:4: null has no plist form (the value of 'a')")
      #expect(
        readError("- 1\n- null\n")?.description == "2:3: null has no plist form (a sequence item)")
      #expect(
        readError("a: !!null ''")?.description == "1:4: null has no plist form (the value of 'a')")
      #expect(
        readError("~")?.description == "1:1: null has no plist form (the whole document is null)")
      #expect(
        readError("a: 1\n? \n: x\n")?.description
          == "2:2: a null mapping key has no plist form: keys must be strings")
      #expect(readError("a: 1\nb:\n")?.hints == ["use --drop-nulls to leave nulls out"])
    }

    @Test func dropNullsDropsWithAWarningCarryingThePosition() throws {
      let warnings = Warnings()
      let value = try codec.decode(
        Data("a: 1\nb:\nc: [1, ~, 2]\nd: &n ~\ne: *n\n".utf8), options: ReadOptions(dropNulls: true),
        warnings: warnings)
      #expect(value == .dictionary(["a": .integer(1), "c": .array([.integer(1), .integer(2)])]))
      #expect(
        warnings.all.map(\.description) == [
          "2:1: dropped null (the value of 'b')", "3:8: dropped null (a sequence item)",
          "4:1: dropped null (the value of 'd')",
          "5:1: dropped null (the value of 'e')",
        ])
      // A dropped key still counts for duplicates.
      #expect(
        readError("a:\na: 1\n", options: ReadOptions(dropNulls: true))?.description
          == "2:1: duplicate key \"a\"")
    }

    // MARK: Errors

    static let errors: [(String, String)] = [
      ("a: 1\nb: 2\na: 3\n", "3:1: duplicate key \"a\""),
      ("a:\n  x: 1\n  x: 2\n", "3:3: duplicate key \"x\""),
      ("{a: 1, a: 1}", "1:8: duplicate key \"a\""),
      ("? [a, b]\n: x\n", "1:3: complex mapping key (a sequence): keys must be strings"),
      ("? {a: b}\n: x\n", "1:3: complex mapping key (a mapping): keys must be strings"),
      ("l: &l [1]\n*l : x\n", "2:1: complex mapping key (a array): keys must be strings"),
      ("1: x\n", "1:1: mapping key is integer, not a string: keys must be strings"),
      ("a: 1\ntrue: x\n", "2:1: mapping key is bool, not a string: keys must be strings"),
      ("a: 1\n---\nb: 2\n", "2:1: several documents where one is expected"),
      ("--- 1\n--- 2\n", "2:1: several documents where one is expected"),
      ("", "1:1: empty document: no value to read"),
      ("# only a comment\n", "2:1: empty document: no value to read"),
      ("a: 123456789012345678901234\n", "1:4: integer out of range: 123456789012345678901234"),
      ("a: -9223372036854775809\n", "1:4: integer out of range: -9223372036854775809"),
      ("a: 1e400\n", "1:4: real out of range: 1e400"),
      ("a: 2001-02-30\n", "1:4: invalid date: 2001-02-30"),
      ("a: b: c\n", "1:5: mapping values are not allowed in this context"),
      (
        "a:\n  - b\n c: d\n",
        "3:2: did not find expected key (while parsing a block mapping at line 1, column 1)"
      ),
      (
        "a: [1, 2\n",
        "2:1: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"
      ),
      (
        "a: \"open\n",
        "2:1: found unexpected end of stream (while scanning a quoted scalar at line 1, column 4)"
      ),
      (
        "a: b\n\tc: d\n",
        "2:1: tabs cannot indent YAML; use spaces"
      ),
      ("a: x\u{0}y\n", "1:5: control characters are not allowed (0x0)"),
    ]

    @Test("each error names its line and column", arguments: errors)
    func error(_ row: (String, String)) {
      #expect(readError(row.0)?.description == row.1)
    }

    @Test func nonStringKeysUnderYAML11() {
      #expect(
        readError("yes: 1\n", .v1_1)?.description
          == "1:1: mapping key is bool, not a string: keys must be strings")
    }

    @Test func invalidUTF8IsAPositionedError() {
      let bytes = Data("a: b\nc: d".utf8) + Data([0xFF, 0x41, 0x0A])
      #expect(throws: PrefsError.badInput("invalid leading UTF-8 octet (0xFF)", line: 2, column: 5)) {
        try codec.decode(bytes)
      }
      let truncated = Data("k: caf".utf8) + Data([0xC3])
      #expect(throws: PrefsError.self) { try codec.decode(truncated) }
    }

    // MARK: Limits

    @Test func billionLaughsFailsWithAClearMessage() {
      var text = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
      var previous = "a"
      for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
        text +=
          "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ")
          + "]\n"
        previous = name
      }
      let error = readError(text)
      #expect(
        error?.message == "aliases expand to more than 1000000 nodes; refusing (an alias bomb?)")
      #expect(error?.position == .lineColumn(line: 7, column: 8))
      var small = ReadOptions()
      small.maxAliasExpansion = 5
      #expect(
        readError("a: &a [1, 2]\nb: [*a, *a]\n", options: small)?.description.hasPrefix(
          "2:9: aliases expand") == true)
    }

    @Test func deepNestingFailsWithAClearMessage() {
      #expect(
        readError(String(repeating: "[", count: 100_000))?.description
          == "1:513: nesting deeper than 512 levels")
      #expect(
        readError(String(repeating: "{a: ", count: 100_000))?.description
          == "1:2049: nesting deeper than 512 levels")
      #expect(
        readError(String(repeating: "- ", count: 100_000) + "x")?.description
          == "1:1025: nesting deeper than 512 levels")
      var shallow = ReadOptions()
      shallow.maxDepth = 2
      #expect(
        readError("a:\n  b:\n    c: 1\n", options: shallow)?.description
          == "3:5: nesting deeper than 2 levels")
      #expect((try? codec.decode(Data("a:\n  b: 1\n".utf8), options: shallow)) != nil)
    }

    @Test func aliasesCountTheirLevelsAgainstTheDepthLimit() throws {
      var shallow = ReadOptions()
      shallow.maxDepth = 4
      func reads(_ text: String) -> Bool { (try? codec.decode(Data(text.utf8), options: shallow)) != nil }
      // a holds two levels; under the root and two lists it is five deep.
      #expect(
        readError("a: &a [[1]]\nb: [[*a]]\n", options: shallow)?.description
          == "2:6: nesting deeper than 4 levels (alias *a holds 2 levels)")
      #expect(reads("a: &a [[1]]\nb: [*a]\n"))
      // An empty collection is a level, as it is when written out.
      #expect(!reads("a: &a []\nb: [[[*a]]]\n"))
      #expect(reads("a: &a []\nb: [[*a]]\n"))
      // An alias's height is that of its whole node, aliases inside included.
      #expect(!reads("a: &a [1]\nb: &b [*a]\nc: [[*b]]\n"))
      #expect(reads("a: &a [1]\nb: &b [*a]\nc: [*b]\n"))
      // Merged keys join the mapping: `<<: *m` adds m's entries' levels, not m's own.
      #expect(reads("m: &m {x: [[1]]}\nn: {<<: *m}\n"))
      #expect(!reads("m: &m {x: [[[1]]]}\nn: {<<: *m}\n"))
      #expect(!reads("m: &m {x: [[1]]}\nn: &n {<<: *m}\no: [*n]\n"))
      // The issue's shape: 30 anchors, each wrapping the last alias in 500 lists.
      let text = (0..<30).map { k in
        "a\(k): &a\(k) " + String(repeating: "[", count: 500) + (k == 0 ? "1" : "*a\(k - 1)")
          + String(repeating: "]", count: 500)
      }.joined(separator: "\n")
      // (Not `readError`: printing a value read by mistake would overflow the stack.)
      let error = #expect(throws: PrefsError.self) { _ = try codec.decode(Data(text.utf8)) }
      #expect(error?.description == "2:509: nesting deeper than 512 levels (alias *a0 holds 500 levels)")
    }

    // MARK: Ambiguities

    @Test func ambiguitiesListsWhatTheVersionsReadDifferently() throws {
      let text =
        "a: yes\nb: \"yes\"\nc: 0755\nd: 1:20\ne: 12\nf: !!str off\ng: [on, 1e3]\nOFF: x\n---\nh: 0o7\n"
      let found = try YAMLCodec.ambiguities(in: Data(text.utf8))
      #expect(
        found.map(\.description) == [
          "1:4: 'yes' is bool true in YAML 1.1 but string in YAML 1.2",
          "3:4: '0755' is integer 493 in YAML 1.1 but integer 755 in YAML 1.2",
          "4:4: '1:20' is integer 80 in YAML 1.1 but string in YAML 1.2",
          "7:5: 'on' is bool true in YAML 1.1 but string in YAML 1.2",
          "7:9: '1e3' is string in YAML 1.1 but real 1000.0 in YAML 1.2",
          "8:1: 'OFF' is bool false in YAML 1.1 but string in YAML 1.2",
          "10:4: '0o7' is string in YAML 1.1 but integer 7 in YAML 1.2",
        ])
      #expect(found.first?.position == .lineColumn(line: 1, column: 4))
      #expect(throws: PrefsError.self) { try YAMLCodec.ambiguities(in: Data("a: [".utf8)) }
    }
  }

}

// MARK: - Other loaders

/// Runs Python snippets for cross-checks, and compares their typed output with values.
enum Python {
  /// `python3` from PATH, or nil with a visible note.
  static func find() -> String? { TestSupport.python()?.path }

  /// Whether python3 is there and can import `module`.
  static func has(_ module: String?) -> Bool {
    guard let python = TestSupport.executable(named: "python3") else { return false }
    guard let module else { return true }
    return (try? run(python.path, "import \(module)", input: Data())) != nil
  }

  /// Runs `script` with `input` on standard input and returns standard output.
  static func run(_ python: String, _ script: String, input: Data) throws -> String {
    let result = try TestSupport.run(URL(fileURLWithPath: python), ["-c", script], input: input)
    guard result.status == 0 else { throw PrefsError(.io, "python failed: \(result.stderr)") }
    return result.stdout
  }

  /// Defines `t(v)`: a loaded Python value as `[kind, payload]` JSON, keeping types
  /// (bool, int, float as repr, str, bytes as base64, datetimes in UTC).
  static let typed = """
    import sys, json, base64, datetime
    def t(v):
        if v is None: return ['null', None]
        if isinstance(v, bool): return ['bool', v]
        if isinstance(v, int): return ['int', str(v)]
        if isinstance(v, float): return ['float', repr(v)]
        if isinstance(v, str): return ['str', v]
        if isinstance(v, bytes): return ['bytes', base64.b64encode(v).decode()]
        if isinstance(v, datetime.datetime):
            if v.tzinfo is not None: v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
            return ['datetime', v.isoformat()]
        if isinstance(v, datetime.date): return ['datetime', v.isoformat() + 'T00:00:00']
        if isinstance(v, list): return ['list', [t(x) for x in v]]
        if isinstance(v, dict): return ['dict', [[k, t(x)] for k, x in v.items()]]
        return ['other', repr(v)]

    """

  /// Whether Python's typed output `[kind, payload]` is `value`, type for type
  /// (datetimes to the microsecond Python keeps).
  static func matches(_ value: PrefValue, _ typed: Any) -> Bool {
    guard let pair = typed as? [Any], pair.count == 2, let kind = pair[0] as? String else {
      return false
    }
    let payload = pair[1]
    switch value {
    case .string(let s): return kind == "str" && (payload as? String) == s
    case .integer(let n): return kind == "int" && (payload as? String) == String(n)
    case .unsignedInteger(let n): return kind == "int" && (payload as? String) == String(n)
    case .real(let r):
      guard kind == "float", let text = payload as? String, let x = Double(text) else {
        return false
      }
      return x.bitPattern == r.bitPattern || (x.isNaN && r.isNaN)
    case .bool(let b):
      return kind == "bool" && (payload as? NSNumber).map { $0.boolValue == b } == true
    case .date(let d):
      guard kind == "datetime", let text = payload as? String,
        let x = TextForms.parseDate(text + "Z")
      else { return false }
      return abs(x.timeIntervalSince(d)) < 1e-6
    case .data(let data):
      return kind == "bytes" && (payload as? String) == data.base64EncodedString()
    case .array(let items):
      guard kind == "list", let list = payload as? [Any], list.count == items.count else {
        return false
      }
      return zip(items, list).allSatisfy { matches($0, $1) }
    case .dictionary(let dict):
      guard kind == "dict", let pairs = payload as? [[Any]], pairs.count == dict.count else {
        return false
      }
      return pairs.allSatisfy { pair in
        guard let key = pair[0] as? String, let item = dict[key] else { return false }
        return matches(item, pair[1])
      }
    case .uid: return false
    }
  }
}

extension YAMLCodecTests {
  @Suite("YAML cross-check with PyYAML and ruamel.yaml")
  struct CrossCheck {
    /// Values whose written form is easy to get wrong.
    static let tricky: [PrefValue] = {
      var values: [PrefValue] = [
        "yes", "no", "on", "off", "y", "n", "Y", "N", "YES", "Off", "true", "False", "~", "null",
        "NULL", "", " ", "1e3",
        "1.0e3", "0755", "0o17", "0x1F", "0b101", "1_000", "09", "1:20", "1:20.5", "190:20:30",
        "2024-01-02",
        "2001-12-14 21:59:43.10 -5", "<<", "=", ".inf", "-.inf", ".nan", "-.5", ".5", "1.", "12",
        "-0", "1.0", "+1",
        " lead", "trail ", "- a", "-", "a: b", "a #b", "a#b", "#x", "&a", "*a", "!t", "|x", ">x",
        "'x", "\"x", "%x",
        "@x", "`x", "[x", "{x", "---", "...", "? x", ": x", "tab\there", "café", "\u{1F600} smile",
        "a\u{85}b",
        "a\u{2028}b", "\u{FEFF}bom", "bell\u{7}", "1.0.0", "http://x.org/?a=b#c",
        "a\nb", "a\nb\n", "a\nb\n\n", "\n", "\n\n", " lead\nx", "\nx", "  indented\n  code\n",
        "trail \nx", "a\r\nb",
        "a\n\tb", "x\n ", "#!/bin/sh\necho \"hi\" # comment\n",
      ].map { PrefValue.string($0) }
      values += [
        1.0, 0.1, 1e20, 1e-7, -0.0, 0.0, .infinity, -.infinity, .nan, 1.0 / 3, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude,
        1e16, 123_456_789.0, -2.5e-300,
      ].map { PrefValue.real($0) }
      values +=
        [Int64.min, -1, 0, 493, Int64.max].map { PrefValue.integer($0) } + [.unsignedInteger(.max)]
      values += [0, 0.5, 721_692_800.123456, -978_307_200, -63_113_904_000, 252_423_993_599].map {
        PrefValue.date(Date(timeIntervalSinceReferenceDate: $0))
      }
      values += [
        .data(Data()), .data(Data([0])), .data(Data((0..<200).map { UInt8($0 % 256) })), .bool(true),
        .bool(false),
      ]
      return values
    }()

    static var document: PrefValue {
      .dictionary(["everyKind": TestSupport.everyKind, "tricky": .array(tricky)])
    }

    /// Loads our YAML with `loader` (a Python expression over `text`) and checks each value.
    private func check(_ loader: String, imports: String) throws {
      let python = try #require(Python.find())
      let text = try codec.encode(Self.document)
      let script =
        Python.typed + imports
        + "\ntext = sys.stdin.buffer.read().decode('utf-8')\nprint(json.dumps(t(\(loader))))\n"
      let output = try Python.run(python, script, input: text)
      let typed = try JSONSerialization.jsonObject(with: Data(output.utf8))
      guard let top = typed as? [Any], let pairs = top[1] as? [[Any]] else {
        Issue.record("unexpected output \(output.prefix(200))")
        return
      }
      for pair in pairs {
        let key = pair[0] as! String
        let expected = Self.document.dictionaryValue![key]!
        if case .array(let items) = expected, let list = (pair[1] as? [Any])?[1] as? [Any] {
          for (item, loaded) in zip(items, list) {
            #expect(Python.matches(item, loaded), "\(item) loaded as \(loaded)")
          }
          #expect(items.count == list.count)
        } else if case .dictionary(let dict) = expected,
          let entries = (pair[1] as? [Any])?[1] as? [[Any]]
        {
          for entry in entries {
            let name = entry[0] as! String
            #expect(
              Python.matches(dict[name]!, entry[1]), "\(name): \(dict[name]!) loaded as \(entry[1])")
          }
          #expect(entries.count == dict.count)
        } else {
          Issue.record("\(key) loaded as \(pair[1])")
        }
      }
    }

    @Test("PyYAML's safe_load (YAML 1.1) reads what we write, type for type", .needsPython("yaml"))
    func pyYAML() throws {
      try check("yaml.safe_load(text)", imports: "import yaml")
    }

    @Test("ruamel.yaml's safe loader (YAML 1.2) reads what we write, type for type", .needsPython("ruamel.yaml"))
    func ruamel() throws {
      try check("YAML(typ='safe').load(text)", imports: "from ruamel.yaml import YAML")
    }
  }
}

// MARK: - JSON values for corpus comparisons

/// A small JSON reader for the suite's `in.json` files, which may hold several values
/// (one per YAML document). Numbers keep their text; bools stay bools.
indirect enum JSONValue {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// Every value in `data`, in order.
  static func stream(_ data: Data) throws -> [JSONValue] {
    var reader = Reader(bytes: Array(data))
    var values: [JSONValue] = []
    reader.skipSpace()
    while reader.i < reader.bytes.count {
      values.append(try reader.value())
      reader.skipSpace()
    }
    return values
  }

  var containsNull: Bool {
    switch self {
    case .null: true
    case .array(let items): items.contains { $0.containsNull }
    case .object(let pairs): pairs.contains { $0.1.containsNull }
    default: false
    }
  }

  /// This value with nulls left out of arrays and objects (as `--drop-nulls` reads).
  var droppingNulls: JSONValue {
    switch self {
    case .array(let items): .array(items.filter { !$0.isNull }.map(\.droppingNulls))
    case .object(let pairs): .object(pairs.filter { !$0.1.isNull }.map { ($0.0, $0.1.droppingNulls) })
    default: self
    }
  }

  var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// Whether `value` is this JSON value: numbers compared as values; a date or data
  /// matches the string it was written as in JSON (which has neither).
  func matches(_ value: PrefValue) -> Bool {
    switch (self, value) {
    case (.string(let s), .string(let t)): return s == t
    case (.string(let s), .date(let d)): return TextForms.parseDate(s.replacingOccurrences(of: " ", with: "T")) == d
    case (.string(let s), .data(let d)): return Data(base64Encoded: s.filter { !$0.isWhitespace }) == d
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let text), .integer(let n)): return Int64(text) == n || Double(text) == Double(n)
    case (.number(let text), .unsignedInteger(let n)): return UInt64(text) == n
    case (.number(let text), .real(let r)): return Double(text) == r
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.matches($1) }
    case (.object(let pairs), .dictionary(let dict)):
      return pairs.count == dict.count && pairs.allSatisfy { pair in dict[pair.0].map { pair.1.matches($0) } ?? false }
    default: return false
    }
  }

  struct Reader {
    let bytes: [UInt8]
    var i = 0

    mutating func skipSpace() {
      while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
    }

    mutating func value() throws -> JSONValue {
      skipSpace()
      guard i < bytes.count else { throw PrefsError(.badInput, "JSON ends early") }
      switch bytes[i] {
      case UInt8(ascii: "{"):
        i += 1
        var pairs: [(String, JSONValue)] = []
        skipSpace()
        if bytes[i] == UInt8(ascii: "}") {
          i += 1
          return .object(pairs)
        }
        while true {
          skipSpace()
          guard case .string(let key) = try value() else { throw PrefsError(.badInput, "JSON key") }
          skipSpace()
          i += 1  // :
          pairs.append((key, try value()))
          skipSpace()
          let c = bytes[i]
          i += 1
          if c == UInt8(ascii: "}") { return .object(pairs) }
        }
      case UInt8(ascii: "["):
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if bytes[i] == UInt8(ascii: "]") {
          i += 1
          return .array(items)
        }
        while true {
          items.append(try value())
          skipSpace()
          let c = bytes[i]
          i += 1
          if c == UInt8(ascii: "]") { return .array(items) }
        }
      case UInt8(ascii: "\""):
        return .string(try string())
      case UInt8(ascii: "t"):
        i += 4
        return .bool(true)
      case UInt8(ascii: "f"):
        i += 5
        return .bool(false)
      case UInt8(ascii: "n"):
        i += 4
        return .null
      default:
        let start = i
        while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
        return .number(String(decoding: bytes[start..<i], as: UTF8.self))
      }
    }

    mutating func string() throws -> String {
      i += 1
      var scalars = String.UnicodeScalarView()
      var raw: [UInt8] = []
      func flush() {
        scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
        raw.removeAll()
      }
      while bytes[i] != UInt8(ascii: "\"") {
        if bytes[i] == UInt8(ascii: "\\") {
          flush()
          let e = bytes[i + 1]
          i += 2
          switch e {
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "b"): scalars.append("\u{8}")
          case UInt8(ascii: "f"): scalars.append("\u{C}")
          case UInt8(ascii: "u"):
            var code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)!
            i += 4
            if code >= 0xD800, code < 0xDC00, bytes[i] == UInt8(ascii: "\\") {
              let low = UInt32(String(decoding: bytes[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16)!
              i += 6
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
          default: scalars.append(Unicode.Scalar(e))
          }
        } else {
          raw.append(bytes[i])
          i += 1
        }
      }
      flush()
      i += 1
      return String(scalars)
    }
  }
}

// MARK: - yaml-test-suite

extension YAMLCodecTests {
  @Suite("yaml-test-suite")
  struct TestSuite {
    /// Valid tests that libyaml 0.2.5 refuses or reads wrongly, with the cause. The
    /// reader can only be as right as the events libyaml gives it.
    static let libyamlGetsWrong: [String: String] = [
      "2LFX": "refuses a reserved directive (%FOO): 'found unknown directive name'",
      "6LVF": "refuses a reserved directive (%FOO): 'found unknown directive name'",
      "BEC7": "refuses %YAML 1.3: 'found incompatible YAML document'",
      "4MUZ-00": "':' on the line after a flow mapping key starts an empty key (reads a null)",
      "4MUZ-01": "':' on the line after a flow mapping key starts an empty key (reads a null)",
      "4MUZ-02": "':' on the line after a flow mapping key starts an empty key (reads a null)",
      "5MUD": "':' on the line after a flow mapping key starts an empty key (reads a null)",
      "K3WX": "':' on the line after a flow mapping key and a comment starts an empty key (reads a null)",
      "VJP3-01": "':' on its own line in a flow mapping starts an empty key (reads a null)",
      "9SA2": "a multi-line double-quoted flow mapping key is read as a key with a null value",
      "NJ66": "a multi-line plain flow mapping key is read as a key with a null value",
      "UT92": "a multi-line plain flow mapping key is read as a key with a null value",
      "5T43": "refuses a flow value adjacent to a JSON-like key (\"key\"::value)",
      "58MP": "refuses a plain scalar starting with ':' in a flow mapping ({x: :x})",
      "DBG4": "refuses plain scalars starting with ':' in flow collections (spec 7.10)",
      "HM87-00": "refuses a flow plain scalar starting with ':' ([:x])",
      "HM87-01": "reads [?x] as an explicit key with a null value",
      "652Z": "reads '?foo' in a flow mapping as an explicit key 'foo' instead of the key '?foo'",
      "6BCT": "refuses a tab as separation space after '-' (spec 6.3)",
      "A2M4": "refuses a tab as separation space after '?' / '-' (spec 6.2)",
      "DK95-00": "refuses a tab before a value on an otherwise indented line",
      "DK95-03": "refuses a tab before a key on the first line",
      "DK95-04": "refuses a line holding only a tab inside a block mapping",
      "Y79Y-010": "refuses a tab after '-' in a block sequence",
      "6CA3": "refuses a tab-indented top-level flow sequence",
      "Q5MG": "refuses a tab before a top-level flow mapping",
      "96NN-00": "refuses a tab in the content of a block scalar's first line",
      "96NN-01": "refuses a tab in the content of a block scalar's first line",
      "R4YG": "refuses a tab in the content of a block scalar (spec 8.2)",
      "Y79Y-001": "refuses a tab in the content of a block scalar",
      "8XYN": "refuses an anchor name holding non-alphanumeric characters (&😁)",
      "W5VH": "refuses an anchor name holding ':' (&:@*!$\"<foo>:)",
      "Y2GN": "ends an anchor name at ':' (&an:chor), reading the rest as the value",
      "2SXE": "ends an anchor name at ':' (&a:), reading a different mapping",
      "DK3J": "refuses a zero-indented folded block scalar after '--- >' ('did not find expected <document start>')",
      "FP8R": "refuses a zero-indented folded block scalar after '--- >' ('did not find expected <document start>')",
      "M7A3": "refuses a bare document after '...' (spec 9.3)",
      "W4TN": "refuses a zero-indented literal block scalar line starting with '%' (spec 9.5)",
      "7Z25": "refuses a bare document after '...'",
      "QT73": "refuses a stream of only '...' and a comment ('did not find expected node content')",
      "HWV9": "refuses a stream of only '...' ('did not find expected node content')",
      // Empty keys would be refused anyway (a null key has no plist form), but libyaml refuses them first.
      "2JQS": "refuses empty implicit keys in a block mapping (': a')",
      "NHX8": "refuses an empty implicit key (':' alone)",
      "SM9W-01": "refuses an empty implicit key (a stream of just ':')",
      "UKK6-00": "refuses an empty implicit key in a sequence entry ('- :')",
      "S3PD": "refuses an empty implicit key (spec 8.18)",
      "6M2F": "refuses an empty implicit key after an explicit entry",
      "NKF9": "refuses empty implicit keys in block and flow mappings",
      "CFD4": "refuses an empty implicit key in a single-pair flow sequence",
      "FRK4": "refuses completely empty flow nodes (spec 7.3)",
      "JEF9-02": "drops a trailing line of spaces from a keep-chomped literal at the end of the stream",
      "L24T-01": "drops a trailing line of spaces from a literal at the end of the stream",
    ]

    /// Error tests that libyaml 0.2.5 (and so this reader) accepts, with the cause.
    static let libyamlAcceptsInvalid: [String: String] = [
      "9C9N": "accepts a flow sequence whose continuation lines are less indented than its key",
      "QB6E": "accepts a multi-line quoted scalar whose continuation lines are not indented",
      "9JBA": "accepts a comment with no space before '#' after a flow sequence",
      "CVW2": "accepts a comment with no space before '#' after a comma in a flow sequence",
      "SU5Z": "accepts a comment with no space before '#' after a double-quoted scalar",
      "X4QW": "accepts a comment with no space before '#' after a block scalar indicator",
      "DK95-01": "accepts a tab as the indentation of a double-quoted continuation line",
      "Y79Y-003": "accepts a tab as the indentation of a flow sequence entry",
      "G5U8": "accepts '-' alone as a plain scalar in a flow sequence ([-, -])",
      "YJV2": "accepts '-' alone as a plain scalar in a flow sequence ([-])",
      "S98Z": "accepts a block scalar whose leading empty lines are more indented than its first content line",
    ]

    /// How many tests fall in each category; pinned so that a change in behaviour shows.
    static let expectedCounts: [String: Int] = [
      "read as in.json": 190,
      "error test refused": 83,
      "error test accepted by libyaml (pinned)": 11,
      "valid test libyaml 0.2.5 refuses or misreads (pinned)": 52,
      // Skipped for a reason, each still checked to fail in the expected way:
      "nulls": 18,  // refused by default; with --drop-nulls compared to in.json without nulls
      "multi-document or empty stream": 17,  // refused: one document is expected
      "tags outside the contract": 11,  // refused: unknown tag (!foo, !!set, local tags)
      // Nothing to compare with (no in.json); sorted by what the reader says:
      "no in.json, complex keys refused": 15,
      "no in.json, non-string keys refused": 2,
      "no in.json, nulls refused": 2,
      "no in.json, read": 1,
    ]

    @Test(
      "every test reads as in.json, is refused with a position, or is pinned with its cause",
      .needsCorpus("yaml-test-suite"))
    func suite() throws {
      let root = try #require(TestSupport.corpus("yaml-test-suite"))
      var counts: [String: Int] = [:]
      var report: [String: [String]] = [:]
      func count(_ category: String, _ id: String) {
        counts[category, default: 0] += 1
        report[category, default: []].append(id)
      }
      for folder in TestSupport.files(in: root) where folder.hasDirectoryPath || !folder.lastPathComponent.contains(".")
      {
        let id = folder.lastPathComponent
        guard let yaml = FileManager.default.contents(atPath: folder.appendingPathComponent("in.yaml").path) else {
          continue
        }
        let isError = FileManager.default.fileExists(atPath: folder.appendingPathComponent("error").path)
        let outcome = Result { try codec.decode(yaml) }
        let message: String? = {
          if case .failure(let error) = outcome { return String(describing: error) }
          return nil
        }()
        if let error = outcome.failureValue {
          // Every refusal is one positioned line.
          let positioned = (error as? PrefsError)?.position != nil
          #expect(positioned, "\(id): \(error)")
          #expect(!String(describing: error).contains("\n"), "\(id): \(error)")
        }
        if isError {
          if outcome.failureValue == nil {
            if Self.libyamlAcceptsInvalid[id] != nil {
              count("error test accepted by libyaml (pinned)", id)
            } else {
              Issue.record("\(id): an error test was accepted")
              count("UNEXPECTED accepted error test", id)
            }
          } else {
            if Self.libyamlAcceptsInvalid[id] != nil { Issue.record("\(id) is now refused; unpin it") }
            count("error test refused", id)
          }
          continue
        }
        let jsonData = FileManager.default.contents(atPath: folder.appendingPathComponent("in.json").path)
        if Self.libyamlGetsWrong[id] != nil {
          // Refused, or read to something else than in.json.
          if case .success(let value) = outcome, let jsonData, let json = try JSONValue.stream(jsonData).first {
            #expect(!json.matches(value), "\(id) now reads right; unpin it")
          }
          count("valid test libyaml 0.2.5 refuses or misreads (pinned)", id)
          continue
        }
        guard let jsonData else {
          // Nothing to compare with; sort by what the reader said.
          let text = message ?? ""
          let reason =
            text.isEmpty
            ? "read"
            : text.contains("complex mapping key")
              ? "complex keys refused"
              : text.contains("keys must be strings")
                ? "non-string keys refused"
                : text.contains("null")
                  ? "nulls refused"
                  : text.contains("several documents")
                    ? "several documents refused"
                    : "refused: " + text
          count("no in.json, " + reason, id)
          continue
        }
        let values = try JSONValue.stream(jsonData)
        if values.count != 1 {
          #expect(
            ["several documents", "empty document", "null has no plist form", "unknown tag"].contains {
              message?.contains($0) == true
            },
            "\(id): \(message ?? "read")")
          count("multi-document or empty stream", id)
          continue
        }
        let json = values[0]
        if json.containsNull {
          #expect(message != nil, "\(id): a null was read")
          if case .null = json {
            count("nulls", id)
            continue
          }
          do {
            let dropped = try codec.decode(yaml, options: ReadOptions(dropNulls: true))
            #expect(json.droppingNulls.matches(dropped), "\(id): with --drop-nulls read \(dropped)")
          } catch {
            // Nulls plus another reason (a non-string key, an unknown tag).
            #expect(!String(describing: error).contains("null has no plist form"), "\(id): \(error)")
          }
          count("nulls", id)
          continue
        }
        switch outcome {
        case .failure:
          let text = message ?? ""
          if text.contains("unknown tag") || text.contains(" tag on a") {
            count("tags outside the contract", id)
          } else if text.contains("complex mapping key") {
            count("complex (non-scalar) keys", id)
          } else if text.contains("keys must be strings") {
            count("non-string keys", id)
          } else {
            Issue.record("\(id): \(text)")
            count("UNEXPECTED failure", id)
          }
        case .success(let value):
          if json.matches(value) {
            count("read as in.json", id)
          } else {
            Issue.record("\(id): read \(value), in.json says \(json)")
            count("UNEXPECTED value", id)
          }
        }
      }
      for (category, ids) in report.sorted(by: { $0.key < $1.key }) {
        print(
          "yaml-test-suite: \(category): \(ids.count)" + (ids.count <= 40 ? " [\(ids.joined(separator: " "))]" : ""))
      }
      #expect(counts == Self.expectedCounts)
    }
  }
}

extension Result {
  fileprivate var failureValue: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

// MARK: - autopkg recipes

extension YAMLCodecTests {
  @Suite("autopkg recipes")
  struct AutoPkg {
    /// A plist read with Foundation (the plist codec is not ours to use here), with
    /// bools told from numbers by objCType: on Linux `is Bool` holds for NSNumber 0 and 1.
    static func plistValue(_ data: Data) throws -> PrefValue {
      func convert(_ any: Any) -> PrefValue {
        switch any {
        case let s as String: return .string(s)
        case let n as NSNumber:
          switch String(cString: n.objCType) {
          case "c", "B": return .bool(n.boolValue)
          case "d", "f": return .real(n.doubleValue)
          case "Q", "L", "I":
            return .integer(exactly: n.uint64Value)
          default: return .integer(n.int64Value)
          }
        case let d as Date: return .date(d)
        case let d as Data: return .data(d)
        case let a as [Any]: return .array(a.map(convert))
        case let d as [String: Any]:
          return .dictionary(PrefDictionary(d.map { (key: $0.key, value: convert($0.value)) }))
        default: return .string("<\(type(of: any))>")
        }
      }
      return convert(try PropertyListSerialization.propertyList(from: data, format: nil))
    }

    /// Key paths where two values differ (missing keys, other kinds, other values).
    static func differences(_ a: PrefValue, _ b: PrefValue, at path: String = "") -> [String] {
      switch (a, b) {
      case (.dictionary(let x), .dictionary(let y)):
        var found: [String] = []
        for key in Set(x.keys).union(y.keys).sorted() {
          let sub = path.isEmpty ? key : path + "." + key
          if let u = x[key], let v = y[key] { found += differences(u, v, at: sub) } else { found.append(sub) }
        }
        return found
      case (.array(let x), .array(let y)) where x.count == y.count:
        return zip(x, y).enumerated().flatMap { differences($0.element.0, $0.element.1, at: path + ".\($0.offset)") }
      default:
        return a == b ? [] : [path.isEmpty ? "(top)" : path]
      }
    }

    enum Outcome: Equatable, CustomStringConvertible {
      case equal
      /// Differs at these key paths.
      case differs([String])
      case yamlError(String)
      case plistError

      var description: String {
        switch self {
        case .equal: "equal"
        case .differs(let paths): "differs at \(paths)"
        case .yamlError(let m): "YAML error \(m)"
        case .plistError: "plist error"
        }
      }
    }

    /// Per pair: the outcome reading the YAML as YAML 1.2 and as YAML 1.1, and why
    /// (matching corpus/autopkg/SOURCES.md).
    static let pairs: [String: (v12: Outcome, v11: Outcome, why: String)] = [
      "MLBZ521__Matlab.pkg": (
        .differs(["Description", "Input.INSTALLER_INPUT", "Process.4.Arguments.file_content"]),
        .differs(["Description", "Input.INSTALLER_INPUT", "Process.4.Arguments.file_content"]),
        "block scalars gained a trailing newline, tabs became spaces, Description typos fixed (author edits)"
      ),
      "ahousseini__Clin_doeil.download": (
        .differs(["Process"]), .differs(["Process"]),
        "the plist gained a PlistReader processor (content edit)"
      ),
      "ahousseini__Clin_doeil.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "apizz__Chrysalis.download": (
        .differs(["MinimumVersion", "Process.0.Arguments.asset_regex"]),
        .differs(["MinimumVersion", "Process.0.Arguments.asset_regex"]),
        "the YAML adds MinimumVersion and edits asset_regex (content edits)"
      ),
      "davidbpirie__AzulZuluOpenJDK17LTS.pkg": (
        .differs(["Description", "MinimumVersion"]), .differs(["Description", "MinimumVersion"]),
        "Description whitespace (indent, trailing newline) and the MinimumVersion edit"
      ),
      "davidbpirie__AzureDataStudio.munki": (
        .yamlError("31:24: null has no plist form (the value of 'additional_pkginfo')"),
        .yamlError("31:24: null has no plist form (the value of 'additional_pkginfo')"),
        "'additional_pkginfo:' is left empty: a null (and the recipe was restructured)"
      ),
      "davidbpirie__ComicLife3.download": (
        .differs(["MinimumVersion"]), .differs(["MinimumVersion", "Process.2.Arguments.purge_destination"]),
        "MinimumVersion edit; YAML 1.1 also reads unquoted YES as true where the plist has the string YES"
      ),
      "davidbpirie__GenericDockItem.munki": (
        .differs(["Description", "MinimumVersion", "Process.1.Arguments.file_content"]),
        .differs(["Description", "MinimumVersion", "Process.1.Arguments.file_content"]),
        "tabs became spaces in a block scalar, Description re-wrapped, MinimumVersion edit"
      ),
      "davidbpirie__Unity3DComponent.munki": (
        .differs([
          "Description", "MinimumVersion", "Process.0.Arguments.additional_pkginfo.installcheck_script",
          "Process.0.Arguments.additional_pkginfo.postinstall_script",
          "Process.0.Arguments.additional_pkginfo.postuninstall_script",
        ]),
        .differs([
          "Description", "MinimumVersion", "Process.0.Arguments.additional_pkginfo.installcheck_script",
          "Process.0.Arguments.additional_pkginfo.postinstall_script",
          "Process.0.Arguments.additional_pkginfo.postuninstall_script",
        ]),
        "scripts: tabs became spaces, trailing newline, stray '\"'; Description re-wrapped; MinimumVersion edit"
      ),
      "fleet__FleetGitOpsUploader": (
        .plistError, .plistError,
        "the plist has two XML declarations and does not parse"
      ),
      "grahampugh__AppleHPPrinterDrivers.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__CarbonCopyCloner.jamf": (
        .differs(["Process.4.Arguments.replace_group", "Process.5.Arguments.replace_policy"]),
        .differs(["Process.4.Arguments.replace_group", "Process.5.Arguments.replace_policy"]),
        "unquoted True is a bool where the plist has the string True"
      ),
      "grahampugh__Carbon_Copy_Cloner.jss-uninstall": (
        .differs(["MinimumVersion", "Process"]), .differs(["MinimumVersion", "Process"]),
        "Process: [] where the plist has an empty dict; MinimumVersion edit"
      ),
      "grahampugh__DataWarrior.download": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__EclipseTemurin8.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__EndNoteUpdates.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__MAU-profile.jamf": (
        .differs(["Input.REPLACE_PROFILE", "Process.0.Arguments.replace_category", "Process.1.Arguments.replace_group"]
        ),
        .differs(["Input.REPLACE_PROFILE", "Process.0.Arguments.replace_category", "Process.1.Arguments.replace_group"]
        ),
        "unquoted False is a bool where the plist has the string False"
      ),
      "grahampugh__Miro.jamf": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__ParallelsDesktop.pkg": (
        .differs(["Input.SOFTWARE_UPDATES_AUTO_DOWNLOAD", "MinimumVersion"]), .differs(["MinimumVersion"]),
        "MinimumVersion edit; YAML 1.2 also reads 'off' as a string where the plist has <false/>"
      ),
      "grahampugh__PreProcessors": (
        .equal, .equal,
        "equal"
      ),
      "homebysix__Quicksilver.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "kevinmcox__Frame.download": (
        .differs(["Process.0.Arguments.re_pattern", "Process.0.Arguments.url", "Process.4.Arguments.requirement"]),
        .differs(["Process.0.Arguments.re_pattern", "Process.0.Arguments.url", "Process.4.Arguments.requirement"]),
        "url and re_pattern edited; the folded requirement gained a trailing newline"
      ),
      "smithjw__DisplayLink_Manager.download": (
        .yamlError("74:43: mapping values are not allowed in this context"),
        .yamlError("74:43: mapping values are not allowed in this context"),
        "the .yaml file is an XML plist, which is not valid YAML"
      ),
      "smithjw__DisplayLink_Manager.pkg": (
        .differs(["(top)"]), .differs(["(top)"]),
        "the .yaml file is an XML plist, which YAML reads as one plain string"
      ),
    ]

    static func outcome(yaml: Data, plist: Data, version: YAMLVersion) -> Outcome {
      let mine: PrefValue
      do {
        mine = try codec.decode(yaml, options: ReadOptions(yamlVersion: version))
      } catch {
        return .yamlError(String(describing: error))
      }
      guard let theirs = try? plistValue(plist) else { return .plistError }
      let paths = differences(mine, theirs)
      return paths.isEmpty ? .equal : .differs(paths)
    }

    @Test("each pair reads as pinned, in YAML 1.2 and 1.1", .needsCorpus("autopkg"))
    func pairsCompare() throws {
      let root = try #require(TestSupport.corpus("autopkg"))
      let folder = root.appendingPathComponent("pairs")
      let stems = TestSupport.files(in: folder).map(\.lastPathComponent).filter { $0.hasSuffix(".recipe.yaml") }
        .map { String($0.dropLast(".recipe.yaml".count)) }
      #expect(stems.count == 24)
      for stem in stems {
        let yaml = try Data(contentsOf: folder.appendingPathComponent(stem + ".recipe.yaml"))
        let plist = try Data(contentsOf: folder.appendingPathComponent(stem + ".recipe.plist"))
        let v12 = Self.outcome(yaml: yaml, plist: plist, version: .v1_2)
        let v11 = Self.outcome(yaml: yaml, plist: plist, version: .v1_1)
        print("autopkg: \(stem): 1.2 \(v12); 1.1 \(v11)")
        guard let pinned = Self.pairs[stem] else {
          Issue.record("\(stem) is not pinned")
          continue
        }
        #expect(v12 == pinned.v12, "\(stem) (1.2): \(pinned.why)")
        #expect(v11 == pinned.v11, "\(stem) (1.1): \(pinned.why)")
      }
      // With --drop-nulls the null goes, and what is left shows the restructuring.
      let stem = "davidbpirie__AzureDataStudio.munki"
      let yaml = try Data(contentsOf: folder.appendingPathComponent(stem + ".recipe.yaml"))
      let plist = try Data(contentsOf: folder.appendingPathComponent(stem + ".recipe.plist"))
      let warnings = Warnings()
      let dropped = try codec.decode(yaml, options: ReadOptions(dropNulls: true), warnings: warnings)
      #expect(warnings.all.map(\.description) == ["31:5: dropped null (the value of 'additional_pkginfo')"])
      #expect(!Self.differences(dropped, try Self.plistValue(plist)).isEmpty)
    }

    @Test(
      "every YAML recipe reads, except the XML file and the two with a null (which read with --drop-nulls)",
      .needsCorpus("autopkg"))
    func everyRecipeReads() throws {
      let root = try #require(TestSupport.corpus("autopkg"))
      var files = TestSupport.files(in: root.appendingPathComponent("pairs"))
      files += TestSupport.files(in: root.appendingPathComponent("unpaired"))
      let yamlFiles = files.filter { $0.pathExtension == "yaml" }
      #expect(yamlFiles.count == 29)
      let refused: [String: String] = [
        "smithjw__DisplayLink_Manager.download.recipe.yaml": "74:43: mapping values are not allowed in this context",
        "davidbpirie__AzureDataStudio.munki.recipe.yaml":
          "31:24: null has no plist form (the value of 'additional_pkginfo')",
        "smithjw__Brave_Browser.download.recipe.yaml":
          "22:26: null has no plist form (the value of 'DOWNLOAD_MISSING_FILE')",
      ]
      var ambiguous: [String: [String]] = [:]
      for file in yamlFiles {
        let data = try Data(contentsOf: file)
        let name = file.lastPathComponent
        for version in YAMLVersion.allCases {
          do {
            _ = try codec.decode(data, options: ReadOptions(yamlVersion: version))
            #expect(refused[name] == nil, "\(name) read")
          } catch {
            #expect(refused[name] == String(describing: error), "\(name) (\(version.rawValue)): \(error)")
            if String(describing: error).contains("null") {
              #expect(throws: Never.self) {
                try codec.decode(data, options: ReadOptions(dropNulls: true, yamlVersion: version))
              }
            }
          }
        }
        if let found = try? YAMLCodec.ambiguities(in: data), !found.isEmpty {
          ambiguous[name] = found.map(\.description)
        }
      }
      // The files where PyYAML and ruamel.yaml disagree (SOURCES.md), and no others.
      #expect(
        ambiguous == [
          "grahampugh__ParallelsDesktop.pkg.recipe.yaml": [
            "14:35: 'off' is bool false in YAML 1.1 but string in YAML 1.2"
          ],
          "davidbpirie__ComicLife3.download.recipe.yaml": [
            "21:24: 'YES' is bool true in YAML 1.1 but string in YAML 1.2"
          ],
          "MLBZ521__BeyondTrustRemoteSupportJumpClient.pkg.recipe.yaml": [
            "53:14: '0755' is integer 493 in YAML 1.1 but integer 755 in YAML 1.2"
          ],
        ])
    }

    @Test(.needsCorpus("autopkg")) func unpairedRecipesKeepTheirTypes() throws {
      let root = try #require(TestSupport.corpus("autopkg"))
      let folder = root.appendingPathComponent("unpaired")
      func load(_ name: String, _ version: YAMLVersion = .v1_2) throws -> PrefValue {
        try codec.decode(
          Data(contentsOf: folder.appendingPathComponent(name)), options: ReadOptions(yamlVersion: version))
      }
      /// Every value stored under `key`, at any depth.
      func values(of key: String, in value: PrefValue) -> [PrefValue] {
        switch value {
        case .dictionary(let dict): dict.flatMap { ($0.key == key ? [$0.value] : []) + values(of: key, in: $0.value) }
        case .array(let items): items.flatMap { values(of: key, in: $0) }
        default: []
        }
      }
      let test = try load("jgstew__VariableToString.test.recipe.yaml")
      #expect(values(of: "float", in: test) == [.real(1.2)])
      #expect(values(of: "int", in: test) == [.integer(1)])
      let beyond = "MLBZ521__BeyondTrustRemoteSupportJumpClient.pkg.recipe.yaml"
      #expect(values(of: "tmp", in: try load(beyond)).contains(.integer(755)))
      #expect(values(of: "tmp", in: try load(beyond, .v1_1)).contains(.integer(493)))
      let garage = String(describing: try load("kevinmcox__GarageBand.munki.recipe.yaml"))
      #expect(garage.contains("\u{2014}") || garage.contains("—"))
      // Each recipe survives our own round trip.
      for file in TestSupport.files(in: folder) where file.pathExtension == "yaml" {
        let value = try codec.decode(Data(contentsOf: file), options: ReadOptions(dropNulls: true))
        #expect(try codec.decode(codec.encode(value)) == value, "\(file.lastPathComponent)")
      }
    }
  }
}
