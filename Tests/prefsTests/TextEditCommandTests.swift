import Foundation
import PrefsTestSupport
import Testing

/// Commands that change a file change only the bytes of what changed.
@Suite struct TextEditCommandTests {
  let settings = """
    # Settings kept in git
    username: ada   # who signs in

    # Privacy: the app falls back to true
    isAccountPrivate: true
    window:
        width: 800
        height: 600
    ringtone: 'Chimes'

    """

  @Test func setKeepsCommentsLayoutAndQuoting() throws {
    let folder = try TestFolder()
    try folder.write("s.yaml", settings)
    let result = try TestSupport.prefs(["set", folder.path("s.yaml"), "window.width", "1024", "--type", "integer"])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(try folder.read("s.yaml") == settings.replacingOccurrences(of: "width: 800", with: "width: 1024"))
    #expect(try TestSupport.prefs(["write", folder.path("s.yaml"), "ringtone", "Waves"]).status == 0)
    #expect(
      try folder.read("s.yaml")
        == settings.replacingOccurrences(of: "width: 800", with: "width: 1024").replacingOccurrences(
          of: "'Chimes'", with: "'Waves'"))
  }

  @Test func removeTakesTheEntryAndItsOwnComment() throws {
    let folder = try TestFolder()
    try folder.write("s.yaml", settings)
    #expect(try TestSupport.prefs(["remove", folder.path("s.yaml"), "isAccountPrivate"]).status == 0)
    #expect(
      try folder.read("s.yaml")
        == settings.replacingOccurrences(
          of: "# Privacy: the app falls back to true\nisAccountPrivate: true\n", with: ""))
  }

  @Test func newKeysGoAfterTheirSiblingsInTheFilesIndentation() throws {
    let folder = try TestFolder()
    try folder.write("s.yaml", settings)
    #expect(
      try TestSupport.prefs(["set", folder.path("s.yaml"), "window.depth", "3", "--type", "integer"]).status == 0)
    #expect(
      try folder.read("s.yaml")
        == settings.replacingOccurrences(of: "    height: 600\n", with: "    height: 600\n    depth: 3\n"))
  }

  @Test func settingTheSameValueLeavesBytesAndModificationTime() throws {
    let folder = try TestFolder()
    try folder.write("s.yaml", settings)
    let before = try folder.modified("s.yaml")
    Thread.sleep(forTimeInterval: 0.02)
    #expect(
      try TestSupport.prefs(["set", folder.path("s.yaml"), "window.width", "800", "--type", "integer"]).status == 0)
    #expect(try TestSupport.prefs(["write", folder.path("s.yaml"), "isAccountPrivate", "-bool", "true"]).status == 0)
    #expect(try folder.read("s.yaml") == settings)
    #expect(try folder.modified("s.yaml") == before)
  }

  @Test func aSpaceIndentedPlistChangesOneLine() throws {
    let folder = try TestFolder()
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
        <!-- shown in Finder -->
        <key>CFBundleShortVersionString</key>
        <string>1.0</string>
        <key>CFBundleVersion</key>
        <string>1</string>
      </dict>
      </plist>

      """
    try folder.write("Info.plist", plist)
    #expect(try TestSupport.prefs(["set", folder.path("Info.plist"), "CFBundleVersion", "1.1"]).status == 0)
    #expect(
      try folder.read("Info.plist")
        == plist.replacingOccurrences(of: "<string>1</string>", with: "<string>1.1</string>"))
  }

  @Test func exportUpdateKeepsAnExportsCommentsAndOrder() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    #expect(try TestSupport.prefs(["write", "com.example.app", "ringtone", "Chimes"], store: store).status == 0)
    #expect(try TestSupport.prefs(["write", "com.example.app", "volume", "-int", "3"], store: store).status == 0)
    try folder.write("app.yaml", "# The app's settings, reviewed\nvolume: 3   # loud enough\nringtone: Chimes\n")
    #expect(try TestSupport.prefs(["write", "com.example.app", "volume", "-int", "4"], store: store).status == 0)
    #expect(try TestSupport.prefs(["write", "com.example.app", "accent", "blue"], store: store).status == 0)
    let update = try TestSupport.prefs(
      ["export", "com.example.app", "-o", folder.path("app.yaml"), "--update"], store: store)
    #expect(update.status == 0)
    #expect(update.stderr == "")
    #expect(
      try folder.read("app.yaml")
        == "accent: blue\n# The app's settings, reviewed\nvolume: 4   # loud enough\nringtone: Chimes\n")
    // Nothing changed: nothing written.
    let before = try folder.modified("app.yaml")
    Thread.sleep(forTimeInterval: 0.02)
    #expect(
      try TestSupport.prefs(["export", "com.example.app", "-o", folder.path("app.yaml"), "--update"], store: store)
        .status == 0)
    #expect(try folder.modified("app.yaml") == before)
    // The file keeps its format.
    let other = try TestSupport.prefs(
      ["export", "com.example.app", "-o", folder.path("app.yaml"), "--update", "--format", "json"], store: store)
    #expect(other.status == 64)
    #expect(other.stderr.hasPrefix("prefs: error: \(folder.path("app.yaml")) is yaml, not json"))
  }

  @Test func importMergeIntoACommentedFilePatchesIt() throws {
    let folder = try TestFolder()
    try folder.write("s.yaml", settings)
    try folder.write("more.json", #"{"volume": 0.5, "ringtone": "Waves"}"#)
    #expect(try TestSupport.prefs(["import", folder.path("s.yaml"), folder.path("more.json"), "--merge"]).status == 0)
    #expect(
      try folder.read("s.yaml")
        == settings.replacingOccurrences(of: "'Chimes'", with: "'Waves'") + "volume: 0.5\n")
  }

  @Test(.enabled(if: TestSupport.executable(named: "git") != nil, "git is not installed"))
  func inAGitRepositoryASetIsAOneLineDiff() throws {
    let folder = try TestFolder()
    let git = TestSupport.executable(named: "git")!
    func run(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      try TestSupport.run(
        git, ["-C", folder.path("")] + arguments,
        environment: ["GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": folder.path("")])
    }
    #expect(try run(["init", "-q"]).status == 0)
    let recipe = try #require(TestSupport.corpus("autopkg/pairs")).appendingPathComponent(
      "MLBZ521__Matlab.pkg.recipe.yaml")
    try FileManager.default.copyItem(at: recipe, to: folder.url.appendingPathComponent("recipe.yaml"))
    // The corpus is read-only, and so is a copy of it: a read-only file is not set.
    chmod(folder.path("recipe.yaml"), 0o644)
    #expect(try run(["add", "recipe.yaml"]).status == 0)
    #expect(try run(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "recipe"]).status == 0)
    #expect(try TestSupport.prefs(["set", folder.path("recipe.yaml"), "Input.NAME", "MATLAB"]).status == 0)
    let stat = try run(["diff", "--numstat"])
    #expect(stat.stdout == "1\t1\trecipe.yaml\n")
    let status = try run(["status", "--porcelain"])
    #expect(status.stdout == " M recipe.yaml\n", "nothing else appears in the repository")
  }

  @Test func aUTF16PlistStaysUTF16InItsKeyOrder() throws {
    let folder = try TestFolder()
    let text = """
      <?xml version="1.0" encoding="UTF-16"?>
      <plist version="1.0">
      <dict>
      \t<key>zeta</key>
      \t<string>Zürich</string>
      \t<key>alpha</key>
      \t<integer>1</integer>
      </dict>
      </plist>

      """
    var data = Data([0xFE, 0xFF])
    for unit in text.utf16 { withUnsafeBytes(of: unit.bigEndian) { data.append(contentsOf: $0) } }
    try data.write(to: folder.url.appendingPathComponent("u.plist"))
    let result = try TestSupport.prefs(["set", folder.path("u.plist"), "alpha", "2", "--type", "integer"])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let written = try Data(contentsOf: folder.url.appendingPathComponent("u.plist"))
    #expect(written.starts(with: [0xFE, 0xFF]))
    #expect(
      String(data: written, encoding: .utf16BigEndian)?.drop { $0 == "\u{FEFF}" }
        == Substring(
          text.replacingOccurrences(of: "<integer>1</integer>", with: "<integer>2</integer>")))
  }

  /// Real files through the command line: adding a key and removing it again gives back
  /// the very bytes; changing a value changes one line, and changing it back restores them.
  @Test(.enabled(if: TestSupport.corpus("autopkg") != nil, "the corpus at ../shared/corpus is absent"))
  func corpusRecipesEditedThroughTheCommandLine() throws {
    let corpus = try #require(TestSupport.corpus("autopkg"))
    let folder = try TestFolder()
    var edited = 0
    for url in TestSupport.files(in: corpus.appendingPathComponent("pairs")) {
      let original = try Data(contentsOf: url)
      let file = folder.path(url.lastPathComponent)
      try original.write(to: URL(fileURLWithPath: file))
      // A few recipes are not valid as written (see the corpus's SOURCES.md).
      let readable = try TestSupport.prefs(["convert", file, "--to", "json"])
      guard readable.status == 0, readable.stdout.hasPrefix("{") else { continue }
      #expect(try TestSupport.prefs(["set", file, "PrefsTestKey", "added"]).status == 0)
      #expect(try TestSupport.prefs(["remove", file, "PrefsTestKey"]).status == 0)
      #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original, "\(url.lastPathComponent): add and remove")
      let identifier = try TestSupport.prefs(["get", file, "Identifier"])
      guard identifier.status == 0 else { continue }
      let old = String(identifier.stdout.dropLast())
      #expect(try TestSupport.prefs(["set", file, "Identifier", old + ".edited"]).status == 0)
      let oldLines = String(decoding: original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      let newLines = try String(contentsOfFile: file, encoding: .utf8).split(
        separator: "\n", omittingEmptySubsequences: false)
      #expect(oldLines.count == newLines.count, "\(url.lastPathComponent)")
      #expect(zip(oldLines, newLines).filter { $0 != $1 }.count == 1, "\(url.lastPathComponent): one line changes")
      #expect(try TestSupport.prefs(["set", file, "Identifier", old]).status == 0)
      #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original, "\(url.lastPathComponent): set back")
      edited += 1
    }
    #expect(edited >= 40)
  }

  @Test(.enabled(if: TestSupport.corpus("xcode") != nil, "the corpus at ../shared/corpus is absent"))
  func anXcodeProjectStaysOpenStepAndChangesOneLine() throws {
    let corpus = try #require(TestSupport.corpus("xcode"))
    let folder = try TestFolder()
    let original = try Data(contentsOf: corpus.appendingPathComponent("SnapKit-d4cb974.pbxproj"))
    try original.write(to: folder.url.appendingPathComponent("project.pbxproj"))
    let result = try TestSupport.prefs(["set", "project.pbxproj", "objectVersion", "77"], in: folder.url)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let old = String(decoding: original, as: UTF8.self).components(separatedBy: "\n")
    let new = try folder.read("project.pbxproj").components(separatedBy: "\n")
    #expect(old.count == new.count)
    #expect(zip(old, new).filter { $0 != $1 }.map(\.1) == ["\tobjectVersion = 77;"])
    #expect(try TestSupport.prefs(["get", "project.pbxproj", "objectVersion"], in: folder.url).stdout == "77\n")
  }
}

extension TextEditCommandTests {
  /// A plain export over a commented export would lose its comments: it stops with
  /// the --update hint; --force writes it anew; an export prefs wrote itself (or a
  /// new file) is written without a word.
  @Test func exportOverACommentedExportRefusesWithTheUpdateHint() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    #expect(try TestSupport.prefs(["write", "com.example.app", "ringtone", "Chimes"], store: store).status == 0)
    let commented = "# reviewed\nringtone: Waves   # quiet\n"
    let file = try folder.write("app.yaml", commented)
    let refused = try TestSupport.prefs(["export", "com.example.app", "-o", file], store: store)
    #expect(refused.status == 64)
    #expect(
      refused.stderr
        == "prefs: error: \(file): holds text of its own (comments, a layout) that writing the export anew would lose\n"
        + "hint: to refresh it, keeping its text: prefs export com.example.app -o \(file) --update\n"
        + "hint: to write it anew: add --force\n")
    #expect(try folder.read("app.yaml") == commented)
    // The hint's command works, and keeps the comments.
    #expect(try TestSupport.prefs(["export", "com.example.app", "-o", file, "--update"], store: store).status == 0)
    #expect(try folder.read("app.yaml") == "# reviewed\nringtone: Chimes   # quiet\n")
    let forced = try TestSupport.prefs(["export", "com.example.app", "-o", file, "--force"], store: store)
    #expect(forced.status == 0)
    #expect(forced.stderr == "")
    #expect(try folder.read("app.yaml") == "ringtone: Chimes\n")
    // Its own export is written over again, as the domain changes.
    #expect(try TestSupport.prefs(["write", "com.example.app", "volume", "-int", "3"], store: store).status == 0)
    let again = try TestSupport.prefs(["export", "com.example.app", "-o", file], store: store)
    #expect(again.status == 0)
    #expect(try folder.read("app.yaml") == "ringtone: Chimes\nvolume: 3\n")
  }
}
