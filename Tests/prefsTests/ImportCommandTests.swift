import Foundation
import PrefsTestSupport
import Testing

/// `prefs import`: what it says about the changes it makes.
@Suite struct ImportCommandTests {
  @Test func aChangeOfTypeIsReported() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    #expect(try TestSupport.prefs(["write", "com.example.app", "port", "-int", "8080"], store: store).status == 0)
    #expect(try TestSupport.prefs(["write", "com.example.app", "private", "-bool", "true"], store: store).status == 0)
    let result = try TestSupport.prefs(
      ["import", "com.example.app", "--merge"], input: Data("port: '8080'\nprivate: true\nnew: 1\n".utf8),
      store: store)
    #expect(result.status == 0)
    #expect(
      result.stderr == "prefs: warning: com.example.app: type changed: ~ port: 8080 (integer) -> \"8080\" (string)\n")
  }

  @Test func aDryRunExits1WhenItWouldChangeSomething() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    #expect(try TestSupport.prefs(["write", "com.example.app", "port", "-int", "8080"], store: store).status == 0)
    let same = try TestSupport.prefs(
      ["import", "com.example.app", "--dry-run"], input: Data("port: 8080\n".utf8), store: store)
    #expect(same.status == 0)
    #expect(same.stdout == "")
    let different = try TestSupport.prefs(
      ["import", "com.example.app", "--dry-run"], input: Data("port: 8081\n".utf8), store: store)
    #expect(different.status == 1)
    #expect(different.stdout == "~ port: 8080 -> 8081\n")
  }

  @Test func aDryRunOfAllLabelsEachDomain() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    #expect(try TestSupport.prefs(["write", "com.a", "k", "1"], store: store).status == 0)
    try FileManager.default.createDirectory(
      at: folder.url.appendingPathComponent("backup"), withIntermediateDirectories: true)
    try folder.write("backup/com.a.yaml", "k: '2'\n")
    try folder.write("backup/com.b.yaml", "x: true\n")
    try folder.write("backup/com.c.yaml", "y: 1\n")
    #expect(try TestSupport.prefs(["import", "com.c", folder.path("backup/com.c.yaml")], store: store).status == 0)
    let result = try TestSupport.prefs(["import", "--all", folder.path("backup"), "--dry-run"], store: store)
    #expect(result.status == 1)
    #expect(result.stdout == "# com.a\n~ k: \"1\" -> \"2\"\n# com.b\n+ x: true\n")
  }

  @Test func aRestoreOfABackupKeepsTheKeysItLeftOut() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    for (domain, key, value) in [
      ("com.a", "k", "1"), ("com.a", "SULastCheckTime", "2026"), ("com.b", "x", "2"), ("com.b", "SULastSeen", "y"),
    ] {
      #expect(try TestSupport.prefs(["write", domain, key, "-string", value], store: store).status == 0)
    }
    let export = try TestSupport.prefs(
      ["export", "--all", "-o", "backup/", "--exclude", "SULast*"], in: folder.url, store: store)
    #expect(export.status == 0)
    #expect(!(try folder.read("backup/com.a.yaml")).contains("SULast"))
    #expect(try folder.read("backup/.prefs-excluded") == "SULast*\n")
    #expect(try TestSupport.prefs(["write", "com.a", "k", "-string", "5"], store: store).status == 0)
    let dryRun = try TestSupport.prefs(["import", "--all", "backup/", "--dry-run"], in: folder.url, store: store)
    #expect(dryRun.status == 1)
    #expect(dryRun.stdout == "# left alone, as the backup left them out: SULast*\n# com.a\n~ k: \"5\" -> \"1\"\n")
    let restore = try TestSupport.prefs(["import", "--all", "backup/"], in: folder.url, store: store)
    #expect(restore.status == 0)
    #expect(try TestSupport.prefs(["read", "com.a", "SULastCheckTime"], store: store).stdout == "2026\n")
    #expect(try TestSupport.prefs(["read", "com.a", "k"], store: store).stdout == "1\n")
    #expect(try TestSupport.prefs(["read", "com.b", "SULastSeen"], store: store).stdout == "y\n")
    #expect(try TestSupport.prefs(["read", "com.b", "x"], store: store).stdout == "2\n")
  }
}

/// `write` and `set` without a type never change a key's type silently.
@Suite struct UntypedValueCommandTests {
  @Test func writeKeepsAnExistingBoolABool() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    #expect(
      try TestSupport.prefs(["write", "com.example.app", "isAccountPrivate", "-bool", "true"], store: store).status == 0
    )
    let write = try TestSupport.prefs(["write", "com.example.app", "isAccountPrivate", "false"], store: store)
    #expect(write.status == 0)
    #expect(write.stderr == "")
    #expect(
      try TestSupport.prefs(["read-type", "com.example.app", "isAccountPrivate"], store: store).stdout
        == "Type is boolean\n")
    let refused = try TestSupport.prefs(["write", "com.example.app", "isAccountPrivate", "maybe"], store: store)
    #expect(refused.status == 65)
    #expect(
      refused.stderr.hasPrefix(
        "prefs: error: com.example.app: 'maybe' is not a bool, and 'isAccountPrivate' holds a bool\nhint: give the type"
      ))
    // A type word changes the type on purpose.
    #expect(
      try TestSupport.prefs(["write", "com.example.app", "isAccountPrivate", "-string", "maybe"], store: store).status
        == 0)
  }

  @Test func setKeepsAnIntegerAnInteger() throws {
    let folder = try TestFolder()
    try folder.write("s.json", #"{"window": {"frame": {"width": 800}}}"#)
    #expect(try TestSupport.prefs(["set", folder.path("s.json"), "window.frame.width", "1024"]).status == 0)
    #expect(try folder.read("s.json") == #"{"window": {"frame": {"width": 1024}}}"#)
    let refused = try TestSupport.prefs(["set", folder.path("s.json"), "window.frame.width", "wide"])
    #expect(refused.status == 65)
    #expect(try folder.read("s.json") == #"{"window": {"frame": {"width": 1024}}}"#)
  }

  @Test func aNewKeyThatLooksTypedIsAStringWithAWarning() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    let result = try TestSupport.prefs(["write", "com.example.app", "port", "8080"], store: store)
    #expect(result.status == 0)
    #expect(result.stderr == "prefs: warning: stored '8080' at 'port' as a string; -int 8080 stores an integer\n")
    #expect(try TestSupport.prefs(["read-type", "com.example.app", "port"], store: store).stdout == "Type is string\n")
  }
}

/// YAML that YAML 1.1 tools read otherwise is pointed out when it is converted or imported.
@Suite struct YAMLAmbiguityCommandTests {
  @Test func convertAndImportWarnAsLintDoesUnlessQuiet() throws {
    let folder = try TestFolder()
    try folder.write("s.yaml", "a: yes\nb: 0755\nc: \"ok\"\n")
    let convert = try TestSupport.prefs(["convert", folder.path("s.yaml"), "--to", "json"])
    #expect(convert.status == 0)
    #expect(
      convert.stderr == """
        prefs: warning: \(folder.path("s.yaml")):1:4: 'yes' is a string in YAML 1.2 but bool true in YAML 1.1 (PyYAML); quote it, or write true
        prefs: warning: \(folder.path("s.yaml")):2:4: '0755' is integer 755 in YAML 1.2 but integer 493 in YAML 1.1 (PyYAML); quote it, or write 755 or 493

        """)
    #expect(try TestSupport.prefs(["convert", folder.path("s.yaml"), "--to", "json", "-q"]).stderr == "")
    let store = folder.url.appendingPathComponent("store")
    let imported = try TestSupport.prefs(["import", "com.example.app", folder.path("s.yaml")], store: store)
    #expect(imported.status == 0)
    #expect(imported.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("prefs: warning:") }.count == 2)
  }
}
