import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// A tab in YAML indentation is named as such, at the tab, not as libyaml's
/// "found character that cannot start any token".
@Suite struct YAMLTabIndentTests {
  @Test(arguments: [
    ("a:\n\tb: 1\n", 2, 1),
    ("a:\n  b: 1\n  \tc: 2\n", 3, 3),
    ("list:\n- 1\n\t- 2\n", 3, 1),
  ])
  func aTabThatIndentsIsNamed(text: String, line: Int, column: Int) throws {
    let error = try #require(throws: PrefsError.self) { try Format.read(Data(text.utf8), declared: .yaml) }
    #expect(error.kind == .syntax(format: "yaml", stage: .scanner, problem: "tabs cannot indent YAML; use spaces"))
    #expect(error.position == .lineColumn(line: line, column: column))
  }

  @Test func aTabAfterAValueIsStillFine() throws {
    let value = try Format.read(Data("a:\n  b: 1\n  c:\t2\n".utf8), declared: .yaml).value
    #expect(value == .dictionary(["a": .dictionary(["b": .integer(1), "c": .integer(2)])]))
  }
}
