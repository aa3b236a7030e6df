import Foundation
import PrefsTestSupport
import Testing

/// diff, key path edits and dry runs: what keeping settings in git needs.
@Suite struct VersionControlCommandTests {
  final class Folder {
    let url: URL
    init() throws { url = try TestSupport.temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func write(_ name: String, _ text: String) throws {
      try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }
    func read(_ name: String) throws -> String {
      try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }
  }

  @Test func diffPrintsOneLinePerChangeAndExits1() throws {
    let folder = try Folder()
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
    let folder = try Folder()
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
    let folder = try Folder()
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
    let folder = try Folder()
    try folder.write("a.json", #"{"n": 1}"#)
    try folder.write("b.json", #"{"n": 1.0}"#)
    let result = try TestSupport.prefs(["diff", folder.path("a.json"), folder.path("b.json")])
    #expect(result.status == 1)
    #expect(result.stdout == "~ n: 1 (integer) -> 1.0 (real)\n")
  }

  @Test func diffErrorsUseTheCommonExitCodes() throws {
    let folder = try Folder()
    try folder.write("a.json", "{}")
    #expect(try TestSupport.prefs(["diff", folder.path("a.json"), folder.path("missing.json")]).status == 66)
    try folder.write("bad.json", "{")
    let bad = try TestSupport.prefs(["diff", folder.path("a.json"), folder.path("bad.json")])
    #expect(bad.status == 65)
    #expect(bad.stderr.hasPrefix("prefs: error: \(folder.path("bad.json")):1:2:"))
  }

  @Test func keyPathEditsKeepTheFormatAndKeyOrder() throws {
    let folder = try Folder()
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
    let folder = try Folder()
    let file = folder.path("s.plist")
    try folder.write("in.json", #"{"a": {"b": 1}}"#)
    #expect(try TestSupport.prefs(["convert", folder.path("in.json"), "--to", format, "-o", file]).status == 0)
    #expect(try TestSupport.prefs(["set", file, "a.c", "2.5", "--type", "real"]).status == 0)
    #expect(try TestSupport.prefs(["get", file, "a.c"]).stdout == "2.5\n")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(bytes.starts(with: Array((format == "binary" ? "bplist00" : "<?xml").utf8)))
  }

  @Test func missingKeyPathsExit66() throws {
    let folder = try Folder()
    try folder.write("s.json", #"{"a": {"b": 1}}"#)
    let get = try TestSupport.prefs(["get", folder.path("s.json"), "a.c"])
    #expect(get.status == 66)
    #expect(get.stderr == "prefs: error: \(folder.path("s.json")): no key 'c' in a\n")
    let set = try TestSupport.prefs(["set", folder.path("s.json"), "x.y", "1"])
    #expect(set.status == 66)
    #expect(set.stderr.contains("hint: -p creates missing dictionaries on the way"))
    #expect(try TestSupport.prefs(["remove", folder.path("s.json"), "a.zz"]).status == 66)
    #expect(try folder.read("s.json") == #"{"a": {"b": 1}}"#)
  }

  @Test func importDryRunShowsTheDiffAndChangesNothing() throws {
    let folder = try Folder()
    let store = folder.url.appendingPathComponent("store")
    _ = try TestSupport.prefs(["import", "com.example.app"], input: Data(#"{"a": 1, "b": 2}"#.utf8), store: store)
    let before = try Data(contentsOf: store.appendingPathComponent("com.example.app.plist"))
    let dry = try TestSupport.prefs(
      ["import", "com.example.app", "--dry-run"], input: Data(#"{"a": 1, "b": 3, "c": true}"#.utf8), store: store)
    #expect(dry.status == 0)
    #expect(dry.stdout == "~ b: 2 -> 3\n+ c: true\n")
    #expect(try Data(contentsOf: store.appendingPathComponent("com.example.app.plist")) == before)
  }
}

/// git integration: textconv output is canonical, and git diff shows it.
@Suite struct GitIntegrationTests {
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

  @Test func gitDiffShowsABinaryPlistAsYAML() throws {
    guard let git = TestSupport.executable(named: "git") else {
      print("note: git is not on the PATH; skipping the textconv test")
      return
    }
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

  @Test func aBadEditReopensWithTheErrorOnTop() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "a", "-int", "1"], store: store)
    let seen = store.appendingPathComponent("seen.yaml").path
    let script = """
      if [ $N = 1 ]; then echo 'b: [1,' >> "$1"; else cp "$1" '\(seen)'; echo 'a: "2"' > "$1"; fi
      """
    let result = try edit("com.example.app", store: store, script: script)
    #expect(result.status == 0, "\(result.stderr)")
    let reopened = try String(contentsOfFile: seen, encoding: .utf8)
    #expect(reopened.hasPrefix("# prefs: error: 3:1: "))
    #expect(reopened.hasSuffix("\na: 1\nb: [1,\n"), "\(reopened)")
    #expect(try TestSupport.prefs(["read-type", "com.example.app", "a"], store: store).stdout == "Type is string\n")
  }

  @Test func anEmptyFileAbortsAndChangesNothing() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "a", "1"], store: store)
    let before = try Data(contentsOf: store.appendingPathComponent("com.example.app.plist"))
    let result = try edit("com.example.app", store: store, script: ": > \"$1\"")
    #expect(result.status == 0)
    #expect(result.stderr == "prefs: edit aborted: the file is empty; nothing was changed\n")
    #expect(try Data(contentsOf: store.appendingPathComponent("com.example.app.plist")) == before)
  }

  @Test func aConcurrentChangeIsNeverOverwritten() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "a", "1"], store: store)
    // The "editor" changes the domain behind prefs' back, then edits its own copy.
    let script = """
      PREFS_DEFAULTS_DIR='\(store.path)' '\(TestSupport.prefsBinary.path)' write com.example.app other 1
      echo 'a: 2' > "$1"
      """
    let result = try edit("com.example.app", store: store, script: script)
    #expect(result.status == 75)
    #expect(result.stderr.hasPrefix("prefs: error: com.example.app: it changed while you were editing"))
    #expect(try TestSupport.prefs(["read", "com.example.app", "a"], store: store).stdout == "1\n")
    // The edit is kept where the message says.
    let kept = result.stderr.split(separator: "your edit is kept in ").dropFirst().first?.split(separator: "\n").first
    defer { if let kept { try? FileManager.default.removeItem(atPath: String(kept)) } }
    let folder = try #require(kept.map(String.init))
    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(files.count == 1)
    #expect(try String(contentsOfFile: "\(folder)/\(files[0])", encoding: .utf8) == "a: 2\n")
  }
}

/// What only shows on a terminal: colour in diffs and progress of long work.
@Suite struct TerminalOutputTests {
  /// Runs `prefs` under `script`, which gives it a pseudo-terminal; nil without `script`.
  func onTerminal(_ arguments: [String], environment extra: [String: String] = [:]) throws -> String? {
    guard let script = TestSupport.executable(named: "script") else {
      print("note: script(1) is not installed; skipping the terminal output tests")
      return nil
    }
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
    guard let coloured = try onTerminal(["diff", a, b]) else { return }
    #expect(coloured.contains("\u{1B}[33m~ a: 1 -> 2\u{1B}[0m"))
    #expect(coloured.contains("\u{1B}[31m- b: 1\u{1B}[0m"))
    #expect(coloured.contains("\u{1B}[32m+ c: 1\u{1B}[0m"))
    let plain = try onTerminal(["diff", a, b], environment: ["NO_COLOR": "1"])
    #expect(plain?.contains("\u{1B}[") == false)
    // And never in a pipe.
    #expect(!(try TestSupport.prefs(["diff", a, b], environment: ["NO_COLOR": ""]).stdout.contains("\u{1B}[")))
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
    guard
      let shown = try onTerminal(
        ["export", "--all", "-o", backup.path], environment: ["PREFS_DEFAULTS_DIR": store.path])
    else { return }
    #expect(shown.contains("[1/2] com.example.one"))
    #expect(shown.contains("exported 2 domains to \(backup.path)"))
    let piped = try TestSupport.prefs(["export", "--all", "-o", backup.path], store: store)
    #expect(piped.status == 0)
    #expect(piped.stderr == "")
  }
}
