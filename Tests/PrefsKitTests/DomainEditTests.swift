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

  // MARK: Data expanded

  /// A JSON file whose blobs are JSON as a plain `JSONEncoder` writes it (`\/`), a
  /// pretty-printed one, a binary plist holding JSON, and data that only looks like JSON.
  func blobs(in folder: TestFolder) throws -> (domain: FileDomain, escaped: Data, pretty: Data, outer: Data) {
    let escaped = Data(#"[{"id":"1","name":"a","url":"https:\/\/example.com\/a"}]"#.utf8)
    let pretty = Data("[\n  {\n    \"id\" : \"1\",\n    \"name\" : \"a\"\n  }\n]".utf8)
    let outer = try Format.binary.codec.encode(["inner": .data(pretty)])
    let value: PrefValue = [
      "escaped": .data(escaped), "pretty": .data(pretty), "outer": .data(outer), "bad": .data(Data("{x".utf8)),
    ]
    try folder.write("blobs.json", String(decoding: try Format.json.encode(value), as: UTF8.self))
    return (FileDomain(path: folder.path("blobs.json")), escaped, pretty, outer)
  }

  /// The blob at `key` of the JSON file.
  func blob(_ key: String, in folder: TestFolder) throws -> Data? {
    Self.data(try Format.json.decode(folder.data("blobs.json")).dictionaryValue?[key])
  }

  static func data(_ value: PrefValue?) -> Data? {
    guard case .data(let data)? = value else { return nil }
    return data
  }

  @Test func expandedDataOpensAsStructureAndWhatWasLeftAsItWasKeepsItsBytes() throws {
    let folder = try TestFolder()
    let (domain, escaped, pretty, outer) = try blobs(in: folder)
    let before = try folder.data("blobs.json")
    let warnings = Warnings()
    let edit = try DomainEdit(domain, anyRoot: true, expandingData: true, warnings: warnings)
    let text = String(decoding: edit.initialText, as: UTF8.self)
    #expect(text.contains("escaped: !json\n- id: \"1\"\n  name: a\n  url: https://example.com/a\n"))
    #expect(text.contains("outer: !plist\n  inner: !json\n"))
    #expect(text.contains("bad: !!binary"))
    #expect(warnings.all.count == 1, "the blob that only looks like JSON is named")
    // The text read back, unchanged: the blobs it shows as prefs writes them are its own.
    let unchanged = try Format.yaml.decode(edit.initialText)
    #expect(try edit.writeBack(value: unchanged, text: edit.initialText) == .unchanged)
    #expect(try folder.data("blobs.json") == before)

    let renamed = try Format.yaml.decode(Data(text.replacingOccurrences(of: "name: a", with: "name: b").utf8))
    #expect(try edit.writeBack(value: renamed, text: Data()) == .written)
    #expect(
      try blob("escaped", in: folder) == Data(#"[{"id":"1","name":"b","url":"https:\/\/example.com\/a"}]"#.utf8))
    #expect(try blob("pretty", in: folder) == Data("[\n  {\n    \"id\" : \"1\",\n    \"name\" : \"b\"\n  }\n]".utf8))
    let written = try #require(try blob("outer", in: folder))
    let inner = try #require(EmbeddedDocument(written))
    let prettyNow = try blob("pretty", in: folder)
    #expect(Self.data(inner.value.dictionaryValue?["inner"]) == prettyNow)
    #expect(written != outer)
    let escapedNow = try blob("escaped", in: folder)
    #expect(escaped != escapedNow && pretty != prettyNow)
  }

  @Test func aBlobInsideABlobLeftAsItWasKeepsItsBytesWhenTheOuterChanges() throws {
    let folder = try TestFolder()
    let (domain, _, pretty, _) = try blobs(in: folder)
    let edit = try DomainEdit(domain, anyRoot: true, expandingData: true)
    let text = String(decoding: edit.initialText, as: UTF8.self)
      .replacingOccurrences(of: "outer: !plist\n", with: "outer: !plist\n  added: 1\n")
    #expect(try edit.writeBack(value: try Format.yaml.decode(Data(text.utf8)), text: Data()) == .written)
    let written = try #require(try blob("outer", in: folder))
    let outer = try #require(EmbeddedDocument(written))
    #expect(Self.data(outer.value.dictionaryValue?["inner"]) == pretty)
    #expect(outer.value.dictionaryValue?["added"] == .integer(1))
  }

  @Test func aBlobThatCannotHoldItsNewStructureIsRefusedByItsKeyPath() throws {
    let folder = try TestFolder()
    let (domain, _, _, _) = try blobs(in: folder)
    let edit = try DomainEdit(domain, anyRoot: true, expandingData: true)
    let text = String(decoding: edit.initialText, as: UTF8.self)
      .replacingOccurrences(of: "escaped: !json\n- id: \"1\"\n", with: "escaped: !json\n- id: 2024-01-02T03:04:05Z\n")
    let before = try folder.data("blobs.json")
    #expect {
      try edit.writeBack(value: try Format.yaml.decode(Data(text.utf8)), text: Data())
    } throws: { error in
      guard case .unrepresentable(_, _, let path?, _) = (error as? PrefsError)?.kind else { return false }
      return path == PrefKeyPath([.key("escaped")])
    }
    #expect(try folder.data("blobs.json") == before)
  }

  @Test func aYAMLFileDoesNotOpenWithDataExpanded() throws {
    let folder = try TestFolder()
    let path = try folder.write("a.yaml", "a: !!binary e30=\n")
    #expect {
      _ = try DomainEdit(FileDomain(path: path), expandingData: true)
    } throws: { error in
      guard case .usage = (error as? PrefsError)?.kind else { return false }
      return true
    }
  }
}
