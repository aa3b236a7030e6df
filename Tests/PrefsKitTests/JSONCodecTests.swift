import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

@Suite struct JSONCodecTests {
  let codec = JSONCodec()

  func read(_ text: String, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings()) throws -> PrefValue {
    try codec.read(Data(text.utf8), options: options, warnings: warnings)
  }

  func write(_ value: PrefValue, _ options: WriteOptions = WriteOptions(compact: true)) throws -> String {
    String(decoding: try codec.encode(value, options: options), as: UTF8.self)
  }

  /// The error `text` is refused with.
  func failure(_ text: String, options: ReadOptions = ReadOptions()) -> PrefsError? {
    do {
      _ = try read(text, options: options)
      return nil
    } catch let error as PrefsError {
      return error
    } catch {
      return nil
    }
  }

  @Test func everyKindRoundTripsTypeStrict() throws {
    #expect(try TestSupport.roundTrip(TestSupport.everyKind, through: .json) == TestSupport.everyKind)
    #expect(
      try TestSupport.roundTrip(TestSupport.everyKind, through: .json, options: WriteOptions(compact: true))
        == TestSupport.everyKind)
  }

  @Test func integersRealsAndBoolsStayDistinct() throws {
    #expect(
      try read("[1, 1.0, true, 1e0, -0, -0.0]")
        == .array([.integer(1), .real(1), .bool(true), .real(1), .integer(0), .real(-0.0)]))
    #expect(try write(.array([.integer(1), .real(1), .bool(true)])) == "[1,1.0,true]\n")
  }

  @Test func integersUseTheFullSixtyFourBits() throws {
    #expect(try read("9223372036854775807") == .integer(.max))
    #expect(try read("-9223372036854775808") == .integer(.min))
    #expect(try read("18446744073709551615") == .unsignedInteger(.max))
    #expect(try write(.unsignedInteger(.max)) == "18446744073709551615\n")
  }

  @Test(arguments: [
    ("18446744073709551616", "integer 18446744073709551616 is out of range (64 bits)"),
    ("-9223372036854775809", "integer -9223372036854775809 is out of range (64 bits)"),
    ("[1e400]", "number 1e400 is out of range for a real"),
  ])
  func hugeNumbersAreErrorsNotFloats(text: String, message: String) {
    #expect(failure(text)?.kind.problem == message)
  }

  @Test(arguments: [
    (1.0, "1.0"), (0.1, "0.1"), (1e20, "1.0e+20"), (1e-7, "1.0e-07"), (-0.0, "-0.0"),
    (123.456, "123.456"), (Double.leastNonzeroMagnitude, "5.0e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
  ])
  func realsAlwaysHaveADotOrExponent(value: Double, text: String) throws {
    #expect(try write(.real(value)) == text + "\n")
    #expect(try read(text) == .real(value))
  }

  @Test func typedObjectsCarryWhatJSONCannot() throws {
    let date = Date(timeIntervalSinceReferenceDate: 721_692_800.123)
    let value: PrefValue = .array([
      .date(date), .data(Data([0, 1, 2])), .real(.infinity), .real(-.infinity), .real(.nan), .uid(5),
    ])
    let text = try write(value)
    #expect(
      text
        == #"[{"$date":"2023-11-14T22:13:20.123Z"},{"$data":"AAEC"},{"$real":"inf"},{"$real":"-inf"},{"$real":"nan"},{"$uid":5}]"#
        + "\n")
    #expect(try read(text) == value)
  }

  @Test func plainJSONWritesOrdinaryValuesAndRefusesNonFiniteReals() throws {
    let value: PrefValue = .dictionary([
      "d": .date(Date(timeIntervalSinceReferenceDate: 0)), "b": .data(Data([255])), "u": .uid(7),
    ])
    #expect(
      try write(value, WriteOptions(plainJSON: true, compact: true))
        == #"{"d":"2001-01-01T00:00:00Z","b":"/w==","u":7}"# + "\n")
    #expect(throws: PrefsError.self) {
      _ = try write(.dictionary(["x": .array([.real(.nan)])]), WriteOptions(plainJSON: true))
    }
    do {
      _ = try write(.dictionary(["x": .array([.real(.nan)])]), WriteOptions(plainJSON: true))
    } catch let error as PrefsError {
      // NaN equals nothing, so the kind is taken apart.
      if case .nonFiniteReal(let real, let path) = error.kind {
        #expect(real.isNaN && path == PrefKeyPath([.key("x"), .index(0)]))
      } else {
        Issue.record("\(error)")
      }
    }
  }

  @Test func dictionariesThatLookTypedAreEscaped() throws {
    for key in ["$date", "$data", "$real", "$uid", "$dict"] {
      let value: PrefValue = .dictionary([key: .string("not a typed value")])
      let text = try write(value)
      #expect(text.hasPrefix(#"{"$dict":"#))
      #expect(try read(text) == value)
    }
    // A dictionary with more keys is never escaped, and nested escapes work.
    let nested: PrefValue = .dictionary(["$dict": .dictionary(["$date": .integer(1)])])
    #expect(try read(try write(nested)) == nested)
    let wide: PrefValue = .dictionary(["$date": .string("x"), "other": .integer(1)])
    #expect(try write(wide) == #"{"$date":"x","other":1}"# + "\n")
    #expect(try read(try write(wide)) == wide)
  }

  @Test func badTypedObjectsAreErrors() {
    #expect(failure(#"{"$date": "yesterday"}"#)?.kind.problem == #""$date" needs an ISO 8601 date, not "yesterday""#)
    #expect(failure(#"{"$data": "@@@"}"#)?.kind.problem == #""$data" needs base64 text: byte 0x40 is not base64"#)
    #expect(failure(#"{"$uid": -1}"#) != nil)
  }

  @Test func keyOrderIsKeptAndSortKeysSorts() throws {
    let value = try read(#"{"b": 1, "a": 2, "é": 3, "Z": 4}"#)
    #expect(value.dictionaryValue?.keys == ["b", "a", "é", "Z"])
    #expect(try write(value) == #"{"b":1,"a":2,"é":3,"Z":4}"# + "\n")
    #expect(try write(value, WriteOptions(sortKeys: true, compact: true)) == #"{"Z":4,"a":2,"b":1,"é":3}"# + "\n")
  }

  @Test func prettyOutputUsesTwoSpaces() throws {
    let text = try write(.dictionary(["a": .array([.integer(1)]), "e": .dictionary([:])]), WriteOptions())
    #expect(text == "{\n  \"a\": [\n    1\n  ],\n  \"e\": {}\n}\n")
  }

  @Test func stringsAreEscapedOnlyWhereJSONNeedsIt() throws {
    #expect(try write(.string("a\"b\\c\n\t\u{1}é/")) == #""a\"b\\c\n\t\u0001é/""# + "\n")
    #expect(try read(#""\ud83d\ude00 \u00e9""#) == .string("\u{1F600} é"))
  }

  @Test func nullIsReadAndWrittenAsNull() throws {
    let value = try read("{\"a\": null, \"b\": [null, 2], \"c\": \"null\"}")
    #expect(value == .dictionary(["a": .null, "b": .array([.null, .integer(2)]), "c": "null"]))
    #expect(try read("null") == .null)
    #expect(try write(value) == #"{"a":null,"b":[null,2],"c":"null"}"# + "\n")
    #expect(try read(try write(value, WriteOptions())) == value)
    // Type-strict: null is not an empty string, false, 0 or a missing key.
    for other: PrefValue in ["", false, 0, 0.0, [], [:]] { #expect(try read(#"{"a": null}"#) != ["a": other]) }
    #expect(try read(#"{"a": null}"#) != [:])
    #expect(failure(#"{"$date": null}"#)?.kind.problem == #""$date" cannot hold null"#)
  }

  @Test(arguments: [
    ("{\"a\": 1, \"a\": 2}", PrefsError.Kind.duplicateKey("a"), 1, 10),
    ("[1,\n 2,]", .syntax(format: "json", stage: .parser, problem: "unexpected ']': expected a value"), 2, 4),
    ("{\"a\" 1}", .syntax(format: "json", stage: .parser, problem: "unexpected '1': expected ':'"), 1, 6),
    ("[01]", .syntax(format: "json", stage: .scanner, problem: "a number cannot start with 0"), 1, 2),
    ("\"abc", .syntax(format: "json", stage: .scanner, problem: "unterminated string"), 1, 1),
    ("", .syntax(format: "json", stage: .parser, problem: "empty input: expected a JSON value"), 1, 1),
    ("[1] [2]", .syntax(format: "json", stage: .parser, problem: "unexpected '[' after the JSON value"), 1, 5),
    (
      "[\"\u{1}\"]",
      .syntax(format: "json", stage: .scanner, problem: "control character U+0001 must be escaped in a string"), 1, 3
    ),
    ("[\"\\ud800\"]", .syntax(format: "json", stage: .scanner, problem: "unpaired surrogate \\uD800"), 1, 3),
  ])
  func malformedInputIsRefusedWithLineAndColumn(text: String, kind: PrefsError.Kind, line: Int, column: Int) {
    let error = failure(text)
    #expect(error?.kind == kind)
    #expect(error?.position == .lineColumn(line: line, column: column))
  }

  @Test func aByteOrderMarkIsIgnored() throws {
    #expect(try read("\u{FEFF}{\"a\": 1}") == .dictionary(["a": .integer(1)]))
  }

  @Test func invalidUTF8IsRefusedWithItsPosition() throws {
    let bytes: [UInt8] = Array("[\"ab".utf8) + [0xFF] + Array("\"]".utf8)
    #expect(throws: PrefsError.self) { _ = try codec.decode(Data(bytes)) }
    do {
      _ = try codec.decode(Data(bytes))
    } catch let error as PrefsError {
      #expect(error.kind.problem == "invalid UTF-8")
      #expect(error.position == .lineColumn(line: 1, column: 5))
    }
  }

  @Test func deepNestingFailsFastWithAMessage() {
    let deep = String(repeating: "[", count: 100_000)
    #expect(failure(deep)?.kind == .tooDeep(limit: 512))
  }

  // MARK: JSONTestSuite

  /// Files of `test_parsing` that hold a duplicate key (those holding a `null` are read,
  /// the null a value, and written back).
  static let refusedByDesign: [String: String] = [
    "y_object_duplicated_key.json": "duplicateKey", "y_object_duplicated_key_and_value.json": "duplicateKey",
  ]

  @Test(.needsCorpus("json-test-suite/test_parsing"), .needsPython())
  func jsonTestSuiteAcceptsRefusesAndNeverCrashes() throws {
    let folder = try #require(TestSupport.corpus("json-test-suite/test_parsing"))
    var accepted: [(URL, Data)] = []
    var counts = (y: 0, n: 0, i: 0)
    for file in TestSupport.files(in: folder) {
      let name = file.lastPathComponent
      let data = try Data(contentsOf: file)
      let result = Result { try codec.decode(data) }
      switch name.first {
      case "y":
        counts.y += 1
        if let reason = Self.refusedByDesign[name] {
          guard case .failure(let error as PrefsError) = result else {
            Issue.record("\(name) should be refused (\(reason))")
            continue
          }
          #expect(error.kind.name == reason, "\(name): \(error)")
        } else {
          switch result {
          case .success(let value):
            let written = try codec.encode(value)
            #expect(try codec.decode(written) == value, "\(name) does not read back the same")
            accepted.append((file, written))
          case .failure(let error): Issue.record("\(name) refused: \(error)")
          }
        }
      case "n":
        counts.n += 1
        guard case .failure(let error as PrefsError) = result else {
          Issue.record("\(name) should be refused")
          continue
        }
        guard case .lineColumn = error.position else {
          Issue.record("\(name) refused without a position: \(error)")
          continue
        }
      default:
        counts.i += 1  // Implementation-defined: either answer, but no crash.
      }
    }
    #expect(counts.y == 95 && counts.n == 188 && counts.i == 35)
    #expect(accepted.count == 93)
    #expect(try codec.decode(Data(contentsOf: folder.appendingPathComponent("y_structure_lonely_null.json"))) == .null)
    #expect(
      try codec.decode(Data(contentsOf: folder.appendingPathComponent("y_array_with_several_null.json")))
        == [1, .null, .null, .null, 2])
    try expectSameJSONValues(accepted)
  }

  /// Compares each original with what we wrote, as JSON values, in Python's `json`.
  func expectSameJSONValues(_ pairs: [(URL, Data)]) throws {
    let python = try #require(TestSupport.python())
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var manifest = ""
    for (index, (original, written)) in pairs.enumerated() {
      let out = folder.appendingPathComponent("\(index).json")
      try written.write(to: out)
      manifest += "\(original.path)\t\(out.path)\n"
    }
    let script = """
      import json, sys
      bad = []
      for line in open(sys.argv[1], encoding='utf-8'):
          a, b = line.rstrip('\\n').split('\\t')
          x = json.loads(open(a, 'rb').read())
          y = json.loads(open(b, 'rb').read())
          if x != y or type(x) != type(y):
              bad.append(a)
      print('\\n'.join(bad))
      """
    let manifestURL = folder.appendingPathComponent("manifest.tsv")
    try manifest.write(to: manifestURL, atomically: true, encoding: .utf8)
    let result = try TestSupport.run(python, ["-c", script, manifestURL.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "", "differ: \(result.stdout)")
  }
}
