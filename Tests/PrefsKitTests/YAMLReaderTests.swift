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

    static let badTags: [(String, String, Int, Int)] = [
      ("k: !!int abc", "!!int value 'abc' is not an integer", 1, 4),
      ("k: !!int 1.5", "!!int value '1.5' is not an integer", 1, 4),
      ("k: !!float abc", "!!float value 'abc' is not a real", 1, 4),
      ("k: !!bool yes", "!!bool value 'yes' is not a bool", 1, 4),
      ("k: !!null x", "!!null value 'x' is not null", 1, 4),
      ("k: !!timestamp soon", "!!timestamp value 'soon' is not a timestamp", 1, 4),
      ("k: !!binary '@@'", "!!binary value '@@' is not base64 (byte 0x40 is not base64)", 1, 4),
      ("k: !uid -1", "!uid value '-1' is not a non-negative integer", 1, 4),
      ("k: !foo x", "unknown tag !foo", 1, 4), ("k: !!set {a: 1}", "unknown tag !!set", 1, 4),
      ("k: !!omap []", "unknown tag !!omap", 1, 4),
      ("k: !<tag:example.com,2000:x> 1", "unknown tag tag:example.com,2000:x", 1, 4),
      ("k: !!map x", "!!map tag on a scalar", 1, 4), ("k: !!seq {}", "!!seq tag on a mapping", 1, 4),
    ]

    @Test("a tag that is unknown, or whose content does not fit, is an error", arguments: badTags)
    func badTag(_ row: (String, String, Int, Int)) {
      expectSyntaxError(readError(row.0), "yaml", row.1, line: row.2, column: row.3)
    }

    // MARK: Anchors, aliases, merge keys

    @Test func anchorsAndAliases() throws {
      let text = "a: &x {n: 1}\nb: *x\nc: &s str\nd: [*s, *x]\n"
      let n: PrefValue = .dictionary(["n": .integer(1)])
      #expect(
        try read(text)
          == .dictionary(["a": n, "b": n, "c": .string("str"), "d": .array([.string("str"), n])]))
      expectSyntaxError(readError("a: *nope"), "yaml", "unknown alias *nope", line: 1, column: 4)
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
      expectSyntaxError(
        readError("a:\n  <<: 1\n", version), "yaml",
        "a merge key (<<) takes a mapping or a sequence of mappings, not a integer", line: 2, column: 7)
      #expect(readError("a:\n  <<: [{}, 2]\n", version)?.kind.problem?.hasSuffix("not a integer") == true)
      expectError(readError("a: {x: 1, <<: {x: 2}, x: 3}", version), is: .duplicateKey("x"), line: 1, column: 23)
    }

    // MARK: Nulls

    @Test func everySpellingOfNullIsTheNullValue() throws {
      #expect(
        try read("a: 1\nb:\nc: ~\nd: null\ne: Null\nf: NULL\ng: !!null ''\nh: !!null null\n")
          == .dictionary([
            "a": .integer(1), "b": .null, "c": .null, "d": .null, "e": .null, "f": .null, "g": .null, "h": .null,
          ]))
      #expect(try read("- 1\n- null\n-\n") == .array([.integer(1), .null, .null]))
      #expect(try read("~") == .null)
      #expect(try read("a: &n ~\nb: *n\n") == .dictionary(["a": .null, "b": .null]))
      // Quoted, or tagged as a string, it is the string.
      #expect(try read("a: 'null'\nb: \"~\"\nc: !!str null\n") == .dictionary(["a": "null", "b": "~", "c": "null"]))
      #expect(readError("a: !!null x")?.kind.problem?.contains("is not null") == true)
      expectSyntaxError(
        readError("a: 1\n? \n: x\n"), "yaml", "a null mapping key has no plist form: keys must be strings", line: 2,
        column: 2)
    }

    @Test func aNullIsNoOtherValue() throws {
      let value = try read("a:\n")
      for other: PrefValue in ["", false, 0, 0.0, [], [:], .data(Data())] {
        #expect(value != .dictionary(["a": other]))
      }
      #expect(value != .dictionary([:]))
      #expect(value == .dictionary(["a": .null]))
    }

    // MARK: Errors

    static let errors: [(String, PrefsError.Kind, Int, Int)] = [
      ("a: 1\nb: 2\na: 3\n", .duplicateKey("a"), 3, 1),
      ("a:\n  x: 1\n  x: 2\n", .duplicateKey("x"), 3, 3),
      ("{a: 1, a: 1}", .duplicateKey("a"), 1, 8),
      (
        "? [a, b]\n: x\n",
        .syntax(format: "yaml", stage: .composer, problem: "complex mapping key (a sequence): keys must be strings"), 1,
        3
      ),
      (
        "? {a: b}\n: x\n",
        .syntax(format: "yaml", stage: .composer, problem: "complex mapping key (a mapping): keys must be strings"), 1,
        3
      ),
      (
        "l: &l [1]\n*l : x\n",
        .syntax(format: "yaml", stage: .composer, problem: "complex mapping key (a array): keys must be strings"), 2, 1
      ),
      (
        "!!int 1: x\n",
        .syntax(
          format: "yaml", stage: .composer, problem: "mapping key is integer, not a string: keys must be strings"), 1, 1
      ),
      ("1: x\n\"1\": y\n", .duplicateKey("1"), 2, 1),
      ("a: 1\n---\nb: 2\n", .severalDocuments(names: [nil, nil]), 2, 1),
      ("--- 1\n--- 2\n", .severalDocuments(names: [nil, nil]), 2, 1),
      ("", .syntax(format: "yaml", stage: .composer, problem: "empty document: no value to read"), 1, 1),
      (
        "# only a comment\n", .syntax(format: "yaml", stage: .composer, problem: "empty document: no value to read"), 2,
        1
      ),
      (
        "a: 123456789012345678901234\n",
        .syntax(format: "yaml", stage: .composer, problem: "integer out of range: 123456789012345678901234"), 1, 4
      ),
      (
        "a: -9223372036854775809\n",
        .syntax(format: "yaml", stage: .composer, problem: "integer out of range: -9223372036854775809"), 1, 4
      ),
      ("a: 1e400\n", .syntax(format: "yaml", stage: .composer, problem: "real out of range: 1e400"), 1, 4),
      ("a: 2001-02-30\n", .syntax(format: "yaml", stage: .composer, problem: "invalid date: 2001-02-30"), 1, 4),
      (
        "a: b: c\n",
        .syntax(format: "yaml", stage: .scanner, problem: "mapping values are not allowed in this context"), 1, 5
      ),
      (
        "a:\n  - b\n c: d\n",
        .syntax(
          format: "yaml", stage: .parser,
          problem: "did not find expected key (while parsing a block mapping at line 1, column 1)"), 3, 2
      ),
      (
        "a: [1, 2\n",
        .syntax(
          format: "yaml", stage: .parser,
          problem: "did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"), 2, 1
      ),
      (
        "a: \"open\n",
        .syntax(
          format: "yaml", stage: .scanner,
          problem: "found unexpected end of stream (while scanning a quoted scalar at line 1, column 4)"), 2, 1
      ),
      (
        "a: b\n\tc: d\n",
        .syntax(format: "yaml", stage: .scanner, problem: "tabs cannot indent YAML; use spaces"), 2, 1
      ),
      (
        "a: x\u{0}y\n", .syntax(format: "yaml", stage: .reader, problem: "control characters are not allowed (0x0)"), 1,
        5
      ),
    ]

    @Test("each error names its line and column", arguments: errors)
    func error(_ row: (String, PrefsError.Kind, Int, Int)) {
      expectError(readError(row.0), is: row.1, line: row.2, column: row.3)
    }

    @Test func plainKeysThatAreNotStringsReadAsTheirText() throws {
      #expect(
        try read("1: one\ntrue: t\nnull: n\n~: t\n0x1F: h\n2001-01-01: d\n")
          == .dictionary(["1": "one", "true": "t", "null": "n", "~": "t", "0x1F": "h", "2001-01-01": "d"]))
      #expect(try read("{1: a, 2.5: b}") == .dictionary(["1": "a", "2.5": "b"]))
      #expect(try read("yes: 1\n", .v1_1) == .dictionary(["yes": 1]))
      // Warned of where YAML 1.1 and 1.2 readings are asked about (lint, convert).
      var options = ReadOptions()
      options.warnsOfYAMLAmbiguities = true
      let warnings = Warnings()
      _ = try codec.decode(Data("1: one\nname: x\n".utf8), options: options, warnings: warnings)
      #expect(warnings.all.map(\.position) == [.lineColumn(line: 1, column: 1)])
      #expect(warnings.all.first?.message.contains("integer") == true)
    }

    @Test func invalidUTF8IsAPositionedError() {
      let bytes = Data("a: b\nc: d".utf8) + Data([0xFF, 0x41, 0x0A])
      #expect(
        throws: PrefsError.syntax(
          "invalid leading UTF-8 octet (0xFF)", format: "yaml", stage: .reader,
          position: .lineColumn(line: 2, column: 5))
      ) {
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
      #expect(error?.kind == .aliasBudget(limit: 1_000_000))
      #expect(error?.position == .lineColumn(line: 7, column: 8))
      var small = ReadOptions()
      small.maxAliasExpansion = 5
      expectError(
        readError("a: &a [1, 2]\nb: [*a, *a]\n", options: small), is: .aliasBudget(limit: 5), line: 2, column: 9)
    }

    @Test func deepNestingFailsWithAClearMessage() {
      expectError(readError(String(repeating: "[", count: 100_000)), is: .tooDeep(limit: 512), line: 1, column: 513)
      expectError(readError(String(repeating: "{a: ", count: 100_000)), is: .tooDeep(limit: 512), line: 1, column: 2049)
      expectError(
        readError(String(repeating: "- ", count: 100_000) + "x"), is: .tooDeep(limit: 512), line: 1, column: 1025)
      var shallow = ReadOptions()
      shallow.maxDepth = 2
      expectError(readError("a:\n  b:\n    c: 1\n", options: shallow), is: .tooDeep(limit: 2), line: 3, column: 5)
      #expect((try? codec.decode(Data("a:\n  b: 1\n".utf8), options: shallow)) != nil)
    }

    @Test func aliasesCountTheirLevelsAgainstTheDepthLimit() throws {
      var shallow = ReadOptions()
      shallow.maxDepth = 4
      func reads(_ text: String) -> Bool { (try? codec.decode(Data(text.utf8), options: shallow)) != nil }
      // a holds two levels; under the root and two lists it is five deep.
      expectError(
        readError("a: &a [[1]]\nb: [[*a]]\n", options: shallow),
        is: .tooDeep(limit: 4, detail: "alias *a holds 2 levels"), line: 2, column: 6)
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
      // The shape: 30 anchors, each wrapping the last alias in 500 lists.
      let text = (0..<30).map { k in
        "a\(k): &a\(k) " + String(repeating: "[", count: 500) + (k == 0 ? "1" : "*a\(k - 1)")
          + String(repeating: "]", count: 500)
      }.joined(separator: "\n")
      // (Not `readError`: printing a value read by mistake would overflow the stack.)
      let error = #expect(throws: PrefsError.self) { _ = try codec.decode(Data(text.utf8)) }
      expectError(error, is: .tooDeep(limit: 512, detail: "alias *a0 holds 500 levels"), line: 2, column: 509)
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
