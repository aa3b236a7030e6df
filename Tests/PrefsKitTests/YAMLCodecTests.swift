import Foundation
import Testing

@testable import PrefsKit

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

@Suite("YAML resolver")
struct YAMLResolverTests {
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

  @Test("the YAML 1.1 rows agree with PyYAML's safe_load")
  func agreesWithPyYAML() throws {
    guard let python = Python.find() else { return }
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

@Suite("YAML writer")
struct YAMLWriterTests {
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
      .date(.distantPast),
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
      sorted.dictionaryValue?.keys == TestSupport.everyKind.sortingKeys().dictionaryValue?.keys)
  }

  @Test func trickyValuesRoundTripInBothVersions() throws {
    let value = PrefValue.array(YAMLCrossCheck.tricky)
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

// MARK: - Reader

@Suite("YAML reader")
struct YAMLReaderTests {
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
    ("!!timestamp \"2001-12-14T21:59Z\"", date("2001-12-14T21:59:00Z")),
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
    ("k: !!binary '@@'", "1:4: !!binary value '@@' is not base64"),
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
      readError("a: {x: 1, <<: {x: 2}, x: 3}", version)?.description == "1:23: duplicate key 'x'")
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
        == "2:1: duplicate key 'a'")
  }

  // MARK: Errors

  static let errors: [(String, String)] = [
    ("a: 1\nb: 2\na: 3\n", "3:1: duplicate key 'a'"),
    ("a:\n  x: 1\n  x: 2\n", "3:3: duplicate key 'x'"),
    ("{a: 1, a: 1}", "1:8: duplicate key 'a'"),
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
      "2:1: found a tab character that violates indentation (while scanning a plain scalar at line 1, column 4)"
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

// MARK: - Other loaders

/// Runs Python snippets for cross-checks, and compares their typed output with values.
enum Python {
  /// `python3` from PATH, or nil with a visible note.
  static func find() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/python3"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    print("note: python3 is not on PATH; skipping the PyYAML/ruamel cross-checks")
    return nil
  }

  /// Runs `script` with `input` on standard input and returns standard output.
  static func run(_ python: String, _ script: String, input: Data) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", script]
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw PrefsError(.io, "python failed: \(String(decoding: err, as: UTF8.self))")
    }
    return String(decoding: out, as: UTF8.self)
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

@Suite("YAML cross-check with PyYAML and ruamel.yaml")
struct YAMLCrossCheck {
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
    guard let python = Python.find() else { return }
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

  @Test("PyYAML's safe_load (YAML 1.1) reads what we write, type for type")
  func pyYAML() throws {
    try check("yaml.safe_load(text)", imports: "import yaml")
  }

  @Test("ruamel.yaml's safe loader (YAML 1.2) reads what we write, type for type")
  func ruamel() throws {
    guard let python = Python.find() else { return }
    if (try? Python.run(python, "import ruamel.yaml", input: Data())) == nil {
      print(
        "note: ruamel.yaml is not installed (pip install ruamel.yaml); skipping the YAML 1.2 cross-check"
      )
      return
    }
    try check("YAML(typ='safe').load(text)", imports: "from ruamel.yaml import YAML")
  }
}
