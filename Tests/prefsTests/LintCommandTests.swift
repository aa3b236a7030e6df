import Foundation
import PrefsTestSupport
import Testing

/// `prefs lint`: findings on stdout, one per line, and its exit statuses (0 clean, 1 findings, 65 bad input).
@Suite struct LintCommandTests {
  /// A temporary folder of input files, removed at the end of each test.
  @Test func aCleanFilePrintsNothingAndExits0() throws {
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.yaml").path
    let result = try TestSupport.prefs(["lint", sample, "--schema", "user-settings"])
    #expect(result.status == 0)
    #expect(result.stdout == "")
    #expect(result.stderr == "")
  }

  @Test func ambiguousYAMLAloneWarnsAndExits0() throws {
    let folder = try TestFolder()
    let file = try folder.write("a.yaml", "sound: on\nmode: 0755\nname: 'no'\n")
    let result = try TestSupport.prefs(["lint", file])
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        prefs: warning: \(file):1:8: 'on' is a string in YAML 1.2 but bool true in YAML 1.1 (PyYAML); quote it, or write true
        prefs: warning: \(file):2:7: '0755' is integer 755 in YAML 1.2 but integer 493 in YAML 1.1 (PyYAML); quote it, or write 755 or 493

        """)
  }

  @Test func aUIDInADomainIsPointedOut() throws {
    let folder = try TestFolder()
    let file = try folder.write("d.json", #"{"a": 1, "b": [1, {"$uid": 3}]}"#)
    let result = try TestSupport.prefs(["lint", file])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "prefs: warning: \(file):1:19: b.1: holds a keyed-archive uid; on Linux, UserDefaults reads a domain "
        + "holding one as empty, so the app falls back on every key\n")
  }

  @Test func aSyntaxErrorIsAPositionedFindingAndExits1() throws {
    let folder = try TestFolder()
    let file = try folder.write("a.json", "{\"a\": tru}")
    let result = try TestSupport.prefs(["lint", file])
    #expect(result.status == 1)
    #expect(result.stdout == "prefs: error: \(file):1:7: unexpected 't': expected a value\n")
    let yaml = try folder.write("b.yaml", "a: 1\n  b: 2\n")
    let broken = try TestSupport.prefs(["lint", yaml])
    #expect(broken.status == 1)
    #expect(broken.stdout.hasPrefix("prefs: error: \(yaml):2:"))
  }

  @Test func schemaFindingsNameTheKeyPathAndWhatTheAppReads() throws {
    let folder = try TestFolder()
    let file = try folder.write(
      "s.yaml", "username: ada\nisAccountPrivate: \"false\"\nringtone: Bells\nvolume: 3\n")
    let result = try TestSupport.prefs(["lint", file, "--schema", "user-settings"])
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        prefs: error: \(file):2:1: isAccountPrivate: stored as string "false"; the app reads true (fallback)
        prefs: error: \(file):3:1: ringtone: "Bells" is not one of "Chimes", "Signal", "Waves"
        prefs: warning: \(file):4:1: volume: not in the schema; the app does not read it

        """)
    #expect(result.stderr == "")
  }

  @Test func unknownKeysAloneExit0() throws {
    let result = try TestSupport.prefs(
      ["lint", "-", "--schema", "user-settings"], input: Data(#"{"ringtone": "Waves", "isAcountPrivate": true}"#.utf8))
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "prefs: warning: <stdin>:1:23: isAcountPrivate: not in the schema; the app does not read it (did you mean 'isAccountPrivate'?)\n"
    )
  }

  @Test func aDomainIsLintedThroughItsFileAndThePlatformIsNamedOnlyWhenTheReadingsDiffer() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "isAccountPrivate", "-int", "1"], store: store)
    let result = try TestSupport.prefs(["lint", "com.example.app", "--schema", "user-settings"], store: store)
    #expect(result.status == 1)
    #expect(
      result.stdout == "prefs: error: \(store.path)/com.example.app.plist:5:2: isAccountPrivate: stored as integer 1; "
        + "the app reads true (on Linux, as its fallback)\n")
    _ = try TestSupport.prefs(["write", "com.example.app", "isAccountPrivate", "-int", "0"], store: store)
    let differing = try TestSupport.prefs(["lint", "com.example.app", "--schema", "user-settings"], store: store)
    #expect(
      differing.stdout.hasSuffix(
        "isAccountPrivate: stored as integer 0; on Linux the app reads true (fallback); on macOS it reads false\n"))
    let missing = try TestSupport.prefs(["lint", "com.example.none"], store: store)
    #expect(missing.status == 66)
    #expect(missing.stderr.hasPrefix("prefs: error: com.example.none: no such domain (there is no "))
  }

  /// A null is a value: no finding in a file, a warning in one meant for a domain.
  @Test func aNullIsPointedOutOnlyInAFileMeantForADomain() throws {
    let folder = try TestFolder()
    let file = try folder.write("a.yaml", "nothing: ~\nflag: off\nmode: 0755\nalso: null\n")
    let result = try TestSupport.prefs(["lint", file])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(!lines.contains { $0.contains("null") })
    #expect(lines.contains { $0.hasPrefix("prefs: warning: \(file):2:7: ") && $0.contains("off") })
    #expect(lines.contains { $0.hasPrefix("prefs: warning: \(file):3:7: ") && $0.contains("0755") })

    let schema = try TestSupport.prefs(["lint", file, "--schema", "user-settings"])
    #expect(schema.status == 0, "\(schema.stdout)")
    #expect(schema.stdout.contains("prefs: warning: \(file):1:1: null at nothing has no plist form\n"))
    #expect(schema.stdout.contains("prefs: warning: \(file):4:1: null at also has no plist form\n"))
    #expect(schema.stdout.contains("hint: use --drop-nulls to leave nulls out of the property list"))
    // With --drop-nulls, as import would take the file, its nulls are not mentioned.
    let dropped = try TestSupport.prefs(["lint", "--drop-nulls", file, "--schema", "user-settings"])
    #expect(dropped.status == 0, "\(dropped.stderr)")
    #expect(!dropped.stdout.contains("null"))
    #expect(dropped.stdout.contains("0755"))
  }

  @Test func lintWithoutAnInputIsAUsageError() throws {
    let result = try TestSupport.prefs(["lint", "--schema", "user-settings"])
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("prefs: error: missing argument FILE\nUsage: prefs lint FILE... "))
    // write's values stay optional: -array alone writes an empty array.
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    #expect(try TestSupport.prefs(["write", "d", "k", "-array"], store: store).status == 0)
    #expect(try TestSupport.prefs(["read-type", "d", "k"], store: store).stdout == "Type is array\n")
  }

  @Test func severalInputsAreAllReportedAndTheWorstStatusWins() throws {
    let folder = try TestFolder()
    let good = try folder.write("good.json", #"{"ringtone": "Waves"}"#)
    let bad = try folder.write("bad.json", #"{"ringtone": 1}"#)
    let warn = try folder.write("warn.yaml", "ringtone: Waves\nx: yes\n")
    let both = try TestSupport.prefs(["lint", good, bad, warn, "--schema", "user-settings"])
    #expect(both.status == 1)
    #expect(
      both.stdout == """
        prefs: error: \(bad):1:2: ringtone: stored as integer 1; the app reads "Chimes" (fallback)
        prefs: warning: \(warn):2:1: x: not in the schema; the app does not read it
        prefs: warning: \(warn):2:4: 'yes' is a string in YAML 1.2 but bool true in YAML 1.1 (PyYAML); quote it, or write true

        """)
    let withMissing = try TestSupport.prefs(["lint", good, folder.url.appendingPathComponent("none.json").path, bad])
    #expect(withMissing.status == 66)
    #expect(withMissing.stderr.contains("none.json: no such file"))
    #expect(try TestSupport.prefs(["lint", good, warn]).status == 0)
  }

  @Test func aSchemaFileIsUsedAndABrokenOneIsRefused() throws {
    let folder = try TestFolder()
    let schema = try folder.write("app.schema.json", #"{"keys": {"count": {"type": "integer", "default": 0}}}"#)
    let result = try TestSupport.prefs(
      ["lint", "-", "--schema", schema], input: Data(#"{"count": 1.5}"#.utf8))
    #expect(result.status == 1)
    #expect(
      result.stdout
        == "prefs: error: <stdin>:1:2: count: stored as real 1.5; the app reads 0 (fallback)\n")
    let broken = try folder.write("bad.schema.yaml", "keys: {count: {type: number}}\n")
    let refused = try TestSupport.prefs(["lint", schema, "--schema", broken])
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("prefs: error: \(broken):1:16: schema: keys.count.type: unknown type 'number'\n"))
    let unknown = try TestSupport.prefs(["lint", schema, "--schema", "users"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.hasPrefix("prefs: error: unknown schema 'users'\n"))
  }

  static let profiles = "device-management/mdm/profiles"

  /// `prefs lint dock.plist --schema-dir ../shared/corpus/device-management/mdm/profiles`,
  /// run as written: from a folder beside a link to the corpus's `shared` folder.
  @Test(.enabled(if: TestSupport.hasCorpus(profiles), "the device-management corpus is absent"))
  func aSchemaFolderChecksTheDockByItsPublishedSchema() throws {
    let folder = try TestFolder()
    let work = folder.url.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: folder.url.appendingPathComponent("shared"),
      withDestinationURL: TestSupport.packageRoot.deletingLastPathComponent().appendingPathComponent("shared"))
    try folder.write(
      "work/dock.plist",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>autohide</key>
      \t<string>true</string>
      \t<key>orientation</key>
      \t<string>left</string>
      \t<key>tilesize</key>
      \t<integer>200</integer>
      </dict>
      </plist>

      """)
    let result = try TestSupport.prefs(
      ["lint", "dock.plist", "--schema-dir", "../shared/corpus/device-management/mdm/profiles"], in: work)
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        prefs: error: dock.plist:5:2: autohide: stored as string "true"; the app reads false (fallback)
        prefs: error: dock.plist:9:2: tilesize: 200 is out of 16...128

        """)
    #expect(result.stderr == "")
    // A domain the folder has no schema for is said, and only its syntax checked.
    let other = try folder.write("work/com.example.none.plist", "<plist><dict/></plist>")
    let unknown = try TestSupport.prefs(
      ["lint", other, "--schema-dir", "../shared/corpus/device-management/mdm/profiles"], in: work)
    #expect(unknown.status == 0)
    #expect(
      unknown.stdout
        == "prefs: warning: \(other): ../shared/corpus/device-management/mdm/profiles holds no schema whose payload "
        + "type is 'com.example.none'; the values are not checked\n")
    let both = try TestSupport.prefs(["lint", other, "--schema-dir", "x", "--schema", "user-settings"])
    #expect(both.status == 64)
    #expect(both.stderr.hasPrefix("prefs: error: --schema and --schema-dir cannot be used together\n"))
  }
}

extension LintCommandTests {
  /// Findings come in the order of the file's lines, whichever check found them:
  /// schema findings and YAML ambiguities interleave, as a person reads the file.
  @Test func findingsPrintInLineOrder() throws {
    let folder = try TestFolder()
    // The schema lists username before ringtone; the file has them the other way round.
    let file = try folder.write("l.yaml", "ringtone: 5\nusername: 7\nmode: on\nisAccountPrivate: \"x\"\n")
    let result = try TestSupport.prefs(["lint", file, "--schema", "user-settings"])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("prefs:") }
    let positions = lines.map { line in
      line.split(separator: ":").dropFirst(3).prefix(2).map { Int($0) ?? -1 }
    }
    #expect(lines.count == 5, "\(result.stdout)")
    #expect(positions == [[1, 1], [2, 1], [3, 1], [3, 7], [4, 1]])
    #expect(lines[3].contains("'on' is a string in YAML 1.2"))
  }
}
