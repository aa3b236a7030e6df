import Foundation
import PrefsTestSupport
import Testing

/// Nulls through the commands: kept wherever YAML or JSON is read and written, refused
/// by key path where a property list is written, and dropped there with `--drop-nulls`.
@Suite struct NullCommandTests {
  static let packageJSON = """
    {
      "name": "app",
      "main": null,
      "version": "1.0.0",
      "files": ["a", null]
    }

    """

  static let compose = "services:\n  web:\n    image: nginx\nvolumes:\n  data:\n  logs: ~\n"

  @Test func getPrintsANullAndSetAndRemoveKeepTheOtherNullsBytes() throws {
    let folder = try TestFolder()
    let json = try folder.write("package.json", Self.packageJSON)
    let get = try TestSupport.prefs(["get", json, "main"])
    #expect(get.status == 0 && get.stdout == "null\n" && get.stderr == "")
    #expect(try TestSupport.prefs(["get", json, "files", "--to", "json"]).stdout == "[\n  \"a\",\n  null\n]\n")

    let set = try TestSupport.prefs(["set", json, "version", "1.1.0"])
    #expect(set.status == 0 && set.stderr == "", "\(set.stderr)")
    #expect(try String(contentsOfFile: json, encoding: .utf8) == Self.packageJSON.replacingAll("1.0.0", "1.1.0"))
    let remove = try TestSupport.prefs(["remove", json, "files.1"])
    #expect(remove.status == 0 && remove.stderr == "", "\(remove.stderr)")
    #expect(try String(contentsOfFile: json, encoding: .utf8).contains("\"main\": null"))

    let yaml = try folder.write("compose.yaml", Self.compose)
    #expect(try TestSupport.prefs(["set", yaml, "services.web.image", "caddy"]).status == 0)
    #expect(try String(contentsOfFile: yaml, encoding: .utf8) == Self.compose.replacingAll("nginx", "caddy"))
  }

  @Test func aNullKeepsItsTypeAndTheStringNullStaysAString() throws {
    let folder = try TestFolder()
    let yaml = try folder.write("compose.yaml", Self.compose)
    // Without --type, a null key takes only null: anything else is a change of type.
    let refused = try TestSupport.prefs(["set", yaml, "volumes.data", "db"])
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("prefs: error: \(yaml): 'db' is not a null, and 'volumes.data' holds a null\n"))
    #expect(try String(contentsOfFile: yaml, encoding: .utf8) == Self.compose)
    let string = try TestSupport.prefs(["set", yaml, "volumes.data", "db", "--type", "string"])
    #expect(string.status == 0 && string.stderr == "", "\(string.stderr)")
    #expect(try String(contentsOfFile: yaml, encoding: .utf8) == Self.compose.replacingAll("  data:\n", "  data: db\n"))
    // --type null sets one; the text null without a type, on a new key, is the string.
    #expect(try TestSupport.prefs(["set", yaml, "volumes.data", "null", "--type", "null"]).status == 0)
    #expect(
      try TestSupport.prefs(["get", yaml, "volumes"]).stdout == "data: null\nlogs: null\n")
    let word = try TestSupport.prefs(["set", yaml, "mode", "null"])
    #expect(word.status == 0)
    #expect(word.stderr == "prefs: warning: stored 'null' at 'mode' as a string; --type null null stores a null\n")
    #expect(try TestSupport.prefs(["get", yaml, "mode", "--to", "json"]).stdout == "\"null\"\n")
    #expect(try TestSupport.prefs(["set", yaml, "x", "nil", "--type", "null"]).status == 65)
  }

  @Test func diffAndTextconvShowNulls() throws {
    let folder = try TestFolder()
    let a = try folder.write("a.json", #"{"main": null, "b": ""}"#)
    let b = try folder.write("b.yaml", "main: ''\nb: ''\n")
    let diff = try TestSupport.prefs(["diff", a, b])
    #expect(diff.status == 1)
    #expect(diff.stdout == "~ main: null (null) -> \"\" (string)\n", "\(diff.stdout)")
    let unified = try TestSupport.prefs(["diff", a, b, "--unified"])
    #expect(unified.status == 1 && unified.stdout.contains("-main: null\n+main: \"\"\n"), "\(unified.stdout)")
    let same = try folder.write("c.yaml", "main: ~\nb: ''\n")
    #expect(try TestSupport.prefs(["diff", a, same]).status == 0)
    let textconv = try TestSupport.prefs(["textconv", a])
    #expect(textconv.status == 0 && textconv.stdout == "b: \"\"\nmain: null\n" && textconv.stderr == "")
  }

  @Test func mergeKeepsNullsAndChangesOnlyWhatChanged() throws {
    let folder = try TestFolder()
    let base = try folder.write("base.json", Self.packageJSON)
    let current = try folder.write("current.json", Self.packageJSON.replacingAll("1.0.0", "1.1.0"))
    let other = try folder.write("other.json", Self.packageJSON.replacingAll("\"app\"", "\"web\""))
    let merged = try TestSupport.prefs(["merge", current, base, other])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(
      try String(contentsOfFile: current, encoding: .utf8)
        == Self.packageJSON.replacingAll("1.0.0", "1.1.0").replacingAll("\"app\"", "\"web\""))
  }

  @Test func aPlistRefusesANullByPathAndDropsItWithDropNulls() throws {
    let folder = try TestFolder()
    let json = try folder.write("package.json", Self.packageJSON)
    let out = folder.path("out.plist")
    let refused = try TestSupport.prefs(["convert", json, "-o", out])
    #expect(refused.status == 65)
    #expect(
      refused.stderr
        == "prefs: error: \(out): null at main has no plist form\nhint: use --drop-nulls to leave nulls out of the property list\n"
    )
    #expect(!FileManager.default.fileExists(atPath: out))
    let dropped = try TestSupport.prefs(["convert", json, "-o", out, "--drop-nulls"])
    #expect(dropped.status == 0)
    #expect(
      dropped.stderr
        == "prefs: warning: \(out): dropped null at main\nprefs: warning: \(out): dropped null at files.1\n")
    #expect(
      try TestSupport.prefs(["convert", out, "--to", "json", "--compact"]).stdout
        == #"{"name":"app","version":"1.0.0","files":["a"]}"# + "\n")
  }

  @Test func aDomainInTheStoreIsAPlistSoImportRefusesANullUnlessDropNulls() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    let json = try folder.write("package.json", Self.packageJSON)
    let refused = try TestSupport.prefs(["import", "com.example.app", json], store: store)
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("prefs: error: \(json): null at main has no plist form\nhint: use --drop-nulls"))
    #expect(!FileManager.default.fileExists(atPath: store.appendingPathComponent("com.example.app.plist").path))
    let dryRun = try TestSupport.prefs(["import", "com.example.app", json, "--dry-run"], store: store)
    #expect(dryRun.status == 65)
    let dropped = try TestSupport.prefs(["import", "com.example.app", json, "--drop-nulls"], store: store)
    #expect(dropped.status == 0, "\(dropped.stderr)")
    #expect(dropped.stderr.contains("dropped null at main"))
    #expect(
      try TestSupport.prefs(["export", "com.example.app", "--format", "json", "--compact"], store: store).stdout
        == #"{"files":["a"],"name":"app","version":"1.0.0"}"# + "\n")
    // write into a domain: the same.
    let write = try TestSupport.prefs(["write", "com.example.app", "k", "null", "--type", "null"], store: store)
    #expect(write.status == 65 && write.stderr.hasPrefix("prefs: error: "), "\(write.stderr)")
    #expect(write.stderr.contains("null at k has no plist form"))
  }

  /// Every command that can write a property list takes --drop-nulls; those that
  /// write none do not.
  @Test func dropNullsIsTakenWherePlistsAreWritten() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    let json = try folder.write("package.json", Self.packageJSON)
    let settings = try folder.write("settings.yaml", "com.example.app:\n  main: ~\n  name: app\n")
    let runs: [[String]] = [
      ["convert", json, "--to", "xml", "--drop-nulls"],
      ["import", "com.example.app", json, "--drop-nulls"],
      ["export", json, "--format", "xml", "--drop-nulls"],
      ["get", json, "files", "--to", "xml", "--drop-nulls"],
      ["apply", settings, "--drop-nulls"],
      ["set", json, "name", "web", "--drop-nulls"],
      ["remove", json, "name", "--drop-nulls"],
      ["write", "com.example.app", "k", "v", "--drop-nulls"],
      ["merge", json, json, json, "--drop-nulls", "-o", "-"],
      ["lint", json, "--drop-nulls"],
    ]
    for arguments in runs {
      let result = try TestSupport.prefs(arguments, store: store)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
    #expect(try TestSupport.prefs(["read", "com.example.app", "name"], store: store).stdout == "app\n")
    for arguments in [["diff", json, json, "--drop-nulls"], ["textconv", json, "--drop-nulls"]] {
      let result = try TestSupport.prefs(arguments, store: store)
      #expect(result.status == 64, "\(arguments)")
    }
    // apply without it names the option, and changes nothing.
    let apply = try TestSupport.prefs(["apply", settings], store: folder.url.appendingPathComponent("other"))
    #expect(apply.status == 65)
    #expect(apply.stderr.contains("null at main has no plist form"), "\(apply.stderr)")
    #expect(apply.stderr.contains("hint: use --drop-nulls"), "\(apply.stderr)")
  }

  // MARK: git

  static let git = TestSupport.executable(named: "git")

  /// A file of the issue, set up with `prefs git-setup SETUP`, and one change on each
  /// branch, in different keys: `ours` and `theirs` replace text of `base`.
  struct GitCase: Sendable, CustomTestStringConvertible {
    var setup: String
    var file: String
    var base: String
    var ours: (String, String)
    var theirs: (String, String)
    /// What the file holds after the merge.
    var merged: String
    var testDescription: String { file }
  }

  static let gitCases = [
    GitCase(
      setup: "json", file: "package.json", base: packageJSON, ours: ("1.0.0", "1.1.0"), theirs: ("\"app\"", "\"web\""),
      merged: packageJSON.replacingAll("1.0.0", "1.1.0").replacingAll("\"app\"", "\"web\"")),
    // The branch's new empty volume comes over as the branch wrote it.
    GitCase(
      setup: "yaml", file: "compose.yaml", base: compose, ours: ("nginx", "caddy"),
      theirs: ("logs: ~", "logs: ~\n  cache:"),
      merged: compose.replacingAll("nginx", "caddy").replacingAll("logs: ~", "logs: ~\n  cache:")),
  ]

  @Test(.enabled(if: git != nil, "git is not installed"), arguments: gitCases)
  func gitMergesAFileHoldingANullChangedOnTwoBranches(_ test: GitCase) throws {
    let repo = try MergeCommandTests.Repository(git: try #require(Self.git))
    func git(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      let result = try repo.run(["-c", "user.name=t", "-c", "user.email=t@t"] + arguments)
      #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
      return result
    }
    let setUp = try repo.prefs(["git-setup", test.setup])
    #expect(setUp.status == 0, "\(setUp.stderr)")
    let path = URL(fileURLWithPath: repo.path(test.file))
    try Data(test.base.utf8).write(to: path)
    _ = try git(["add", "-A"])
    _ = try git(["commit", "-q", "-m", "base"])
    _ = try git(["checkout", "-q", "-b", "topic"])
    try Data(test.base.replacingAll(test.theirs.0, test.theirs.1).utf8).write(to: path)
    _ = try git(["commit", "-q", "-am", "theirs"])
    _ = try git(["checkout", "-q", "main"])
    try Data(test.base.replacingAll(test.ours.0, test.ours.1).utf8).write(to: path)
    _ = try git(["commit", "-q", "-am", "ours"])
    _ = try git(["merge", "-q", "--no-edit", "topic"])
    #expect(try String(contentsOf: path, encoding: .utf8) == test.merged)
    #expect(try git(["status", "--porcelain", "--untracked-files=no"]).stdout == "")
  }
}

extension String {
  /// The text with every `old` replaced by `new`.
  fileprivate func replacingAll(_ old: String, _ new: String) -> String {
    replacingOccurrences(of: old, with: new)
  }
}
