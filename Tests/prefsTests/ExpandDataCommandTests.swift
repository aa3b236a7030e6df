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
  static func file(_ blob: Data, _ format: Format = .xml) throws -> Data {
    try format.encode(.dictionary(["items": .data(blob)]))
  }

  /// Writes `data` to `path` and returns the path.
  @discardableResult
  static func write(_ data: Data, to path: String) throws -> String {
    try data.write(to: URL(fileURLWithPath: path))
    return path
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
    let escaped = try Self.write(try Self.file(try Self.blob([.sortedKeys])), to: folder.path("escaped.plist"))
    let pretty = try Self.write(
      try Self.file(try Self.blob([.sortedKeys, .prettyPrinted], renamed: 1), .json), to: folder.path("pretty.json"))
    let changes = try TestSupport.prefs(["diff", escaped, pretty, "--expand-data"])
    #expect(changes.status == 1)
    #expect(changes.stdout == "~ items.1.name: \"b\" -> \"B\"\n")
    let unified = try TestSupport.prefs(["diff", escaped, pretty, "--expand-data", "-u"])
    #expect(unified.status == 1)
    let note = " bytes in their own spacing or escaping, SHA-1 "
    let lines = unified.stdout.split(separator: "\n")
    #expect(
      lines.prefix(9).joined(separator: "\n") == """
        --- \(escaped)
        +++ \(pretty)
        @@ -3,6 +3,6 @@
           name: a
           url: https://example.com/a
         - id: "2"
        -  name: b
        +  name: B
           url: https://example.com/b
        """)
    // Neither blob is JSON as prefs writes it: each side's text notes its bytes.
    #expect(lines.count == 11)
    #expect(lines.dropFirst(9).first?.hasPrefix("-# items: \(try Self.blob([.sortedKeys]).count)\(note)") == true)
    #expect(lines.last?.hasPrefix("+# items: \(try Self.blob([.sortedKeys, .prettyPrinted]).count)\(note)") == true)
    #expect(unified.stderr == "")
    #expect(try TestSupport.prefs(["diff", escaped, pretty, "-u"]).stdout.contains("items: !!binary"))
    // The same structure in other bytes is still a change of the data.
    let respaced = try Self.write(
      try Self.file(try Self.blob([.sortedKeys, .prettyPrinted]), .json), to: folder.path("respaced.json"))
    let same = try TestSupport.prefs(["diff", escaped, respaced, "--expand-data"])
    #expect(same.status == 1)
    #expect(same.stdout.hasPrefix("~ items: <5b7b"))
  }

  @Test func diffOfFoldersAndStreamsExpandsTooAndSaysWhichBlobStaysData() throws {
    let folder = try TestFolder()
    try FileManager.default.createDirectory(atPath: folder.path("old"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder.path("new"), withIntermediateDirectories: true)
    try Self.write(try Self.file(try Self.blob([.sortedKeys])), to: folder.path("old/app.plist"))
    try Self.write(try Self.file(try Self.blob([.sortedKeys], renamed: 0), .json), to: folder.path("new/app.json"))
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

  // MARK: textconv

  @Test func textconvShowsBlobsInAnySpacingOrEscapingAsStructure() throws {
    let folder = try TestFolder()
    let items = try TestSupport.prefs(["textconv", self.items.path, "--expand-data"])
    #expect(items.status == 0 && items.stderr == "")
    #expect(items.stdout.hasPrefix("items: !json\n- description: Milk, eggs and bread / butter\n"))
    #expect(!items.stdout.contains("\n#"), "an exact blob needs no note: its structure gives its bytes")
    #expect(try TestSupport.prefs(["textconv", self.items.path]).stdout.hasPrefix("items: !!binary |\n"))

    let escaped = try Self.blob([.sortedKeys])
    let pretty = try Self.blob([.sortedKeys, .prettyPrinted])
    let file = try folder.write(
      "two.json",
      String(decoding: try Self.file(escaped, .json), as: UTF8.self).replacingOccurrences(
        of: "\"items\"", with: "\"escaped\""))
    let both = try TestSupport.prefs(["textconv", file, "--expand-data"])
    #expect(both.status == 0 && both.stderr == "")
    let structure =
      "- id: \"1\"\n  name: a\n  url: https://example.com/a\n- id: \"2\"\n  name: b\n  url: https://example.com/b\n"
    #expect(both.stdout.hasPrefix("escaped: !json\n" + structure))
    let plist = try Self.write(try Self.file(pretty, .binary), to: folder.path("pretty.plist"))
    let shown = try TestSupport.prefs(["textconv", plist, "--expand-data"])
    #expect(shown.stdout.hasPrefix("items: !json\n" + structure))
    // Its bytes are not what the structure gives back: a note with their digest says so.
    let note = "# items: \(pretty.count) bytes in their own spacing or escaping, SHA-1 "
    let last = try #require(shown.stdout.split(separator: "\n").last)
    #expect(last.hasPrefix(note) && last.count == note.count + 16, "\(last)")
  }

  @Test func textconvSaysWhichBlobStaysDataAndWhy() throws {
    let folder = try TestFolder()
    let file = try folder.write(
      "bad.yaml", "bad: !!binary \(Data("[1,".utf8).base64EncodedString())\nicon: !!binary iVBORw==\n")
    let result = try TestSupport.prefs(["textconv", file, "--expand-data"])
    #expect(result.status == 0)
    #expect(result.stdout == "bad: !!binary WzEs\nicon: !!binary iVBORw==\n")
    #expect(result.stderr.hasPrefix("prefs: warning: \(file): bad is left as data: it is not valid JSON: "))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func aNoteIsOneCommentLineWhateverItsKeyHolds() throws {
    let folder = try TestFolder()
    let file = try folder.write("key.yaml", "\"a\\nb\": !!binary \(Data(#"{"a": 1}"#.utf8).base64EncodedString())\n")
    let result = try TestSupport.prefs(["textconv", file, "--expand-data"])
    #expect(
      result.stdout.hasSuffix(
        "\n: !json\n  a: 1\n# a\\x0Ab: 8 bytes in their own spacing or escaping, SHA-1 e4ad4daad53a2eec\n"))
  }

  /// `git diff` and `git log -p` of an items plist, with textconv given --expand-data:
  /// the renamed item, in a blob as a plain `JSONEncoder` writes it and in a
  /// pretty-printed one; a blob respaced alone still shows as changed.
  @Test(.enabled(if: MergeCommandTests.git != nil, "git is not installed"))
  func gitDiffAndLogShowTheItemThatChangedInsideABlob() throws {
    let repo = try MergeCommandTests.Repository(git: try #require(MergeCommandTests.git))
    #expect(try repo.prefs(["git-setup", "--textconv", "plist"]).status == 0)
    try repo.run(["config", "diff.prefs-yaml.textconv", "prefs textconv --expand-data"])
    func commit(_ escaped: Data, _ pretty: Data, _ message: String) throws {
      try Self.write(try Self.file(escaped), to: repo.path("escaped.plist"))
      try Self.write(try Self.file(pretty, .binary), to: repo.path("pretty.plist"))
      try repo.run(["add", "-A"])
      #expect(try repo.run(["commit", "-q", "-m", message]).status == 0)
    }
    try commit(try Self.blob([.sortedKeys]), try Self.blob([.sortedKeys, .prettyPrinted]), "base")
    try commit(
      try Self.blob([.sortedKeys], renamed: 1), try Self.blob([.sortedKeys, .prettyPrinted], renamed: 0), "rename")
    /// The lines a diff adds and removes, and of those the notes of blobs' bytes.
    func changedLines(_ diff: String) -> (items: [Substring], notes: [Substring]) {
      let lines = diff.split(separator: "\n").filter {
        ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---")
      }
      let isNote = { (line: Substring) in line.dropFirst().hasPrefix("# items: ") }
      return (lines.filter { !isNote($0) }, lines.filter(isNote))
    }
    let log = try repo.run(["log", "-p", "-1", "--format="])
    #expect(log.status == 0 && log.stderr == "", "\(log.stderr)")
    let renamed = changedLines(log.stdout)
    #expect(renamed.items == ["-  name: b", "+  name: B", "-  name: a", "+  name: B"], "\(log.stdout)")
    #expect(renamed.notes.count == 4, "both blobs are not as prefs writes JSON: \(log.stdout)")

    // The escaped blob written compact again, the same structure: git diff still shows it.
    try Self.write(
      try Self.file(try Self.blob([.sortedKeys, .prettyPrinted], renamed: 1)), to: repo.path("escaped.plist"))
    #expect(try repo.run(["status", "--porcelain"]).stdout == " M escaped.plist\n")
    let respaced = try repo.run(["diff"])
    #expect(respaced.status == 0 && respaced.stderr == "")
    #expect(changedLines(respaced.stdout).items == [])
    #expect(changedLines(respaced.stdout).notes.count == 2, "\(respaced.stdout)")
  }

  // MARK: edit

  /// Runs `prefs edit ARGUMENTS` with an editor script that keeps what it was given in
  /// `seen` and runs `script` on the file (`$1`).
  func edit(_ arguments: [String], in folder: TestFolder, script: String) throws -> TestSupport.ProcessResult {
    let editor = try folder.write("editor.sh", "#!/bin/sh\ncp \"$1\" '\(folder.path("seen"))'\n\(script)\n")
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor)
    return try TestSupport.prefs(
      ["edit"] + arguments, store: folder.url, environment: ["EDITOR": editor, "VISUAL": ""])
  }

  /// A binary plist whose blobs are JSON as a plain `JSONEncoder` writes it and as a
  /// pretty-printing one does: the editor sees both as structure, the renamed item's
  /// blob keeps its escaping and spacing, and the other keeps its bytes.
  @Test func editOpensBlobsAsStructureAndWritesThemBackInTheirOwnStyle() throws {
    let folder = try TestFolder()
    let escaped = try Self.blob([.sortedKeys])
    let pretty = try Self.blob([.sortedKeys, .prettyPrinted])
    let file = try Self.write(
      try Format.binary.encode(.dictionary(["escaped": .data(escaped), "pretty": .data(pretty)])),
      to: folder.path("app.plist"))
    let result = try edit([file, "--expand-data"], in: folder, script: "sed -i '0,/name: b/s//name: B/' \"$1\"")
    #expect(result.status == 0 && result.stderr == "", "\(result.stderr)")
    #expect(try folder.read("seen").hasPrefix("escaped: !json\n- id: \"1\"\n  name: a\n  url: https://example.com/a\n"))
    let written = try Format.read(try folder.data("app.plist")).value.dictionaryValue
    #expect(written?["escaped"] == .data(try Self.blob([.sortedKeys], renamed: 1)))
    #expect(written?["pretty"] == .data(pretty))

    // Saved unchanged: nothing is written.
    let before = try folder.data("app.plist")
    let unchanged = try edit([file, "--expand-data"], in: folder, script: "true")
    #expect(unchanged.status == 0)
    #expect(unchanged.stderr == "prefs: no changes; nothing was written\n")
    #expect(try folder.data("app.plist") == before)
  }

  @Test func editOfAYAMLFileRefusesExpandedData() throws {
    let folder = try TestFolder()
    let file = try folder.write("app.yaml", "# mine\nitems: !!binary e30=\n")
    let result = try edit([file, "--expand-data"], in: folder, script: "echo 'x: 1' >> \"$1\"")
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("prefs: error: a YAML file is edited as its own text"))
    #expect(try folder.read("app.yaml") == "# mine\nitems: !!binary e30=\n")
  }

  // MARK: A real file

  static let terminal = "plist/real-world/com.apple.Terminal__joshtronic.plist"

  /// Terminal's preferences, a binary plist whose profiles hold fonts and colours as
  /// keyed archives (binary plists in data): textconv shows them as structure, an edit
  /// of one font's size changes that blob alone, and git diff, with textconv given
  /// --expand-data, shows that one size.
  @Test(
    .enabled(if: TestSupport.hasCorpus("plist"), "the plist corpus is absent"),
    .enabled(if: MergeCommandTests.git != nil, "git is not installed"))
  func terminalsArchivedFontsAreShownEditedAndDiffedAsStructure() throws {
    let original = try #require(TestSupport.corpus(Self.terminal))
    let repo = try MergeCommandTests.Repository(git: try #require(MergeCommandTests.git))
    #expect(try repo.prefs(["git-setup"]).status == 0)
    try repo.run(["config", "diff.prefs.textconv", "prefs textconv --binary-only --expand-data"])
    let file = repo.path("com.apple.Terminal.plist")
    try Self.write(try Data(contentsOf: original), to: file)
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "Terminal"])

    let shown = try repo.prefs(["textconv", "com.apple.Terminal.plist", "--expand-data"])
    #expect(shown.status == 0 && shown.stderr == "")
    #expect(shown.stdout.contains("\n    Font: !plist\n      $version: 100000\n      $objects:\n      - $null\n"))
    // Apple's archives are not byte for byte what prefs writes: each is noted, and
    // convert, which writes a file to read back, leaves each as data and says so.
    let notes = shown.stdout.split(separator: "\n").filter { $0.hasPrefix("# Window Settings.") }
    #expect(!notes.isEmpty)
    let converted = try repo.prefs(["convert", "com.apple.Terminal.plist", "--expand-data"])
    #expect(converted.status == 0)
    #expect(converted.stderr.split(separator: "\n").count == notes.count)

    let folder = try TestFolder()
    let edited = try edit(
      [file, "--expand-data"], in: folder, script: "sed -i '0,/NSSize: 11.0/s//NSSize: 12.0/' \"$1\"")
    #expect(edited.status == 0 && edited.stderr == "", "\(edited.stderr)")
    let diff = try repo.prefs(["diff", original.path, "com.apple.Terminal.plist", "--expand-data"])
    #expect(diff.stdout == "~ Window Settings.Silver Aerogel.Font.$objects.1.NSSize: 11.0 -> 12.0\n")

    let gitDiff = try repo.run(["diff"])
    #expect(gitDiff.status == 0 && gitDiff.stderr == "")
    let changed = gitDiff.stdout.split(separator: "\n").filter {
      ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---")
    }
    // The other archives keep their bytes, and so their notes.
    #expect(changed == ["-      - NSSize: 11.0", "+      - NSSize: 12.0"], "\(gitDiff.stdout)")
  }

  /// Every real plist of the corpus: textconv --expand-data succeeds, and a file
  /// without a blob that holds structure prints what textconv prints without it.
  @Test(.enabled(if: TestSupport.hasCorpus("plist/real-world"), "the plist corpus is absent"))
  func textconvOfEveryRealPlistWithDataExpandedChangesOnlyItsBlobs() throws {
    let folder = try #require(TestSupport.corpus("plist/real-world"))
    var expanded = 0
    for file in TestSupport.files(in: folder) where file.pathExtension == "plist" {
      let plain = try TestSupport.prefs(["textconv", file.path])
      let shown = try TestSupport.prefs(["textconv", file.path, "--expand-data"])
      #expect(shown.status == 0, "\(file.lastPathComponent): \(shown.stderr)")
      if shown.stdout.contains(": !json") || shown.stdout.contains(": !plist") {
        expanded += 1
      } else {
        #expect(shown.stdout == plain.stdout, "\(file.lastPathComponent)")
      }
    }
    #expect(expanded > 0, "the corpus holds Terminal's and iTerm2's archived fonts and colours")
  }
}
