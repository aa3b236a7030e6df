import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsStore

/// `PrefValue.null`: what YAML and JSON hold is kept by every reader, writer and
/// patch; only a property list refuses it, by key path, or drops it when asked.
@Suite struct NullValueTests {
  static let plists: [Format] = [.xml, .binary, .openStep]

  // MARK: The value

  @Test func aNullEqualsOnlyItselfAndSaysNull() {
    #expect(PrefValue.null == .null)
    for other: PrefValue in ["", "null", false, 0, 0.0, [], [:], .data(Data()), .uid(0)] {
      #expect(PrefValue.null != other, "\(other)")
      #expect(Set([PrefValue.null, other]).count == 2)
    }
    // A null at a key is not a missing key.
    #expect(PrefValue.dictionary(["a": .null]) != .dictionary([:]))
    #expect(PrefValue.null.kind == .null && PrefValue.null.kind.defaultsName == "null")
    #expect(PrefValue.null.summary == "null" && PrefValue.null.literal == "null")
    #expect(PrefValue.null.description == "null" && PrefValue.null.debugDescription == ".null")
    #expect(PrefValue.array([1, .null]).inlineText() == "[1, null]")
  }

  @Test func theNullsOfAValueAreFoundByPathAndDroppedWithAWarningEach() {
    let value: PrefValue = ["a": .null, "b": [1, .null, ["c": .null]], "d": "null"]
    let paths = [
      PrefKeyPath([.key("a")]), PrefKeyPath([.key("b"), .index(1)]), PrefKeyPath([.key("b"), .index(2), .key("c")]),
    ]
    #expect(value.nullPaths == paths)
    #expect(value.firstNullPath == paths[0])
    #expect(value.nullRefusal == PrefsError(.null(path: paths[0])))
    let warnings = Warnings()
    #expect(value.droppingNulls(warnings: warnings) == ["b": [1, [:]], "d": "null"])
    #expect(warnings.all.map(\.refused) == paths.map { .null(path: $0) })
    #expect(PrefValue.null.firstNullPath == PrefKeyPath())
    #expect(PrefValue.string("null").nullRefusal == nil)
  }

  // MARK: Reading and writing

  @Test func yamlReadsEverySpellingAndWritesNull() throws {
    let text = "a:\nb: ~\nc: null\nd: Null\ne: !!null ''\nf: [~, null]\ng: 'null'\n"
    let value = try Format.yaml.decode(Data(text.utf8))
    #expect(value == ["a": .null, "b": .null, "c": .null, "d": .null, "e": .null, "f": [.null, .null], "g": "null"])
    let written = String(decoding: try Format.yaml.encode(value), as: UTF8.self)
    #expect(written == "a: null\nb: null\nc: null\nd: null\ne: null\nf:\n- null\n- null\ng: \"null\"\n")
    #expect(try Format.yaml.decode(Data(written.utf8)) == value)
  }

  @Test func jsonReadsAndWritesNullAndRoundTripsThroughYAML() throws {
    let value = try Format.json.decode(Data(#"{"main": null, "list": [null, 1], "text": "null"}"#.utf8))
    #expect(value == ["main": .null, "list": [.null, 1], "text": "null"])
    let json = String(decoding: try Format.json.encode(value, options: WriteOptions(compact: true)), as: UTF8.self)
    #expect(json == #"{"main":null,"list":[null,1],"text":"null"}"# + "\n")
    #expect(try Format.yaml.decode(try Format.yaml.encode(value)) == value)
    #expect(try Format.json.decode(Data(json.utf8)) == value)
    // Plain JSON writes null too.
    #expect(
      String(decoding: try Format.json.encode(.null, options: WriteOptions(plainJSON: true)), as: UTF8.self)
        == "null\n")
  }

  @Test(arguments: NullValueTests.plists)
  func aPlistWriterRefusesANullByItsKeyPath(format: Format) throws {
    let value: PrefValue = ["name": "x", "items": ["a", ["main": .null]]]
    let path = PrefKeyPath([.key("items"), .index(1), .key("main")])
    #expect(throws: PrefsError(.null(path: path))) { try format.encode(value) }
    #expect(throws: PrefsError(.null(path: PrefKeyPath()))) { try format.encode(.null) }
    #expect(PrefsError(.null(path: path)).message == "null at items.1.main has no plist form")
    #expect(PrefsError(.null(path: path)).category == .badInput)
  }

  @Test(arguments: NullValueTests.plists)
  func aPlistWriterAskedToDropsNullsWithAWarningEach(format: Format) throws {
    let value: PrefValue = ["name": "x", "main": .null, "items": ["a", .null]]
    let warnings = Warnings()
    let data = try format.encode(value, options: WriteOptions(dropNulls: true), warnings: warnings)
    #expect(try format.decode(data) == ["name": "x", "items": ["a"]])
    #expect(warnings.all.map(\.message) == ["dropped null at main", "dropped null at items.1"])
    // A document that is null has nothing left to write.
    #expect(throws: PrefsError(.null(path: PrefKeyPath()))) {
      try format.encode(.null, options: WriteOptions(dropNulls: true))
    }
  }

  @Test func yamlAndJSONWriteNullsWhateverDropNullsSays() throws {
    let value: PrefValue = ["main": .null]
    for format in [Format.yaml, .json] {
      let warnings = Warnings()
      let data = try format.encode(value, options: WriteOptions(dropNulls: true), warnings: warnings)
      #expect(try format.decode(data) == value)
      #expect(warnings.all.isEmpty)
    }
  }

  #if FullFoundation
    @Test func theFoundationCodecRefusesANullByItsPath() throws {
      let value: PrefValue = ["a": [.null]]
      #expect(throws: PrefsError(.null(path: PrefKeyPath([.key("a"), .index(0)])))) {
        try FoundationPlistCodec(format: .xml).encode(value)
      }
      let warnings = Warnings()
      let data = try FoundationPlistCodec(format: .binary).encode(
        value, options: WriteOptions(dropNulls: true), warnings: warnings)
      #expect(try Format.binary.decode(data) == ["a": []])
      #expect(warnings.all.map(\.message) == ["dropped null at a.0"])
    }
  #endif

  // MARK: Patching

  @Test func aPatchKeepsEachNullsOwnSpelling() throws {
    let text = "a:\nb: ~\nc: Null\nd: null\nlist:\n-\n- ~\nname: x\n"
    let document = try #require(try TextDocument(Data(text.utf8), format: .yaml))
    let changed = try document.value.setting("z", at: ["name"])
    let patch = try document.patched(to: changed)
    #expect(String(decoding: patch.data, as: UTF8.self) == text.replacingOccurrences(of: "name: x", with: "name: z"))
    #expect(patch.rewrittenWhole == nil)
  }

  @Test func aNullWrittenAsNothingTakesANewValueInPlace() throws {
    let text = "volumes:\n  data:\n  logs: ~\nlist:\n-\n- 2\nend:"
    let document = try #require(try TextDocument(Data(text.utf8), format: .yaml))
    var value = try document.value.setting("db", at: ["volumes", "data"])
    value = try value.setting(1, at: ["list", "0"])
    value = try value.setting(true, at: ["end"])
    let patch = try document.patched(to: value)
    #expect(patch.rewrittenWhole == nil)
    #expect(
      String(decoding: patch.data, as: UTF8.self) == "volumes:\n  data: db\n  logs: ~\nlist:\n- 1\n- 2\nend: true")
    // And a value becomes null, written as YAML writes it.
    let back = try document.patched(to: try document.value.setting(.null, at: ["list", "1"]))
    #expect(String(decoding: back.data, as: UTF8.self) == text.replacingOccurrences(of: "- 2", with: "- null"))
  }

  @Test func aJSONPatchWritesNullAndKeepsTheRest() throws {
    let text = "{\n  \"name\": \"x\",\n  \"main\": null,\n  \"version\": \"1.0.0\"\n}\n"
    let document = try #require(try TextDocument(Data(text.utf8), format: .json))
    let patch = try document.patched(to: try document.value.setting("1.1.0", at: ["version"]))
    #expect(String(decoding: patch.data, as: UTF8.self) == text.replacingOccurrences(of: "1.0.0", with: "1.1.0"))
    let nulled = try document.patched(to: try document.value.setting(.null, at: ["name"]))
    #expect(String(decoding: nulled.data, as: UTF8.self) == text.replacingOccurrences(of: "\"x\"", with: "null"))
  }

  @Test func anXMLPlistPatchRefusesANullByItsPath() throws {
    let text = String(decoding: try Format.xml.encode(["a": 1]), as: UTF8.self)
    let document = try #require(try TextDocument(Data(text.utf8), format: .xml))
    #expect(throws: PrefsError(.null(path: PrefKeyPath([.key("b")])))) {
      try document.patched(to: ["a": 1, "b": .null])
    }
  }

  // MARK: Domains

  @Test func aPlistDomainRefusesANullByPathOrDropsItWhenAsked() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let domain = FileDomain(path: folder.appendingPathComponent("d.plist").path)
    try domain.modify { $0 = ["a": 1] }
    let before = try Data(contentsOf: URL(fileURLWithPath: domain.path))
    #expect(throws: PrefsError(.null(path: PrefKeyPath([.key("main")])))) {
      try domain.modify { $0?["main"] = .null }
    }
    #expect(throws: PrefsError(.null(path: PrefKeyPath([.key("main")])), file: domain.path)) {
      try domain.modify(dryRun: true) { $0?["main"] = .null }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: domain.path)) == before)
    let warnings = Warnings()
    try domain.modify(dropNulls: true, warnings: warnings) { $0?["main"] = .null }
    #expect(try domain.read() == ["a": 1])
    #expect(warnings.all.map(\.message) == ["dropped null at main"])
  }

  @Test func aYAMLFileDomainKeepsItsNulls() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("d.yaml").path
    try Data("a: ~\nb: 1\n".utf8).write(to: URL(fileURLWithPath: path))
    try FileDomain(path: path).modify(dropNulls: true) { $0?["b"] = 2 }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "a: ~\nb: 2\n")
  }
}
