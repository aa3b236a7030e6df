import Foundation
import PrefsTestSupport
import Testing

/// The domain verbs against a temporary store, checked on disk and against a real
/// `UserDefaults` program.
@Suite struct DomainCommandTests {
  @Test func findListsTheDomainsThatHoldAWordInAnyCase() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    for arguments in [
      ["com.a", "ringtone", "-string", "Chimes"], ["com.a", "volume", "-int", "3"],
      ["com.b", "other", "-string", "x"], ["com.c", "CHIMESPlayed", "-bool", "true"],
    ] {
      #expect(try TestSupport.prefs(["write"] + arguments, store: store).status == 0)
    }
    let found = try TestSupport.prefs(["find", "chimes"], store: store)
    #expect(found.status == 0)
    #expect(found.stderr == "")
    // A value and a key, in any case; volume and com.b hold no "chimes".
    #expect(
      found.stdout
        == "Found 1 keys in domain 'com.a': {\n\tringtone = Chimes;\n}\n"
        + "Found 1 keys in domain 'com.c': {\n\tCHIMESPlayed = 1;\n}\n")
    let none = try TestSupport.prefs(["find", "nowhere"], store: store)
    #expect(none.status == 1)
    #expect(none.stdout == "")
    #expect(try TestSupport.prefs(["find"], store: store).status == 64)
  }

  /// A temporary store folder, removed at the end of each test.
  final class Store {
    let url: URL
    init() throws { url = try TestSupport.temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: url) }
    func file(_ domain: String) -> URL { url.appendingPathComponent("\(domain).plist") }
    func prefs(_ arguments: [String], input: String? = nil) throws -> TestSupport.ProcessResult {
      try TestSupport.prefs(arguments, input: input.map { Data($0.utf8) }, store: url)
    }
  }

  static let everyKindJSON = """
    {"username": "ada", "isAccountPrivate": false, "ringtone": "Waves", "count": 42, "ratio": 1.5,
     "since": {"$date": "2023-11-14T22:13:20Z"}, "blob": {"$data": "AQL/"}, "list": ["a", 1],
     "table": {"nested": true}}
    """

  @Test func writeReadAndReadTypeFollowDefaults() throws {
    let store = try Store()
    #expect(try store.prefs(["write", "com.example.app", "ringtone", "Waves"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "isAccountPrivate", "-bool", "NO"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "offset", "-int", "-1"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "ratio", "--type", "real", "2"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "blob", "-data", "0a0B"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "since", "-date", "2024-01-02T03:04:05Z"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "list", "-array", "-int", "1", "two"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "list", "-array-add", "three"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "table", "-dict", "a", "-int", "1"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "table", "-dict-add", "b", "x"]).status == 0)

    let expectations: [(String, String, String)] = [
      ("ringtone", "Waves", "string"), ("isAccountPrivate", "0", "boolean"), ("offset", "-1", "integer"),
      ("ratio", "2.0", "float"), ("blob", "0a0b", "data"), ("since", "2024-01-02T03:04:05Z", "date"),
    ]
    for (key, raw, type) in expectations {
      let read = try store.prefs(["read", "com.example.app", key])
      #expect(read.status == 0)
      #expect(read.stdout == raw + "\n", "read \(key)")
      #expect(try store.prefs(["read-type", "com.example.app", key]).stdout == "Type is \(type)\n")
    }
    let json = try store.prefs(["export", "com.example.app", "--format", "json", "--compact"])
    #expect(json.stdout.contains(#""list":[1,"two","three"]"#))
    #expect(json.stdout.contains(#""table":{"a":1,"b":"x"}"#))
    // New domain files are private, as UserDefaults makes them.
    let attributes = try FileManager.default.attributesOfItem(atPath: store.file("com.example.app").path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  /// Inside -dict and -array a type word types each value it comes before, however
  /// often it is given, as defaults takes it.
  @Test func typeWordsRepeatInsideDictAndArray() throws {
    let store = try Store()
    let dict = try store.prefs(["write", "d", "window", "-dict", "height", "-int", "600", "width", "-int", "800"])
    #expect(dict.status == 0, "\(dict.stderr)")
    let array = try store.prefs(["write", "d", "list", "-array", "-int", "1", "-int", "2", "-string", "3"])
    #expect(array.status == 0, "\(array.stderr)")
    #expect(
      try store.prefs(["export", "d", "--format", "json", "--compact"]).stdout
        == #"{"list":[1,2,"3"],"window":{"height":600,"width":800}}"# + "\n")
    // One value still takes one type.
    #expect(try store.prefs(["write", "d", "k", "-int", "1", "-int", "2"]).status == 64)
  }

  /// `export D FILE` (the habit of defaults export D PATH) never writes or prints a
  /// settings file of two domains: with the file there or not, it stops with the -o hint.
  @Test func exportToAPositionalFileStopsWithTheOutputHint() throws {
    let store = try Store()
    #expect(try store.prefs(["write", "com.example.app", "k", "v"]).status == 0)
    let file = store.url.appendingPathComponent("existing.yaml").path
    try Data("old: 1\n".utf8).write(to: URL(fileURLWithPath: file))
    let result = try store.prefs(["export", "com.example.app", file])
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("prefs: error: '\(file)' names a file, which export does not write without -o\n"))
    #expect(result.stderr.contains("hint: to write the export to it: prefs export com.example.app -o \(file)\n"))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "old: 1\n")
  }

  /// Small slips get the hint a person needs: a key's did-you-mean on `read`, the
  /// order of `import DOMAIN FILE`, `diff - -`, a YAML 1.1 reading asked for.
  @Test func smallSlipsGetTheirHints() throws {
    let store = try Store()
    #expect(try store.prefs(["write", "com.example.app", "username", "ada"]).status == 0)
    let read = try store.prefs(["read", "com.example.app", "usrname"])
    #expect(read.status == 66)
    #expect(read.stderr.contains("hint: did you mean 'username'?\n"), "\(read.stderr)")
    let file = store.url.appendingPathComponent("in.yaml").path
    try Data("a: yes\n".utf8).write(to: URL(fileURLWithPath: file))
    let swapped = try store.prefs(["import", file, "com.example.app"])
    #expect(swapped.status == 64)
    #expect(swapped.stderr.contains("hint: prefs import com.example.app \(file)\n"), "\(swapped.stderr)")
    let twice = try store.prefs(["diff", "-", "-"], input: "a: 1\n")
    #expect(twice.status == 64)
    #expect(twice.stderr.hasPrefix("prefs: error: standard input can be read once"), "\(twice.stderr)")
    let yaml11 = try store.prefs(["lint", file, "--yaml-version", "1.1"])
    #expect(!(yaml11.stdout + yaml11.stderr).contains("YAML 1.2"), "\(yaml11.stdout)\(yaml11.stderr)")
    #expect(try store.prefs(["lint", file]).stdout.contains("'yes' is a string in YAML 1.2"))
  }

  @Test func missingDomainsAndKeysExit66() throws {
    let store = try Store()
    let domain = try store.prefs(["read", "com.example.none"])
    #expect(domain.status == 66)
    #expect(domain.stderr.hasPrefix("prefs: error: com.example.none: no such domain (there is no "))
    #expect(try store.prefs(["write", "com.example.app", "a", "1"]).status == 0)
    let key = try store.prefs(["read", "com.example.app", "b"])
    #expect(key.status == 66)
    #expect(key.stderr == "prefs: error: com.example.app: no key 'b' in the domain\nhint: did you mean 'a'?\n")
    #expect(try store.prefs(["delete", "com.example.app", "b"]).status == 66)
    #expect(try store.prefs(["export", "com.example.none"]).status == 66)
  }

  @Test func dashIsStandardInputWhereverAnInputIsRead() throws {
    let store = try Store()
    let json = #"{"port": 8080, "ok": true}"#
    #expect(try store.prefs(["read", "-", "port"], input: json).stdout == "8080\n")
    #expect(try store.prefs(["read-type", "-", "ok"], input: json).stdout == "Type is boolean\n")
    #expect(
      try store.prefs(["export", "-", "--format", "json", "--compact"], input: json).stdout
        == #"{"ok":true,"port":8080}"# + "\n")
    #expect(try store.prefs(["textconv", "-"], input: json).stdout == "ok: true\nport: 8080\n")
    // set and remove on - are filters: standard input, patched as a file is, to standard output.
    #expect(
      try store.prefs(["set", "-", "port", "1", "-t", "integer"], input: json).stdout
        == #"{"port": 1, "ok": true}"#)
    #expect(try store.prefs(["remove", "-", "ok"], input: "port: 1\nok: true\n").stdout == "port: 1\n")
    // Commands that change a domain in place refuse it, and nothing lands in the store.
    for command in [["write", "-", "a", "1"], ["delete", "-"], ["rename", "-", "a", "b"], ["import", "-"]] {
      let result = try store.prefs(command, input: json)
      #expect(result.status == 64, "\(command)")
      #expect(result.stderr.hasPrefix("prefs: error: '-' is standard input, which this command cannot change\n"))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.url.path) == [])
  }

  @Test func deleteAndRename() throws {
    let store = try Store()
    _ = try store.prefs(["import", "com.example.app"], input: #"{"a": 1, "b": 2, "c": 3}"#)
    #expect(try store.prefs(["rename", "com.example.app", "a", "z"]).status == 0)
    let clash = try store.prefs(["rename", "com.example.app", "z", "b"])
    #expect(clash.status == 65)
    #expect(try store.prefs(["delete", "com.example.app", "b"]).status == 0)
    #expect(
      try store.prefs(["export", "com.example.app", "--format", "json", "--compact"]).stdout == #"{"c":3,"z":1}"# + "\n"
    )
    #expect(try store.prefs(["delete", "com.example.app"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: store.file("com.example.app").path))
    #expect(try store.prefs(["domains"]).stdout == "")
  }

  @Test func importReplacesOrMergesAndHonoursExclude() throws {
    let store = try Store()
    _ = try store.prefs(["import", "com.example.app"], input: #"{"a": 1, "SULastCheckTime": 5, "b": 2}"#)
    _ = try store.prefs(["import", "com.example.app", "--merge"], input: #"{"b": 3, "c": 4}"#)
    #expect(
      try store.prefs(["export", "com.example.app", "--format", "json", "--compact"]).stdout
        == #"{"SULastCheckTime":5,"a":1,"b":3,"c":4}"# + "\n")
    _ = try store.prefs(
      ["import", "com.example.app", "--exclude", "SULast*"], input: #"{"d": 5, "SULastCheckTime": 9}"#)
    #expect(
      try store.prefs(["export", "com.example.app", "--format", "json", "--compact"]).stdout
        == #"{"SULastCheckTime":5,"d":5}"# + "\n")
    #expect(
      try store.prefs(["export", "com.example.app", "--format", "json", "--compact", "--exclude", "SULast*"]).stdout
        == #"{"d":5}"# + "\n")
    let notADict = try store.prefs(["import", "com.example.app"], input: "[1]")
    #expect(notADict.status == 65)
    #expect(notADict.stderr == "prefs: error: <stdin>: a domain is a dictionary, but this file holds an array\n")
  }

  @Test func exportAllAndImportAllRestoreEveryDomain() throws {
    let store = try Store()
    let backup = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: backup) }
    _ = try store.prefs(["import", "com.example.one"], input: #"{"a": 1}"#)
    _ = try store.prefs(["import", "NSGlobalDomain"], input: #"{"AppleLocale": "en_GB"}"#)
    let export = try store.prefs(["export", "--all", "-o", backup.path, "--format", "json"])
    #expect(export.status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: backup.path).sorted() == [
        "NSGlobalDomain.json", "com.example.one.json",
      ])
    let fresh = try Store()
    #expect(try fresh.prefs(["import", "--all", backup.path]).status == 0)
    #expect(try fresh.prefs(["domains"]).stdout == "NSGlobalDomain\ncom.example.one\n")
    #expect(try fresh.prefs(["read", "-g", "AppleLocale"]).stdout == "en_GB\n")
  }

  @Test func anExportKeepsItsSourcesMode() throws {
    let store = try Store()
    let backup = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: backup) }
    func mode(_ path: String) throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }
    #expect(try store.prefs(["write", "com.example.token", "token", "s3cret"]).status == 0)
    #expect(try store.prefs(["write", "com.example.shared", "a", "1"]).status == 0)
    #expect(chmod(store.file("com.example.shared").path, 0o640) == 0)
    // An older backup that was readable to all is narrowed too.
    let old = backup.appendingPathComponent("com.example.token.yaml").path
    try Data("old: 1\n".utf8).write(to: URL(fileURLWithPath: old))
    #expect(chmod(old, 0o644) == 0)
    #expect(try store.prefs(["export", "--all", "-o", backup.path]).status == 0)
    #expect(try mode(old) == 0o600)
    #expect(try mode(backup.appendingPathComponent("com.example.shared.yaml").path) == 0o640)
    let single = backup.appendingPathComponent("single.json").path
    #expect(try store.prefs(["export", "com.example.token", "-o", single]).status == 0)
    #expect(try mode(single) == 0o600)
  }

  @Test func exportAllRefusesAnOutputNamedLikeAFile() throws {
    let store = try Store()
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try store.prefs(["write", "com.example.app", "a", "1"]).status == 0)
    let named = try TestSupport.prefs(["export", "--all", "-o", "backup.json"], in: folder, store: store.url)
    #expect(named.status == 64)
    #expect(
      named.stderr.hasPrefix(
        "prefs: error: --all writes one file per domain into a folder, and 'backup.json' is named like a json file;"))
    let file = folder.appendingPathComponent("file").path
    try Data().write(to: URL(fileURLWithPath: file))
    let onAFile = try store.prefs(["export", "--all", "-o", file])
    #expect(onAFile.status == 64)
    #expect(
      onAFile.stderr.hasPrefix("prefs: error: --all writes one file per domain into a folder; '\(file)' is a file"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file"])
  }

  @Test(arguments: ["..", ".hidden", "a\u{1}b", ""])
  func domainNamesThatCouldEscapeAreRefused(name: String) throws {
    let store = try Store()
    let result = try store.prefs(["write", name, "k", "v"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("prefs: error: invalid domain name"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.url.path).isEmpty)
  }

  @Test func aCorruptDomainIsReportedAndLeftUntouchedUnlessForced() throws {
    let store = try Store()
    let file = store.file("com.example.app")
    let garbage = "<?xml version=\"1.0\"?>\n<plist><dict><key>a</key>\n<integer>1</dict></plist>\n"
    try Data(garbage.utf8).write(to: file)
    let refused = try store.prefs(["write", "com.example.app", "b", "2"])
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("prefs: error: \(file.path):"))
    #expect(refused.stderr.contains("--force replaces it"))
    #expect(try String(contentsOf: file, encoding: .utf8) == garbage)
    #expect(try store.prefs(["import", "com.example.app"], input: "{}").status == 65)
    #expect(try String(contentsOf: file, encoding: .utf8) == garbage)

    let forced = try store.prefs(["write", "com.example.app", "b", "2", "--force"])
    #expect(forced.status == 0)
    #expect(try String(contentsOf: URL(fileURLWithPath: file.path + ".bak"), encoding: .utf8) == garbage)
    #expect(try store.prefs(["read", "com.example.app", "b"]).stdout == "2\n")
  }

  @Test func modeIsKeptAndSymlinksSurvive() throws {
    let store = try Store()
    let dotfiles = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: dotfiles) }
    let target = dotfiles.appendingPathComponent("com.example.app.plist")
    _ = try store.prefs(["write", target.path, "a", "1"])
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target.path)
    try FileManager.default.createSymbolicLink(at: store.file("com.example.app"), withDestinationURL: target)

    #expect(try store.prefs(["write", "com.example.app", "b", "2"]).status == 0)
    let link = try FileManager.default.destinationOfSymbolicLink(atPath: store.file("com.example.app").path)
    #expect(link == target.path)
    #expect((try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int) == 0o640)
    #expect(try store.prefs(["read", target.path, "b"]).stdout == "2\n")
  }

  @Test func concurrentWritersOfDifferentKeysLoseNone() throws {
    let store = try Store()
    let processes = try (0..<8).map { index -> Process in
      let process = Process()
      process.executableURL = TestSupport.prefsBinary
      process.arguments = ["write", "com.example.app", "key\(index)", "-int", String(index)]
      process.environment = ["PREFS_DEFAULTS_DIR": store.url.path]
      try process.run()
      return process
    }
    for process in processes {
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
    }
    let exported = try store.prefs(["export", "com.example.app", "--format", "json", "--compact"]).stdout
    #expect(exported == "{" + (0..<8).map { "\"key\($0)\":\($0)" }.joined(separator: ",") + "}\n")
  }

  @Test func theStoreHoldsNoLockFiles() throws {
    let store = try Store()
    // Reads and commands that fail before writing leave nothing in the store.
    #expect(try store.prefs(["delete", "com.typo"]).status == 66)
    #expect(try store.prefs(["set", "-", "a", "1"]).status != 0)
    #expect(try store.prefs(["read", "com.example.app"]).status == 66)
    let empty = (try? FileManager.default.contentsOfDirectory(atPath: store.url.path)) ?? []
    #expect(empty == [])
    // A write leaves the domain file only: the lock is on the file (or the folder).
    #expect(try store.prefs(["write", "com.example.app", "a", "1"]).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "b", "2"]).status == 0)
    #expect(try store.prefs(["delete", "com.example.app", "nope"]).status == 66)
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.url.path) == ["com.example.app.plist"])
  }

  @Test func temporaryFilesOfAKilledWriteAreRemovedByTheNextOne() throws {
    let store = try Store()
    #expect(try store.prefs(["write", "com.example.app", "a", "1"]).status == 0)
    let stale = store.url.appendingPathComponent(".com.example.app.plist.Ab12Cd")
    let fresh = store.url.appendingPathComponent(".com.example.app.plist.Ef34Gh")
    try Data("torn".utf8).write(to: stale)
    try Data("in progress".utf8).write(to: fresh)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: stale.path)
    #expect(try store.prefs(["write", "com.example.app", "b", "2"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    // A recent one may belong to a write still running elsewhere: it stays.
    #expect(FileManager.default.fileExists(atPath: fresh.path))
  }

  // MARK: UserDefaults agrees

  /// The compiler that builds the probe; the tests that run it skip without it.
  static let swiftc = TestSupport.executable(named: "swiftc")

  /// Builds the probe program once per run; nil (with the issue recorded) when it does
  /// not build, or without `swiftc`.
  static let probe: URL? = {
    let source = TestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/UserDefaultsProbe/main.swift")
    guard let swiftc else { return nil }
    // Inside the package's build folder rather than /tmp; one per test process, so that
    // two runs at once do not replace each other's, and earlier runs' are removed.
    let folder = TestSupport.packageRoot.appendingPathComponent(".build/test-fixtures")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for old in TestSupport.files(in: folder) where old.lastPathComponent.hasPrefix("UserDefaultsProbe-") {
      let pid = Int32(old.lastPathComponent.dropFirst("UserDefaultsProbe-".count)) ?? 0
      // A process that is gone (kill 0 fails) no longer runs its probe.
      if pid > 0, kill(pid, 0) != 0 { try? FileManager.default.removeItem(at: old) }
    }
    let output = folder.appendingPathComponent("UserDefaultsProbe-\(getpid())")
    let result = try? TestSupport.run(swiftc, [source.path, "-o", output.path])
    guard result?.status == 0 else {
      Issue.record("the probe did not build: \(result?.stderr ?? "")")
      return nil
    }
    return output
  }()

  func probe(_ verb: String, suite: String, store: Store) throws -> TestSupport.ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CONFIG_HOME"] = store.url.path
    return try TestSupport.run(try #require(Self.probe), [verb, suite], environment: environment)
  }

  @Test(.needsUserDefaultsProbe) func userDefaultsReadsWhatPrefsImportsAndWrites() throws {
    let store = try Store()
    #expect(try store.prefs(["import", "com.example.app"], input: Self.everyKindJSON).status == 0)
    #expect(try store.prefs(["write", "com.example.app", "extra", "-int", "-7"]).status == 0)
    let read = try probe("read", suite: "com.example.app", store: store)
    #expect(read.status == 0, "\(read.stderr)")
    #expect(
      read.stdout == """
        blob\tdata\t0102ff
        count\tinteger\t42
        extra\tinteger\t-7
        isAccountPrivate\tbool\tfalse
        list\tarray\t[string\ta, integer\t1]
        ratio\treal\t1.5
        ringtone\tstring\tWaves
        since\tdate\t721692800.0
        table\tdict\t{nested: bool\ttrue}
        username\tstring\tada
        app reads: username=ada isAccountPrivate=false ringtone=Waves

        """)
  }

  @Test(.needsUserDefaultsProbe) func aStringWhereTheAppWantsABoolReadsAsTheFallback() throws {
    let store = try Store()
    _ = try store.prefs(["write", "com.example.app", "isAccountPrivate", "false"])
    let read = try probe("read", suite: "com.example.app", store: store)
    #expect(read.stdout.hasSuffix("app reads: username= isAccountPrivate=true ringtone=Chimes\n"))
  }

  @Test(.needsUserDefaultsProbe) func prefsExportsWhatUserDefaultsWrote() throws {
    let store = try Store()
    #expect(try probe("write", suite: "com.example.app", store: store).status == 0)
    let exported = try store.prefs(["export", "com.example.app", "--format", "json", "--compact"])
    #expect(
      exported.stdout
        == #"{"blob":{"$data":"AQL/"},"count":42,"isAccountPrivate":false,"list":["a","b"],"ratio":1.5,"#
        + #""ringtone":"Signal","since":{"$date":"2023-11-14T22:13:20Z"},"table":{"nested":1},"username":"ada"}"# + "\n"
    )
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the test only when `swiftc` is there to build the `UserDefaults` probe; a
  /// probe that does not build fails the test.
  static var needsUserDefaultsProbe: Self {
    .enabled(if: DomainCommandTests.swiftc != nil, "swiftc is not on the PATH to build the UserDefaults probe")
  }
}

extension DomainCommandTests {
  /// A value that starts with <, ( or { is a property list, as `defaults write`
  /// reads it: XML fragments and OpenStep, also as items of -array-add and -dict-add;
  /// one that does not read is refused with the -string hint, which stores the text.
  @Test func writeReadsPropertyListValuesAsDefaultsDoes() throws {
    let store = try Store()
    let domain = "com.example.app"
    for (key, value) in [
      ("table", "<dict><key>a</key><string>b</string></dict>"), ("list", "(a, b)"), ("open", "{a = 1;}"),
      ("flag", "<true/>"),
    ] {
      let result = try store.prefs(["write", domain, key, value])
      #expect(result.status == 0, "\(value): \(result.stderr)")
      #expect(result.stderr == "")
    }
    let tile = "<dict><key>tile-type</key><string>spacer-tile</string></dict>"
    #expect(try store.prefs(["write", domain, "apps", "-array-add", tile]).status == 0)
    #expect(try store.prefs(["write", domain, "apps", "-array-add", tile, "<integer>2</integer>"]).status == 0)
    #expect(
      try store.prefs(["write", domain, "table", "-dict-add", "n", "-int", "1", "m", "<real>1.5</real>"]).status == 0)
    let bad = try store.prefs(["write", domain, "phone", "(555) 123"])
    #expect(bad.status == 65)
    #expect(bad.stderr.hasPrefix("prefs: error: '(555) 123' is not a property list ("))
    #expect(bad.stderr.hasSuffix("hint: to store the text as it is, give it as a string: -string '(555) 123'\n"))
    #expect(try store.prefs(["write", domain, "phone", "-string", "(555) 123"]).status == 0)
    let read = try store.prefs(["export", domain, "--format", "json", "--compact"])
    #expect(read.status == 0)
    #expect(
      read.stdout
        == #"{"apps":[{"tile-type":"spacer-tile"},{"tile-type":"spacer-tile"},2],"flag":true,"list":["a","b"],"#
        + #""open":{"a":"1"},"phone":"(555) 123","table":{"a":"b","m":1.5,"n":1}}"# + "\n")
  }
}
