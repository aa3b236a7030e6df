import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// `prefs merge` and `prefs git-setup`, run as git runs them.
@Suite struct MergeCommandTests {
  static let base = """
    # window
    width: 800
    height: 600
    theme: light
    recent:
      - a.txt
      - b.txt

    """

  @Test func aCleanMergeIsWrittenIntoCurrentChangingOnlyWhatChanged() throws {
    let folder = try TestFolder()
    try folder.write("base.yaml", Self.base)
    try folder.write("current.yaml", Self.base.replacingOccurrences(of: "width: 800", with: "width: 1024"))
    try folder.write(
      "other.yaml",
      Self.base.replacingOccurrences(of: "height: 600", with: "height: 700")
        .replacingOccurrences(of: "  - b.txt\n", with: "  - b.txt\n  - c.txt\n"))
    let result = try TestSupport.prefs([
      "merge", folder.path("current.yaml"), folder.path("base.yaml"), folder.path("other.yaml"),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "")
    #expect(result.stderr == "")
    #expect(
      try folder.read("current.yaml") == """
        # window
        width: 1024
        height: 700
        theme: light
        recent:
          - a.txt
          - b.txt
          - c.txt

        """)
  }

  @Test func conflictsAreMarkedInTextListedOnStandardErrorAndExit1() throws {
    let folder = try TestFolder()
    try folder.write("base.yaml", Self.base)
    try folder.write("current.yaml", Self.base.replacingOccurrences(of: "theme: light", with: "theme: dark"))
    try folder.write("other.yaml", Self.base.replacingOccurrences(of: "theme: light", with: "theme: solarized"))
    let before = try folder.read("current.yaml")
    let result = try TestSupport.prefs([
      "merge", folder.path("current.yaml"), folder.path("base.yaml"), folder.path("other.yaml"), "-o",
      folder.path("merged.yaml"), "--conflicts", folder.path("conflicts.yaml"), "-L", "HEAD", "-L", "base", "-L",
      "topic",
    ])
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        prefs: conflict: \(folder.path("merged.yaml")): theme: base "light", current "dark", other "solarized"
        prefs: \(folder.path("merged.yaml")): 1 conflict, marked with <<<<<<< and >>>>>>>

        """)
    #expect(try folder.read("current.yaml") == before)
    #expect(
      try folder.read("merged.yaml") == """
        # window
        width: 800
        height: 600
        <<<<<<< HEAD
        theme: dark
        =======
        theme: solarized
        >>>>>>> topic
        recent:
          - a.txt
          - b.txt

        """)
    #expect(
      try folder.read("conflicts.yaml") == """
        - path: theme
          base: light
          current: dark
          other: solarized

        """)
  }

  @Test func aBinaryPlistKeepsCurrentsValueAtAConflict() throws {
    let folder = try TestFolder()
    try folder.write("base.json", #"{"width": 800, "theme": "light", "list": [1, 2, 3]}"#)
    try folder.write("current.json", #"{"width": 1024, "theme": "dark", "list": [0, 1, 2, 3]}"#)
    try folder.write("other.json", #"{"width": 800, "theme": "solarized", "list": [1, 2, 3, 4], "new": true}"#)
    for name in ["base", "current", "other"] {
      #expect(
        try TestSupport.prefs(["convert", folder.path("\(name).json"), "--to", "binary", "-o", folder.path(name)])
          .status == 0)
    }
    let result = try TestSupport.prefs(["merge", folder.path("current"), folder.path("base"), folder.path("other")])
    #expect(result.status == 1)
    #expect(
      result.stderr == """
        prefs: conflict: \(folder.path("current")): theme: base "light", current "dark", other "solarized"
        prefs: \(folder.path("current")): 1 conflict; a binary file cannot hold conflict markers, so CURRENT's values were kept

        """)
    #expect(try folder.data("current").starts(with: Array("bplist00".utf8)))
    let merged = try TestSupport.prefs(["convert", folder.path("current"), "--to", "json", "--compact"])
    #expect(merged.stdout == #"{"width":1024,"theme":"dark","list":[0,1,2,3,4],"new":true}"# + "\n")
  }

  @Test func anUnreadableInputExits65AndChangesNothing() throws {
    let folder = try TestFolder()
    try folder.write("base.yaml", "a: [1,\n")
    try folder.write("current.yaml", "a: 1\n")
    try folder.write("other.yaml", "a: 2\n")
    let result = try TestSupport.prefs([
      "merge", folder.path("current.yaml"), folder.path("base.yaml"), folder.path("other.yaml"),
    ])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("prefs: error: \(folder.path("base.yaml")):"))
    #expect(try folder.read("current.yaml") == "a: 1\n")
    let missing = try TestSupport.prefs([
      "merge", folder.path("current.yaml"), folder.path("none.yaml"), folder.path("other.yaml"),
    ])
    #expect(missing.status == 66)
    let badKey = try TestSupport.prefs([
      "merge", folder.path("current.yaml"), folder.path("current.yaml"), folder.path("other.yaml"), "--array-key",
      "apps",
    ])
    #expect(badKey.status == 64)
    #expect(badKey.stderr.hasPrefix("prefs: error: --array-key takes KEYPATH=FIELD, not 'apps'\n"))
  }

  @Test func anArrayKeyMatchesItemsByANestedField() throws {
    let folder = try TestFolder()
    func dock(_ tiles: [(String, String)]) -> String {
      "{\"persistent-apps\": ["
        + tiles.map { #"{"tile-data": {"bundle-identifier": "\#($0.0)", "file-label": "\#($0.1)"}}"# }
        .joined(separator: ", ") + "]}"
    }
    try folder.write("base.json", dock([("a", "A"), ("b", "B")]))
    try folder.write("current.json", dock([("b", "B"), ("a", "A")]))
    try folder.write("other.json", dock([("a", "Apple"), ("b", "B"), ("c", "C")]))
    let result = try TestSupport.prefs([
      "merge", folder.path("current.json"), folder.path("base.json"), folder.path("other.json"), "-o", "-",
      "--array-key", "persistent-apps=tile-data.bundle-identifier",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // The new tile goes after the one before it in OTHER.
    #expect(result.stdout == dock([("b", "B"), ("c", "C"), ("a", "Apple")]))
  }

  // MARK: git

  /// A scratch home for git: its global config and attributes are the folder's, never the user's.
  final class Repository {
    let folder: TestFolder
    let git: URL
    var environment: [String: String]
    var url: URL { folder.url.appendingPathComponent("repo") }

    init(git: URL) throws {
      folder = try TestFolder()
      self.git = git
      environment = ProcessInfo.processInfo.environment
      environment["HOME"] = folder.url.path
      environment["XDG_CONFIG_HOME"] = folder.path(".config")
      environment["GIT_CONFIG_GLOBAL"] = folder.path("gitconfig")
      environment["GIT_CONFIG_NOSYSTEM"] = "1"
      environment["PATH"] = TestSupport.prefsBinary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
      for (key, value) in [
        ("GIT_AUTHOR_NAME", "Test"), ("GIT_AUTHOR_EMAIL", "test@example.com"), ("GIT_COMMITTER_NAME", "Test"),
        ("GIT_COMMITTER_EMAIL", "test@example.com"),
      ] {
        environment[key] = value
      }
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try run(["init", "-q", "-b", "main"])
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      try TestSupport.run(git, ["-C", url.path] + arguments, environment: environment)
    }

    func prefs(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      try TestSupport.prefs(arguments, in: url, environment: environment)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
  }

  static let git = TestSupport.executable(named: "git")

  /// Two branches of one repository: each changes other keys of a binary plist and
  /// neighbouring lines of a YAML file. Returns the result of merging them.
  static func mergeBranches(setUp: Bool) throws -> (Repository, TestSupport.ProcessResult) {
    let repo = try Repository(git: try #require(Self.git))
    if setUp {
      let setup = try repo.prefs(["git-setup", "yaml"])
      #expect(setup.status == 0, "\(setup.stderr)")
    }
    try Data("width: 800\nheight: 600\ntheme: light\n".utf8).write(to: URL(fileURLWithPath: repo.path("window.yaml")))
    try Data(#"{"ringtone": "Chimes", "volume": 5, "recent": ["a"]}"#.utf8)
      .write(to: URL(fileURLWithPath: repo.path("sound.json")))
    #expect(try repo.prefs(["convert", "sound.json", "--to", "binary", "-o", "sound.plist"]).status == 0)
    try FileManager.default.removeItem(atPath: repo.path("sound.json"))
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    try repo.run(["checkout", "-q", "-b", "topic"])
    #expect(try repo.prefs(["set", "window.yaml", "height", "700", "--type", "integer"]).status == 0)
    #expect(try repo.prefs(["set", "sound.plist", "volume", "7", "--type", "integer"]).status == 0)
    try repo.run(["commit", "-q", "-am", "topic"])
    try repo.run(["checkout", "-q", "main"])
    #expect(try repo.prefs(["set", "window.yaml", "width", "1024", "--type", "integer"]).status == 0)
    #expect(try repo.prefs(["set", "sound.plist", "ringtone", "Waves"]).status == 0)
    #expect(try repo.prefs(["set", "sound.plist", "recent.1", "b"]).status == 0)
    try repo.run(["commit", "-q", "-am", "main"])
    return (repo, try repo.run(["merge", "-q", "--no-edit", "topic"]))
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func gitMergesWhatGitAloneCannotOnceGitSetupRan() throws {
    let alone = try Self.mergeBranches(setUp: false).1
    #expect(alone.status != 0, "git alone merged: \(alone.stdout)")
    #expect(alone.stdout.contains("CONFLICT (content): Merge conflict in sound.plist"), "\(alone.stdout)")
    #expect(alone.stdout.contains("CONFLICT (content): Merge conflict in window.yaml"), "\(alone.stdout)")

    let (repo, merged) = try Self.mergeBranches(setUp: true)
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(
      try String(contentsOfFile: repo.path("window.yaml"), encoding: .utf8)
        == "width: 1024\nheight: 700\ntheme: light\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: repo.path("sound.plist"))).starts(with: Array("bplist00".utf8)))
    let sound = try repo.prefs(["convert", "sound.plist", "--to", "json", "--compact"])
    #expect(sound.stdout == #"{"ringtone":"Waves","volume":7,"recent":["a","b"]}"# + "\n")
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "")
    // git diff reads the binary plist through prefs textconv.
    let log = try repo.run(["log", "-p", "-1", "--no-color", "topic", "--", "sound.plist"])
    #expect(log.stdout.contains("-volume: 5\n+volume: 7\n"), "\(log.stdout)")
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func gitSetupIsIdempotentAndRemoveUndoesExactlyWhatItAdded() throws {
    let repo = try Repository(git: try #require(Self.git))
    try Data("*.txt text\n".utf8).write(to: URL(fileURLWithPath: repo.path(".gitattributes")))
    let config = try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8)
    let first = try repo.prefs(["git-setup", "yaml", ".json"])
    #expect(first.status == 0)
    #expect(
      first.stdout == """
        set diff.prefs.textconv = prefs textconv in the repository's git config
        set merge.prefs.name = prefs: structural merge of plists, YAML and JSON in the repository's git config
        set merge.prefs.driver = prefs merge %A %O %B in the repository's git config
        added '*.plist diff=prefs merge=prefs' to \(repo.path(".gitattributes"))
        added '*.pbxproj diff=prefs merge=prefs' to \(repo.path(".gitattributes"))
        added '*.yaml diff=prefs merge=prefs' to \(repo.path(".gitattributes"))
        added '*.json diff=prefs merge=prefs' to \(repo.path(".gitattributes"))

        """)
    #expect(try repo.run(["config", "merge.prefs.driver"]).stdout == "prefs merge %A %O %B\n")
    #expect(
      try repo.run(["check-attr", "merge", "diff", "--", "a/b.plist"]).stdout
        == "a/b.plist: merge: prefs\na/b.plist: diff: prefs\n")
    let again = try repo.prefs(["git-setup", "yaml", "json"])
    #expect(again.stdout == "nothing to change\n")
    let remove = try repo.prefs(["git-setup", "--remove"])
    #expect(remove.status == 0)
    #expect(remove.stdout.contains("removed merge.prefs.driver from the repository's git config\n"))
    #expect(try String(contentsOfFile: repo.path(".gitattributes"), encoding: .utf8) == "*.txt text\n")
    #expect(try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8) == config)
    #expect(try repo.prefs(["git-setup", "--remove"]).stdout == "nothing to change\n")
    // Outside a repository it needs --global.
    let outside = try TestSupport.prefs(["git-setup"], in: repo.folder.url, environment: repo.environment)
    #expect(outside.status == 64)
    #expect(outside.stderr.hasPrefix("prefs: error: not inside a git repository"))
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func gitSetupGlobalUsesTheUsersConfigAndAttributesFile() throws {
    let repo = try Repository(git: try #require(Self.git))
    let result = try repo.prefs(["git-setup", "--global"])
    #expect(result.status == 0)
    #expect(try repo.folder.read("gitconfig").contains("driver = prefs merge %A %O %B"))
    #expect(
      try repo.folder.read(".config/git/attributes")
        == "*.plist diff=prefs merge=prefs\n*.pbxproj diff=prefs merge=prefs\n")
    #expect(!FileManager.default.fileExists(atPath: repo.path(".gitattributes")))
    #expect(try repo.run(["check-attr", "merge", "--", "x.pbxproj"]).stdout == "x.pbxproj: merge: prefs\n")
    #expect(try repo.prefs(["git-setup", "--global", "--remove"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: repo.folder.path(".config/git/attributes")))
    #expect(!(try repo.folder.read("gitconfig")).contains("prefs"))
    // core.attributesFile, when set, is the file.
    try repo.run(["config", "--global", "core.attributesFile", "~/attributes"])
    #expect(try repo.prefs(["git-setup", "--global"]).status == 0)
    #expect(try repo.folder.read("attributes").contains("*.plist diff=prefs merge=prefs\n"))
  }

  /// The attributes file is edited as bytes: a line in Latin-1 survives, added and
  /// removed, and a file that is not text is never taken for an empty one.
  @Test(.enabled(if: git != nil, "git is not installed"))
  func gitSetupKeepsEveryLineOfAnAttributesFileThatIsNotUTF8() throws {
    let repo = try Repository(git: try #require(Self.git))
    let latin1 = Data("caf".utf8) + Data([0xE9]) + Data(".txt text\n".utf8)
    try latin1.write(to: URL(fileURLWithPath: repo.path(".gitattributes")))
    #expect(try repo.prefs(["git-setup"]).status == 0)
    let added = try Data(contentsOf: URL(fileURLWithPath: repo.path(".gitattributes")))
    #expect(added == latin1 + Data("*.plist diff=prefs merge=prefs\n*.pbxproj diff=prefs merge=prefs\n".utf8))
    #expect(try repo.prefs(["git-setup", "--remove"]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: repo.path(".gitattributes"))) == latin1)
  }

  /// git follows no `.gitattributes` symlink in a work tree, and neither does git-setup:
  /// it refuses, changing neither the link's target nor git's config.
  @Test(.enabled(if: git != nil, "git is not installed"))
  func gitSetupRefusesASymlinkedAttributesFile() throws {
    let repo = try Repository(git: try #require(Self.git))
    let outside = repo.folder.path("elsewhere")
    try Data("x\n".utf8).write(to: URL(fileURLWithPath: outside))
    try FileManager.default.createSymbolicLink(atPath: repo.path(".gitattributes"), withDestinationPath: outside)
    let config = try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8)
    let result = try repo.prefs(["git-setup"])
    #expect(result.status == 73, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("prefs: error: \(repo.path(".gitattributes")): is a symbolic link"))
    #expect(try String(contentsOfFile: outside, encoding: .utf8) == "x\n")
    #expect(try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8) == config)
    // A folder in its place cannot be read: refused, not replaced.
    try FileManager.default.removeItem(atPath: repo.path(".gitattributes"))
    try FileManager.default.createDirectory(atPath: repo.path(".gitattributes"), withIntermediateDirectories: false)
    #expect(try repo.prefs(["git-setup"]).status == 66)
  }

  // MARK: Xcode projects

  @Test(.enabled(if: TestSupport.corpus("xcode") != nil, "the corpus at ../shared/corpus is absent"))
  func theMergeDriverMergesTwoFilesAddedToOneGroupOfAnXcodeProject() throws {
    let folder = try TestFolder()
    let url = try #require(TestSupport.corpus("xcode")).appendingPathComponent("SnapKit-a3fa2fb.pbxproj")
    let base = try Format.read(Data(contentsOf: url), path: url.path).value
    // Each side adds a file reference and lists it in the first group.
    func adding(_ id: String, _ name: String) throws -> PrefValue {
      var value = try base.setting(
        .dictionary(["isa": .string("PBXFileReference"), "path": .string(name), "sourceTree": .string("<group>")]),
        at: ["objects", id])
      let objects = base.dictionaryValue!["objects"]!.dictionaryValue!
      let group = objects.first { $0.value.dictionaryValue?["isa"] == .string("PBXGroup") }!.key
      let children = objects[group]!.dictionaryValue!["children"]!.arrayValue!
      value = try value.setting(.array(children + [.string(id)]), at: ["objects", group, "children"])
      return value
    }
    for (name, value) in [
      ("base", base), ("current", try adding("AAAAAAAAAAAAAAAAAAAAAAAA", "Mine.swift")),
      ("other", try adding("BBBBBBBBBBBBBBBBBBBBBBBB", "Theirs.swift")),
    ] {
      try Format.openStep.codec.encode(value).write(to: URL(fileURLWithPath: folder.path("\(name).pbxproj")))
    }
    let result = try TestSupport.prefs([
      "merge", folder.path("current.pbxproj"), folder.path("base.pbxproj"), folder.path("other.pbxproj"),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let merged = try Format.read(folder.data("current.pbxproj"), path: folder.path("current.pbxproj")).value
    #expect(try merged.value(at: ["objects", "BBBBBBBBBBBBBBBBBBBBBBBB", "path"]) == .string("Theirs.swift"))
    #expect(try merged.value(at: ["objects", "AAAAAAAAAAAAAAAAAAAAAAAA", "path"]) == .string("Mine.swift"))
  }
}
