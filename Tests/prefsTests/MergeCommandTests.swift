import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// `prefs merge` and `prefs git-setup`, run as git runs them.
@Suite struct MergeCommandTests {
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
    func data(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }
  }

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
    let folder = try Folder()
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
    let folder = try Folder()
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
    let folder = try Folder()
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
    let folder = try Folder()
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
    let folder = try Folder()
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

  // MARK: Xcode projects

  @Test(
    .enabled(if: TestSupport.corpus("xcode") != nil, "the corpus at ../shared/corpus is absent"),
    .enabled(
      if: Format.openStep.isWritable,
      "the OpenStep writer is not on this branch: prefs cannot write a merged project.pbxproj yet"))
  func theMergeDriverMergesTwoFilesAddedToOneGroupOfAnXcodeProject() throws {
    let folder = try Folder()
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
