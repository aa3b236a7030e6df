import Foundation
import PrefsTestSupport
import Testing

/// `-currentHost` and `--host-uuid`: the domain verbs on a folder's per-host files
/// (`ByHost/<domain>.<UUID>.plist`), through the built binary, checked on disk.
@Suite struct HostCommandTests {
  static let uuid = "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9"
  static let olderUUID = "001B63A7C1E5"

  /// A folder laid out as `~/Library/Preferences`: a plain domain, and per-host files
  /// of the hosts `uuids`.
  final class Preferences {
    let folder: TestFolder
    var url: URL { folder.url.appendingPathComponent("Preferences") }
    let plainText = "{\"idleTime\" = 60;}"
    static let otherText = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>CleanExit</key>
      \t<true/>
      </dict>
      </plist>

      """

    init(hosts uuids: [String] = [HostCommandTests.uuid]) throws {
      folder = try TestFolder()
      try FileManager.default.createDirectory(
        at: url.appendingPathComponent("ByHost"), withIntermediateDirectories: true)
      try Data(plainText.utf8).write(to: url.appendingPathComponent("com.apple.screensaver.plist"))
      for uuid in uuids {
        try Data(Self.otherText.utf8).write(to: byHost("com.apple.other", uuid))
      }
    }

    func byHost(_ domain: String, _ uuid: String = HostCommandTests.uuid) -> URL {
      url.appendingPathComponent("ByHost/\(domain).\(uuid).plist")
    }

    func prefs(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      try TestSupport.prefs(arguments, store: url)
    }

    /// The plain domain file, which no per-host command may change.
    func plainIsUntouched() throws -> Bool {
      try String(contentsOf: url.appendingPathComponent("com.apple.screensaver.plist"), encoding: .utf8) == plainText
    }
  }

  @Test(arguments: [
    (["-currentHost"], [String]()), ([], ["-currentHost"]), (["--current-host"], []), ([], ["--current-host"]),
    ([], ["--host-uuid", uuid.lowercased()]), (["--host-uuid", uuid], []),
  ])
  func everySpellingReadsAndWritesTheHostsFile(before: [String], after: [String]) throws {
    let preferences = try Preferences()
    func run(_ verb: [String]) throws -> TestSupport.ProcessResult {
      try preferences.prefs(before + verb + after)
    }
    let write = try run(["write", "com.apple.screensaver", "idleTime", "-int", "300"])
    #expect(write.status == 0, "\(write.stderr)")
    #expect(write.stdout == "" && write.stderr == "")
    let file = preferences.byHost("com.apple.screensaver")
    #expect(try String(contentsOf: file, encoding: .utf8).contains("<key>idleTime</key>\n\t<integer>300</integer>"))
    #expect(try preferences.plainIsUntouched())

    let read = try run(["read", "com.apple.screensaver", "idleTime"])
    #expect(read.status == 0 && read.stdout == "300\n" && read.stderr == "")
    let type = try run(["read-type", "com.apple.screensaver", "idleTime"])
    #expect(type.status == 0 && type.stdout == "Type is integer\n" && type.stderr == "")
    let delete = try run(["delete", "com.apple.screensaver", "idleTime"])
    #expect(delete.status == 0 && delete.stderr == "")
    let gone = try run(["read", "com.apple.screensaver", "idleTime"])
    #expect(gone.status == 66)
    #expect(gone.stderr.hasPrefix("prefs: error: com.apple.screensaver: no key 'idleTime' in the domain"))
    #expect(try run(["delete", "com.apple.screensaver"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    // The plain domain still reads as before.
    #expect(try preferences.prefs(["read", "com.apple.screensaver", "idleTime"]).stdout == "60\n")
    #expect(try preferences.plainIsUntouched())
  }

  @Test func theGetAndSetOfADomainTakeTheHostToo() throws {
    let preferences = try Preferences()
    let set = try preferences.prefs(["set", "com.apple.other", "window.width", "-int", "3", "-p", "-currentHost"])
    #expect(set.status == 0, "\(set.stderr)")
    let get = try preferences.prefs(["-currentHost", "get", "com.apple.other", "window.width"])
    #expect(get.status == 0 && get.stdout == "3\n" && get.stderr == "")
    #expect(try preferences.prefs(["get", "com.apple.other", "window.width"]).status == 66)
  }

  @Test func noHostPresentAndNoneGivenSaysToGiveOne() throws {
    let preferences = try Preferences(hosts: [])
    let read = try preferences.prefs(["-currentHost", "read", "com.apple.screensaver"])
    #expect(read.status == 66)
    #expect(read.stdout == "")
    #expect(
      read.stderr
        == "prefs: error: no host UUID: no per-host file (DOMAIN.UUID.plist) in \(preferences.url.path)/ByHost\n"
        + "hint: name the host with --host-uuid UUID "
        + "(on its Mac, ioreg -rd1 -c IOPlatformExpertDevice shows IOPlatformUUID)\n")
    let write = try preferences.prefs(["write", "com.apple.screensaver", "k", "1", "-currentHost"])
    #expect(write.status == 66)
    #expect(try FileManager.default.contentsOfDirectory(atPath: preferences.url.path + "/ByHost") == [])
    #expect(try preferences.plainIsUntouched())
  }

  @Test func severalHostsPresentAreListedAndOneIsPicked() throws {
    let preferences = try Preferences(hosts: [Self.uuid, Self.olderUUID])
    let read = try preferences.prefs(["read", "com.apple.other", "-currentHost"])
    #expect(read.status == 64)
    #expect(
      read.stderr
        == "prefs: error: the per-host files are of 2 hosts: \(Self.olderUUID), \(Self.uuid)\n"
        + "hint: pick one with --host-uuid UUID\n")
    let picked = try preferences.prefs(["write", "com.apple.other", "k", "-int", "1", "--host-uuid", Self.olderUUID])
    #expect(picked.status == 0, "\(picked.stderr)")
    #expect(
      try String(contentsOf: preferences.byHost("com.apple.other", Self.olderUUID), encoding: .utf8).contains(
        "<key>k</key>"))
    #expect(
      try String(contentsOf: preferences.byHost("com.apple.other"), encoding: .utf8) == Preferences.otherText)
  }

  @Test(arguments: ["../../etc/passwd", "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9/..", "", "..", "host"])
  func aBadUUIDIsRefusedBeforeAnythingIsRead(uuid: String) throws {
    let preferences = try Preferences()
    let write = try preferences.prefs(["write", "com.apple.screensaver", "k", "1", "--host-uuid", uuid])
    #expect(write.status == 64)
    #expect(write.stdout == "")
    #expect(
      write.stderr.hasPrefix(
        "prefs: error: '\(uuid)' is not a host UUID (8-4-4-4-12 hex digits, or the 12 of an older Mac's Ethernet address)\n"
      ))
    #expect(try FileManager.default.contentsOfDirectory(atPath: preferences.url.path + "/ByHost").count == 1)
    #expect(try preferences.plainIsUntouched())
  }

  @Test func anotherHostByNameIsRefusedInOneLine() throws {
    let preferences = try Preferences()
    for arguments in [
      ["-host", "imac.local", "read", "com.apple.screensaver"], ["read", "com.apple.screensaver", "-host", "imac"],
    ] {
      let result = try preferences.prefs(arguments)
      #expect(result.status == 64)
      #expect(result.stdout == "")
      #expect(
        result.stderr
          == "prefs: error: -host NAME reaches another Mac's preferences through cfprefsd, which prefs cannot; "
          + "-currentHost or --host-uuid UUID address a folder's ByHost files\n")
    }
  }

  @Test func aCommandWithoutAStoreRefusesTheHostBeforeItsName() throws {
    let preferences = try Preferences()
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.yaml").path
    let result = try preferences.prefs(["-currentHost", "convert", sample])
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("prefs: error: unknown option '-currentHost'\n"))
  }

  @Test func domainsFindAndExportSeeTheHostsFilesOnlyWhenAsked() throws {
    let preferences = try Preferences()
    try Data("{\"Clean\" = found;}".utf8).write(to: preferences.byHost(".GlobalPreferences"))
    // Without a host the ByHost folder is neither a domain nor in the way.
    let plain = try preferences.prefs(["domains"])
    #expect(plain.status == 0 && plain.stdout == "com.apple.screensaver\n" && plain.stderr == "")
    let host = try preferences.prefs(["domains", "-currentHost"])
    #expect(host.status == 0 && host.stdout == "NSGlobalDomain\ncom.apple.other\n" && host.stderr == "")
    #expect(try preferences.prefs(["-currentHost", "read", "-g", "Clean"]).stdout == "found\n")

    let find = try preferences.prefs(["find", "clean"])
    #expect(find.status == 1 && find.stdout == "")
    let hostFind = try preferences.prefs(["find", "clean", "--current-host"])
    #expect(hostFind.status == 0)
    #expect(
      hostFind.stdout
        == "Found 1 keys in domain 'NSGlobalDomain': {\n\tClean = found;\n}\n"
        + "Found 1 keys in domain 'com.apple.other': {\n\tCleanExit = 1;\n}\n")

    let backup = preferences.folder.url.appendingPathComponent("backup")
    let export = try preferences.prefs(["export", "--all", "-o", backup.path])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: backup.path) == ["com.apple.screensaver.yaml"])
    let hostBackup = preferences.folder.url.appendingPathComponent("byhost")
    let hostExport = try preferences.prefs(["-currentHost", "export", "--all", "-o", hostBackup.path])
    #expect(hostExport.status == 0, "\(hostExport.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: hostBackup.path).sorted()
        == ["NSGlobalDomain.yaml", "com.apple.other.yaml"])
    #expect(
      try String(contentsOf: hostBackup.appendingPathComponent("com.apple.other.yaml"), encoding: .utf8)
        == "CleanExit: true\n")
  }

  @Test func aWriteKeepsTheFilesModeAndANewFileIsPrivate() throws {
    let preferences = try Preferences()
    let existing = preferences.byHost("com.apple.other")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: existing.path)
    #expect(try preferences.prefs(["-currentHost", "write", "com.apple.other", "k", "-int", "1"]).status == 0)
    func mode(_ url: URL) throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }
    #expect(try mode(existing) == 0o644)
    // The file is patched in place, keeping its layout.
    #expect(
      try String(contentsOf: existing, encoding: .utf8)
        == Preferences.otherText.replacingOccurrences(
          of: "\t<true/>\n", with: "\t<true/>\n\t<key>k</key>\n\t<integer>1</integer>\n"))
    #expect(try preferences.prefs(["-currentHost", "write", "com.apple.new", "k", "-int", "1"]).status == 0)
    #expect(try mode(preferences.byHost("com.apple.new")) == 0o600)
  }

  /// A Mac admin with a backup of a Mac's `~/Library/Preferences`: real domains from
  /// the corpus, the screen saver's per-host settings as a binary plist, and the
  /// mistakes one makes on the way.
  @Test(.enabled(if: TestSupport.hasCorpus("plist/real-world"), "the plist corpus is absent"))
  func aBackedUpPreferencesFolderAsAnAdminUsesIt() throws {
    let corpus = try #require(TestSupport.corpus("plist/real-world"))
    let folder = try TestFolder()
    let preferences = folder.url.appendingPathComponent("backup/Library/Preferences")
    try FileManager.default.createDirectory(
      at: preferences.appendingPathComponent("ByHost"), withIntermediateDirectories: true)
    let dock = preferences.appendingPathComponent("com.apple.dock.plist")
    try FileManager.default.copyItem(at: corpus.appendingPathComponent("com.apple.dock__initialed85.plist"), to: dock)
    let dockBytes = try Data(contentsOf: dock)
    let trackpad = preferences.appendingPathComponent("ByHost/.GlobalPreferences.\(Self.uuid).plist")
    try FileManager.default.copyItem(
      at: corpus.appendingPathComponent("com.apple.AppleMultitouchTrackpad__Fadil369.plist"), to: trackpad)
    let settings = try folder.write(
      "screensaver.yaml", "idleTime: 1200\nmoduleDict:\n  moduleName: Flurry\n  type: 0\n")
    let screensaver = preferences.appendingPathComponent("ByHost/com.apple.screensaver.\(Self.uuid).plist")
    #expect(try TestSupport.prefs(["convert", settings, "--to", "binary", "-o", screensaver.path]).status == 0)
    let store = ["--defaults-dir", preferences.path]

    // As defaults spells it: the option first.
    let read = try TestSupport.prefs(["-currentHost", "read", "com.apple.screensaver", "idleTime"] + store)
    #expect(read.status == 0 && read.stdout == "1200\n" && read.stderr == "")
    let dictionary = try TestSupport.prefs(["-currentHost", "read", "com.apple.screensaver", "moduleDict"] + store)
    #expect(dictionary.stdout == "moduleName: Flurry\ntype: 0\n")
    let write = try TestSupport.prefs(
      store + ["-currentHost", "write", "com.apple.screensaver", "idleTime", "-int", "300"])
    #expect(write.status == 0 && write.stderr == "")
    // Still a binary plist, as macOS wrote it.
    #expect(try Data(contentsOf: screensaver).prefix(8) == Data("bplist00".utf8))
    #expect(
      try TestSupport.prefs(["read", "com.apple.screensaver", "idleTime", "-currentHost"] + store).stdout == "300\n")
    let global = try TestSupport.prefs(["read-type", "-g", "Clicking", "-currentHost"] + store)
    #expect(global.status == 0 && global.stdout.hasPrefix("Type is "), "\(global.stderr)")
    let domains = try TestSupport.prefs(["domains", "-currentHost"] + store)
    #expect(domains.stdout == "NSGlobalDomain\ncom.apple.screensaver\n")
    #expect(try TestSupport.prefs(["domains"] + store).stdout == "com.apple.dock\n")

    // Mistakes: the option forgotten, another Mac by name, a UUID mistyped, one with a path in it.
    let forgotten = try TestSupport.prefs(["read", "com.apple.screensaver"] + store)
    #expect(forgotten.status == 66)
    #expect(
      forgotten.stderr
        == "prefs: error: com.apple.screensaver: no such domain (there is no \(preferences.path)/com.apple.screensaver.plist)\n"
        + "hint: the current host's domain is \(screensaver.path): give -currentHost\n"
        + "hint: 'prefs domains' lists the domains there are\n")
    // And the other way round: a domain of any host asked for as the host's.
    let needless = try TestSupport.prefs(["-currentHost", "read", "com.apple.dock"] + store)
    #expect(needless.status == 66)
    #expect(
      needless.stderr.hasSuffix(
        "hint: the domain of any host is \(dock.path): leave out -currentHost and --host-uuid\n"
          + "hint: 'prefs domains -currentHost' lists the domains there are\n"))
    #expect(try TestSupport.prefs(["-host", "old-imac", "read", "com.apple.screensaver"] + store).status == 64)
    let mistyped = try TestSupport.prefs(
      ["read", "com.apple.screensaver", "--host-uuid", "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F8"] + store)
    #expect(mistyped.status == 66)
    #expect(mistyped.stderr.contains("ByHost/com.apple.screensaver.0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F8.plist"))
    let escaping = try TestSupport.prefs(
      ["write", "com.apple.screensaver", "k", "1", "--host-uuid", "../../x"] + store)
    #expect(escaping.status == 64)
    #expect(try Data(contentsOf: dock) == dockBytes)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: preferences.appendingPathComponent("ByHost").path).sorted()
        == [".GlobalPreferences.\(Self.uuid).plist", "com.apple.screensaver.\(Self.uuid).plist"])
  }

  @Test func anApplyToTheHostIsUndoneForTheHostOnly() throws {
    let preferences = try Preferences()
    let settings = try preferences.folder.write("settings.yaml", "com.apple.other:\n  CleanExit: false\n")
    func prefs(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      try TestSupport.prefs(
        arguments, store: preferences.url, environment: ["XDG_STATE_HOME": preferences.folder.path("state")])
    }
    let apply = try prefs(["apply", settings, "-currentHost"])
    #expect(apply.status == 0, "\(apply.stderr)")
    #expect(try prefs(["read", "com.apple.other", "CleanExit", "-currentHost"]).stdout == "0\n")
    // Undone without the host, the snapshot names a file that is not the domain's.
    let elsewhere = try prefs(["apply", "--undo"])
    #expect(elsewhere.status == 65)
    #expect(elsewhere.stderr.contains("which is not where that domain is"))
    #expect(try prefs(["read", "com.apple.other", "CleanExit", "-currentHost"]).stdout == "0\n")
    let undo = try prefs(["-currentHost", "apply", "--undo"])
    #expect(undo.status == 0, "\(undo.stderr)")
    #expect(try String(contentsOf: preferences.byHost("com.apple.other"), encoding: .utf8) == Preferences.otherText)
    #expect(try preferences.plainIsUntouched())
  }

  /// A dotfiles repository holding a Mac's Preferences folder: a per-host binary plist
  /// changed with `-currentHost` shows in `git diff` as YAML, and two branches that each
  /// change it merge by value through the driver `git-setup` installs.
  @Test(.enabled(if: MergeCommandTests.git != nil, "git is not on the PATH"))
  func aRepositoryOfPreferencesDiffsAndMergesTheHostsFiles() throws {
    let repo = try MergeCommandTests.Repository(git: try #require(MergeCommandTests.git))
    #expect(try repo.prefs(["git-setup"]).status == 0)
    let file = "Preferences/ByHost/com.apple.screensaver.\(Self.uuid).plist"
    try FileManager.default.createDirectory(
      atPath: repo.path("Preferences/ByHost"), withIntermediateDirectories: true)
    try Data("idleTime: 1200\n".utf8).write(to: URL(fileURLWithPath: repo.path("start.yaml")))
    #expect(try repo.prefs(["convert", "start.yaml", "--to", "binary", "-o", file]).status == 0)
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "preferences"])
    let store = ["--defaults-dir", "Preferences"]

    #expect(
      try repo.prefs(["-currentHost", "write", "com.apple.screensaver", "idleTime", "-int", "300"] + store).status == 0)
    #expect(try repo.run(["status", "--porcelain"]).stdout == " M \(file)\n")
    let diff = try repo.run(["diff", "--no-color"])
    #expect(diff.stdout.hasSuffix("@@ -1 +1 @@\n-idleTime: 1200\n+idleTime: 300\n"), "\(diff.stdout)")
    try repo.run(["commit", "-q", "-am", "shorter"])
    let log = try repo.run(["log", "-p", "-1", "--no-color"])
    #expect(log.stdout.contains("-idleTime: 1200\n+idleTime: 300\n"))

    try repo.run(["checkout", "-q", "-b", "password"])
    #expect(
      try repo.prefs(["write", "com.apple.screensaver", "askForPassword", "-int", "1", "-currentHost"] + store).status
        == 0)
    try repo.run(["commit", "-q", "-am", "password"])
    try repo.run(["checkout", "-q", "main"])
    #expect(
      try repo.prefs(["--host-uuid", Self.uuid, "write", "com.apple.screensaver", "idleTime", "-int", "600"] + store)
        .status == 0)
    try repo.run(["commit", "-q", "-am", "longer"])
    let merge = try repo.run(["merge", "-q", "password", "-m", "merge"])
    #expect(merge.status == 0, "\(merge.stdout)\(merge.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: repo.path(file))).prefix(8) == Data("bplist00".utf8))
    let merged = try repo.prefs(["-currentHost", "read", "com.apple.screensaver"] + store)
    #expect(merged.stdout == "askForPassword: 1\nidleTime: 600\n")
  }
}
