import Foundation
import PrefsTestSupport
import Testing

/// `prefs apply`, `snapshots`, `capture` and `export` of several domains, run as a user
/// runs them: a private store and state folder, output, status and files on disk.
@Suite struct ApplyCommandTests {
  @Test func anUndoRefusesToLoseWhatChangedAfterTheApply() throws {
    let machine = try Machine()
    try machine.write("settings.yaml", "com.example.app:\n  theme: dark\n  size: 12\n")
    #expect(try machine.prefs(["write", "com.example.app", "theme", "-string", "light"]).status == 0)
    #expect(try machine.prefs(["apply", "settings.yaml"]).status == 0)
    #expect(try machine.prefs(["write", "com.example.app", "size", "-int", "14"]).status == 0)
    let changed = try Data(contentsOf: machine.domainFile("com.example.app"))
    let refused = try machine.prefs(["apply", "--undo"])
    #expect(refused.status == 65)
    #expect(
      refused.stderr
        == "prefs: error: changed since the apply, which restoring the snapshot would undo: com.example.app: size\n"
        + "hint: nothing was restored; --force restores the snapshot all the same, losing those changes\n")
    #expect(try Data(contentsOf: machine.domainFile("com.example.app")) == changed)
    #expect(!(try machine.prefs(["snapshots"]).stdout.contains("undone")))
    let forced = try machine.prefs(["apply", "--undo", "--force"])
    #expect(forced.status == 0)
    #expect(try machine.prefs(["read", "com.example.app", "theme"]).stdout == "light\n")
    #expect(try machine.prefs(["read", "com.example.app", "size"]).status != 0)
  }

  /// A scratch machine: a domain store, a state folder for snapshots, and a working folder.
  final class Machine {
    let url: URL
    var store: URL { url.appendingPathComponent("store") }
    var state: URL { url.appendingPathComponent("state") }
    var snapshots: URL { state.appendingPathComponent("prefs/snapshots") }

    init() throws {
      url = try TestSupport.temporaryFolder()
      try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    func prefs(_ arguments: [String], input: String? = nil) throws -> TestSupport.ProcessResult {
      try TestSupport.prefs(
        arguments, input: input.map { Data($0.utf8) }, in: url, store: store,
        environment: ["XDG_STATE_HOME": state.path])
    }

    /// Writes a file into the working folder.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
      let file = url.appendingPathComponent(name)
      try Data(text.utf8).write(to: file)
      return file
    }

    func domainFile(_ name: String) -> URL { store.appendingPathComponent("\(name).plist") }

    /// Every domain file's bytes and modification time.
    func files() throws -> [String: (Data, Date)] {
      var result: [String: (Data, Date)] = [:]
      for file in TestSupport.files(in: store) where file.pathExtension == "plist" {
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as! Date
        result[file.lastPathComponent] = (try Data(contentsOf: file), modified)
      }
      return result
    }

    func export(_ domain: String) throws -> String {
      try prefs(["export", domain, "--format", "json", "--compact"]).stdout
    }
  }

  static let domainCount = 12

  /// Twelve domains with nested settings, each imported from YAML.
  func machineWithDomains() throws -> Machine {
    let machine = try Machine()
    for i in 0..<Self.domainCount {
      let domain = """
        name: d\(i)
        window: {width: 800, height: 600, frame: {x: 0, y: 0}}
        recent: [a, b]
        flag: true
        keep: \(i)
        """
      #expect(try machine.prefs(["import", "com.example.d\(i)", "-", "--from", "yaml"], input: domain).status == 0)
    }
    return machine
  }

  /// Nested keys in nine of the domains and a new global domain: ten in all.
  static let settings = """
    com.example.d0:
      flag: 1
      window: {width: 1024}
    com.example.d1:
      keep: !delete
      window: {frame: {x: 10}}
    com.example.d2:
      recent: !replace [z]
    com.example.d3:
      window: {frame: {y: -5, z: 2.5}}
    com.example.d4:
      recent: [c, a]
    com.example.d5:
      extra: {when: !!timestamp 2023-11-14T22:13:20Z, blob: !!binary AQI=}
    com.example.d6:
      window: !replace {width: 640}
    com.example.d7:
      name: renamed
    com.example.d8:
      window: {height: 601}
      items:
        - {id: 1, title: one}
    -g:
      AppleLocale: en_GB

    """

  static let plan = """
    com.example.d0:
      ~ flag: true (bool) -> 1 (integer)
      ~ window.width: 800 -> 1024
    com.example.d1:
      - keep: 1
      ~ window.frame.x: 0 -> 10
    com.example.d2:
      ~ recent.0: "a" -> "z"
      - recent.1: "b"
    com.example.d3:
      ~ window.frame.y: 0 -> -5
      + window.frame.z: 2.5
    com.example.d4:
      + recent.2: "c"
    com.example.d5:
      + extra: {"when": 2023-11-14T22:13:20Z, "blob": <0102>}
    com.example.d6:
      - window.frame: {"x": 0, "y": 0}
      - window.height: 600
      ~ window.width: 800 -> 640
    com.example.d7:
      ~ name: "d7" -> "renamed"
    com.example.d8:
      + items: [{"id": 1, "title": "one"}]
      ~ window.height: 600 -> 601
    NSGlobalDomain:
      + (new domain)
      + AppleLocale: "en_GB"

    """

  @Test func aSettingsFileOverTenDomainsAppliesAsPlannedThenChecksAndUndoes() throws {
    let machine = try machineWithDomains()
    try machine.write("settings.yaml", Self.settings)
    let original = try machine.files()

    // A dry run that would change something exits 1, as in every verb.
    let dryRun = try machine.prefs(["apply", "settings.yaml", "--dry-run"])
    #expect(dryRun.status == 1, "\(dryRun.stderr)")
    #expect(dryRun.stdout == Self.plan)
    // A type change given plainly (1, no YAML version reads it otherwise) is a warning, as import's are.
    let typeChanged = "prefs: warning: com.example.d0: type changed: ~ flag: true (bool) -> 1 (integer)\n"
    #expect(dryRun.stderr == typeChanged)
    let check = try machine.prefs(["apply", "settings.yaml", "--check"])
    #expect(check.status == 1)
    #expect(check.stdout == Self.plan)
    #expect(try machine.files().mapValues(\.0) == original.mapValues(\.0))
    #expect(!FileManager.default.fileExists(atPath: machine.snapshots.path))

    let applied = try machine.prefs(["apply", "settings.yaml"])
    #expect(applied.status == 0, "\(applied.stderr)")
    #expect(applied.stdout == Self.plan)
    #expect(applied.stderr.hasPrefix(typeChanged + "prefs: applied 10 domains; snapshot "))
    #expect(try machine.prefs(["apply", "settings.yaml", "--check"]).status == 0)
    #expect(
      try machine.export("com.example.d1")
        == #"{"flag":true,"name":"d1","recent":["a","b"],"window":{"frame":{"x":10,"y":0},"height":600,"width":800}}"#
        + "\n")
    #expect(try machine.export("com.example.d4").contains(#""recent":["a","b","c"]"#))
    #expect(try machine.export("com.example.d6").contains(#""window":{"width":640}"#))
    #expect(try machine.export("-g") == #"{"AppleLocale":"en_GB"}"# + "\n")
    // The domains the file does not name are untouched.
    let after = try machine.files()
    for i in 9..<Self.domainCount {
      #expect(after["com.example.d\(i).plist"]!.0 == original["com.example.d\(i).plist"]!.0)
      #expect(after["com.example.d\(i).plist"]!.1 == original["com.example.d\(i).plist"]!.1)
    }

    // Idempotent: the second run writes no file, takes no snapshot and prints nothing.
    Thread.sleep(forTimeInterval: 0.02)
    let again = try machine.prefs(["apply", "settings.yaml"])
    #expect(again.status == 0)
    #expect(again.stdout == "")
    #expect(again.stderr == "")
    let untouched = try machine.files()
    #expect(untouched.keys.sorted() == after.keys.sorted())
    for (name, (data, modified)) in after {
      #expect(untouched[name]!.0 == data, "\(name) changed")
      #expect(untouched[name]!.1 == modified, "\(name) was written")
    }
    #expect(TestSupport.files(in: machine.snapshots).count == 1)

    // A domain changed behind apply's back is drift.
    #expect(try machine.prefs(["write", "com.example.d4", "recent", "-array", "a", "b"]).status == 0)
    let drift = try machine.prefs(["apply", "settings.yaml", "--check"])
    #expect(drift.status == 1)
    #expect(drift.stdout == "com.example.d4:\n  + recent.2: \"c\"\n")
    #expect(try machine.prefs(["apply", "settings.yaml"]).status == 0)
    #expect(try machine.prefs(["apply", "settings.yaml", "--check"]).status == 0)

    // Two undos: the repair of d4, then the first apply; every byte comes back.
    let listed = try machine.prefs(["snapshots"])
    #expect(listed.stdout.split(separator: "\n").count == 2)
    #expect(listed.stdout.contains("10 domains (com.example.d0, com.example.d1,"))
    #expect(listed.stdout.contains("1 domain (com.example.d4)  from settings.yaml\n"))
    let firstUndo = try machine.prefs(["apply", "--undo"])
    #expect(firstUndo.status == 0)
    #expect(firstUndo.stderr.hasPrefix("prefs: restored 1 domain from snapshot "))
    #expect(try machine.export("com.example.d4").contains(#""recent":["a","b"]"#))
    // d4 no longer holds what the first apply wrote: the write above is not lost unasked.
    let lost = try machine.prefs(["apply", "--undo"])
    #expect(lost.status == 65)
    #expect(
      lost.stderr.hasPrefix(
        "prefs: error: changed since the apply, which restoring the snapshot would undo: com.example.d4: recent.2\n"))
    #expect(try machine.export("com.example.d4").contains(#""recent":["a","b"]"#))
    #expect(try machine.prefs(["apply", "--undo", "--force"]).status == 0)
    #expect(try machine.files().mapValues(\.0) == original.mapValues(\.0))
    #expect(!FileManager.default.fileExists(atPath: machine.domainFile("NSGlobalDomain").path))
    #expect(try machine.prefs(["snapshots"]).stdout.split(separator: "\n").allSatisfy { $0.hasSuffix("  undone") })
    let nothing = try machine.prefs(["apply", "--undo"])
    #expect(nothing.status == 66)
    #expect(nothing.stderr.hasPrefix("prefs: error: \(machine.snapshots.path): no snapshot to undo\n"))
  }

  @Test func aTextDomainChangesOnlyWhereItsValuesChange() throws {
    let machine = try Machine()
    let yaml = "# my settings\nname: x   # keep this\nwindow:\n  width: 800\n  height: 600\n"
    try machine.write("app.yaml", yaml)
    try machine.write("settings.yaml", "./app.yaml:\n  window: {width: 1024}\n")
    #expect(try machine.prefs(["apply", "settings.yaml"]).status == 0)
    #expect(
      try String(contentsOf: machine.url.appendingPathComponent("app.yaml"), encoding: .utf8)
        == yaml.replacingOccurrences(of: "800", with: "1024"))
  }

  @Test func aFailingDomainLeavesTheOthersAppliedAndIsNamed() throws {
    let machine = try Machine()
    try Data("<plist><dict><key>k</key>".utf8).write(to: machine.domainFile("com.example.bad"))
    try machine.write("settings.yaml", "com.example.a:\n  k: 1\ncom.example.bad:\n  k: 1\ncom.example.b:\n  k: 2\n")
    let result = try machine.prefs(["apply", "settings.yaml"])
    #expect(result.status == 65)
    #expect(result.stdout == "com.example.a:\n  + (new domain)\n  + k: 1\ncom.example.b:\n  + (new domain)\n  + k: 2\n")
    #expect(result.stderr.contains("prefs: error: \(machine.domainFile("com.example.bad").path):"))
    #expect(
      result.stderr.hasSuffix(
        "prefs: error: 1 of 3 domains failed (com.example.bad); the others were applied\n"))
    #expect(try machine.export("com.example.a") == "{\"k\":1}\n")
    #expect(try machine.export("com.example.b") == "{\"k\":2}\n")
    #expect(try machine.prefs(["apply", "settings.yaml", "--check"]).status == 65)
    // --force replaces the file that does not parse, keeping a copy.
    let forced = try machine.prefs(["apply", "settings.yaml", "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(
      forced.stdout.hasPrefix("com.example.bad:\n  ~ (a file that does not parse, replaced; a copy is kept as .bak)\n"))
    #expect(try machine.export("com.example.bad") == "{\"k\":1}\n")
    #expect(
      try Data(contentsOf: machine.store.appendingPathComponent("com.example.bad.plist.bak"))
        == Data("<plist><dict><key>k</key>".utf8))
  }

  @Test func directivesBelongToSettingsFilesOnly() throws {
    let machine = try Machine()
    try machine.write("domain.yaml", "k: !delete\n")
    let imported = try machine.prefs(["import", "com.example.app", "domain.yaml"])
    #expect(imported.status == 65)
    #expect(imported.stderr.hasPrefix("prefs: error: domain.yaml:1:4: unknown tag !delete\n"))
    try machine.write("scalar.yaml", "com.example.app:\n  k: !replace 3\n")
    let scalar = try machine.prefs(["apply", "scalar.yaml"])
    #expect(scalar.status == 65)
    #expect(
      scalar.stderr.hasPrefix(
        "prefs: error: scalar.yaml:2:6: !replace is for a mapping or a sequence; a scalar setting always replaces\n"))
    try machine.write("item.yaml", "com.example.app:\n  list:\n    - a\n    - !delete\n")
    let item = try machine.prefs(["apply", "item.yaml", "--check"])
    #expect(item.status == 65)
    #expect(
      item.stderr.hasPrefix(
        "prefs: error: item.yaml:4:7: list.1: !delete removes a key; an array item cannot be deleted so\n"))
    try machine.write("array.yaml", "com.example.app: [1]\n")
    #expect(try machine.prefs(["apply", "array.yaml"]).status == 65)
    #expect(!FileManager.default.fileExists(atPath: machine.domainFile("com.example.app").path))
  }

  @Test func jsonSettingsFilesSpellDirectivesWithDollarWords() throws {
    let machine = try Machine()
    #expect(
      try machine.prefs(
        ["import", "com.example.app", "-", "--from", "json"], input: #"{"a": 1, "b": [1, 2], "c": {"d": 1}}"#
      ).status == 0)
    try machine.write(
      "settings.json",
      #"{"com.example.app": {"a": {"$delete": true}, "b": {"$replace": [3]}, "c": {"$dict": {"$delete": true}}}}"#)
    #expect(try machine.prefs(["apply", "settings.json"]).status == 0)
    // The escaped look-alike is an ordinary dictionary, merged into c like any other.
    #expect(try machine.export("com.example.app") == #"{"b":[3],"c":{"$delete":true,"d":1}}"# + "\n")
  }

  @Test func typesAreExactUnlessASchemaCoerces() throws {
    let machine = try Machine()
    #expect(try machine.prefs(["write", "com.example.app", "isAccountPrivate", "-bool", "false"]).status == 0)
    try machine.write("settings.yaml", "com.example.app:\n  isAccountPrivate: 'false'\n")
    let strict = try machine.prefs(["apply", "settings.yaml", "--check"])
    #expect(strict.status == 1)
    #expect(strict.stdout == "com.example.app:\n  ~ isAccountPrivate: false (bool) -> \"false\" (string)\n")
    let coerced = try machine.prefs(["apply", "settings.yaml", "--check", "--schema", "user-settings"])
    #expect(coerced.status == 0)
    #expect(
      coerced.stderr
        == "prefs: warning: com.example.app: isAccountPrivate: coerced string \"false\" to bool false (boolean word)\n")
  }

  @Test func exportOfSeveralDomainsIsASettingsFileThatRebuildsThem() throws {
    let machine = try machineWithDomains()
    #expect(try machine.prefs(["write", "-g", "AppleLocale", "en_GB"]).status == 0)
    let exported = try machine.prefs(["export", "com.example.d0", "com.example.d1", "-g", "-o", "settings.yaml"])
    #expect(exported.status == 0, "\(exported.stderr)")
    let text = try String(contentsOf: machine.url.appendingPathComponent("settings.yaml"), encoding: .utf8)
    // Canonical: domains and keys sorted by code point, as a single export is.
    #expect(text.hasPrefix("NSGlobalDomain:\n  AppleLocale: en_GB\ncom.example.d0:\n  flag: true\n"))
    let other = try Machine()
    try FileManager.default.copyItem(
      at: machine.url.appendingPathComponent("settings.yaml"), to: other.url.appendingPathComponent("settings.yaml"))
    #expect(try other.prefs(["apply", "settings.yaml"]).status == 0)
    for domain in ["com.example.d0", "com.example.d1", "NSGlobalDomain"] {
      #expect(try other.export(domain) == (try machine.export(domain)))
    }
    #expect(try machine.prefs(["export", "com.example.d0", "com.example.none"]).status == 66)
  }

  @Test func captureSinceASnapshotGivesWhatChanged() throws {
    let machine = try machineWithDomains()
    try machine.write("settings.yaml", Self.settings)
    #expect(try machine.prefs(["apply", "settings.yaml"]).status == 0)
    let id = try #require(TestSupport.files(in: machine.snapshots).first?.deletingPathExtension().lastPathComponent)
    let captured = try machine.prefs(["capture", "--since", String(id.prefix(15)), "-o", "captured.yaml"])
    #expect(captured.status == 0, "\(captured.stderr)")
    #expect(captured.stderr == "prefs: captured changes in 10 domains\n")
    let text = try String(contentsOf: machine.url.appendingPathComponent("captured.yaml"), encoding: .utf8)
    #expect(text.contains("com.example.d1:\n  keep: !delete\n"))
    #expect(text.contains("com.example.d2:\n  recent: !replace\n  - z\n"))
    // Undo, then apply what was captured: the same domains as the settings file gave.
    let names = (0..<Self.domainCount).map { "com.example.d\($0)" } + ["NSGlobalDomain"]
    let expected = try names.map(machine.export)
    #expect(try machine.prefs(["apply", "--undo"]).status == 0)
    #expect(try machine.prefs(["apply", "settings.yaml", "--check"]).status == 1)
    #expect(try machine.prefs(["apply", "captured.yaml"]).status == 0)
    #expect(try names.map(machine.export) == expected)
  }

  /// One domain that is no dictionary at the end is reported; the others' changes are
  /// still written.
  @Test func captureWritesWhatItHasWhenOneDomainCannotBeRead() throws {
    let machine = try Machine()
    try machine.write("settings.yaml", "com.example.a:\n  k: 1\ncom.example.b:\n  k: 1\n")
    #expect(try machine.prefs(["apply", "settings.yaml"]).status == 0)
    let id = try #require(TestSupport.files(in: machine.snapshots).first?.deletingPathExtension().lastPathComponent)
    #expect(try machine.prefs(["write", "com.example.a", "k", "-int", "2"]).status == 0)
    try Data("<plist><array/></plist>".utf8).write(to: machine.domainFile("com.example.b"))
    let captured = try machine.prefs(["capture", "--since", id, "-o", "captured.yaml"])
    #expect(captured.status == 65)
    #expect(
      captured.stderr
        == "prefs: captured changes in 1 domain\nprefs: error: \(machine.domainFile("com.example.b").path): "
        + "the domain holds an array, not a dictionary\n"
    )
    let text = try String(contentsOf: machine.url.appendingPathComponent("captured.yaml"), encoding: .utf8)
    #expect(text == "com.example.a:\n  k: 2\n")
  }

  @Test func aSettingsFileCanComeFromStandardInputInAnyFormat() throws {
    let machine = try Machine()
    let json = #"{"com.example.app": {"list": {"$replace": [1]}, "when": {"$date": "2023-11-14T22:13:20Z"}}}"#
    let applied = try machine.prefs(["apply", "-"], input: json)
    #expect(applied.status == 0, "\(applied.stderr)")
    #expect(try machine.export("com.example.app") == #"{"list":[1],"when":{"$date":"2023-11-14T22:13:20Z"}}"# + "\n")
    let plist = try machine.prefs(["convert", "-", "--from", "json", "--to", "xml"], input: json)
    // A plist spells the directives as words too.
    #expect(plist.stdout.contains("<key>$replace</key>"))
    #expect(try machine.prefs(["apply", "-", "--check"], input: plist.stdout).status == 0)
  }

  /// A file named by a relative path is beside the settings file, wherever apply runs,
  /// and the plan calls it a new file.
  @Test func relativePathsStartFromTheSettingsFilesFolder() throws {
    let machine = try Machine()
    try FileManager.default.createDirectory(
      at: machine.url.appendingPathComponent("conf"), withIntermediateDirectories: true)
    try machine.write("conf/settings.yaml", "local.yaml:\n  a: 1\n")
    let plan = try machine.prefs(["apply", "conf/settings.yaml", "--dry-run"])
    #expect(plan.stdout == "local.yaml:\n  + (new file)\n  + a: 1\n", "\(plan.stderr)")
    #expect(plan.status == 1)
    #expect(try machine.prefs(["apply", "conf/settings.yaml"]).status == 0)
    #expect(FileManager.default.fileExists(atPath: machine.url.appendingPathComponent("conf/local.yaml").path))
    #expect(!FileManager.default.fileExists(atPath: machine.url.appendingPathComponent("local.yaml").path))
  }

  /// A new domain named like an existing one, and a `$` key named like a directive,
  /// are warned of: both would otherwise pass without a word.
  @Test func typosInASettingsFileAreWarnedOf() throws {
    let machine = try Machine()
    #expect(try machine.prefs(["write", "com.example.app", "k", "v"]).status == 0)
    try machine.write("typo.json", #"{"com.exmaple.app": {"a": 1}, "com.example.app": {"k": {"$delte": true}}}"#)
    let result = try machine.prefs(["apply", "typo.json", "--dry-run"])
    #expect(
      result.stderr.contains("prefs: warning: com.exmaple.app is a new domain; did you mean 'com.example.app'?\n"),
      "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "prefs: warning: com.example.app: '$delte' at k.$delte is set as a key; did you mean '$delete'?\n"),
      "\(result.stderr)")
  }

  @Test func usageErrors() throws {
    let machine = try Machine()
    let both = try machine.prefs(["apply", "x.yaml", "--check", "--dry-run"])
    #expect(both.status == 64)
    #expect(both.stderr.hasPrefix("prefs: error: -n and --check cannot be used together\n"))
    #expect(try machine.prefs(["apply"]).status == 64)
    #expect(try machine.prefs(["apply", "--undo", "x.yaml"]).status == 64)
    #expect(try machine.prefs(["capture"]).status == 64)
    #expect(try machine.prefs(["capture", "com.example.app", "--for", "soon"]).status == 64)
    #expect(try machine.prefs(["capture", "--since", "nope"]).status == 66)
    #expect(try machine.prefs(["apply", "missing.yaml"]).status == 66)
  }

  // MARK: On a terminal

  /// Runs a shell command line under `script`, which gives it a pseudo-terminal.
  func onTerminal(_ commandLine: String, machine: Machine) throws -> String {
    let script = try #require(TestSupport.executable(named: "script"))
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil
    environment["PREFS_DEFAULTS_DIR"] = machine.store.path
    environment["XDG_STATE_HOME"] = machine.state.path
    environment["PATH"] = TestSupport.prefsBinary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
    return try TestSupport.run(
      script, ["-qc", "cd '\(machine.url.path)' && \(commandLine)", "/dev/null"], environment: environment
    ).stdout
  }

  @Test(.enabled(if: TestSupport.executable(named: "script") != nil, "needs script(1) for a pseudo-terminal"))
  func manyDomainsShowProgressAndAColouredPlanOnATerminal() throws {
    let machine = try machineWithDomains()
    let settings = (0..<Self.domainCount).map { "com.example.d\($0):\n  flag: false\n" }.joined()
    try machine.write("settings.yaml", settings)
    let shown = try onTerminal("prefs apply settings.yaml", machine: machine)
    #expect(shown.contains("[1/12] com.example.d0"))
    #expect(shown.contains("[12/12] com.example.d11"))
    #expect(shown.contains("\u{1B}[33m~ flag: true -> false\u{1B}[0m"))
    // Piped, neither progress nor colour.
    try machine.write("again.yaml", settings.replacingOccurrences(of: "false", with: "true"))
    let piped = try machine.prefs(["apply", "again.yaml"])
    #expect(!piped.stdout.contains("\u{1B}[") && !piped.stderr.contains("[1/12]"))
  }

  @Test(.enabled(if: TestSupport.executable(named: "script") != nil, "needs script(1) for a pseudo-terminal"))
  func captureShowsWhatChangedSoFarOnATerminal() throws {
    let machine = try Machine()
    #expect(try machine.prefs(["write", "com.example.app", "k", "-int", "1"]).status == 0)
    let shown = try onTerminal(
      "prefs capture com.example.app --for 4 -o out.yaml & sleep 1.5; prefs write com.example.app k -int 2; wait",
      machine: machine)
    #expect(shown.contains("prefs: watching 1 domain (inotify); stopping after 4 s or at Ctrl-C"))
    #expect(shown.contains("changed so far: com.example.app"))
    #expect(
      try String(contentsOf: machine.url.appendingPathComponent("out.yaml"), encoding: .utf8)
        == "com.example.app:\n  k: 2\n")
  }

  // MARK: Capture while a real UserDefaults program changes settings

  @Test(.enabled(if: TestSupport.executable(named: "swiftc") != nil, "needs swiftc to build the UserDefaults probe"))
  func whatAUserDefaultsProgramChangesIsCapturedExactly() throws {
    let probe = try #require(DomainCommandTests.probe)
    let machine = try Machine()
    var probeEnvironment = ProcessInfo.processInfo.environment
    probeEnvironment["XDG_CONFIG_HOME"] = machine.store.path
    let written = try TestSupport.run(probe, ["write", "com.example.app"], environment: probeEnvironment)
    #expect(written.status == 0, "\(written.stderr)")
    let old = try Data(contentsOf: machine.domainFile("com.example.app"))

    // `prefs capture` runs until interrupted, as a user runs it.
    let capture = Process()
    capture.executableURL = TestSupport.prefsBinary
    capture.arguments = ["capture", "com.example.app", "-o", machine.url.appendingPathComponent("changes.yaml").path]
    var environment = ProcessInfo.processInfo.environment
    environment["PREFS_DEFAULTS_DIR"] = machine.store.path
    environment["XDG_STATE_HOME"] = machine.state.path
    capture.environment = environment
    let errors = Pipe()
    capture.standardError = errors
    capture.standardOutput = FileHandle.nullDevice
    try capture.run()
    var stderr = Data()
    let deadline = Date().addingTimeInterval(30)
    while !String(decoding: stderr, as: UTF8.self).contains("watching"), Date() < deadline {
      stderr += errors.fileHandleForReading.availableData
    }
    #expect(String(decoding: stderr, as: UTF8.self).hasPrefix("prefs: watching 1 domain ("))

    let changed = try TestSupport.run(probe, ["change", "com.example.app"], environment: probeEnvironment)
    #expect(changed.status == 0, "\(changed.stderr)")
    capture.interrupt()
    capture.waitUntilExit()
    stderr += errors.fileHandleForReading.readDataToEndOfFile()
    #expect(capture.terminationStatus == 0, "\(String(decoding: stderr, as: UTF8.self))")
    #expect(String(decoding: stderr, as: UTF8.self).hasSuffix("prefs: captured changes in 1 domain\n"))

    let captured = try String(contentsOf: machine.url.appendingPathComponent("changes.yaml"), encoding: .utf8)
    #expect(
      captured == """
        com.example.app:
          blob: !!binary CQgH
          count: "42"
          isAccountPrivate: true
          level: 7
          list:
          - c
          ratio: 2.25
          ringtone: Waves
          since: !!timestamp 2023-11-15T22:13:20Z
          table:
            more:
              deep: true
              when: !!timestamp 2001-01-01T00:00:00Z
            nested: 2
          username: !delete

        """)

    // Applied to a copy of the old domain, the captured file gives the new one exactly.
    let copy = try Machine()
    try old.write(to: copy.domainFile("com.example.app"))
    try FileManager.default.copyItem(
      at: machine.url.appendingPathComponent("changes.yaml"), to: copy.url.appendingPathComponent("changes.yaml"))
    #expect(try copy.prefs(["apply", "changes.yaml"]).status == 0)
    let diff = try TestSupport.prefs(
      ["diff", copy.domainFile("com.example.app").path, machine.domainFile("com.example.app").path])
    #expect(diff.status == 0, "\(diff.stdout)")
    #expect(try copy.export("com.example.app") == (try machine.export("com.example.app")))
  }
}

extension ApplyCommandTests {
  /// `isAccountPrivate: yes` is the string "yes" in YAML 1.2: apply warns of the YAML
  /// 1.1 reading, as import and lint do, and does not turn the bool into a string
  /// unless --schema converts it or --allow-type-changes says so.
  @Test func aValueOfAnotherTypeNeedsASchemaOrTheFlag() throws {
    let machine = try Machine()
    #expect(try machine.prefs(["write", "com.example.app", "isAccountPrivate", "-bool", "true"]).status == 0)
    try machine.write("settings.yaml", "com.example.app:\n  isAccountPrivate: yes\n  ringtone: Waves\n")
    let yaml11 =
      "prefs: warning: settings.yaml:2:21: 'yes' is a string in YAML 1.2 but bool true in YAML 1.1 (PyYAML); "
      + "quote it, or write true\n"
    let refusal =
      "prefs: error: com.example.app: would change the type of a key: isAccountPrivate holds a bool, "
      + "the settings give a string \"yes\"\n"
      + "hint: write the value in the type the key holds; to change it on purpose, quote or tag it (!!str yes), "
      + "or give --allow-type-changes (--schema converts it to the type the app reads)\n"
    let before = try Data(contentsOf: machine.domainFile("com.example.app"))
    let dryRun = try machine.prefs(["apply", "settings.yaml", "--dry-run"])
    #expect(dryRun.status == 65)
    #expect(dryRun.stdout == "")
    #expect(dryRun.stderr == yaml11 + refusal)
    let refused = try machine.prefs(["apply", "settings.yaml"])
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix(yaml11 + refusal))
    #expect(try Data(contentsOf: machine.domainFile("com.example.app")) == before)

    let converted = try machine.prefs(["apply", "settings.yaml", "--schema", "user-settings"])
    #expect(converted.status == 0, "\(converted.stderr)")
    #expect(try machine.prefs(["read-type", "com.example.app", "isAccountPrivate"]).stdout == "Type is boolean\n")
    #expect(try machine.prefs(["read", "com.example.app", "ringtone"]).stdout == "Waves\n")

    let allowed = try machine.prefs(["apply", "settings.yaml", "--allow-type-changes", "-q"])
    #expect(allowed.status == 0)
    #expect(
      allowed.stderr.hasPrefix(
        "prefs: warning: com.example.app: type changed: ~ isAccountPrivate: true (bool) -> \"yes\" (string)\n"))
    #expect(try machine.prefs(["read-type", "com.example.app", "isAccountPrivate"]).stdout == "Type is string\n")

    // Quoted or tagged, the string is meant: a warning, as import gives, and applied.
    for value in ["'yes'", "!!str yes"] {
      #expect(try machine.prefs(["write", "com.example.app", "isAccountPrivate", "-bool", "true"]).status == 0)
      try machine.write("explicit.yaml", "com.example.app:\n  isAccountPrivate: \(value)\n")
      let explicit = try machine.prefs(["apply", "explicit.yaml"])
      #expect(explicit.status == 0, "\(value): \(explicit.stderr)")
      #expect(
        explicit.stderr.hasPrefix(
          "prefs: warning: com.example.app: type changed: ~ isAccountPrivate: true (bool) -> \"yes\" (string)\n"))
    }
  }
}
