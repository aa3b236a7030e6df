import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// `--expand-data`: on convert and export the tutorial's items blob as structure and
/// back to the same bytes; on diff, textconv and edit blobs in any spacing or escaping
/// shown and compared as structure.
@Suite struct ExpandDataCommandTests {
  let items = TestSupport.packageRoot.appendingPathComponent("Samples/Items.plist")

  /// An item as an app's `Codable` type holds it.
  struct Entry: Codable {
    var id: String
    var name: String
    var url: String
  }

  static let entries = [
    Entry(id: "1", name: "a", url: "https://example.com/a"), Entry(id: "2", name: "b", url: "https://example.com/b"),
  ]

  /// The entries as a `JSONEncoder` with `formatting` writes them (a plain one escapes
  /// `/` as `\/`), the entry at `renamed` renamed to `B`.
  static func blob(_ formatting: JSONEncoder.OutputFormatting, renamed: Int? = nil) throws -> Data {
    var entries = Self.entries
    if let renamed { entries[renamed].name = "B" }
    let encoder = JSONEncoder()
    encoder.outputFormatting = formatting
    return try encoder.encode(entries)
  }

  /// A file of `format` whose `items` is `blob`.
  static func file(_ blob: Data, _ format: Format = .xml) throws -> String {
    String(decoding: try format.encode(.dictionary(["items": .data(blob)])), as: UTF8.self)
  }

  /// `Samples/Items.plist` with its first item renamed `Shopping`, made as a user
  /// would: converted with --expand-data, edited, converted back.
  func renamedItems(in folder: TestFolder) throws -> String {
    let expanded = try TestSupport.prefs(["convert", items.path, "--expand-data"])
    #expect(expanded.status == 0 && expanded.stderr == "", "\(expanded.stderr)")
    try folder.write(
      "renamed.yaml", expanded.stdout.replacingOccurrences(of: "name: Groceries", with: "name: Shopping"))
    let back = try TestSupport.prefs(["convert", folder.path("renamed.yaml"), "-o", folder.path("renamed.plist")])
    #expect(back.status == 0, "\(back.stderr)")
    return folder.path("renamed.plist")
  }

  /// The items blob of a plist file.
  func blob(_ path: String) throws -> Data {
    let value = try Format.read(Data(contentsOf: URL(fileURLWithPath: path))).value
    guard case .data(let data)? = value.dictionaryValue?["items"] else {
      Issue.record("no items data in \(path)")
      return Data()
    }
    return data
  }

  @Test(arguments: ["yaml", "json"])
  func theItemsBlobRoundTripsByteForByte(format: String) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("items.\(format)").path
    let back = folder.appendingPathComponent("items.plist").path
    let expanded = try TestSupport.prefs(["convert", items.path, "--expand-data", "-o", text])
    #expect(expanded.status == 0, "\(expanded.stderr)")
    let shown = try String(contentsOfFile: text, encoding: .utf8)
    #expect(
      shown.contains(
        format == "yaml" ? "items: !json\n- description: Milk, eggs and bread / butter\n" : #""items": {"$json": ["#))
    #expect(try TestSupport.prefs(["convert", text, "-o", back]).status == 0)
    #expect(try blob(back) == blob(items.path))
    // The whole file too: prefs writes the XML UserDefaults wrote.
    #expect(try Data(contentsOf: URL(fileURLWithPath: back)) == Data(contentsOf: items))
  }

  @Test func exportExpandsAndImportRestoresTheDomain() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    #expect(try TestSupport.prefs(["import", "com.example.items", items.path], store: store).status == 0)
    let exported = try TestSupport.prefs(["export", "com.example.items", "--expand-data"], store: store)
    #expect(exported.status == 0)
    #expect(exported.stdout.hasPrefix("items: !json\n- description: "))
    #expect(
      try TestSupport.prefs(["import", "com.example.copy"], input: Data(exported.stdout.utf8), store: store).status == 0
    )
    #expect(try blob(store.appendingPathComponent("com.example.copy.plist").path) == blob(items.path))
    let plain = try TestSupport.prefs(["export", "com.example.items"], store: store)
    #expect(plain.stdout.hasPrefix("items: !!binary |\n"))
  }

  @Test func aBlobThatWouldNotComeBackExactlyStaysBinary() throws {
    let input = Data(#"{"spaced": {"$data": "eyJhIjogMX0="}, "compact": {"$data": "eyJhIjoxfQ=="}}"#.utf8)
    let result = try TestSupport.prefs(["convert", "-", "--expand-data"], input: input)
    #expect(result.status == 0)
    #expect(result.stdout == "spaced: !!binary eyJhIjogMX0=\ncompact: !json\n  a: 1\n")
    #expect(
      result.stderr
        == "prefs: warning: <stdout>: spaced is left as data: its JSON would not come back byte for byte "
        + "(spacing or escaping); diff, textconv and get show it as structure\n")
  }

  @Test func aBlobThatLooksLikeJSONButIsNotIsNamedWithWhyAndOpaqueDataIsNot() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    let input = Data(#"{"broken": {"$data": "e25vdA=="}, "icon": {"$data": "iVBORw=="}}"#.utf8)
    #expect(try TestSupport.prefs(["import", "com.example.blobs", "-"], input: input, store: store).status == 0)
    let result = try TestSupport.prefs(["export", "com.example.blobs", "--expand-data"], store: store)
    #expect(result.status == 0)
    #expect(result.stdout == "broken: !!binary e25vdA==\nicon: !!binary iVBORw==\n")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(result.stderr)")
    #expect(lines.first?.hasPrefix("prefs: warning: <stdout>: broken is left as data: it is not valid JSON: ") == true)
  }

  // MARK: diff

  @Test func diffNamesTheItemThatChangedInsideTheBlob() throws {
    let folder = try TestFolder()
    let renamed = try renamedItems(in: folder)
    let plain = try TestSupport.prefs(["diff", items.path, renamed])
    #expect(plain.status == 1)
    #expect(plain.stdout.hasPrefix("~ items: <5b7b"))
    let expanded = try TestSupport.prefs(["diff", items.path, renamed, "--expand-data"])
    #expect(expanded.status == 1)
    #expect(expanded.stdout == "~ items.0.name: \"Groceries\" -> \"Shopping\"\n")
    #expect(expanded.stderr == "")
    let excluded = try TestSupport.prefs(["diff", items.path, renamed, "--expand-data", "--exclude", "items.*.name"])
    #expect(excluded.status == 0 && excluded.stdout == "")
  }

  /// A blob as a plain `JSONEncoder` writes it (`\/`) against a pretty-printed one
  /// with an item renamed: one change, and a unified diff of both shown as structure.
  @Test func diffComparesBlobsInAnySpacingOrEscaping() throws {
    let folder = try TestFolder()
    let escaped = try folder.write("escaped.plist", try Self.file(try Self.blob([.sortedKeys])))
    let pretty = try folder.write(
      "pretty.json", try Self.file(try Self.blob([.sortedKeys, .prettyPrinted], renamed: 1), .json))
    let changes = try TestSupport.prefs(["diff", escaped, pretty, "--expand-data"])
    #expect(changes.status == 1)
    #expect(changes.stdout == "~ items.1.name: \"b\" -> \"B\"\n")
    let unified = try TestSupport.prefs(["diff", escaped, pretty, "--expand-data", "-u"])
    #expect(unified.status == 1)
    #expect(
      unified.stdout == """
        --- \(escaped)
        +++ \(pretty)
        @@ -3,5 +3,5 @@
           name: a
           url: https://example.com/a
         - id: "2"
        -  name: b
        +  name: B
           url: https://example.com/b

        """)
    #expect(unified.stderr == "")
    #expect(try TestSupport.prefs(["diff", escaped, pretty, "-u"]).stdout.contains("items: !!binary"))
    // The same structure in other bytes is still a change of the data.
    let respaced = try folder.write(
      "respaced.json", try Self.file(try Self.blob([.sortedKeys, .prettyPrinted]), .json))
    let same = try TestSupport.prefs(["diff", escaped, respaced, "--expand-data"])
    #expect(same.status == 1)
    #expect(same.stdout.hasPrefix("~ items: <5b7b"))
  }

  @Test func diffOfFoldersAndStreamsExpandsTooAndSaysWhichBlobStaysData() throws {
    let folder = try TestFolder()
    try FileManager.default.createDirectory(atPath: folder.path("old"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder.path("new"), withIntermediateDirectories: true)
    try folder.write("old/app.plist", try Self.file(try Self.blob([.sortedKeys])))
    try folder.write("new/app.json", try Self.file(try Self.blob([.sortedKeys], renamed: 0), .json))
    let folders = try TestSupport.prefs(["diff", folder.path("old"), folder.path("new"), "--expand-data"])
    #expect(folders.status == 1)
    #expect(
      folders.stdout
        == "diff \(folder.path("old/app.plist")) \(folder.path("new/app.json"))\n~ items.0.name: \"a\" -> \"B\"\n")

    let broken = Data("{not json".utf8).base64EncodedString()
    let blob = try Self.blob([.sortedKeys]).base64EncodedString()
    let renamed = try Self.blob([.sortedKeys], renamed: 1).base64EncodedString()
    let old = try folder.write("old.yaml", "k: 1\n---\nitems: !!binary \(blob)\nbad: !!binary e30=\n")
    let new = try folder.write("new.yaml", "k: 1\n---\nitems: !!binary \(renamed)\nbad: !!binary \(broken)\n")
    let streams = try TestSupport.prefs(["diff", old, new, "--expand-data"])
    #expect(streams.status == 1)
    #expect(streams.stdout.hasPrefix("~ [1] bad: <7b7d> -> <7b6e"))
    #expect(streams.stdout.hasSuffix("\n~ [1] items.1.name: \"b\" -> \"B\"\n"))
    #expect(streams.stderr.hasPrefix("prefs: warning: \(new): bad is left as data: it is not valid JSON: "))
    #expect(streams.stderr.split(separator: "\n").count == 1, "\(streams.stderr)")
  }
}
