import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsOperations
@testable import PrefsStore

/// What `prefs edit` does around the editor: the text it opens, and the
/// compare-and-write after it.
@Suite struct DomainEditTests {
  @Test func aYAMLFileIsEditedAsItsOwnTextAndWrittenBackAsEdited() throws {
    let folder = try TestFolder()
    let path = try folder.write("a.yaml", "# mine\na: 1\n")
    let edit = try DomainEdit(FileDomain(path: path))
    #expect(edit.ownText == Data("# mine\na: 1\n".utf8))
    #expect(edit.initialText == edit.ownText)
    #expect(try edit.writeBack(["a": .integer(1)], text: edit.initialText) == .unchanged)
    let text = Data("# mine\na: 2 # now\n".utf8)
    #expect(try edit.writeBack(["a": .integer(2)], text: text) == .written)
    #expect(try folder.data("a.yaml") == text)
  }

  @Test func anotherFormatIsShownAsYAMLAndPatchedBackInItsOwn() throws {
    let folder = try TestFolder()
    let domain = FileDomain(path: folder.path("a.json"))
    try folder.write("a.json", "{\"a\": 1, \"b\": [1, 2]}\n")
    let edit = try DomainEdit(domain)
    #expect(edit.ownText == nil)
    #expect(String(decoding: edit.initialText, as: UTF8.self) == "a: 1\nb:\n- 1\n- 2\n")
    let contents: PrefDictionary = ["a": .integer(3), "b": .array([.integer(1), .integer(2)])]
    #expect(try edit.writeBack(contents, text: Data()) == .written)
    #expect(try folder.read("a.json") == "{\"a\": 3, \"b\": [1, 2]}\n")
  }

  @Test(arguments: ["a.yaml", "a.plist"])
  func aDomainChangedWhileEditingIsNotOverwritten(name: String) throws {
    let folder = try TestFolder()
    let domain = FileDomain(path: folder.path(name))
    try domain.modify { $0 = ["a": .integer(1)] }
    let edit = try DomainEdit(domain)
    try domain.modify { $0 = ["a": .integer(2)] }
    let meanwhile = try folder.data(name)
    let outcome = try edit.writeBack(["a": .integer(3)], text: Data("a: 3\n".utf8))
    #expect(outcome == .changedMeanwhile)
    #expect(try folder.data(name) == meanwhile)
  }
}
