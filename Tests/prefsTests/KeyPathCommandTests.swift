import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// Key paths in `get`, `set`, `remove` and `--exclude`: keys with dots, as macOS
/// domains are full of, and array indexes.
@Suite struct KeyPathCommandTests {
  /// A store holding a global domain with a key that has dots, and a file.
  final class Fixture {
    let url: URL
    var store: URL { url.appendingPathComponent("store") }
    init() throws {
      url = try TestSupport.temporaryFolder()
      _ = try prefs(["write", "-g", "com.apple.swipescrolldirection", "-bool", "true"])
      _ = try prefs(["write", "-g", "AppleLocale", "en_US"])
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func prefs(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      try TestSupport.prefs(arguments, store: store)
    }
    func global() throws -> String { try prefs(["export", "-g", "--format", "json", "--compact"]).stdout }
  }

  @Test func aKeyPathFindsAnExistingKeyWithDots() throws {
    let fixture = try Fixture()
    let get = try fixture.prefs(["get", "-g", "com.apple.swipescrolldirection"])
    #expect(get.status == 0, "\(get.stderr)")
    #expect(try fixture.prefs(["read-type", "-g", "com.apple.swipescrolldirection"]).stdout == "Type is boolean\n")
    // set changes that key, with or without -p, and never creates com: {apple: …} beside it.
    for extra in [[], ["-p"]] {
      let set = try fixture.prefs(["set", "-g", "com.apple.swipescrolldirection", "false", "-t", "bool"] + extra)
      #expect(set.status == 0, "\(set.stderr)")
      #expect(try fixture.global() == #"{"AppleLocale":"en_US","com.apple.swipescrolldirection":false}"# + "\n")
    }
    #expect(try fixture.prefs(["remove", "-g", "com.apple.swipescrolldirection"]).status == 0)
    #expect(try fixture.global() == #"{"AppleLocale":"en_US"}"# + "\n")
  }

  /// A key path that would nest past the readers' limit is refused at once, leaving
  /// the file as it was; one at the limit makes a file that reads back.
  @Test func setRefusesAKeyPathDeeperThanTheNestingLimit() throws {
    let folder = try TestFolder()
    let file = try folder.write("x.yaml", "a: 1\n")
    let deep = try TestSupport.prefs([
      "set", file, Array(repeating: "k", count: 20_000).joined(separator: "."), "v", "-p",
    ])
    #expect(deep.status == 65)
    #expect(
      deep.stderr == "prefs: error: \(file): nesting deeper than 512 levels (the key path has 20000 parts)\n")
    #expect(try folder.read("x.yaml") == "a: 1\n")
    let most = try TestSupport.prefs(["set", file, Array(repeating: "k", count: 512).joined(separator: "."), "v", "-p"])
    #expect(most.status == 0, "\(most.stderr)")
    #expect(try TestSupport.prefs(["get", file, "a"]).stdout == "1\n")
  }

  /// `get … -o FILE` writes the file, in the format its extension names.
  @Test func getWithAnOutputFileWritesIt() throws {
    let folder = try TestFolder()
    let file = try folder.write("x.yaml", "window: {width: 800}\n")
    let result = try TestSupport.prefs(["get", file, "window", "-o", folder.path("out.json")])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "")
    #expect(try folder.read("out.json") == "{\n  \"width\": 800\n}\n")
  }

  /// Standard input is patched as a file is: comments and layout stay.
  @Test func setOnStandardInputPatchesTheText() throws {
    let text = "# window\nwidth:   800  # px\nheight: 600\n"
    let result = try TestSupport.prefs(["set", "-", "width", "1024"], input: Data(text.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "# window\nwidth:   1024  # px\nheight: 600\n")
  }

  /// A missing file is an error naming --create, which makes it in its extension's format.
  @Test func setCreatesAMissingFileOnlyWhenToldTo() throws {
    let folder = try TestFolder()
    let missing = try TestSupport.prefs(["set", folder.path("new.yaml"), "a", "1", "-p"])
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("hint: --create makes the file\n"), "\(missing.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("new.yaml")))
    let created = try TestSupport.prefs(["set", folder.path("new.yaml"), "a.b", "1", "-p", "--create"])
    #expect(created.status == 0, "\(created.stderr)")
    #expect(try folder.read("new.yaml") == "a:\n  b: \"1\"\n")
  }

  /// `set` takes the type words of defaults, which its own hints suggest.
  @Test func setTakesTheTypeWordsOfDefaults() throws {
    let folder = try TestFolder()
    let file = try folder.write("x.yaml", "n: 1\nmode: narrow\n")
    let refused = try TestSupport.prefs(["set", file, "n", "wide"])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("-string wide"), "\(refused.stderr)")
    #expect(try TestSupport.prefs(["set", file, "n", "-string", "wide"]).status == 0)
    #expect(try TestSupport.prefs(["set", file, "mode", "-int", "3"]).status == 0)
    #expect(try TestSupport.prefs(["set", file, "blob", "-data", "0a1b"]).status == 0)
    #expect(try folder.read("x.yaml") == "n: wide\nmode: 3\nblob: !!binary Chs=\n")
    #expect(try TestSupport.prefs(["set", file, "n", "-int", "3", "--type", "string"]).status == 64)
  }

  @Test func aNewKeyWithDotsIsNeverNestedBesideDottedKeys() throws {
    let fixture = try Fixture()
    let before = try fixture.global()
    for extra in [[], ["-p"]] {
      let set = try fixture.prefs(["set", "-g", "com.apple.newkey", "1"] + extra)
      #expect(set.status == 66)
      #expect(
        set.stderr == """
          prefs: error: NSGlobalDomain: no key 'com' or 'com.apple.newkey' in the top level
          hint: 'com' is not a dictionary here, but keys such as 'com.apple.swipescrolldirection' are: \
          write 'com\\.apple\\.newkey' to set the key 'com.apple.newkey'

          """, "\(set.stderr)")
    }
    #expect(try fixture.global() == before)
    #expect(try fixture.prefs(["set", "-g", #"com\.apple\.newkey"#, "1"]).status == 0)
    #expect(try fixture.prefs(["get", "-g", "com.apple.newkey"]).stdout == "1\n")
  }

  @Test func missingKeysSuggestTheNearestKeyAndTheEscape() throws {
    let fixture = try Fixture()
    let typo = try fixture.prefs(["get", "-g", "com.apple.swipescrolldirectoin"])
    #expect(typo.status == 66)
    #expect(
      typo.stderr == """
        prefs: error: -g: no key 'com' or 'com.apple.swipescrolldirectoin' in the top level
        hint: did you mean 'com\\.apple\\.swipescrolldirection'?
        hint: a key with dots in its name is written with \\. ('com\\.apple\\.swipescrolldirectoin')

        """)
    let short = try fixture.prefs(["get", "-g", "AppleLocal"])
    #expect(
      short.stderr == "prefs: error: -g: no key 'AppleLocal' in the top level\nhint: did you mean 'AppleLocale'?\n")
  }

  @Test func excludePatternsMatchKeyPathsAsTyped() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("g.json")
    try Data(
      #"{"com.apple.a": 1, "com.apple.b": {"x": 2}, "com": {"apple": {"c": 3}}, "window": {"w": 4}, "keep": 5}"#.utf8
    ).write(to: file)
    for pattern in ["com.apple.*", #"com\.apple\.*"#] {
      let result = try TestSupport.prefs(["export", file.path, "--format", "json", "--compact", "--exclude", pattern])
      #expect(result.stdout == #"{"com":{"apple":{}},"keep":5,"window":{"w":4}}"# + "\n", "\(pattern)")
    }
    let window = try TestSupport.prefs(["export", file.path, "--format", "json", "--compact", "--exclude", "window.*"])
    #expect(window.stdout.contains(#""window":{}"#))
  }

  @Test func indexErrorsReadAlikeInGetSetAndRemove() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("s.json").path
    try Data(#"{"items": ["a", "b", "c"]}"#.utf8).write(to: URL(fileURLWithPath: file))
    let range = "(it has 3 items: 0 to 2, or -3 to -1)"
    for command in [["get", file, "items.7"], ["set", file, "items.7", "x"], ["remove", file, "items.7"]] {
      let result = try TestSupport.prefs(command)
      #expect(result.status == 66, "\(command)")
      #expect(result.stderr == "prefs: error: \(file): no index 7 in items \(range)\n", "\(command)")
    }
    for command in [["get", file, "items.x"], ["set", file, "items.x", "x"], ["remove", file, "items.x"]] {
      let result = try TestSupport.prefs(command)
      #expect(result.status == 66, "\(command)")
      #expect(result.stderr == "prefs: error: \(file): 'x' is not an index of items, an array \(range)\n")
    }
    // Negative indexes count from the end.
    #expect(try TestSupport.prefs(["get", file, "items.-1"]).stdout == "c\n")
    #expect(try TestSupport.prefs(["set", file, "items.-3", "A"]).status == 0)
    #expect(try TestSupport.prefs(["remove", file, "items.-2"]).status == 0)
    #expect(
      try TestSupport.prefs(["convert", file, "--to", "json", "--compact"]).stdout == #"{"items":["A","c"]}"# + "\n")
  }
}

/// What a file-first command (`get`, `set`, `remove`, `diff`, `lint`) takes its first
/// argument for, and what it says when the domain or file is not there.
@Suite struct FileOrDomainArgumentTests {
  @Test func aMistypedDomainNamesTheFileLookedForAndTheNearestDomain() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.acme.server", "port", "-int", "80"], store: store)
    for command in [["read", "com.acme.srever"], ["get", "com.acme.srever", "port"]] {
      let result = try TestSupport.prefs(command, store: store)
      #expect(result.status == 66)
      #expect(
        result.stderr == """
          prefs: error: com.acme.srever: no such domain (there is no \(store.path)/com.acme.srever.plist)
          hint: did you mean 'com.acme.server'?
          hint: 'prefs domains' lists the domains there are

          """, "\(command)")
    }
    let key = try TestSupport.prefs(["get", "com.acme.server", "prot"], store: store)
    #expect(key.status == 66)
    #expect(key.stderr == "prefs: error: com.acme.server: no key 'prot' in the top level\nhint: did you mean 'port'?\n")
  }

  @Test(arguments: ["App.entitlements", "x.mobileconfig", "project.pbxproj", "Settings"])
  func aBareNameThatIsAFileHereIsAFile(name: String) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = folder.appendingPathComponent("store")
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>k</key><string>v</string></dict></plist>

      """
    try Data(plist.utf8).write(to: folder.appendingPathComponent(name))
    try Data(plist.utf8).write(to: folder.appendingPathComponent("other.plist"))
    func run(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      try TestSupport.prefs(arguments, in: folder, store: store)
    }
    #expect(try run(["get", name, "k"]).stdout == "v\n")
    #expect(try run(["lint", name]).status == 0)
    #expect(try run(["diff", name, "other.plist"]).status == 0)
    #expect(try run(["set", name, "k", "w"]).status == 0)
    #expect(try run(["get", name, "k"]).stdout == "w\n")
    #expect(try run(["diff", name, "other.plist"]).stdout == "~ k: \"w\" -> \"v\"\n")
    #expect(try run(["remove", name, "k"]).status == 0)
    // Nothing went to the store.
    #expect(!FileManager.default.fileExists(atPath: store.path))
  }

  @Test func jsonInAPlistFileGetsAHintToReadItAsJSON() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("j.plist").path
    try Data(#"{"a": 1}"#.utf8).write(to: URL(fileURLWithPath: file))
    let result = try TestSupport.prefs(["get", file, "a"])
    #expect(result.status == 65)
    #expect(
      result.stderr.hasSuffix(
        "\nhint: the file holds JSON, not a property list: read it with --from json, or rename it to .json\n"))
    #expect(try TestSupport.prefs(["get", file, "a", "--from", "json"]).stdout == "1\n")
  }
}

/// Output options that must not be silently ignored, and `get`'s output.
@Suite struct OutputAgreementTests {
  @Test func getPrintsBooleansAsWordsAndTakesTo() throws {
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.plist").path
    #expect(try TestSupport.prefs(["get", sample, "isAccountPrivate"]).stdout == "true\n")
    #expect(try TestSupport.prefs(["get", sample, "isAccountPrivate", "--to", "json"]).stdout == "true\n")
    #expect(try TestSupport.prefs(["get", sample, "ringtone", "--to", "yaml"]).stdout == "Chimes\n")
    #expect(try TestSupport.prefs(["get", sample, "isAccountPrivate", "--to", "xml"]).stdout.contains("\n<true/>\n"))
    // read stays as defaults read prints it.
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "d", "b", "-bool", "yes"], store: store)
    #expect(try TestSupport.prefs(["read", "d", "b"], store: store).stdout == "1\n")
  }

  @Test func plainAndCompactAreRefusedForOutputOtherThanJSON() throws {
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.plist").path
    for arguments in [["convert", sample, "--compact"], ["convert", sample, "--to", "xml", "--plain"]] {
      let result = try TestSupport.prefs(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stdout == "")
      #expect(result.stderr.contains("shapes JSON output, and this output is "), "\(result.stderr)")
    }
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "d", "k", "v"], store: store)
    let export = try TestSupport.prefs(["export", "d", "--compact"], store: store)
    #expect(export.status == 64)
    #expect(export.stderr.hasPrefix("prefs: error: --compact shapes JSON output, and this output is yaml\n"))
    #expect(
      try TestSupport.prefs(["export", "d", "--compact", "--format", "json"], store: store).stdout == #"{"k":"v"}"#
        + "\n")
  }
}

extension KeyPathCommandTests {
  /// A plist whose root is an array (a Munki catalog, Xcode's code snippets) is a file
  /// like any other: key paths start with an index, as `plutil -replace 0.key` takes
  /// them, and get, set, remove, diff and merge work on it, patching its text; a
  /// domain named by its name stays a dictionary.
  @Test func aFileWhoseRootIsAnArrayTakesKeyPathsThatStartWithAnIndex() throws {
    let folder = try TestFolder()
    let catalog = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <array>
      \t<dict>
      \t\t<key>name</key>
      \t\t<string>Firefox</string>
      \t\t<key>version</key>
      \t\t<string>120</string>
      \t</dict>
      \t<dict>
      \t\t<key>name</key>
      \t\t<string>Slack</string>
      \t</dict>
      </array>
      </plist>

      """
    let file = try folder.write("catalog.plist", catalog)
    try folder.write("base.plist", catalog)
    #expect(try TestSupport.prefs(["get", file, "1.name"]).stdout == "Slack\n")
    let set = try TestSupport.prefs(["set", file, "0.version", "121"])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(set.stderr == "")
    #expect(try folder.read("catalog.plist") == catalog.replacingOccurrences(of: "120", with: "121"))
    #expect(try TestSupport.prefs(["set", file, "1.version", "5", "--type", "integer"]).status == 0)
    #expect(try TestSupport.prefs(["remove", file, "1.name"]).status == 0)
    let diff = try TestSupport.prefs(["diff", folder.path("base.plist"), file])
    #expect(diff.status == 1)
    #expect(diff.stdout == "~ 0.version: \"120\" -> \"121\"\n- 1.name: \"Slack\"\n+ 1.version: 5\n")
    // Three versions of an array-rooted file merge by value.
    let other = try folder.write("other.plist", catalog.replacingOccurrences(of: "Slack", with: "Slack Beta"))
    let merged = try TestSupport.prefs([
      "merge", folder.path("base.plist"), folder.path("base.plist"), other, "-o", "-",
    ])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout == catalog.replacingOccurrences(of: "Slack", with: "Slack Beta"))
    // A domain is a dictionary: one that holds an array is refused, as before.
    let store = folder.url.appendingPathComponent("store")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    try folder.write("store/com.example.list.plist", catalog)
    let domain = try TestSupport.prefs(["write", "com.example.list", "k", "v"], store: store)
    #expect(domain.status == 65)
    #expect(domain.stderr.hasPrefix("prefs: error: "))
    #expect(domain.stderr.contains("the domain holds an array, not a dictionary\n"))
  }
}

/// `--expand-data`: key paths that go on into data holding JSON or a binary plist, as
/// the tutorial's items are kept.
extension KeyPathCommandTests {
  static let items = TestSupport.packageRoot.appendingPathComponent("Samples/Items.plist").path

  /// The text of the data at `key` in the file at `path`.
  static func blob(_ path: String, key: String = "items") throws -> String {
    let value = try Format.read(Data(contentsOf: URL(fileURLWithPath: path))).value
    guard case .data(let data)? = value.dictionaryValue?[key] else { return "" }
    return String(decoding: data, as: UTF8.self)
  }

  @Test(arguments: ["xml", "binary", "yaml", "json"])
  func getSetAndRemoveGoIntoTheItemsData(format: String) throws {
    let folder = try TestFolder()
    let file = folder.path("items.\(format == "binary" ? "plist" : format)")
    #expect(try TestSupport.prefs(["convert", Self.items, "--to", format, "-o", file]).status == 0)
    let original = try Self.blob(file)
    #expect(try TestSupport.prefs(["get", file, "items.0.name", "--expand-data"]).stdout == "Groceries\n")
    #expect(
      try TestSupport.prefs(["get", file, "items.1", "--expand-data", "--to", "json"]).stdout
        == "{\n  \"description\": \"Pay \\\"Chez Léa\\\"\",\n  \"id\": \"6BA7B810-9DAD-11D1-80B4-00C04FD430C8\",\n"
        + "  \"name\": \"Café\"\n}\n")

    let set = try TestSupport.prefs(["set", file, "items.0.name", "Food / drink", "--expand-data"])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(set.stderr == "")
    // The blob changed at that name alone, and the file only in the data's bytes: it is
    // what the format's writer writes for the new value.
    #expect(try Self.blob(file) == original.replacingOccurrences(of: "Groceries", with: "Food / drink"))
    let written = try TestSupport.prefs(["convert", file, "--to", format, "-o", folder.path("rewritten")])
    #expect(written.status == 0)
    #expect(try folder.data("rewritten") == Data(contentsOf: URL(fileURLWithPath: file)))

    let remove = try TestSupport.prefs(["remove", file, "items.1", "--expand-data"])
    #expect(remove.status == 0, "\(remove.stderr)")
    let names = try TestSupport.prefs(["get", file, "items", "--expand-data"])
    #expect(names.stdout.contains("name: Food / drink\n"))
    #expect(!names.stdout.contains("Café"))
    #expect(try Self.blob(file).components(separatedBy: #""id":"#).count == 3)
  }

  @Test func aDomainsDataTakesKeyPathsToo() throws {
    let store = try TestFolder()
    let imported = try TestSupport.prefs(["import", "com.example.items", Self.items], store: store.url)
    #expect(imported.status == 0, "\(imported.stderr)")
    let set = try TestSupport.prefs(
      ["set", "com.example.items", "items.2.name", "Tabs", "--expand-data", "--defaults-dir", store.url.path])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(try Self.blob(store.path("com.example.items.plist")).hasSuffix(#""name":"Tabs"}]"#))
    #expect(
      try TestSupport.prefs(["get", "com.example.items", "items.2.name", "--expand-data"], store: store.url).stdout
        == "Tabs\n")
  }

  @Test func standardInputIsPatchedInsideTheData() throws {
    let input = try Data(contentsOf: URL(fileURLWithPath: Self.items))
    let set = try TestSupport.prefs(["set", "-", "items.1.name", "Cafe", "--expand-data"], input: input)
    #expect(set.status == 0, "\(set.stderr)")
    let get = try TestSupport.prefs(["get", "-", "items.1.name", "--expand-data"], input: Data(set.stdout.utf8))
    #expect(get.stdout == "Cafe\n")
  }

  @Test func withoutTheOptionAPathIntoTheDataNamesIt() throws {
    let folder = try TestFolder()
    let file = folder.path("Items.plist")
    try FileManager.default.copyItem(atPath: Self.items, toPath: file)
    for arguments in [
      ["get", file, "items.0.name"], ["set", file, "items.0.name", "x"], ["remove", file, "items.0"],
    ] {
      let result = try TestSupport.prefs(arguments)
      #expect(result.status == 66)
      #expect(
        result.stderr
          == "prefs: error: \(file): items is a data, which has no '0'\n"
          + "hint: the data holds JSON: --expand-data goes on into it\n")
    }
    #expect(try folder.data("Items.plist") == Data(contentsOf: URL(fileURLWithPath: Self.items)))
  }

  @Test func dataLeftAsDataSaysWhy() throws {
    let folder = try TestFolder()
    let file = try folder.write("broken.json", #"{"items": {"$data": "W3siYSI6"}}"#)
    let result = try TestSupport.prefs(["set", file, "items.0.a", "1", "--expand-data"])
    #expect(result.status == 66)
    #expect(result.stderr.hasPrefix("prefs: error: \(file): items is a data, which has no '0'\n"))
    #expect(result.stderr.contains("hint: it stays data: it is not valid JSON: "))
  }
}

extension KeyPathCommandTests {
  /// iTerm2's preferences keep an NSKeyedArchiver binary plist as data, in base64
  /// lines that are not the ones the XML writer would give: a change inside it
  /// changes only the lines of base64 that differ.
  @Test(
    .enabled(if: TestSupport.hasCorpus("plist/real-world"), "the corpus at ../shared/corpus is absent"))
  func aChangeInsideITermsArchivedDataChangesOnlyItsBase64() throws {
    let source = try #require(TestSupport.corpus("plist/real-world"))
      .appendingPathComponent("com.googlecode.iterm2__fnichol.plist")
    let folder = try TestFolder()
    let original = try String(contentsOf: source, encoding: .utf8)
    let file = try folder.write("com.googlecode.iterm2.plist", original)
    let key = "NSTableView Sort Ordering v2 KeyBingingTable"
    #expect(try TestSupport.prefs(["get", file, "\(key).$archiver", "--expand-data"]).stdout == "NSKeyedArchiver\n")
    let set = try TestSupport.prefs(["set", file, "\(key).$version", "100001", "--expand-data"])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(try TestSupport.prefs(["get", file, "\(key).$version", "--expand-data"]).stdout == "100001\n")
    let before = original.split(separator: "\n", omittingEmptySubsequences: false)
    let after = try folder.read("com.googlecode.iterm2.plist").split(separator: "\n", omittingEmptySubsequences: false)
    #expect(before.count == after.count)
    let changed = zip(before, after).filter { $0 != $1 }
    #expect(changed.count == 1)
    #expect(changed.allSatisfy { $0.0.hasPrefix("\t") && $0.1.hasPrefix("\t") })
  }
}

extension KeyPathCommandTests {
  /// An export that shows the items as structure (`items: !json`) keeps showing them so.
  @Test func setInsideDataShownAsStructureKeepsTheStructure() throws {
    let folder = try TestFolder()
    let file = folder.path("items.yaml")
    #expect(try TestSupport.prefs(["convert", Self.items, "--expand-data", "-o", file]).status == 0)
    let before = try folder.read("items.yaml")
    let set = try TestSupport.prefs(["set", file, "items.1.name", "Tea", "--expand-data"])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(try folder.read("items.yaml") == before.replacingOccurrences(of: "name: Café", with: "name: Tea"))
  }
}
