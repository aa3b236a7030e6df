import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// diff, key path edits and dry runs: what keeping settings in git needs.
@Suite struct VersionControlCommandTests {
  @Test func diffPrintsOneLinePerChangeAndExits1() throws {
    let folder = try TestFolder()
    try folder.write("a.json", #"{"isAccountPrivate": true, "ringtone": "Chimes", "items": [{"name": "a"}]}"#)
    try folder.write("b.json", #"{"isAccountPrivate": "false", "items": [{"name": "b"}, {"name": "x"}], "u": 1}"#)
    let result = try TestSupport.prefs(["diff", folder.path("a.json"), folder.path("b.json")])
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        ~ isAccountPrivate: true (bool) -> "false" (string)
        ~ items.0.name: "a" -> "b"
        + items.1: {"name": "x"}
        - ringtone: "Chimes"
        + u: 1

        """)
    let excluded = try TestSupport.prefs(
      ["diff", folder.path("a.json"), folder.path("b.json"), "--exclude", "items*", "--exclude", "u"])
    #expect(excluded.stdout.split(separator: "\n").count == 2)
  }

  @Test func diffShowsArrayChangesAsInsertsAndDeletesOnTheAlignment() throws {
    let folder = try TestFolder()
    try folder.write("a.yaml", "list: [a, b, c]\nitems: [{name: x}, {name: y, size: 2}, {name: z}]\n")
    try folder.write("b.yaml", "list: [b, c, d]\nitems: [{name: x}, {name: y, size: 3}]\n")
    let result = try TestSupport.prefs(["diff", folder.path("a.yaml"), folder.path("b.yaml")])
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        ~ items.1.size: 2 -> 3
        - items.2: {"name": "z"}
        - list.0: "a"
        + list.2: "d"

        """)
  }

  @Test func aPlistAndItsConversionAreTheSame() throws {
    let folder = try TestFolder()
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.plist").path
    for format in ["json", "binary", "xml"] {
      let out = folder.path("converted.\(format)")
      #expect(try TestSupport.prefs(["convert", sample, "--to", format, "-o", out]).status == 0)
      let same = try TestSupport.prefs(["diff", sample, out])
      #expect(same.status == 0, "\(format): \(same.stdout)\(same.stderr)")
      #expect(same.stdout == "")
    }
  }

  @Test func integerAndRealAreDifferent() throws {
    let folder = try TestFolder()
    try folder.write("a.json", #"{"n": 1}"#)
    try folder.write("b.json", #"{"n": 1.0}"#)
    let result = try TestSupport.prefs(["diff", folder.path("a.json"), folder.path("b.json")])
    #expect(result.status == 1)
    #expect(result.stdout == "~ n: 1 (integer) -> 1.0 (real)\n")
  }

  @Test func diffErrorsUseTheCommonExitCodes() throws {
    let folder = try TestFolder()
    try folder.write("a.json", "{}")
    #expect(try TestSupport.prefs(["diff", folder.path("a.json"), folder.path("missing.json")]).status == 66)
    try folder.write("bad.json", "{")
    let bad = try TestSupport.prefs(["diff", folder.path("a.json"), folder.path("bad.json")])
    #expect(bad.status == 65)
    #expect(bad.stderr.hasPrefix("prefs: error: \(folder.path("bad.json")):1:2:"))
  }

  @Test func keyPathEditsKeepTheFormatAndKeyOrder() throws {
    let folder = try TestFolder()
    try folder.write("s.json", #"{"z": 1, "a": {"list": [1, 2]}, "m": "x"}"#)
    #expect(try TestSupport.prefs(["get", folder.path("s.json"), "a.list.1"]).stdout == "2\n")
    #expect(
      try TestSupport.prefs(["set", folder.path("s.json"), "a.list.2", "3", "--type", "integer"]).status == 0)
    #expect(try TestSupport.prefs(["set", folder.path("s.json"), "new.inner", "v", "-p"]).status == 0)
    #expect(try TestSupport.prefs(["set", folder.path("s.json"), "dotted\\.key", "yes", "--type", "bool"]).status == 0)
    #expect(try TestSupport.prefs(["remove", folder.path("s.json"), "m"]).status == 0)
    // Only what changed changes: the one-line object stays one line, in its spacing.
    #expect(
      try folder.read("s.json") == #"{"z": 1, "a": {"list": [1, 2, 3]}, "new": {"inner": "v"}, "dotted.key": true}"#)
  }

  @Test(arguments: ["xml", "binary"])
  func keyPathEditsOnPlists(format: String) throws {
    let folder = try TestFolder()
    let file = folder.path("s.plist")
    try folder.write("in.json", #"{"a": {"b": 1}}"#)
    #expect(try TestSupport.prefs(["convert", folder.path("in.json"), "--to", format, "-o", file]).status == 0)
    #expect(try TestSupport.prefs(["set", file, "a.c", "2.5", "--type", "real"]).status == 0)
    #expect(try TestSupport.prefs(["get", file, "a.c"]).stdout == "2.5\n")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(bytes.starts(with: Array((format == "binary" ? "bplist00" : "<?xml").utf8)))
  }

  @Test func missingKeyPathsExit66() throws {
    let folder = try TestFolder()
    try folder.write("s.json", #"{"a": {"b": 1}}"#)
    let get = try TestSupport.prefs(["get", folder.path("s.json"), "a.c"])
    #expect(get.status == 66)
    #expect(get.stderr == "prefs: error: \(folder.path("s.json")): no key 'c' in a\nhint: did you mean 'a.b'?\n")
    let set = try TestSupport.prefs(["set", folder.path("s.json"), "x.y", "1"])
    #expect(set.status == 66)
    #expect(set.stderr.contains("hint: -p creates missing dictionaries on the way"))
    #expect(try TestSupport.prefs(["remove", folder.path("s.json"), "a.zz"]).status == 66)
    #expect(try folder.read("s.json") == #"{"a": {"b": 1}}"#)
  }

  @Test func importDryRunShowsTheDiffAndChangesNothing() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    _ = try TestSupport.prefs(["import", "com.example.app"], input: Data(#"{"a": 1, "b": 2}"#.utf8), store: store)
    let before = try Data(contentsOf: store.appendingPathComponent("com.example.app.plist"))
    let dry = try TestSupport.prefs(
      ["import", "com.example.app", "--dry-run"], input: Data(#"{"a": 1, "b": 3, "c": true}"#.utf8), store: store)
    #expect(dry.status == 1, "a dry run that would change something exits 1, as diff does")
    #expect(dry.stdout == "~ b: 2 -> 3\n+ c: true\n")
    #expect(try Data(contentsOf: store.appendingPathComponent("com.example.app.plist")) == before)
  }
}

/// A temporary git repository with its own configuration, for the tests that need git.
final class GitRepository {
  let git: URL
  let url: URL

  /// Whether git is on the PATH (the tests that need it are skipped without it).
  static let isAvailable = TestSupport.executable(named: "git") != nil

  init() throws {
    git = try #require(TestSupport.executable(named: "git"))
    url = try TestSupport.temporaryFolder()
    for arguments in [["init", "-q"], ["config", "user.email", "test@example.com"], ["config", "user.name", "Test"]] {
      let result = try run(arguments)
      try #require(result.status == 0, "\(result.stderr)")
    }
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// Runs git in the repository, with no system or user configuration.
  @discardableResult
  func run(_ arguments: [String]) throws -> TestSupport.ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    environment["HOME"] = url.path
    return try TestSupport.run(git, ["-C", url.path] + arguments, environment: environment)
  }

  /// Writes `data` to `name` and commits it.
  func commit(_ data: Data, as name: String) throws {
    try data.write(to: url.appendingPathComponent(name))
    try run(["add", "-A"])
    let result = try run(["commit", "-q", "-m", "add \(name)"])
    try #require(result.status == 0, "\(result.stderr)")
  }

  /// `git status --porcelain --ignored`, which lists hidden and ignored files too.
  func status() throws -> String { try run(["status", "--porcelain", "--ignored"]).stdout }
}

/// git integration: textconv output is canonical, and git diff shows it.
@Suite struct GitIntegrationTests {
  @Test(.enabled(if: GitRepository.isAvailable, "git is not on the PATH"))
  func editingFilesInARepositoryLeavesNoLockFiles() throws {
    let repo = try GitRepository()
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.plist")
    try repo.commit(try Data(contentsOf: sample), as: "com.apple.dock.plist")
    func prefs(_ arguments: [String]) throws -> Int32 {
      try TestSupport.prefs(arguments, in: repo.url, store: store).status
    }
    #expect(try prefs(["set", "com.apple.dock.plist", "username", "bob"]) == 0)
    #expect(try prefs(["write", "./com.apple.dock.plist", "count", "-int", "2"]) == 0)
    #expect(try prefs(["remove", "com.apple.dock.plist", "count"]) == 0)
    #expect(try prefs(["write", "new.plist", "a", "-int", "1"]) == 0)
    // Reads, and commands that fail before writing, make nothing at all.
    #expect(try prefs(["get", "com.apple.dock.plist", "username"]) == 0)
    #expect(try prefs(["delete", "./typo.plist"]) == 66)
    #expect(try prefs(["set", "com.apple.dock.plist", "username.x", "1"]) != 0)
    #expect(try repo.status() == " M com.apple.dock.plist\n?? new.plist\n")
  }

  @Test func textconvIsCanonicalWhateverTheInputFormat() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(#"{"b": [1, 2.5], "a": {"z": true, "y": {"$date": "2024-01-02T03:04:05Z"}}}"#.utf8)
      .write(to: folder.appendingPathComponent("in.json"))
    var outputs: [String] = []
    for format in ["json", "xml", "binary", "yaml"] {
      let file = folder.appendingPathComponent("copy.\(format)").path
      _ = try TestSupport.prefs(["convert", folder.appendingPathComponent("in.json").path, "--to", format, "-o", file])
      let result = try TestSupport.prefs(["textconv", file])
      #expect(result.status == 0, "\(format): \(result.stderr)")
      outputs.append(result.stdout)
    }
    #expect(Set(outputs).count == 1)
    #expect(
      outputs[0] == """
        a:
          "y": !!timestamp 2024-01-02T03:04:05Z
          z: true
        b:
        - 1
        - 2.5

        """)
  }

  @Test(.timeLimit(.minutes(10))) func unifiedDiffOfLargeFilesFitsInLittleMemory() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // 20,000 keys, 1,000 of them changed (about 480 KB each): the old search needed 1.3 GB.
    var old = PrefDictionary()
    var new = PrefDictionary()
    for i in 0..<20_000 {
      old[String(format: "key%05d", i)] = .string("v\(i)")
      new[String(format: "key%05d", i)] = .string(i % 20 == 7 ? "w\(i)" : "v\(i)")
    }
    let a = folder.appendingPathComponent("a.json")
    let b = folder.appendingPathComponent("b.json")
    try Format.json.codec.encode(.dictionary(old)).write(to: a)
    try Format.json.codec.encode(.dictionary(new)).write(to: b)
    // At most 400 MB of address space, of which the process itself takes about 100 MB.
    let result = try TestSupport.run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "ulimit -v 400000 && exec \"$0\" diff -u \"$1\" \"$2\"", TestSupport.prefsBinary.path, a.path, b.path])
    #expect(result.status == 1, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count(where: { $0.hasPrefix("-key") }) == 1_000)
    #expect(lines.count(where: { $0.hasPrefix("+key") }) == 1_000)
  }

  @Test func unifiedDiffOfALongArrayChangedEverywhereShowsEachChangedItem() throws {
    let folder = try TestFolder()
    // 20,000 items, one in 10 changed: more differences than one search looks for.
    let items = (0..<20_000).map { "item \($0)" }
    var changed = items
    for i in stride(from: 3, to: items.count, by: 10) { changed[i] = "changed \(i)" }
    func json(_ list: [String]) -> String { "{\"list\": [" + list.map { "\"\($0)\"" }.joined(separator: ", ") + "]}" }
    try folder.write("a.json", json(items))
    try folder.write("b.json", json(changed))
    try folder.write("reversed.json", json(items.reversed()))
    let result = try TestSupport.prefs(["diff", "-u", folder.path("a.json"), folder.path("b.json")])
    #expect(result.status == 1, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("-- ") } == stride(from: 3, to: 20_000, by: 10).map { "-- item \($0)" })
    #expect(lines.filter { $0.hasPrefix("+- ") } == stride(from: 3, to: 20_000, by: 10).map { "+- changed \($0)" })
    // Each change is its own hunk: three lines of context either side.
    #expect(lines.count(where: { $0.hasPrefix("@@ ") }) == 2_000)
    // A reversed array: what the one side removes, the other inserts, and nothing is lost.
    let reversed = try TestSupport.prefs(["diff", "-u", folder.path("a.json"), folder.path("reversed.json")])
    #expect(reversed.status == 1, "\(reversed.stderr)")
    let reversedLines = reversed.stdout.split(separator: "\n")
    #expect(
      reversedLines.count(where: { $0.hasPrefix("-- item ") })
        + reversedLines.count(where: { $0.hasPrefix(" - item ") }) == 20_000)
    #expect(
      reversedLines.count(where: { $0.hasPrefix("+- item ") })
        + reversedLines.count(where: { $0.hasPrefix(" - item ") }) == 20_000)
  }

  @Test func unifiedDiffComparesCanonicalYAML() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a.json").path
    let b = folder.appendingPathComponent("b.plist").path
    try Data(#"{"ringtone": "Chimes", "isAccountPrivate": true, "username": ""}"#.utf8).write(
      to: URL(fileURLWithPath: a))
    try Data(#"{"username": "", "isAccountPrivate": false, "ringtone": "Chimes"}"#.utf8)
      .write(to: folder.appendingPathComponent("b.json"))
    _ = try TestSupport.prefs(["convert", folder.appendingPathComponent("b.json").path, "-o", b])
    let result = try TestSupport.prefs(["diff", a, b, "--unified"])
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        --- \(a)
        +++ \(b)
        @@ -1,3 +1,3 @@
        -isAccountPrivate: true
        +isAccountPrivate: false
         ringtone: Chimes
         username: ""

        """)
    #expect(try TestSupport.prefs(["diff", a, a, "-u"]).stdout == "")
  }

  @Test(.enabled(if: GitRepository.isAvailable, "git is not on the PATH"))
  func gitDiffAndLogGoOnPastAFileTextconvCannotRead() throws {
    let repo = try GitRepository()
    try repo.run(["config", "diff.plist.textconv", "'\(TestSupport.prefsBinary.path)' textconv"])
    try Data("*.plist diff=plist\n".utf8).write(to: repo.url.appendingPathComponent(".gitattributes"))
    // A truncated XML plist, a broken binary one, and a good one beside them.
    try repo.commit(Data("<plist><dict><key>a</key>".utf8), as: "broken.plist")
    try repo.commit(Data("bplist00".utf8 + [0xD1, 0x01, 0x02, 0xFF]), as: "garbage.plist")
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.plist")
    try repo.commit(try Data(contentsOf: sample), as: "good.plist")
    try Data("<plist><dict><key>b</key>".utf8).write(to: repo.url.appendingPathComponent("broken.plist"))
    try Data("bplist00".utf8 + [0xD1, 0x01, 0x02, 0xFE]).write(to: repo.url.appendingPathComponent("garbage.plist"))
    #expect(
      try TestSupport.prefs(["write", repo.url.appendingPathComponent("good.plist").path, "count", "-int", "1"]).status
        == 0)
    let diff = try repo.run(["diff", "--no-color"])
    #expect(diff.status == 0, "\(diff.stderr)")
    #expect(diff.stdout.contains(" # prefs: error: at byte 12: truncated binary plist"), "\(diff.stdout)")
    #expect(diff.stdout.contains("-# prefs: error: 1:26: value missing for key 'a'\n"), "\(diff.stdout)")
    #expect(diff.stdout.contains("\n+<plist><dict><key>b</key>\n"), "\(diff.stdout)")
    #expect(diff.stdout.contains("-00000000  62 70 6c 69 73 74 30 30  d1 01 02 ff "), "\(diff.stdout)")
    #expect(diff.stdout.contains("+count: 1\n"), "\(diff.stdout)")
    try repo.run(["commit", "-q", "-a", "-m", "change"])
    let log = try repo.run(["log", "-p", "--no-color"])
    #expect(log.status == 0, "\(log.stderr)")
    #expect(log.stdout.contains("+# prefs: error: "), "\(log.stdout)")
  }

  @Test func charactersOutsideTheBMPShowAsThemselvesInTextconvAndUnifiedDiffs() throws {
    let folder = try TestFolder()
    try folder.write("a.json", #"{"party": "\#u{1F389} time", "\#u{1F389}": "key"}"#)
    try folder.write("b.json", #"{"party": "\#u{1F38A} time", "\#u{1F389}": "key"}"#)
    #expect(
      try TestSupport.prefs(["textconv", folder.path("a.json")]).stdout == "party: \u{1F389} time\n\u{1F389}: key\n")
    let diff = try TestSupport.prefs(["diff", "-u", folder.path("a.json"), folder.path("b.json")])
    #expect(
      diff.stdout.hasSuffix("-party: \u{1F389} time\n+party: \u{1F38A} time\n \u{1F389}: key\n"), "\(diff.stdout)")
  }

  @Test func textconvShowsWhatItCannotReadAndExitsZero() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("missing.plist").path
    let gone = try TestSupport.prefs(["textconv", missing])
    #expect(gone.status == 0)
    #expect(gone.stdout == "# prefs: error: no such file\n")
    let text = try TestSupport.prefs(["textconv", "-"], input: Data("a: [1\n".utf8))
    #expect(text.status == 0)
    #expect(text.stdout.hasPrefix("# prefs: error: 2:1: "))
    #expect(text.stdout.hasSuffix("\na: [1\n"))
    let binary = folder.appendingPathComponent("b.plist")
    try Data("bplist00".utf8 + [0x00, 0x7F]).write(to: binary)
    let dump = try TestSupport.prefs(["textconv", binary.path])
    #expect(dump.status == 0)
    #expect(dump.stdout.hasPrefix("# prefs: error: at byte "))
    #expect(
      dump.stdout.hasSuffix(
        "\n00000000  62 70 6c 69 73 74 30 30  00 7f" + String(repeating: " ", count: 6 * 3 + 1) + " |bplist00..|\n"))
  }

  @Test(.enabled(if: GitRepository.isAvailable, "git is not on the PATH"))
  func gitDiffShowsABinaryPlistAsYAML() throws {
    let git = try #require(TestSupport.executable(named: "git"))
    let repo = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: repo) }
    // A wrapper so that git runs this build of prefs.
    let wrapper = repo.appendingPathComponent(".prefs-textconv")
    try Data("#!/bin/sh\nexec '\(TestSupport.prefsBinary.path)' textconv \"$@\"\n".utf8).write(to: wrapper)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
    func gitRun(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      var environment = ProcessInfo.processInfo.environment
      environment["GIT_CONFIG_NOSYSTEM"] = "1"
      environment["HOME"] = repo.path
      return try TestSupport.run(git, ["-C", repo.path] + arguments, environment: environment)
    }
    _ = try gitRun(["init", "-q"])
    _ = try gitRun(["config", "user.email", "test@example.com"])
    _ = try gitRun(["config", "user.name", "Test"])
    _ = try gitRun(["config", "diff.plist.textconv", wrapper.path])
    try Data("*.plist diff=plist\n".utf8).write(to: repo.appendingPathComponent(".gitattributes"))
    let plist = repo.appendingPathComponent("com.example.app.plist").path
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.plist").path
    #expect(try TestSupport.prefs(["convert", sample, "--to", "binary", "-o", plist]).status == 0)
    _ = try gitRun(["add", "-A"])
    _ = try gitRun(["commit", "-q", "-m", "settings"])
    #expect(try TestSupport.prefs(["write", plist, "isAccountPrivate", "-bool", "false"]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: plist)).starts(with: Array("bplist00".utf8)))
    let diff = try gitRun(["diff", "--no-color"])
    #expect(diff.status == 0, "\(diff.stderr)")
    #expect(diff.stdout.contains("-isAccountPrivate: true\n+isAccountPrivate: false\n"), "\(diff.stdout)")
    #expect(!diff.stdout.contains("Binary files"))
  }
}

/// `prefs edit` with scripted editors.
@Suite struct EditCommandTests {
  /// Runs `prefs edit TARGET` with `EDITOR` set to a shell script whose body is `script`
  /// (`$1` is the file; `$N` counts the editor's runs from 1).
  func edit(_ target: String, store: URL, script: String) throws -> TestSupport.ProcessResult {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let editor = folder.appendingPathComponent("editor.sh")
    let counter = folder.appendingPathComponent("count").path
    let body = "#!/bin/sh\nN=$(( $(cat '\(counter)' 2>/dev/null || echo 0) + 1 )); echo $N > '\(counter)'\n\(script)\n"
    try Data(body.utf8).write(to: editor)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
    return try TestSupport.prefs(["edit", target], store: store, environment: ["EDITOR": editor.path, "VISUAL": ""])
  }

  @Test func anEditIsWrittenBackInTheOriginalFormat() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    let file = store.appendingPathComponent("settings.plist").path
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.plist").path
    _ = try TestSupport.prefs(["convert", sample, "--to", "binary", "-o", file])
    let result = try edit(file, store: store, script: "sed -i 's/ringtone: Chimes/ringtone: Waves/' \"$1\"")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)).starts(with: Array("bplist00".utf8)))
    #expect(try TestSupport.prefs(["read", file, "ringtone"]).stdout == "Waves\n")
  }

  @Test func aYAMLFileIsEditedAsItsOwnText() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    let file = store.appendingPathComponent("settings.yaml").path
    let text = "# who signs in\nusername: ada   # for now\n\nringtone: Chimes\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    let seen = store.appendingPathComponent("seen").path
    let result = try edit(
      file, store: store, script: "cp \"$1\" '\(seen)'; sed -i 's/# for now/# for good/; s/Chimes/Waves/' \"$1\"")
    #expect(result.status == 0, "\(result.stderr)")
    // The editor saw the file's own text, comments and all, and it is written as edited.
    #expect(try String(contentsOfFile: seen, encoding: .utf8) == text)
    #expect(
      try String(contentsOfFile: file, encoding: .utf8)
        == "# who signs in\nusername: ada   # for good\n\nringtone: Waves\n")
    // A mistake re-opens it; the note on top is gone from what is written.
    let fixed = try edit(
      file, store: store,
      script: "case $N in 1) echo 'x: [' >> \"$1\" ;; *) sed -i '/^x: \\[$/d' \"$1\"; echo 'x: 1' >> \"$1\" ;; esac")
    #expect(fixed.status == 0, "\(fixed.stderr)")
    #expect(
      try String(contentsOfFile: file, encoding: .utf8)
        == "# who signs in\nusername: ada   # for good\n\nringtone: Waves\nx: 1\n")
  }

  @Test func aBadEditReopensWithTheErrorOnTopNamingTheLinesAsShown() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "a", "-int", "1"], store: store)
    let seen = store.appendingPathComponent("seen").path
    // Round 1 breaks a flow sequence; round 2 saves it still broken, one line lower;
    // round 3 fixes it.
    let script = """
      case $N in
      1) printf 'b:\\n  c: [1,\\n  d: 2\\ne: 3\\n' >> "$1" ;;
      2) cp "$1" '\(seen)1'; sed -i 's/^a: 1$/a: 1\\nz: 0/' "$1" ;;
      *) cp "$1" '\(seen)2'; echo 'a: "2"' > "$1" ;;
      esac
      """
    let result = try edit("com.example.app", store: store, script: script)
    #expect(result.status == 0, "\(result.stderr)")
    for (round, line) in [("1", 7), ("2", 8)] {
      let reopened = try String(contentsOfFile: seen + round, encoding: .utf8)
      let lines = reopened.split(separator: "\n", omittingEmptySubsequences: false)
      // The error and the line it mentions are numbered as in the re-opened file.
      #expect(
        lines[0] == "# prefs: error: \(line):2: did not find expected ',' or ']' "
          + "(while parsing a flow sequence at line \(line - 2), column 6)", "\(reopened)")
      #expect(lines[1] == "# Fix the mistake and save, or empty the file to abort.")
      #expect(lines[line - 3] == "  c: [1,", "\(reopened)")
      #expect(lines[line - 1] == "e: 3", "\(reopened)")
    }
    #expect(try TestSupport.prefs(["read-type", "com.example.app", "a"], store: store).stdout == "Type is string\n")
  }

  @Test func theEditorSeesCharactersOutsideTheBMPAsThemselves() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "party", "\u{1F389}"], store: store)
    let seen = store.appendingPathComponent("seen").path
    let result = try edit("com.example.app", store: store, script: "cp \"$1\" '\(seen)'")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try String(contentsOfFile: seen, encoding: .utf8) == "party: \u{1F389}\n")
  }

  @Test func anEmptyFileAbortsWithStatus1AndChangesNothing() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "a", "1"], store: store)
    let before = try Data(contentsOf: store.appendingPathComponent("com.example.app.plist"))
    // Emptied, or only comments left (the error note, say): both abort, as git commit does.
    for script in [": > \"$1\"", "printf '# note\\n\\n' > \"$1\""] {
      let result = try edit("com.example.app", store: store, script: script)
      #expect(result.status == 1)
      #expect(result.stderr == "prefs: edit aborted: the file is empty; nothing was changed\n")
      #expect(try Data(contentsOf: store.appendingPathComponent("com.example.app.plist")) == before)
    }
  }

  @Test func anUnchangedFileWritesNothingAndSucceeds() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    // A missing domain stays missing; an existing one keeps its bytes, even when
    // only comments and spacing changed.
    for script in [":", "sed -i '1i # a comment' \"$1\"; echo >> \"$1\""] {
      let result = try edit("com.example.new", store: store, script: script)
      #expect(result.status == 0)
      #expect(result.stderr == "prefs: no changes; nothing was written\n")
      #expect(!FileManager.default.fileExists(atPath: store.appendingPathComponent("com.example.new.plist").path))
    }
    _ = try TestSupport.prefs(["write", "com.example.app", "a", "1"], store: store)
    let file = store.appendingPathComponent("com.example.app.plist")
    try Data(
      "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>a</key><string>1</string></dict></plist>\n".utf8
    )
    .write(to: file)
    let before = try Data(contentsOf: file)
    let result = try edit("com.example.app", store: store, script: "sed -i '1i # a comment' \"$1\"")
    #expect(result.status == 0)
    #expect(result.stderr == "prefs: no changes; nothing was written\n")
    #expect(try Data(contentsOf: file) == before)
  }

  @Test func aConcurrentChangeIsNeverOverwritten() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "a", "1"], store: store)
    // The "editor" changes the domain behind prefs' back, then edits its own copy.
    let script = """
      PREFS_DEFAULTS_DIR='\(store.path)' '\(TestSupport.prefsBinary.path)' write com.example.app other -int 1
      echo 'a: 2' > "$1"
      """
    let result = try edit("com.example.app", store: store, script: script)
    #expect(result.status == 75)
    #expect(result.stderr.hasPrefix("prefs: error: com.example.app: it changed while you were editing"))
    #expect(try TestSupport.prefs(["read", "com.example.app", "a"], store: store).stdout == "1\n")
    // The edit is kept where the message says.
    let kept = result.stderr.split(separator: "your edit is kept in ").dropFirst().first?.split(separator: "\n").first
    defer {
      if let kept {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: String(kept)).deletingLastPathComponent())
      }
    }
    let file = try #require(kept.map(String.init))
    #expect(!file.contains("//"), "\(file)")
    #expect(file.hasSuffix("/com.example.app.yaml"))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "a: 2\n")
  }

  /// A file under ~/Library/Preferences is cfprefsd's on macOS: edit names the domain instead.
  @Test func editingAPreferencesFileByPathWarns() throws {
    let home = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: home) }
    let folder = home.appendingPathComponent("Library/Preferences")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("com.example.app.plist").path
    try Data("<plist><dict/></plist>".utf8).write(to: URL(fileURLWithPath: file))
    let result = try TestSupport.prefs(
      ["edit", file], store: home, environment: ["EDITOR": "true", "VISUAL": "", "HOME": home.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("prefs: warning: \(file) is in ~/Library/Preferences"), "\(result.stderr)")
    #expect(result.stderr.contains("(prefs edit com.example.app)"))
  }

  /// An editor that saves the same invalid text every time is not asked forever: the
  /// second time it comes back unchanged, the edit stops, kept in the file it names.
  @Test func theSameInvalidEditSavedAgainStopsAndIsKept() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "a", "-int", "1"], store: store)
    let before = try Data(contentsOf: store.appendingPathComponent("com.example.app.plist"))
    let rounds = store.appendingPathComponent("rounds").path
    let result = try edit(
      "com.example.app", store: store, script: "echo x >> '\(rounds)'; [ $N -lt 9 ] || exit 3; echo 'a: [' > \"$1\"")
    #expect(result.status == 65, "\(result.stderr)")
    #expect(try String(contentsOfFile: rounds, encoding: .utf8) == "x\nx\n")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 2, "\(result.stderr)")
    #expect(lines.first?.hasPrefix("prefs: edit aborted: 2:1: ") == true, "\(result.stderr)")
    let kept = try #require(lines.last?.split(separator: "hint: your edit is kept in ").first.map(String.init))
    defer { try? FileManager.default.removeItem(at: URL(fileURLWithPath: kept).deletingLastPathComponent()) }
    #expect(try String(contentsOfFile: kept, encoding: .utf8) == "a: [\n")
    #expect(try Data(contentsOf: store.appendingPathComponent("com.example.app.plist")) == before)
  }
}

/// What only shows on a terminal: colour in diffs and progress of long work.
@Suite(.enabled(if: TestSupport.executable(named: "script") != nil, "needs script(1) for a pseudo-terminal"))
struct TerminalOutputTests {
  static let script = TestSupport.executable(named: "script")

  /// Runs `prefs` under `script`, which gives it a pseudo-terminal.
  func onTerminal(_ arguments: [String], environment extra: [String: String] = [:]) throws -> String {
    let script = try #require(Self.script)
    let command = ([TestSupport.prefsBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil
    for (key, value) in extra { environment[key] = value }
    return try TestSupport.run(script, ["-qc", command, "/dev/null"], environment: environment).stdout
  }

  @Test func diffIsColouredOnATerminalUnlessNO_COLOR() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a.json").path
    let b = folder.appendingPathComponent("b.json").path
    try Data(#"{"a": 1, "b": 1}"#.utf8).write(to: URL(fileURLWithPath: a))
    try Data(#"{"a": 2, "c": 1}"#.utf8).write(to: URL(fileURLWithPath: b))
    let coloured = try onTerminal(["diff", a, b])
    #expect(coloured.contains("\u{1B}[33m~ a: 1 -> 2\u{1B}[0m"))
    #expect(coloured.contains("\u{1B}[31m- b: 1\u{1B}[0m"))
    #expect(coloured.contains("\u{1B}[32m+ c: 1\u{1B}[0m"))
    let plain = try onTerminal(["diff", a, b], environment: ["NO_COLOR": "1"])
    #expect(!plain.contains("\u{1B}["))
    // And never in a pipe.
    #expect(!(try TestSupport.prefs(["diff", a, b], environment: ["NO_COLOR": ""]).stdout.contains("\u{1B}[")))
  }

  @Test func colourFollowsTERMAndNO_COLORAndTheColorOption() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a.json").path
    let b = folder.appendingPathComponent("b.json").path
    try Data(#"{"a": 1}"#.utf8).write(to: URL(fileURLWithPath: a))
    try Data(#"{"a": 2}"#.utf8).write(to: URL(fileURLWithPath: b))
    let red = "\u{1B}[33m~ a: 1 -> 2\u{1B}[0m"
    let dumb = try onTerminal(["diff", a, b], environment: ["TERM": "dumb"])
    #expect(dumb.contains("~ a: 1 -> 2") && !dumb.contains("\u{1B}["), "\(dumb)")
    #expect(!(try onTerminal(["diff", "--color=never", a, b], environment: ["TERM": "xterm"]).contains("\u{1B}[")))
    #expect(try onTerminal(["diff", a, b, "--color", "auto"], environment: ["TERM": "xterm"]).contains(red))
    // always: also in a pipe, and over NO_COLOR, which only sets the default; before the command too.
    for arguments in [["diff", a, b, "--color=always"], ["--color", "always", "diff", a, b]] {
      let piped = try TestSupport.prefs(arguments, environment: ["NO_COLOR": "1", "TERM": "dumb"])
      #expect(piped.status == 1)
      #expect(piped.stdout == red + "\n", "\(piped)")
    }
    let missing = try TestSupport.prefs(["--color"])
    #expect(missing.status == 64)
    #expect(
      missing.stderr
        == "prefs: error: option '--color' needs a value (WHEN)\nUsage: prefs COMMAND [ARGUMENTS] [OPTIONS]\nSee 'prefs help'.\n"
    )
    let bad = try TestSupport.prefs(["diff", a, b, "--color=sometimes"])
    #expect(bad.status == 64)
    #expect(
      bad.stderr.hasPrefix("prefs: error: unknown colour choice 'sometimes'\nhint: choices: auto, always, never\n"))
  }

  @Test func getShowsLongDataInLinesOnATerminalAndBinaryPlistsOnlyWithDashO() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("d.json").path
    let bytes = Data((0..<40).map { UInt8($0) })
    try Data(#"{"blob": {"$data": "\#(bytes.base64EncodedString())"}}"#.utf8).write(to: URL(fileURLWithPath: file))
    let shown = try onTerminal(["get", file, "blob"])
    #expect(
      shown.replacingOccurrences(of: "\r\n", with: "\n")
        == "0000  00010203 04050607 08090a0b 0c0d0e0f 10111213 14151617 18191a1b 1c1d1e1f\n"
        + "0020  20212223 24252627\n")
    // In a pipe, one line of hex for scripts.
    #expect(
      try TestSupport.prefs(["get", file, "blob"]).stdout == bytes.map { String(format: "%02x", $0) }.joined() + "\n")
    // A binary plist is refused on a terminal unless -o - asks for it.
    let refused = try onTerminal(["convert", file, "--to", "binary"])
    #expect(refused.contains("prefs: error: a binary plist is not for a terminal"), "\(refused)")
    #expect(try onTerminal(["convert", file, "--to", "binary", "-o", "-"]).hasPrefix("bplist00"))
    #expect(try TestSupport.prefs(["convert", file, "--to", "binary"]).stdout.hasPrefix("bplist00"))
  }

  @Test func bulkExportShowsProgressOnATerminalOnly() throws {
    let store = try TestSupport.temporaryFolder()
    let backup = try TestSupport.temporaryFolder()
    defer {
      try? FileManager.default.removeItem(at: store)
      try? FileManager.default.removeItem(at: backup)
    }
    for name in ["com.example.one", "com.example.two"] {
      _ = try TestSupport.prefs(["write", name, "k", "v"], store: store)
    }
    let shown = try onTerminal(["export", "--all", "-o", backup.path], environment: ["PREFS_DEFAULTS_DIR": store.path])
    #expect(shown.contains("[1/2] com.example.one"))
    #expect(shown.contains("exported 2 domains to \(backup.path)"))
    let piped = try TestSupport.prefs(["export", "--all", "-o", backup.path], store: store)
    #expect(piped.status == 0)
    #expect(piped.stderr == "")
  }
}

extension VersionControlCommandTests {
  /// A store and its backup are compared as `diff -r` compares folders: file by file
  /// (a domain's plist with its YAML export), each pair that differs under its `diff`
  /// line, a file on one side alone listed; 0 when all match, 1 when anything differs.
  @Test func diffComparesTwoFoldersOfDomainsFileByFile() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    for arguments in [["com.a", "ringtone", "Chimes"], ["com.b", "volume", "-int", "3"]] {
      #expect(try TestSupport.prefs(["write"] + arguments, store: store).status == 0)
    }
    #expect(try TestSupport.prefs(["export", "--all", "-o", folder.path("backup")], store: store).status == 0)
    let same = try TestSupport.prefs(["diff", store.path, folder.path("backup")])
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    #expect(same.stdout == "")

    #expect(try TestSupport.prefs(["write", "com.b", "volume", "-int", "4"], store: store).status == 0)
    #expect(try TestSupport.prefs(["write", "com.c", "new", "x"], store: store).status == 0)
    for side in ["backup/old", "store/old"] {
      try FileManager.default.createDirectory(atPath: folder.path(side), withIntermediateDirectories: true)
    }
    try folder.write("backup/old/com.z.yaml", "z: 1\n")
    try folder.write("store/old/com.z.plist", "<dict><key>z</key><integer>1</integer></dict>")
    let differ = try TestSupport.prefs(["diff", store.path, folder.path("backup")])
    #expect(differ.status == 1)
    #expect(
      differ.stdout
        == "diff \(store.path)/com.b.plist \(folder.path("backup"))/com.b.yaml\n~ volume: 4 -> 3\n"
        + "Only in \(store.path): com.c.plist\n")
    #expect(differ.stderr == "")
    let mixed = try TestSupport.prefs(["diff", store.path, folder.path("backup/com.a.yaml")])
    #expect(mixed.status == 64)
    #expect(
      mixed.stderr.hasPrefix("prefs: error: a folder is compared with a folder, file by file; give two folders\n"))
  }
}

extension EditCommandTests {
  /// A file whose root is an array (Xcode's code snippets, a Munki catalog) is edited
  /// as YAML and patched back into its plist, as a dictionary is.
  @Test func aFileWhoseRootIsAnArrayIsEditedAndPatchedBack() throws {
    let folder = try TestFolder()
    let plist =
      "<plist version=\"1.0\">\n<array>\n\t<string>Firefox</string>\n\t<string>Slack</string>\n</array>\n</plist>\n"
    let file = try folder.write("snippets.plist", plist)
    let result = try edit(file, store: folder.url, script: "sed -i 's/Slack/Zoom/' \"$1\"")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(try folder.read("snippets.plist") == plist.replacingOccurrences(of: "Slack", with: "Zoom"))
  }
}
