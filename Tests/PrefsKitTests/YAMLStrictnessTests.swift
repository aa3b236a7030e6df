import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// What ruamel.yaml and PyYAML refuse, the YAML reader refuses; what a tag names,
/// its text must match.
@Suite struct YAMLStrictnessTests {
  func read(_ text: String, _ options: ReadOptions = ReadOptions()) throws -> PrefValue {
    try YAMLCodec().read(Data(text.utf8), options: options, warnings: Warnings())
  }

  /// The syntax error's problem at its position (`1:4: problem`), or what else failed.
  func failure(_ text: String, _ options: ReadOptions = ReadOptions()) -> String? {
    do {
      _ = try read(text, options)
      return nil
    } catch let error as PrefsError {
      guard let problem = error.kind.problem else { return "not a syntax error: \(error.kind)" }
      return PrefsError.located(problem, file: nil, position: error.position)
    } catch {
      return "\(error)"
    }
  }

  @Test func aRepeatedMergeKeyIsADuplicateKey() {
    func error(_ text: String) -> PrefsError? { #expect(throws: PrefsError.self) { try read(text) } }
    expectError(
      error("x: &x {a: 1}\ny: &y {a: 2}\nz: {<<: *x, <<: *y}\n"), is: .duplicateKey("<<"), line: 3, column: 13)
    expectError(error("x: &x {a: 1}\nz:\n  <<: *x\n  b: 1\n  <<: *x\n"), is: .duplicateKey("<<"), line: 5, column: 3)
  }

  @Test func anAliasInsideTheNodeThatRedefinesItsAnchorIsRefused() throws {
    #expect(
      failure("a: &x 1\nb: &x [*x]\n")
        == "2:8: alias *x inside the node that anchor &x is defining (a recursive alias)")
    #expect(failure("a: &x {k: 1}\nb: &x {<<: *x, j: 2}\n")?.contains("recursive alias") == true)
    // An anchor redefined after its node is finished is the newer node, as YAML says.
    #expect(
      try read("a: &x 1\nb: &x [2]\nc: *x\n")
        == .dictionary(["a": .integer(1), "b": .array([.integer(2)]), "c": .array([.integer(2)])]))
    #expect(try read("a: &x [&x 1, *x]\n") == .dictionary(["a": .array([.integer(1), .integer(1)])]))
  }

  @Test func aNullAmongMergedMappingsIsRefused() {
    #expect(failure("{<<: [~]}")?.contains("a merge key (<<) takes a mapping or a sequence of mappings") == true)
    #expect(failure("x: &x {a: 1}\ny: {<<: [*x, null]}\n")?.contains("not null") == true)
    #expect(failure("x: &x {a: 1}\nl: &l [*x, ~]\ny: {<<: *l}\n")?.contains("not null") == true)
    #expect(failure("y: {<<: ~}\n")?.contains("not null") == true)
    // The list itself, used as a list, is fine.
    #expect(throws: Never.self) {
      try YAMLCodec().read(Data("l: &l [1, ~]\nm: *l\n".utf8), options: ReadOptions(), warnings: Warnings())
    }
  }

  @Test func integerTextOutside64BitsIsARealUnderTheFloatTag() throws {
    #expect(try read("!!float 18446744073709551616") == .real(18_446_744_073_709_551_616))
    #expect(try read("!!float -99999999999999999999") == .real(-99_999_999_999_999_999_999))
    #expect(try read("!!float 7") == .real(7))
    #expect(failure("!!float 1e400")?.contains("out of range") == true)
  }

  @Test(arguments: [
    ("!!float 0x10", "1:1: !!float value '0x10' is not a real"),
    ("!!float 0o17", "1:1: !!float value '0o17' is not a real"),
    ("!!float 1_000", "1:1: !!float value '1_000' is not a real"),
    ("!!timestamp 2001-12-14T21:59:43z", "1:1: !!timestamp value '2001-12-14T21:59:43z' is not a timestamp"),
    ("!!timestamp 2001-12-14T21:59", "1:1: !!timestamp value '2001-12-14T21:59' is not a timestamp"),
  ])
  func taggedTextMustMatchTheTagsPattern(text: String, message: String) {
    #expect(failure(text) == message)
  }

  @Test func taggedTextThatMatchesStillReads() throws {
    #expect(
      try read("!!timestamp 2001-12-14t21:59:43.10-05:00") == .date(TextForms.parseDate("2001-12-15T02:59:43.1Z")!))
    #expect(try read("!!timestamp 2001-12-14") == .date(TextForms.parseDate("2001-12-14")!))
    var v11 = ReadOptions()
    v11.yamlVersion = .v1_1
    #expect(try read("!!float 1_000", v11) == .real(1000))
  }
}
