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
        prefs: conflict: \(folder.path("merged.yaml")): theme: base "light", HEAD "dark", topic "solarized"
        prefs: \(folder.path("merged.yaml")): 1 conflict between HEAD and topic, marked with <<<<<<< and >>>>>>>

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
        - file: \(folder.path("merged.yaml"))
          path: theme
          base: light
          current: dark
          other: solarized
          current-label: HEAD
          other-label: topic

        """)
  }

  @Test func asGitsDriverTheMarkersAndMessagesNameThePathAndTheSides() throws {
    let folder = try TestFolder()
    try folder.write("base", Self.base)
    try folder.write("current", Self.base.replacingOccurrences(of: "theme: light", with: "theme: dark"))
    try folder.write("other", Self.base.replacingOccurrences(of: "theme: light", with: "theme: solarized"))
    // As git before 2.44 runs it: %X %S %Y as written, and no merge in progress.
    let result = try TestSupport.prefs([
      "merge", folder.path("current"), folder.path("base"), folder.path("other"), "--path", "config/window.yaml",
      "--marker-size", "9", "-L", "%X", "-L", "%S", "-L", "%Y", "--conflicts", folder.path("conflicts.yaml"),
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr == """
        prefs: conflict: config/window.yaml: theme: base "light", HEAD "dark", theirs "solarized"
        prefs: config/window.yaml: 1 conflict between HEAD and theirs, marked with <<<<<<<<< and >>>>>>>>>

        """)
    #expect(
      try folder.read("current").contains(
        "<<<<<<<<< HEAD\ntheme: dark\n=========\ntheme: solarized\n>>>>>>>>> theirs\n"))
    #expect(try folder.read("conflicts.yaml").hasPrefix("- file: config/window.yaml\n  path: theme\n"))
    let bad = try TestSupport.prefs([
      "merge", folder.path("current"), folder.path("base"), folder.path("other"), "--marker-size", "0",
    ])
    #expect(bad.status == 64)
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

  @Test(.enabled(if: git != nil, "git is not installed"))
  func anInputThatDoesNotReadIsMergedLineByLineAsGitMergeFileDoes() throws {
    let folder = try TestFolder()
    try folder.write("base.yaml", "a: [1,\nb: 1\n")
    try folder.write("current.yaml", "a: [1,\nb: 2\n")
    try folder.write("other.yaml", "a: [1,\nb: 3\n")
    let result = try TestSupport.prefs([
      "merge", folder.path("current.yaml"), folder.path("base.yaml"), folder.path("other.yaml"),
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix("prefs: \(folder.path("current.yaml")):3:1: ")
        && result.stderr.hasSuffix("; merged line by line, as git does, with 1 conflict\n"), "\(result.stderr)")
    #expect(
      try folder.read("current.yaml")
        == "a: [1,\n<<<<<<< \(folder.path("current.yaml"))\nb: 2\n=======\nb: 3\n>>>>>>> \(folder.path("other.yaml"))\n"
    )
    // Without git, a clear error, and nothing changed.
    try folder.write("current.yaml", "a: [1,\nb: 2\n")
    let alone = try TestSupport.prefs(
      ["merge", folder.path("current.yaml"), folder.path("base.yaml"), folder.path("other.yaml")],
      environment: ["PATH": folder.path("no-such-folder")])
    #expect(alone.status == 65)
    #expect(alone.stderr.hasPrefix("prefs: error: \(folder.path("current.yaml")):3:1: "), "\(alone.stderr)")
    #expect(alone.stderr.contains("\nhint: the lines cannot be merged instead, as git merge-file would, without git"))
    #expect(try folder.read("current.yaml") == "a: [1,\nb: 2\n")
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

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aMergeThatWouldWriteAnAliasOutIsMergedLineByLine() throws {
    let folder = try TestFolder()
    try folder.write("base.yaml", "d: &d\n  k: 1\n  m: 2\nz: *d\n")
    try folder.write("current.yaml", "d: &d\n  k: 1\n  m: 3\nz: *d\n")
    try folder.write("other.yaml", "d: &d\n  k: 5\n  m: 2\nz:\n  k: 1\n  m: 2\n")
    let expected = try TestSupport.run(
      try #require(Self.git),
      ["merge-file", "-p", folder.path("current.yaml"), folder.path("base.yaml"), folder.path("other.yaml")])
    let result = try TestSupport.prefs([
      "merge", folder.path("current.yaml"), folder.path("base.yaml"), folder.path("other.yaml"),
    ])
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderr == "prefs: \(folder.path("current.yaml")): writing the top level would copy what an alias gives "
        + "instead of keeping the alias; merged line by line, as git does, with 1 conflict\n")
    #expect(try folder.read("current.yaml") == expected.stdout)
    #expect(!expected.stdout.contains("z:\n  k: 1\n  m: 3\n"))
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
    // The tile OTHER appended stays at the end.
    #expect(result.stdout == dock([("b", "B"), ("a", "Apple"), ("c", "C")]))
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
  /// The merge driver git-setup installs.
  static let driver = "prefs merge %A %O %B --path %P --marker-size %L -L %X -L %S -L %Y --expand-data"

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
  func aWorkflowsAnchorAndAJobsStepMergeAsGitMergesTheirLines() throws {
    let repo = try Repository(git: try #require(Self.git))
    #expect(try repo.prefs(["git-setup", "yaml"]).status == 0)
    let base = """
      name: ci
      defaults: &d
        runs-on: ubuntu-latest
        timeout-minutes: 10
      jobs:
        build:
          <<: *d
          steps:
            - uses: actions/checkout@v4
            - run: make
        test:
          <<: *d
          steps:
            - uses: actions/checkout@v4
            - run: make test

      """
    let file = URL(fileURLWithPath: repo.path("ci.yml"))
    try Data(base.utf8).write(to: file)
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    try repo.run(["checkout", "-q", "-b", "topic"])
    let topic = base.replacingOccurrences(of: "timeout-minutes: 10", with: "timeout-minutes: 30")
    try Data(topic.utf8).write(to: file)
    try repo.run(["commit", "-q", "-am", "topic"])
    try repo.run(["checkout", "-q", "main"])
    let main = base.replacingOccurrences(of: "run: make test", with: "run: make check")
    try Data(main.utf8).write(to: file)
    try repo.run(["commit", "-q", "-am", "main"])
    for (name, text) in [("base.yml", base), ("main.yml", main), ("topic.yml", topic)] {
      try Data(text.utf8).write(to: URL(fileURLWithPath: repo.path(name)))
    }
    let lines = try repo.run(["merge-file", "-p", "main.yml", "base.yml", "topic.yml"])
    #expect(lines.status == 0)
    let merged = try repo.run(["merge", "-q", "--no-edit", "topic"])
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    let result = try String(contentsOfFile: repo.path("ci.yml"), encoding: .utf8)
    #expect(result == lines.stdout)
    #expect(result.contains("timeout-minutes: 30\n") && result.contains("run: make check\n"))
    #expect(result.components(separatedBy: "<<: *d\n").count == 3)
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "")
    let log = try repo.run(["log", "-p", "-1", "--no-color", "--first-parent", "-m", "--", "ci.yml"])
    #expect(log.stdout.contains("-  timeout-minutes: 10\n+  timeout-minutes: 30\n"), "\(log.stdout)")
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func branchesChangingALongArrayEverywhereMergeWithOneSmallRegionPerConflict() throws {
    let repo = try Repository(git: try #require(Self.git))
    #expect(try repo.prefs(["git-setup", "json"]).status == 0)
    // 20,000 items; each branch changes one in 10 (more differences than one search
    // looks for), and both change items 3, 13 and 23, differently.
    let items = (0..<20_000).map { "item \($0)" }
    func write(_ list: [String]) throws {
      let text = "{\n  \"list\": [\n" + list.map { "    \"\($0)\"" }.joined(separator: ",\n") + "\n  ]\n}\n"
      try Data(text.utf8).write(to: URL(fileURLWithPath: repo.path("list.json")))
    }
    try write(items)
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    try repo.run(["checkout", "-q", "-b", "topic"])
    var topic = items
    for i in stride(from: 7, to: items.count, by: 10) { topic[i] = "topic \(i)" }
    for i in [3, 13, 23] { topic[i] = "topic \(i)" }
    try write(topic)
    try repo.run(["commit", "-q", "-am", "topic"])
    try repo.run(["checkout", "-q", "main"])
    var main = items
    for i in stride(from: 3, to: items.count, by: 10) { main[i] = "main \(i)" }
    try write(main)
    try repo.run(["commit", "-q", "-am", "main"])
    let merged = try repo.run(["merge", "-q", "--no-edit", "topic"])
    #expect(merged.status == 1)
    #expect(merged.stdout.contains("CONFLICT (content): Merge conflict in list.json"), "\(merged.stdout)")
    #expect(try repo.run(["status", "--porcelain"]).stdout == "UU list.json\n")
    let text = try String(contentsOfFile: repo.path("list.json"), encoding: .utf8)
    // One region per conflicting item, each holding that item alone on either side.
    for i in [3, 13, 23] {
      #expect(
        text.contains("<<<<<<< HEAD\n    \"main \(i)\",\n=======\n    \"topic \(i)\",\n>>>>>>> topic\n"), "item \(i)")
    }
    #expect(text.components(separatedBy: "<<<<<<< ").count == 4)
    // Everything else merged: resolving to either side gives the other branch's clean changes.
    var expected = main
    for i in stride(from: 7, to: items.count, by: 10) { expected[i] = "topic \(i)" }
    let resolved = text.split(separator: "\n", omittingEmptySubsequences: false).filter {
      !$0.hasPrefix("<<<<<<<") && !$0.hasPrefix("=======") && !$0.hasPrefix(">>>>>>>") && !$0.contains("\"topic 3\"")
        && !$0.contains("\"topic 13\"") && !$0.contains("\"topic 23\"")
    }.joined(separator: "\n")
    try Data(resolved.utf8).write(to: URL(fileURLWithPath: repo.path("resolved.json")))
    let value = try repo.prefs(["convert", "resolved.json", "--to", "json", "--compact"])
    let merges = value.stdout == #"{"list":["# + expected.map { "\"\($0)\"" }.joined(separator: ",") + "]}\n"
    #expect(merges, "\(value.stderr)")
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
        set diff.prefs.textconv = prefs textconv --binary-only --expand-data in the repository's git config
        set merge.prefs.name = prefs: structural merge of plists, YAML and JSON in the repository's git config
        set merge.prefs.driver = \(Self.driver) in the repository's git config
        added '*.plist diff=prefs merge=prefs' to \(repo.path(".gitattributes"))
        added '*.pbxproj merge=prefs' to \(repo.path(".gitattributes"))
        added '*.yaml merge=prefs' to \(repo.path(".gitattributes"))
        added '*.json merge=prefs' to \(repo.path(".gitattributes"))

        """)
    #expect(try repo.run(["config", "merge.prefs.driver"]).stdout == Self.driver + "\n")
    #expect(
      try repo.run(["check-attr", "merge", "diff", "--", "a/b.yaml"]).stdout
        == "a/b.yaml: merge: prefs\na/b.yaml: diff: unspecified\n")
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
    #expect(try repo.folder.read("gitconfig").contains("driver = \(Self.driver)"))
    #expect(try repo.folder.read(".config/git/attributes") == "*.plist diff=prefs merge=prefs\n*.pbxproj merge=prefs\n")
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
    #expect(added == latin1 + Data("*.plist diff=prefs merge=prefs\n*.pbxproj merge=prefs\n".utf8))
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

  /// A repository where `name` holds `base` in main's first commit, `current` on main
  /// and `other` on the branch topic, with `files` beside it from the start; git-setup
  /// ran first with `setUp` (none when nil). Returns it and what `git merge topic` on
  /// main gave, with `config` as `-c` settings.
  static func merge(
    _ name: String, base: Data, current: Data, other: Data, setUp: [String]? = ["yaml"],
    files: [String: Data] = [:], config: [String] = []
  ) throws -> (Repository, TestSupport.ProcessResult) {
    let repo = try Repository(git: try #require(Self.git))
    if let setUp {
      let setup = try repo.prefs(["git-setup"] + setUp)
      #expect(setup.status == 0, "\(setup.stderr)")
    }
    func write(_ data: Data, to file: String) throws {
      let url = URL(fileURLWithPath: repo.path(file))
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url)
    }
    for (file, data) in files { try write(data, to: file) }
    try write(base, to: name)
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    try repo.run(["checkout", "-q", "-b", "topic"])
    try write(other, to: name)
    try repo.run(["commit", "-q", "-am", "topic"])
    try repo.run(["checkout", "-q", "main"])
    try write(current, to: name)
    try repo.run(["commit", "-q", "-am", "main"])
    return (repo, try repo.run(config.flatMap { ["-c", $0] } + ["merge", "--no-edit", "topic"]))
  }

  /// `git merge-file -p` of three texts, as git itself merges lines.
  static func gitMergeFile(_ current: String, _ base: String, _ other: String) throws -> String {
    let folder = try TestFolder()
    for (name, text) in [("current", current), ("base", base), ("other", other)] { try folder.write(name, text) }
    let result = try TestSupport.run(
      try #require(Self.git), ["merge-file", "-p", folder.path("current"), folder.path("base"), folder.path("other")])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  /// A YAML file with a line the value merge refuses between the lines two branches change.
  static func refused(_ line: String, width: Int = 800, theme: String = "light") -> Data {
    Data("# window\nwidth: \(width)\n\(line)\nheight: 600\ntheme: \(theme)\n".utf8)
  }

  @Test(
    .enabled(if: git != nil, "git is not installed"),
    arguments: [("pattern: !ruby/regexp /x/", "unknown tag !ruby/regexp"), ("width: 640", "duplicate key \"width\"")])
  func aFileTheValueMergeRefusesMergesCleanlyThroughGitsLineMerge(line: String, reason: String) throws {
    let (base, current, other) = (
      Self.refused(line), Self.refused(line, width: 1024), Self.refused(line, theme: "dark")
    )
    let (repo, merged) = try Self.merge("window.yaml", base: base, current: current, other: other)
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(merged.stderr.contains("prefs: window.yaml (HEAD):3:"), "\(merged.stderr)")
    #expect(merged.stderr.contains(": \(reason); merged line by line, as git does\n"), "\(merged.stderr)")
    let text = try String(contentsOfFile: repo.path("window.yaml"), encoding: .utf8)
    let strings = [current, base, other].map { String(decoding: $0, as: UTF8.self) }
    #expect(text == (try Self.gitMergeFile(strings[0], strings[1], strings[2])))
    #expect(text == "# window\nwidth: 1024\n\(line)\nheight: 600\ntheme: dark\n")
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "")
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aConflictInTheLineMergeHasGitsOwnMarkersWithTheBranchNames() throws {
    let line = "pattern: !ruby/regexp /x/"
    let diff3 = ["merge.conflictStyle=diff3"]
    let (repo, merged) = try Self.merge(
      "window.yaml", base: Self.refused(line), current: Self.refused(line, theme: "dark"),
      other: Self.refused(line, theme: "solarized"), config: diff3)
    #expect(merged.status == 1)
    #expect(merged.stdout.contains("CONFLICT (content): Merge conflict in window.yaml"), "\(merged.stdout)")
    #expect(
      merged.stderr.contains("; merged line by line, as git does, with 1 conflict\n"), "\(merged.stderr)")
    let text = try String(contentsOfFile: repo.path("window.yaml"), encoding: .utf8)
    #expect(text.contains("<<<<<<< HEAD\ntheme: dark\n||||||| "), "\(text)")
    #expect(text.hasSuffix("=======\ntheme: solarized\n>>>>>>> topic\n"), "\(text)")
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "UU window.yaml\n")
    // Byte for byte what git's own merge leaves.
    try repo.run(["merge", "--abort"])
    try Data("* merge=text\n".utf8).write(to: URL(fileURLWithPath: repo.path(".git/info/attributes")))
    #expect(try repo.run(diff3.flatMap { ["-c", $0] } + ["merge", "--no-edit", "topic"]).status == 1)
    #expect(try String(contentsOfFile: repo.path("window.yaml"), encoding: .utf8) == text)
  }

  /// An XML plist of these settings.
  static func plist(_ values: PrefValue, format: Format = .xml) throws -> Data { try format.codec.encode(values) }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aPlistConflictIsNamedByItsPathAndTheBranches() throws {
    let (repo, merged) = try Self.merge(
      "prefs/settings.plist", base: try Self.plist(["theme": "light", "size": 1]),
      current: try Self.plist(["theme": "dark", "size": 1]), other: try Self.plist(["theme": "solarized", "size": 2]))
    #expect(merged.status == 1)
    #expect(
      merged.stderr.contains(
        """
        prefs: conflict: prefs/settings.plist: theme: base "light", HEAD "dark", topic "solarized"
        prefs: prefs/settings.plist: 1 conflict between HEAD and topic, marked with <<<<<<< and >>>>>>>

        """), "\(merged.stderr)")
    #expect(!merged.stderr.contains(".merge_file_"))
    let text = try String(contentsOfFile: repo.path("prefs/settings.plist"), encoding: .utf8)
    #expect(text.contains("<<<<<<< HEAD\n"), "\(text)")
    #expect(text.contains(">>>>>>> topic\n"), "\(text)")
    #expect(text.contains("<integer>2</integer>"), "OTHER's other change is merged: \(text)")
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "UU prefs/settings.plist\n")
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aBinaryPlistConflictIsListedAndGitStatusShowsItUnmerged() throws {
    let (repo, merged) = try Self.merge(
      "sound.plist", base: try Self.plist(["ringtone": "Chimes", "volume": 5], format: .binary),
      current: try Self.plist(["ringtone": "Waves", "volume": 5], format: .binary),
      other: try Self.plist(["ringtone": "Signal", "volume": 7], format: .binary))
    #expect(merged.status == 1)
    #expect(
      merged.stderr.contains(
        """
        prefs: conflict: sound.plist: ringtone: base "Chimes", HEAD "Waves", topic "Signal"
        prefs: sound.plist: 1 conflict between HEAD and topic; a binary file cannot hold conflict markers, \
        so HEAD's values were kept

        """), "\(merged.stderr)")
    #expect(merged.stdout.contains("CONFLICT (content): Merge conflict in sound.plist"), "\(merged.stdout)")
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "UU sound.plist\n")
    let sound = try repo.prefs(["convert", "sound.plist", "--to", "json", "--compact"])
    #expect(sound.stdout == #"{"ringtone":"Waves","volume":7}"# + "\n")
  }

  /// A Dock domain: its apps by bundle identifier and GUID.
  static func dock(_ apps: [(String, Int)]) throws -> Data {
    try plist(
      [
        "autohide": false,
        "persistent-apps": .array(
          apps.map { app in
            [
              "GUID": .integer(Int64(app.1)), "tile-type": "file-tile",
              "tile-data": ["bundle-identifier": .string(app.0), "file-label": .string(app.0)],
            ]
          }),
      ], format: .binary)
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aDockWhereBothSidesAddAppsMergesCleanlyWithOthersAppendedAppLast() throws {
    // OTHER's Dock also numbered its tiles anew.
    let (repo, merged) = try Self.merge(
      "com.apple.dock.plist", base: try Self.dock([("mail", 1), ("safari", 2)]),
      current: try Self.dock([("mail", 1), ("safari", 2), ("notes", 3)]),
      other: try Self.dock([("mail", 11), ("safari", 12), ("music", 13)]))
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(merged.stderr == "")
    let apps = try repo.prefs(["get", "com.apple.dock.plist", "persistent-apps"])
    let expected = try Format.yaml.codec.encode(
      try Format.binary.codec.read(
        try Self.dock([("mail", 11), ("safari", 12), ("notes", 3), ("music", 13)]), options: ReadOptions(),
        warnings: Warnings()
      ).value(at: ["persistent-apps"]))
    #expect(apps.stdout == String(decoding: expected, as: UTF8.self))
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func theRepositorysIdentityFileNamesArrayItemsThroughThePath() throws {
    func servers(_ list: [(String, Int)]) -> Data {
      Data(
        ("{\"servers\": [" + list.map { #"{"host": "\#($0.0)", "port": \#($0.1)}"# }.joined(separator: ", ") + "]}\n")
          .utf8)
    }
    let (base, current, other) = (
      servers([("a", 1), ("b", 2)]), servers([("a", 9), ("b", 2)]), servers([("c", 3), ("a", 1), ("b", 2)])
    )
    let rules = ["config/.keep": Data(), ".prefs-merge": Data("# arrays by path\nconfig/*.json  servers=host\n".utf8)]
    let (repo, merged) = try Self.merge(
      "config/app.json", base: base, current: current, other: other, setUp: ["json"], files: rules)
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(
      try repo.folder.read("repo/config/app.json")
        == String(decoding: servers([("c", 3), ("a", 9), ("b", 2)]), as: UTF8.self))
    // Without the file, the items are matched by value, and the change clashes with the insertion.
    let (_, alone) = try Self.merge("config/app.json", base: base, current: current, other: other, setUp: ["json"])
    #expect(alone.status == 1)
  }

  // MARK: Diffs after git-setup

  @Test(.enabled(if: git != nil, "git is not installed"))
  func gitDiffShowsTextFormatsAsTextAndBinaryPlistsAsYAML() throws {
    let repo = try Repository(git: try #require(Self.git))
    #expect(try repo.prefs(["git-setup", "yaml"]).status == 0)
    try Data("# the window\nwidth: 800\nheight: 600\n".utf8).write(to: URL(fileURLWithPath: repo.path("w.yaml")))
    try Self.plist(["size": 1]).write(to: URL(fileURLWithPath: repo.path("x.plist")))
    try Self.plist(["size": 1], format: .binary).write(to: URL(fileURLWithPath: repo.path("b.plist")))
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    // A comment edited and two keys swapped: the same value, other text.
    try Data("# the main window\nheight: 600\nwidth: 800\n".utf8).write(to: URL(fileURLWithPath: repo.path("w.yaml")))
    #expect(try repo.prefs(["set", "x.plist", "size", "2", "--type", "integer"]).status == 0)
    #expect(try repo.prefs(["set", "b.plist", "size", "3", "--type", "integer"]).status == 0)
    #expect(try repo.run(["status", "--porcelain"]).stdout == " M b.plist\n M w.yaml\n M x.plist\n")
    let diff = try repo.run(["diff", "--no-color"]).stdout
    #expect(diff.contains("\n-# the window\n-width: 800\n+# the main window\n height: 600\n+width: 800\n"), "\(diff)")
    #expect(diff.contains("-\t<integer>1</integer>\n+\t<integer>2</integer>\n"), "\(diff)")
    #expect(diff.contains("-size: 1\n+size: 3\n"), "\(diff)")
    try repo.run(["commit", "-q", "-am", "edit"])
    let log = try repo.run(["log", "-p", "-1", "--no-color"]).stdout
    #expect(log.contains("+# the main window\n") && log.contains("+size: 3\n"), "\(log)")
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func runningGitSetupAgainUpgradesWhatAnOlderOneWrote() throws {
    let repo = try Repository(git: try #require(Self.git))
    let config = try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8)
    // What git-setup wrote before text formats diffed as text.
    try repo.run(["config", "diff.prefs.textconv", "prefs textconv"])
    try repo.run(["config", "merge.prefs.name", "prefs: structural merge of plists, YAML and JSON"])
    try repo.run(["config", "merge.prefs.driver", "prefs merge %A %O %B"])
    try Data("*.plist diff=prefs merge=prefs\n*.pbxproj diff=prefs merge=prefs\n*.yaml diff=prefs merge=prefs\n".utf8)
      .write(to: URL(fileURLWithPath: repo.path(".gitattributes")))
    try Data("# old\na: 1\n".utf8).write(to: URL(fileURLWithPath: repo.path("s.yaml")))
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    try Data("# new\na: 1\n".utf8).write(to: URL(fileURLWithPath: repo.path("s.yaml")))
    #expect(try repo.run(["status", "--porcelain"]).stdout == " M s.yaml\n")
    // The old setup hid the edit.
    #expect(!(try repo.run(["diff", "--no-color"]).stdout.contains("+# new")))
    let upgrade = try repo.prefs(["git-setup"])
    let attributes = repo.path(".gitattributes")
    #expect(
      upgrade.stdout == """
        set diff.prefs.textconv = prefs textconv --binary-only --expand-data in the repository's git config
        set merge.prefs.driver = \(Self.driver) in the repository's git config
        changed '*.pbxproj diff=prefs merge=prefs' to '*.pbxproj merge=prefs' in \(attributes) (a text format diffs as text)
        changed '*.yaml diff=prefs merge=prefs' to '*.yaml merge=prefs' in \(attributes) (a text format diffs as text)

        """)
    #expect(try repo.run(["diff", "--no-color"]).stdout.contains("-# old\n+# new\n"))
    #expect(try repo.prefs(["git-setup", "yaml"]).stdout == "nothing to change\n")
    #expect(try repo.prefs(["git-setup", "--remove"]).status == 0)
    #expect(try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8) == config)
    #expect(!FileManager.default.fileExists(atPath: attributes))
  }

  /// The driver before it merged data as structure is git-setup's own: upgraded, and
  /// taken out by --remove.
  @Test(.enabled(if: git != nil, "git is not installed"))
  func theDriverWithoutExpandDataIsUpgradedAndRemoved() throws {
    let repo = try Repository(git: try #require(Self.git))
    let config = try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8)
    let before = "prefs merge %A %O %B --path %P --marker-size %L -L %X -L %S -L %Y"
    try repo.run(["config", "merge.prefs.driver", before])
    #expect(try repo.prefs(["git-setup"]).stdout.contains("set merge.prefs.driver = \(Self.driver) in "))
    try repo.run(["config", "merge.prefs.driver", before])
    #expect(try repo.prefs(["git-setup", "--remove"]).status == 0)
    #expect(try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8) == config)
  }

  @Test(
    .enabled(if: git != nil, "git is not installed"),
    .enabled(if: TestSupport.corpus("xcode") != nil, "the corpus at ../shared/corpus is absent"))
  func anXcodeProjectAskedToDiffAsYAMLKeepsItsObjectsNames() throws {
    let repo = try Repository(git: try #require(Self.git))
    let setup = try repo.prefs(["git-setup", "--textconv", "pbxproj"])
    #expect(setup.stdout.contains("set diff.prefs-yaml.textconv = prefs textconv --expand-data in"), "\(setup.stdout)")
    #expect(setup.stdout.contains("added '*.pbxproj diff=prefs-yaml merge=prefs' to"), "\(setup.stdout)")
    let project = try #require(TestSupport.corpus("xcode")).appendingPathComponent("SnapKit-a3fa2fb.pbxproj")
    try FileManager.default.copyItem(at: project, to: URL(fileURLWithPath: repo.path("project.pbxproj")))
    // The corpus may be read-only, and set refuses to replace a read-only file.
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: repo.path("project.pbxproj"))
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    let id = "2DBA080D1F1FAD66001CFED4"
    #expect(try repo.prefs(["set", "project.pbxproj", "objects.\(id).lastKnownFileType", "text"]).status == 0)
    let diff = try repo.run(["diff", "--no-color"]).stdout
    #expect(diff.contains("\n   \(id): # Typealiases.swift\n"), "\(diff)")
    #expect(diff.contains("\n+    lastKnownFileType: text\n"), "\(diff)")
    try repo.run(["commit", "-q", "-am", "edit"])
    #expect(try repo.run(["log", "-p", "-1", "--no-color"]).stdout.contains("   \(id): # Typealiases.swift\n"))
    // Running git-setup again keeps the choice.
    #expect(try repo.prefs(["git-setup"]).stdout == "nothing to change\n")
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

  // MARK: What OTHER wrote

  /// `git merge topic` of `name` (git-setup run with `setUp`): clean, the file byte for
  /// byte `expected`, and nothing left unmerged.
  static func expectCleanMerge(
    _ name: String, base: String, current: String, other: String, setUp: [String], expected: String
  ) throws {
    let (repo, merged) = try Self.merge(
      name, base: Data(base.utf8), current: Data(current.utf8), other: Data(other.utf8), setUp: setUp)
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(try String(contentsOfFile: repo.path(name), encoding: .utf8) == expected)
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "")
    let log = try repo.run(["log", "-p", "-1", "--no-color", "--first-parent", "-m", "--", name])
    #expect(log.status == 0, "\(log.stderr)")
  }

  /// Both branches add the same file: git gives the driver an empty base, which is no
  /// entries, so the two files merge by setting (git alone conflicts on them).
  @Test(.enabled(if: git != nil, "git is not installed"))
  func aFileBothBranchesAddedMergesFromAnEmptyBase() throws {
    let repo = try Repository(git: try #require(Self.git))
    #expect(try repo.prefs(["git-setup", "yaml"]).status == 0)
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "setup"])
    try repo.run(["branch", "other"])
    try Data("# ours\na: 1\nshared: x\n".utf8).write(to: URL(fileURLWithPath: repo.path("s.yaml")))
    try repo.run(["add", "s.yaml"])
    try repo.run(["commit", "-q", "-m", "mine"])
    try repo.run(["checkout", "-q", "other"])
    try Data("shared: x\nz: 9\n".utf8).write(to: URL(fileURLWithPath: repo.path("s.yaml")))
    try repo.run(["add", "s.yaml"])
    try repo.run(["commit", "-q", "-m", "theirs"])
    try repo.run(["checkout", "-q", "main"])
    let merged = try repo.run(["merge", "-q", "--no-edit", "other"])
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(try String(contentsOfFile: repo.path("s.yaml"), encoding: .utf8) == "# ours\na: 1\nshared: x\nz: 9\n")
    #expect(try repo.run(["status", "--porcelain"]).stdout == "")
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aYAMLItemOTHERAddsComesWithItsCommentAndAMovedItemKeepsItsOwn() throws {
    // CURRENT moved eu after ap; OTHER changed eu and added us: git alone conflicts.
    let base =
      "servers:\n  # Europe\n  - name: eu\n    host: eu.example.com\n  # Asia\n  - name: ap\n    host: ap.example.com\n"
    let current =
      "servers:\n  # Asia\n  - name: ap\n    host: ap.example.com\n  # Europe\n  - name: eu\n    host: eu.example.com\n"
    let other =
      "servers:\n  # Europe\n  - name: eu\n    host: eu2.example.com\n  # Asia\n  - name: ap\n    host: ap.example.com\n"
      + "  # America\n  - name: us\n    host: us.example.com\n"
    try Self.expectCleanMerge(
      "servers.yaml", base: base, current: current, other: other, setUp: ["yaml"],
      expected: "servers:\n  # Asia\n  - name: ap\n    host: ap.example.com\n  # Europe\n  - name: eu\n"
        + "    host: eu2.example.com\n  # America\n  - name: us\n    host: us.example.com\n")
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aStringsKeyOTHERAddsKeepsItsQuotesCommentAndBlankLineAndItsCommentEditsComeOver() throws {
    let base = "/* Title */\n\"title\" = \"Hello\";\n\n/* Quit */\n\"quit\" = \"Quit\";\n"
    // CURRENT changes the line OTHER inserts after: git alone conflicts.
    let current =
      "/* Title */\n\"title\" = \"Hi\";\n\n/* Quit */\n\"quit\" = \"Quit\";\n\n/* Save */\n\"save\" = \"Save\";\n"
    let other =
      "/* Title */\n\"title\" = \"Hello\";\n\n/* Open a file */\n\"open\" = \"Open…\";\n\n"
      + "/* Quit the app */\n\"quit\" = \"Quit\";\n"
    try Self.expectCleanMerge(
      "en.lproj/Localizable.strings", base: base, current: current, other: other, setUp: ["strings"],
      expected: "/* Title */\n\"title\" = \"Hi\";\n\n/* Open a file */\n\"open\" = \"Open…\";\n\n"
        + "/* Quit the app */\n\"quit\" = \"Quit\";\n\n/* Save */\n\"save\" = \"Save\";\n")
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aJSONKeyOTHERPlacedInOrderLandsThere() throws {
    let base = "{\n  \"name\": \"app\",\n  \"version\": \"1.0\",\n  \"private\": true\n}\n"
    let current = "{\n  \"name\": \"app\",\n  \"version\": \"1.1\",\n  \"private\": true\n}\n"
    let other = "{\n  \"name\": \"app\",\n  \"license\": \"MIT\",\n  \"version\": \"1.0\",\n  \"private\": true\n}\n"
    try Self.expectCleanMerge(
      "package.json", base: base, current: current, other: other, setUp: ["json"],
      expected: "{\n  \"name\": \"app\",\n  \"license\": \"MIT\",\n  \"version\": \"1.1\",\n  \"private\": true\n}\n")
  }

  /// An Info.plist holding `body` in its dictionary.
  static func infoPlist(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \(body)</dict>
    </plist>

    """
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func anInfoPlistKeyOTHERAddsGoesWhereOTHERPutItWithItsComment() throws {
    let name = "\t<key>CFBundleName</key>\n\t<string>App</string>\n"
    let version = "\t<key>CFBundleVersion</key>\n\t<string>1</string>\n"
    let camera =
      "\t<!-- asked before the first photo -->\n\t<key>NSCameraUsageDescription</key>\n\t<string>Photos</string>\n"
    try Self.expectCleanMerge(
      "App/Info.plist", base: Self.infoPlist(name + version),
      current: Self.infoPlist(name.replacingOccurrences(of: ">App<", with: ">My App<") + version),
      other: Self.infoPlist(name + camera + version), setUp: [],
      expected: Self.infoPlist(name.replacingOccurrences(of: ">App<", with: ">My App<") + camera + version))
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aConflictShowsEachSidesEntryWithItsComments() throws {
    let (repo, merged) = try Self.merge(
      "server.yaml", base: Data("name: app\n# the port\nport: 80\ndebug: false\n".utf8),
      current: Data("name: app\n# the port\nport: 8080\ndebug: false\n".utf8),
      other: Data("name: app\n# the port the proxy expects\nport: 9090\ndebug: true\n".utf8))
    #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
    #expect(
      try String(contentsOfFile: repo.path("server.yaml"), encoding: .utf8)
        == "name: app\n<<<<<<< HEAD\n# the port\nport: 8080\n=======\n# the port the proxy expects\nport: 9090\n"
        + ">>>>>>> topic\ndebug: true\n")
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "UU server.yaml\n")
  }

  @Test(.enabled(if: git != nil, "git is not installed"))
  func aPlistConflictShowsOTHERsEntryInCURRENTsOneLineLayout() throws {
    let entries = { (b: String) in
      Self.infoPlist(
        "\t<key>A</key><string>1</string>\n\t<key>B</key><string>\(b)</string>\n\t<key>C</key><string>3</string>\n")
    }
    // OTHER writes each key and value on lines of their own, with a comment.
    let other = Self.infoPlist(
      "\t<key>A</key>\n\t<string>1</string>\n\t<!-- theirs -->\n\t<key>B</key>\n\t<string>theirs</string>\n"
        + "\t<key>C</key>\n\t<string>3</string>\n")
    let (repo, merged) = try Self.merge(
      "settings.plist", base: Data(entries("2").utf8), current: Data(entries("mine").utf8),
      other: Data(other.utf8), setUp: [])
    #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
    #expect(
      try String(contentsOfFile: repo.path("settings.plist"), encoding: .utf8)
        == Self.infoPlist(
          "\t<key>A</key><string>1</string>\n<<<<<<< HEAD\n\t<key>B</key><string>mine</string>\n=======\n"
            + "\t<!-- theirs -->\n\t<key>B</key><string>theirs</string>\n>>>>>>> topic\n"
            + "\t<key>C</key><string>3</string>\n"))
  }
}

extension MergeCommandTests {
  /// Under `-o -` a conflict is still in the file being merged: its lines name
  /// CURRENT's path, or the repository path `--path` gives, never `<stdout>`.
  @Test func conflictLinesNameTheMergedFileUnderOutputToStandardOutput() throws {
    let folder = try TestFolder()
    try folder.write("base.json", #"{"a": 1, "b": 1}"#)
    try folder.write("current.json", #"{"a": 2, "b": 1}"#)
    try folder.write("other.json", #"{"a": 3, "b": 1}"#)
    let sides = ["current.json", "base.json", "other.json"].map(folder.path)
    let plain = try TestSupport.prefs(["merge"] + sides + ["-o", "-"])
    #expect(plain.status == 1)
    #expect(plain.stdout.hasPrefix("<<<<<<< "))
    let current = folder.path("current.json")
    #expect(
      plain.stderr
        == "prefs: conflict: \(current): a: base 1, current 2, other 3\n"
        + "prefs: \(current): 1 conflict, marked with <<<<<<< and >>>>>>>\n")
    let driver = try TestSupport.prefs(["merge"] + sides + ["-o", "-", "--path", "conf/app.json"])
    #expect(driver.status == 1)
    #expect(!driver.stderr.contains("<stdout>"))
    #expect(driver.stderr.hasPrefix("prefs: conflict: conf/app.json: a: base 1, "))
    // CURRENT is untouched: the result went to standard output.
    #expect(try folder.read("current.json") == #"{"a": 2, "b": 1}"#)
  }
}

extension MergeCommandTests {
  /// Where git will not find `prefs` on its PATH, git-setup names this binary by its
  /// path, says so, and git's merges run it; once prefs is on the PATH, git-setup names
  /// it `prefs`; --remove takes out either form.
  @Test(
    .enabled(if: git != nil, "git is not installed"),
    .enabled(
      if: !FileManager.default.fileExists(atPath: "/usr/bin/prefs")
        && !FileManager.default.fileExists(atPath: "/bin/prefs"),
      "a prefs is installed in /usr/bin or /bin"))
  func gitSetupNamesTheBinaryByItsPathOnlyWhenGitWouldNotFindIt() throws {
    let repo = try Repository(git: try #require(Self.git))
    let onPath = repo.environment["PATH"]!
    let gitFolder = try #require(Self.git).deletingLastPathComponent().path
    repo.environment["PATH"] = "\(gitFolder):/usr/bin:/bin"
    let own = TestSupport.prefsBinary.resolvingSymlinksInPath().path
    let config = try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8)
    let setup = try repo.prefs(["git-setup", "yaml"])
    #expect(setup.status == 0)
    #expect(setup.stdout.contains("set merge.prefs.driver = \(own) merge %A %O %B "))
    #expect(setup.stdout.contains("set diff.prefs.textconv = \(own) textconv --binary-only "))
    #expect(setup.stdout.contains("set merge.prefs.name = prefs: structural merge"))
    #expect(
      setup.stderr
        == "prefs: warning: prefs is not on the PATH git runs its drivers with, so they name this binary by its path, "
        + "\(own); once prefs is on the PATH, run 'prefs git-setup' again to name it 'prefs'\n")
    // git runs the driver by that path: neighbouring lines changed on two branches merge.
    try Data("width: 800\nheight: 600\n".utf8).write(to: URL(fileURLWithPath: repo.path("window.yaml")))
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    try repo.run(["checkout", "-q", "-b", "topic"])
    #expect(try repo.prefs(["set", "window.yaml", "height", "700"]).status == 0)
    try repo.run(["commit", "-q", "-am", "topic"])
    try repo.run(["checkout", "-q", "main"])
    #expect(try repo.prefs(["set", "window.yaml", "width", "1024"]).status == 0)
    try repo.run(["commit", "-q", "-am", "main"])
    let merged = try repo.run(["merge", "-q", "--no-edit", "topic"])
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(try String(contentsOfFile: repo.path("window.yaml"), encoding: .utf8) == "width: 1024\nheight: 700\n")

    repo.environment["PATH"] = onPath
    let again = try repo.prefs(["git-setup", "yaml"])
    #expect(again.stderr == "")
    #expect(try repo.run(["config", "merge.prefs.driver"]).stdout == Self.driver + "\n")
    repo.environment["PATH"] = "\(gitFolder):/usr/bin:/bin"
    #expect(try repo.prefs(["git-setup", "yaml"]).status == 0)
    let removed = try repo.prefs(["git-setup", "--remove"])
    #expect(removed.status == 0)
    #expect(removed.stderr == "")
    #expect(try String(contentsOfFile: repo.path(".git/config"), encoding: .utf8) == config)
  }

  /// Adds a Swift file to the SnapKit project in `repo` with `prefs set`, as a person
  /// adding it by hand would: its file reference, its build file in the sources
  /// phase and the reference in the Models group.
  static func addFile(_ name: String, fileID: String, buildID: String, in repo: Repository) throws {
    let phase = "objects.EEBCC9D319CC627D0083B827.files"
    let count = try repo.prefs(["get", "project.pbxproj", phase]).stdout.split(separator: "\n").count
    let children = "objects.EE235F5C1C5785A400C08960.children"
    let childCount = try repo.prefs(["get", "project.pbxproj", children]).stdout.split(separator: "\n").count
    for arguments in [
      [
        "objects.\(fileID)", "--type", "dict",
        #"{"isa": "PBXFileReference", "lastKnownFileType": "sourcecode.swift", "path": "\#(name)", "sourceTree": "<group>"}"#,
      ],
      ["objects.\(buildID)", "--type", "dict", #"{"isa": "PBXBuildFile", "fileRef": "\#(fileID)"}"#],
      ["\(phase).\(count)", buildID], ["\(children).\(childCount)", fileID],
    ] {
      let result = try repo.prefs(["set", "project.pbxproj"] + arguments)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr == "")
    }
  }

  /// A repository set up for prefs holding the SnapKit project, and a branch `other`.
  static func projectRepository() throws -> Repository {
    let repo = try Repository(git: try #require(Self.git))
    #expect(try repo.prefs(["git-setup"]).status == 0)
    let project = try #require(TestSupport.corpus("xcode")).appendingPathComponent("SnapKit-a3fa2fb.pbxproj")
    try FileManager.default.copyItem(at: project, to: URL(fileURLWithPath: repo.path("project.pbxproj")))
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: repo.path("project.pbxproj"))
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    try repo.run(["branch", "other"])
    return repo
  }

  @Test(
    .enabled(if: git != nil, "git is not installed"),
    .enabled(if: TestSupport.corpus("xcode") != nil, "the corpus at ../shared/corpus is absent"))
  func twoBranchesAddingAFileEachMergeIntoWhatXcodeWrites() throws {
    let repo = try Self.projectRepository()
    try Self.addFile("Mine.swift", fileID: "AAAA00000000000000000001", buildID: "AAAA00000000000000000002", in: repo)
    try repo.run(["commit", "-q", "-am", "mine"])
    try repo.run(["checkout", "-q", "other"])
    try Self.addFile("Theirs.swift", fileID: "FFFF00000000000000000001", buildID: "FFFF00000000000000000002", in: repo)
    try repo.run(["commit", "-q", "-am", "theirs"])
    try repo.run(["checkout", "-q", "main"])
    let merge = try repo.run(["merge", "-q", "--no-edit", "other"])
    #expect(merge.status == 0, "\(merge.stdout)\(merge.stderr)")
    #expect(try repo.run(["status", "--porcelain"]).stdout == "")
    let merged = try Data(contentsOf: URL(fileURLWithPath: repo.path("project.pbxproj")))
    let text = String(decoding: merged, as: UTF8.self)
    for line in [
      "\t\tAAAA00000000000000000002 /* Mine.swift in Sources */ = {isa = PBXBuildFile; fileRef = AAAA00000000000000000001 /* Mine.swift */; };\n",
      "\t\tFFFF00000000000000000002 /* Theirs.swift in Sources */ = {isa = PBXBuildFile; fileRef = FFFF00000000000000000001 /* Theirs.swift */; };\n",
      "\t\t\t\tAAAA00000000000000000001 /* Mine.swift */,\n\t\t\t\tFFFF00000000000000000001 /* Theirs.swift */,\n",
      "\t\t\t\tAAAA00000000000000000002 /* Mine.swift in Sources */,\n\t\t\t\tFFFF00000000000000000002 /* Theirs.swift in Sources */,\n",
    ] {
      #expect(text.contains(line), "\(line)")
    }
    // What Xcode would write: the project written anew in its layout is the same bytes.
    let rewritten = try repo.prefs(["convert", "project.pbxproj", "--to", "openstep"])
    #expect(rewritten.status == 0)
    #expect(Data(rewritten.stdout.utf8) == merged)
    #expect(
      try repo.run(["log", "-p", "-1", "--first-parent", "--no-color", "-m"]).stdout.contains(
        "+\t\t\t\tFFFF00000000000000000001 /* Theirs.swift */,\n"))
  }

  @Test(
    .enabled(if: git != nil, "git is not installed"),
    .enabled(if: TestSupport.corpus("xcode") != nil, "the corpus at ../shared/corpus is absent"))
  func twoBranchesAddingOneFileUnderTheirOwnIDsConflictNamingIt() throws {
    let repo = try Self.projectRepository()
    try Self.addFile("Shared.swift", fileID: "AAAA00000000000000000001", buildID: "AAAA00000000000000000002", in: repo)
    try repo.run(["commit", "-q", "-am", "mine"])
    try repo.run(["checkout", "-q", "other"])
    try Self.addFile("Shared.swift", fileID: "FFFF00000000000000000001", buildID: "FFFF00000000000000000002", in: repo)
    try repo.run(["commit", "-q", "-am", "theirs"])
    try repo.run(["checkout", "-q", "main"])
    let merge = try repo.run(["merge", "-q", "--no-edit", "other"])
    #expect(merge.status != 0)
    #expect(
      merge.stderr.contains(
        "prefs: conflict: project.pbxproj: objects.EE235F5C1C5785A400C08960.children: both sides added Shared.swift "
          + "(AAAA00000000000000000001 and FFFF00000000000000000001) under IDs of their own\n"), "\(merge.stderr)")
    #expect(
      merge.stderr.contains(
        "both sides added Shared.swift in Sources (AAAA00000000000000000002 and FFFF00000000000000000002)"))
    #expect(try repo.run(["status", "--porcelain"]).stdout == "UU project.pbxproj\n")
    let text = try String(contentsOf: URL(fileURLWithPath: repo.path("project.pbxproj")), encoding: .utf8)
    #expect(text.contains("<<<<<<< "))
  }
}

// MARK: Data holding structure

/// `--expand-data`: data holding JSON or a binary plist (the tutorial's items) merges
/// as the structure it holds, in every format of the file around it and in git.
extension MergeCommandTests {
  static let items = TestSupport.packageRoot.appendingPathComponent("Samples/Items.plist").path

  /// The tutorial's items in `format`, at `name` in `folder`, with item names changed.
  static func itemsFile(
    _ folder: TestFolder, _ name: String, format: String, renaming renames: [(index: Int, name: String)] = []
  ) throws -> String {
    let file = folder.path(name)
    #expect(try TestSupport.prefs(["convert", items, "--to", format, "-o", file]).status == 0)
    for rename in renames {
      let set = try TestSupport.prefs(["set", file, "items.\(rename.index).name", rename.name, "--expand-data"])
      #expect(set.status == 0, "\(set.stderr)")
    }
    return file
  }

  static func names(_ file: String) throws -> String {
    try TestSupport.prefs(["get", file, "items", "--expand-data", "--to", "json"]).stdout
  }

  @Test(arguments: ["xml", "binary", "yaml", "json"])
  func twoBranchesRenamingDifferentItemsMergeCleanly(format: String) throws {
    let folder = try TestFolder()
    let ext = format == "binary" ? "plist" : format
    let base = try Self.itemsFile(folder, "base.\(ext)", format: format)
    let current = try Self.itemsFile(folder, "current.\(ext)", format: format, renaming: [(0, "Food / drink")])
    let other = try Self.itemsFile(folder, "other.\(ext)", format: format, renaming: [(1, "Tea")])
    let expected = try Self.itemsFile(
      folder, "expected.\(ext)", format: format, renaming: [(0, "Food / drink"), (1, "Tea")])
    // Without the option the data conflicts whole.
    let whole = try TestSupport.prefs(["merge", current, base, other, "-o", "-"])
    #expect(whole.status == 1)
    #expect(whole.stderr.hasPrefix("prefs: conflict: \(current): items: base "))
    let merged = try TestSupport.prefs(["merge", current, base, other, "--expand-data"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stderr == "")
    // CURRENT's file with OTHER's rename in the data: the bytes both renames give.
    #expect(try folder.data("current.\(ext)") == folder.data("expected.\(ext)"))
    #expect(try Self.names(current) == Self.names(expected))
  }

  @Test(arguments: ["xml", "yaml", "json"])
  func renamingOneItemTwiceConflictsAtItsNameMarkingTheData(format: String) throws {
    let folder = try TestFolder()
    let base = try Self.itemsFile(folder, "base.\(format)", format: format)
    let current = try Self.itemsFile(folder, "current.\(format)", format: format, renaming: [(0, "Food"), (2, "Tabs")])
    let other = try Self.itemsFile(folder, "other.\(format)", format: format, renaming: [(0, "Shopping")])
    let conflicts = folder.path("conflicts.yaml")
    let merged = try TestSupport.prefs(
      ["merge", current, base, other, "--expand-data", "-o", "-", "--conflicts", conflicts])
    #expect(merged.status == 1)
    #expect(
      merged.stderr.hasPrefix(
        "prefs: conflict: \(current): items.0.name: base \"Groceries\", current \"Food\", other \"Shopping\"\n"))
    #expect(merged.stdout.components(separatedBy: "<<<<<<< ").count == 2)
    #expect(try folder.read("conflicts.yaml").contains("path: items.0.name\n"))
    // Each side of the markers reads as that side's choice, with the other renames merged.
    func side(_ keep: String) throws -> String {
      var lines: [Substring] = []
      var skipping = false
      for line in merged.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("<<<<<<<") {
          skipping = keep == "other"
        } else if line == "=======" {
          skipping = keep == "current"
        } else if line.hasPrefix(">>>>>>>") {
          skipping = false
        } else if !skipping {
          lines.append(line)
        }
      }
      let file = folder.path("\(keep).resolved.\(format)")
      try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
      return try Self.names(file)
    }
    let ours = try side("current")
    let theirs = try side("other")
    #expect(ours.contains(#""name": "Food""#) && ours.contains(#""name": "Tabs""#))
    #expect(theirs.contains(#""name": "Shopping""#) && theirs.contains(#""name": "Tabs""#))
  }

  /// The tutorial's items and items as a plain `JSONEncoder` writes them (slashes
  /// escaped), renamed on two branches and merged by the driver git-setup installs.
  @Test(.enabled(if: git != nil, "git is not installed"))
  func gitMergesRenamesOfDifferentItemsInsideTheData() throws {
    let repo = try Repository(git: try #require(Self.git))
    #expect(try repo.prefs(["git-setup"]).status == 0)
    try FileManager.default.copyItem(atPath: Self.items, toPath: repo.path("Items.plist"))
    let escaped = #"[{"id":"a","name":"Milk","url":"https:\/\/example.com\/milk"},{"id":"b","name":"Bread"}]"#
    let plist = try Format.xml.codec.encode(["items": .data(Data(escaped.utf8))])
    try plist.write(to: URL(fileURLWithPath: repo.path("Encoded.plist")))
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "items"])
    func rename(_ file: String, _ index: Int, _ name: String) throws {
      let set = try repo.prefs(["set", file, "items.\(index).name", name, "--expand-data"])
      #expect(set.status == 0, "\(set.stderr)")
    }
    try repo.run(["checkout", "-q", "-b", "topic"])
    try rename("Items.plist", 1, "Café au lait")
    try rename("Encoded.plist", 1, "Rye / wheat")
    try repo.run(["commit", "-q", "-am", "topic renames the second items"])
    try repo.run(["checkout", "-q", "main"])
    try rename("Items.plist", 0, "Food")
    try rename("Encoded.plist", 0, "Oat milk")
    try repo.run(["commit", "-q", "-am", "main renames the first items"])
    let merged = try repo.run(["merge", "--no-edit", "topic"])
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(!merged.stdout.contains("CONFLICT"))
    #expect(try repo.run(["status", "--porcelain"]).stdout == "")
    let names = try repo.prefs(["get", "Items.plist", "items", "--expand-data", "--to", "json"]).stdout
    #expect(names.contains(#""name": "Food""#) && names.contains(#""name": "Café au lait""#))
    let encoded = try repo.prefs(["get", "Encoded.plist", "items", "--expand-data"]).stdout
    #expect(encoded == "- id: a\n  name: Oat milk\n  url: https://example.com/milk\n- id: b\n  name: Rye / wheat\n")
    // The blob is still as a plain JSONEncoder writes it.
    let value = try Format.read(Data(contentsOf: URL(fileURLWithPath: repo.path("Encoded.plist")))).value
    #expect(
      value.dictionaryValue?["items"]
        == .data(
          Data(
            #"[{"id":"a","name":"Oat milk","url":"https:\/\/example.com\/milk"},{"id":"b","name":"Rye \/ wheat"}]"#
              .utf8)))
    // The history shows each side's commit on its own, and the merge.
    let log = try repo.run(["log", "-p", "--no-color", "--format=%s", "--", "Encoded.plist"]).stdout
    #expect(log.contains("topic renames the second items\n"))
    #expect(log.contains("main renames the first items\n"))
    #expect(try repo.run(["log", "--format=%s", "-1"]).stdout == "Merge branch 'topic'\n")
    // The same item renamed on both branches conflicts at its name.
    try repo.run(["checkout", "-q", "-b", "again"])
    try rename("Items.plist", 0, "Shopping")
    try repo.run(["commit", "-q", "-am", "again"])
    try repo.run(["checkout", "-q", "main"])
    try rename("Items.plist", 0, "Groceries")
    try repo.run(["commit", "-q", "-am", "back"])
    let conflict = try repo.run(["merge", "--no-edit", "again"])
    #expect(conflict.status != 0)
    #expect(
      conflict.stderr.contains(
        "prefs: conflict: Items.plist: items.0.name: base \"Food\", HEAD \"Groceries\", again \"Shopping\""),
      "\(conflict.stderr)")
    #expect(try repo.run(["status", "--porcelain"]).stdout == "UU Items.plist\n")
  }
}
