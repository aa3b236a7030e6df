import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// Settings files: their directives, what applying means, capture, snapshots and watching.
@Suite struct ApplyTests {
  func settings(_ yaml: String) throws -> SettingsFile {
    try SettingsFile.read(Data(yaml.utf8), name: "s.yaml", path: "s.yaml")
  }

  func yaml(_ text: String) throws -> PrefDictionary {
    try Format.yaml.codec.decode(Data(text.utf8)).dictionaryValue!
  }

  /// `settings` (one domain's, in YAML) applied to `contents` (YAML).
  func apply(_ settings: String, to contents: String?) throws -> PrefDictionary? {
    let file = try self.settings("d:\n" + settings.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
    return try SettingsApply.applied(file.entries.map(\.settings), to: contents.map(yaml))
  }

  // MARK: Directives exist only in settings files

  @Test func yamlDirectivesAreReadIntoTheSettings() throws {
    let file = try settings("d:\n  a: !delete\n  b: !replace {x: 1}\n  c: !replace [1]\n  e: {f: 1}\n")
    let read = try #require(file.entries.first?.settings)
    #expect(read.directives["a"] == .init(.delete, position: .lineColumn(line: 2, column: 6)))
    #expect(read.directives["b"] == .init(.replace, position: .lineColumn(line: 3, column: 6)))
    #expect(read.directive(at: "c") == .replace)
    #expect(read.directives.count == 3)
    #expect(read.value.dictionaryValue?["b"] == .dictionary(["x": .integer(1)]))
    #expect(read.value.dictionaryValue?["e"] == .dictionary(["f": .integer(1)]))
  }

  @Test func jsonDirectiveWordsArePlainKeysInADomain() throws {
    let text = Data(#"{"d": {"a": {"$delete": true}, "b": {"$replace": [1]}, "c": {"$dict": {"$delete": true}}}}"#.utf8)
    let plain = try Format.json.codec.decode(text).dictionaryValue!["d"]!.dictionaryValue!
    #expect(plain["a"] == .dictionary(["$delete": .bool(true)]))
    #expect(plain["b"] == .dictionary(["$replace": .array([.integer(1)])]))
    let file = try SettingsFile.read(text, name: "s.json", path: "s.json")
    let read = try #require(file.entries.first?.settings)
    #expect(read.directives["a"] == .init(.delete, position: .lineColumn(line: 1, column: 13)))
    #expect(read.directive(at: "b") == .replace)
    #expect(read.value.dictionaryValue?["b"] == .array([.integer(1)]))
    // The `$dict` escape keeps a look-alike a dictionary.
    #expect(read.directive(at: "c") == nil)
    #expect(read.value.dictionaryValue?["c"] == .dictionary(["$delete": .bool(true)]))
  }

  @Test(arguments: [Format.yaml, .json, .xml])
  func everySpellingGivesTheSameSettings(format: Format) throws {
    let texts: [Format: String] = [
      .yaml: "d:\n  a: !delete\n  b: !replace [1]\n  c: {e: !delete, f: 2}\n",
      .json: #"{"d": {"a": {"$delete": true}, "b": {"$replace": [1]}, "c": {"e": {"$delete": true}, "f": 2}}}"#,
      .xml: """
      <plist version="1.0"><dict><key>d</key><dict>
      <key>a</key><dict><key>$delete</key><true/></dict>
      <key>b</key><dict><key>$replace</key><array><integer>1</integer></array></dict>
      <key>c</key><dict><key>e</key><dict><key>$delete</key><true/></dict><key>f</key><integer>2</integer></dict>
      </dict></dict></plist>
      """,
    ]
    let file = try SettingsFile.read(Data(texts[format]!.utf8), name: "s", declared: format)
    let read = try #require(file.entries.first?.settings)
    #expect(
      read.value
        == .dictionary([
          "a": .bool(true), "b": .array([.integer(1)]), "c": .dictionary(["e": .bool(true), "f": .integer(2)]),
        ]))
    #expect(read.directives.mapValues(\.kind) == ["a": .delete, "b": .replace, "c.e": .delete])
  }

  @Test func aKeyStartingWithANULIsAnOrdinaryKey() throws {
    // Directives never travel inside values, so no key needs to be reserved for them.
    let file = try settings("d:\n  \"\\0x\": 1\n")
    #expect(file.entries[0].settings == DomainSettings(.dictionary(["\u{0}x": .integer(1)])))
  }

  @Test func directiveErrorsNameTheirPosition() throws {
    #expect(
      throws: PrefsError.syntax(
        "!delete takes no value: write 'key: !delete'", format: "yaml", stage: .composer,
        position: .lineColumn(line: 2, column: 6)
      ).inFile("s.yaml")
    ) {
      try settings("d:\n  k: !delete 1\n")
    }
    #expect(throws: PrefsError.self) { try settings("d: [1, 2]\n") }
    #expect(throws: PrefsError.self) {
      try SettingsFile.read(Data(#"{"d": {"k": {"$delete": 1}}}"#.utf8), name: "s.json", path: "s.json")
    }
  }

  @Test(arguments: [Format.yaml, .json, .xml, .binary])
  func settingsFilesWithDirectivesRoundTripThroughEveryFormat(format: Format) throws {
    let file = SettingsFile(entries: [
      SettingsFile.Entry(
        target: "com.example.app",
        settings: DomainSettings(
          .dictionary([
            "gone": SettingsDirective.deleteStandIn,
            "list": .array([.integer(1), .string("a")]),
            "window": .dictionary(["width": .integer(1024), "old": SettingsDirective.deleteStandIn]),
            "lookalike": .dictionary(["$delete": .bool(true)]),
            "every": TestSupport.everyKind,
          ]), directives: ["gone": .init(.delete), "list": .init(.replace), "window.old": .init(.delete)]),
        source: "-"),
      SettingsFile.Entry(target: "-g", settings: .delete, source: "-"),
    ])
    let data = try file.encoded(as: format)
    let read = try SettingsFile.read(data, name: "f", declared: format)
    #expect(read.entries.map(\.target) == ["com.example.app", "-g"])
    // Positions differ; what the directives say does not.
    let before = try SettingsApply.applied(
      [file.entries[0].settings], to: ["gone": .integer(1), "lookalike": .integer(2)])
    let after = try SettingsApply.applied(
      [read.entries[0].settings], to: ["gone": .integer(1), "lookalike": .integer(2)])
    #expect(before == after)
    #expect(after?["lookalike"] == .dictionary(["$delete": .bool(true)]))
    #expect(after?["gone"] == nil)
    #expect(read.entries[1].settings.directive() == .delete)
    #expect(
      read.entries[0].settings.directives.mapValues(\.kind) == file.entries[0].settings.directives.mapValues(\.kind))
  }

  @Test func yamlSettingsFilesSpellDirectivesAsTags() throws {
    let file = SettingsFile(entries: [
      SettingsFile.Entry(
        target: "d",
        settings: DomainSettings(
          .dictionary(["a": SettingsDirective.deleteStandIn, "b": .array([.integer(1)])]),
          directives: ["a": .init(.delete), "b": .init(.replace)]), source: "-")
    ])
    let text = String(decoding: try file.encoded(as: .yaml), as: UTF8.self)
    #expect(text.contains("a: !delete"))
    #expect(text.contains("b: !replace"))
  }

  // MARK: What applying means

  @Test func dictionariesMergeDeeply() throws {
    let result = try apply("window:\n  width: 1024\n", to: "window: {width: 800, height: 600}\nother: 1\n")
    #expect(result == (try yaml("window: {width: 1024, height: 600}\nother: 1\n")))
  }

  @Test func typesAreExact() throws {
    #expect(try apply("flag: 1\n", to: "flag: true\n") == ["flag": .integer(1)])
    #expect(try apply("ratio: 1.0\n", to: "ratio: 1\n") == ["ratio": .real(1)])
    #expect(try apply("flag: true\n", to: "flag: true\n") == ["flag": .bool(true)])
  }

  @Test func deleteRemovesKeysAndReplaceMakesExactly() throws {
    let result = try apply(
      "a: !delete\nb: !replace {x: 1}\nc: !replace [3]\nd:\n  e: !delete\n",
      to: "a: 1\nb: {y: 2}\nc: [1, 2]\nd: {e: 1, f: 2}\n")
    #expect(result == (try yaml("b: {x: 1}\nc: [3]\nd: {f: 2}\n")))
    // Deleting what is not there changes nothing.
    #expect(try apply("zzz: !delete\n", to: "a: 1\n") == ["a": .integer(1)])
  }

  @Test func arrayItemsAreMadePresentByValue() throws {
    let result = try apply("list: [b, d, 1]\n", to: "list: [a, b, c]\n")
    #expect(result == (try yaml("list: [a, b, c, d, 1]\n")))
    // `1` is not `"1"`: types are exact in arrays too.
    #expect(try apply("list: [1]\n", to: "list: ['1']\n") == (try yaml("list: ['1', 1]\n")))
  }

  @Test func arrayItemsWithAnIdentityFieldAreMergedInto() throws {
    let result = try apply(
      "items:\n  - {id: 2, done: true}\n  - {id: 3, name: new}\n",
      to: "items:\n  - {id: 1, name: a}\n  - {id: 2, name: b, done: false}\n")
    #expect(
      result == (try yaml("items:\n  - {id: 1, name: a}\n  - {id: 2, name: b, done: true}\n  - {id: 3, name: new}\n")))
    let root = PrefKeyPath()
    #expect(ArrayIdentity.field(in: [[.dictionary(["name": .string("x"), "id": .integer(1)])]], at: root) == ["id"])
    #expect(ArrayIdentity.field(in: [[.dictionary(["name": .string("x")]), .string("y")]], at: root) == nil)
    // Duplicated identities are no identity.
    #expect(
      ArrayIdentity.field(in: [[.dictionary(["id": .integer(1)]), .dictionary(["id": .integer(1)])]], at: root) == nil)
  }

  @Test func aSettingOfAnotherKindReplacesTheValue() throws {
    #expect(try apply("a: {x: 1}\n", to: "a: 5\n") == (try yaml("a: {x: 1}\n")))
    #expect(try apply("a: [1]\n", to: "a: {x: 1}\n") == (try yaml("a: [1]\n")))
  }

  @Test func applyingTwiceGivesWhatApplyingOnceGave() throws {
    let settings = "items:\n  - {name: x, v: 1}\nlist: [a]\nd:\n  e: !delete\n  f: {g: [1, 2]}\n"
    let once = try apply(settings, to: "list: [b]\nd: {e: 1}\n")
    let file = try self.settings("d:\n" + settings.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
    #expect(try SettingsApply.applied(file.entries.map(\.settings), to: once) == once)
  }

  @Test func aMissingDomainLeftEmptyStaysMissing() throws {
    let deleteA = DomainSettings(.dictionary(["a": SettingsDirective.deleteStandIn]), directives: ["a": .init(.delete)])
    #expect(try SettingsApply.applied([deleteA], to: nil) == nil)
    #expect(try SettingsApply.applied([.delete], to: ["a": .integer(1)]) == nil)
  }

  @Test func aWholeDomainCanBeReplacedOrDeleted() throws {
    let file = try settings("a: !replace\n  x: 1\n  y:\n    z: !delete\nb: !delete\n")
    #expect(
      try SettingsApply.applied([file.entries[0].settings], to: ["old": .integer(1)]) == [
        "x": .integer(1), "y": .dictionary([:]),
      ])
    #expect(try SettingsApply.applied([file.entries[1].settings], to: ["old": .integer(1)]) == nil)
    #expect(throws: PrefsError.self) { try settings("a: !replace [1]\n") }
  }

  @Test func dockStyleItemsMatchByBundleIdentifier() throws {
    let result = try apply(
      "apps:\n  - {CFBundleIdentifier: com.b, pinned: true}\n  - {CFBundleIdentifier: com.c}\n",
      to: "apps:\n  - {CFBundleIdentifier: com.a, pinned: false}\n  - {CFBundleIdentifier: com.b, pinned: false}\n")
    #expect(
      result
        == (try yaml(
          "apps:\n  - {CFBundleIdentifier: com.a, pinned: false}\n  - {CFBundleIdentifier: com.b, pinned: true}\n"
            + "  - {CFBundleIdentifier: com.c}\n")))
  }

  /// A dotfiles repository that pins Safari in the Dock: the Dock's own tile, found by
  /// its bundle identifier, is merged into rather than listed twice.
  @Test func theDocksTilesAreMatchedByTheirNestedBundleIdentifier() throws {
    let result = try apply(
      "persistent-apps:\n  - tile-data: {bundle-identifier: com.apple.Safari, file-label: Web}\n",
      to: "persistent-apps:\n  - {GUID: 7, tile-data: {bundle-identifier: com.apple.Safari, file-label: Safari}}\n"
        + "  - {GUID: 8, tile-data: {bundle-identifier: com.apple.mail, file-label: Mail}}\n")
    #expect(
      result
        == (try yaml(
          "persistent-apps:\n  - {GUID: 7, tile-data: {bundle-identifier: com.apple.Safari, file-label: Web}}\n"
            + "  - {GUID: 8, tile-data: {bundle-identifier: com.apple.mail, file-label: Mail}}\n")))
  }

  @Test func deleteAsAnArrayItemIsAnError() throws {
    #expect(throws: PrefsError.self) { try apply("list: [!delete]\n", to: nil) }
  }

  @Test func aMergeKeyAppliesTheDirectivesOfTheKeysItGives() throws {
    let result = try apply(
      "base: &b\n  k: !delete\n  l: !replace [1]\nother:\n  <<: *b\n  l: [2]\n",
      to: "base: {k: 1, l: [0]}\nother: {k: 2, l: [0]}\n")
    #expect(result == (try yaml("base: {l: [1]}\nother: {l: [0, 2]}\n")))
  }

  @Test func anAliasAppliesTheDirectivesOfItsNode() throws {
    let result = try apply("a: &x {k: !delete, l: 1}\nb: *x\n", to: "a: {k: 1}\nb: {k: 2, m: 3}\n")
    #expect(result == (try yaml("a: {l: 1}\nb: {m: 3, l: 1}\n")))
  }

  // MARK: Planning over a store

  @Test func aPlanReadsEveryDomainAndWritesNothing() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = FileDomainStore(directory: folder.path)
    try FileDomain(path: folder.appendingPathComponent("a.plist").path).modify { $0 = ["k": .integer(1)] }
    let file = try settings("a:\n  k: 2\nb:\n  k: 1\n-g:\n  x: 1\nNSGlobalDomain:\n  y: 2\n")
    let steps = SettingsApply.plan([file], store: store)
    #expect(steps.map(\.name) == ["a", "b", "NSGlobalDomain"])
    #expect(steps.map(\.changesAnything) == [true, true, true])
    #expect(steps[2].after == ["x": .integer(1), "y": .integer(2)])
    #expect(try store.domainNames() == ["a"])
    for step in steps { try SettingsApply.execute(step) }
    #expect(SettingsApply.plan([file], store: store).allSatisfy { !$0.changesAnything })
  }

  @Test func aSchemaCoercesSettingsBeforeTheyAreCompared() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = FileDomainStore(directory: folder.path)
    try store.domain(named: "app").modify(force: false, dryRun: false, options: ReadOptions(), warnings: Warnings()) {
      $0 = ["isAccountPrivate": .bool(false)]
    }
    let file = try settings("app:\n  isAccountPrivate: 'false'\n")
    #expect(SettingsApply.plan([file], store: store)[0].changesAnything)
    let coerced = SettingsApply.plan([file], store: store, schema: .userSettings)[0]
    #expect(!coerced.changesAnything)
    #expect(coerced.coercions.count == 1)
  }

  @Test func aFailedDomainLeavesTheOthersAppliedAndIsListed() throws {
    let folder = try TestFolder()
    let store = FileDomainStore(directory: folder.path("store"))
    let snapshots = SnapshotStore(directory: folder.path("snapshots"))
    // b fails first: the change of a after it still happens.
    let file = try settings("b:\n  k: 2\na:\n  k: 1\nc..d:\n  k: 3\n")
    let steps = SettingsApply.plan([file], store: store)
    // Between the plan and the change, b becomes a file that is no plist.
    try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
    try folder.write("store/b.plist", "<plist><dict><key>")
    let outcome = try SettingsApply.apply(steps, sources: ["s.yaml"], snapshots: snapshots)
    #expect(outcome.applied.map(\.name) == ["a"])
    #expect(outcome.applied[0].after == ["k": .integer(1)])
    #expect(outcome.failures.map(\.name) == ["c..d", "b"])
    #expect(outcome.failures.map(\.error.category) == [.usage, .badInput])
    #expect(try store.domain(named: "a").read(options: ReadOptions()) == ["k": .integer(1)])
    #expect(try folder.read("store/b.plist") == "<plist><dict><key>")
    // The snapshot holds both domains that were to change, as they were then.
    #expect(outcome.snapshot?.domains.map(\.name) == ["b", "a"])
    #expect(outcome.snapshot?.domains.last?.saved == .missing)
    let bytes: Data? =
      if case .file(let contents, _)? = outcome.snapshot?.domains.first?.saved { contents } else { nil }
    #expect(bytes == Data("<plist><dict><key>".utf8))
    #expect(try snapshots.list().map(\.id) == [outcome.snapshot?.id])
  }

  @Test func nothingToChangeSavesNoSnapshot() throws {
    let folder = try TestFolder()
    let store = FileDomainStore(directory: folder.path("store"))
    let snapshots = SnapshotStore(directory: folder.path("snapshots"))
    let outcome = try SettingsApply.apply(
      SettingsApply.plan([try settings("a: {}\n")], store: store), sources: [], snapshots: snapshots)
    #expect(outcome.snapshot == nil)
    #expect(outcome.applied.isEmpty && outcome.failures.isEmpty)
    #expect(try snapshots.list().isEmpty)
  }

  // MARK: Capture

  @Test func capturedSettingsTurnTheOldDomainIntoTheNewOne() throws {
    let old = try yaml(
      """
      keep: 1
      gone: x
      retyped: 1
      list: [a, b]
      shrunk: [a, b, c]
      items: [{id: 1, v: a}]
      nested: {a: {b: 1, c: 2}}
      when: !!timestamp 2023-11-14T22:13:20Z
      blob: !!binary AQI=
      """)
    let new = try yaml(
      """
      keep: 1
      retyped: true
      list: [a, b, c]
      shrunk: [a, c]
      items: [{id: 1, v: a}, {id: 1, v: b}]
      nested: {a: {b: 2}, d: 1.5}
      when: !!timestamp 2024-01-01T00:00:00.5Z
      blob: !!binary AQID
      added: {deep: [1]}
      """)
    let captured = try #require(SettingsCapture.settings(from: old, to: new))
    #expect(try SettingsMerge.apply(captured, to: old) == new)
    let dict = try #require(captured.value.dictionaryValue)
    #expect(captured.directive(at: "gone") == .delete)
    #expect(dict["list"] == .array([.string("c")]))
    #expect(captured.directive(at: "list") == nil)
    #expect(captured.directive(at: "shrunk") == .replace)
    #expect(dict["shrunk"] == .array([.string("a"), .string("c")]))
    #expect(dict["keep"] == nil)
    // Through a YAML settings file and back, still exact.
    let text = try SettingsFile(entries: [.init(target: "d", settings: captured, source: "-")]).encoded(as: .yaml)
    let read = try SettingsFile.read(text, name: "c.yaml", declared: .yaml)
    #expect(try SettingsMerge.apply(read.entries[0].settings, to: old) == new)
  }

  @Test func nothingChangedCapturesNothing() {
    #expect(SettingsCapture.settings(from: ["a": .integer(1)], to: ["a": .integer(1)]) == nil)
    #expect(SettingsCapture.settings(from: nil, to: nil) == nil)
    #expect(
      SettingsCapture.settings(from: nil, to: ["a": .integer(1)]) == DomainSettings(.dictionary(["a": .integer(1)])))
    #expect(SettingsCapture.settings(from: ["a": .integer(1)], to: nil) == .delete)
  }

  // MARK: Snapshots

  @Test func aSnapshotRestoresEveryByteAndRemovesWhatWasNew() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = FileDomainStore(directory: folder.appendingPathComponent("store").path)
    let snapshots = SnapshotStore(directory: folder.appendingPathComponent("snapshots").path)
    let existing = try store.domain(named: "a")
    try existing.modify(force: false, dryRun: false, options: ReadOptions(), warnings: Warnings()) {
      $0 = ["k": .integer(1)]
    }
    // Odd spacing and a comment that a rewrite would lose.
    let original = Data(
      "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict>  <!-- mine -->\n<key>k</key><integer>1</integer></dict></plist>\n"
        .utf8)
    try original.write(to: URL(fileURLWithPath: existing.location))
    chmod(existing.location, 0o640)
    let file = try settings("a:\n  k: 2\nb:\n  k: 1\n")
    let steps = SettingsApply.plan([file], store: store)
    let snapshot = try snapshots.save(steps, sources: ["s.yaml"])
    for step in steps { try SettingsApply.execute(step) }
    #expect(try store.domainNames() == ["a", "b"])
    try snapshots.restore(snapshot, in: store)
    #expect(try Data(contentsOf: URL(fileURLWithPath: existing.location)) == original)
    var info = stat()
    stat(existing.location, &info)
    #expect(info.st_mode & 0o777 == 0o640)
    #expect(try store.domainNames() == ["a"])
    let listed = try snapshots.list()
    #expect(listed.map(\.id) == [snapshot.id])
    #expect(listed[0].undone)
    #expect(listed[0].sources == ["s.yaml"])
  }

  @Test func anUndoRefusesADomainChangedSinceTheApplyUnlessForced() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = FileDomainStore(directory: folder.appendingPathComponent("store").path)
    let snapshots = SnapshotStore(directory: folder.appendingPathComponent("snapshots").path)
    let file = try settings("a:\n  k: 2\n  n: {x: 1}\nb:\n  k: 1\n")
    let outcome = try SettingsApply.apply(SettingsApply.plan([file], store: store), sources: [], snapshots: snapshots)
    let snapshot = try #require(outcome.snapshot)
    #expect(
      snapshot.domains.map(\.written) == [
        .dictionary(["k": .integer(2), "n": .dictionary(["x": .integer(1)])]), .dictionary(["k": .integer(1)]),
      ])
    #expect(try snapshots.list().map { $0.domains.map(\.written) } == [snapshot.domains.map(\.written)])
    // Unchanged since: the undo goes ahead.
    try snapshots.restore(snapshot, in: store)
    #expect(try store.domainNames().isEmpty)

    let again = try #require(
      try SettingsApply.apply(SettingsApply.plan([file], store: store), sources: [], snapshots: snapshots).snapshot)
    try store.domain(named: "a").modify(force: false, dryRun: false, options: ReadOptions(), warnings: Warnings()) {
      $0?["n"] = .dictionary(["x": .integer(3)])
    }
    try store.domain(named: "b").restore(.missing)
    #expect {
      try snapshots.restore(again, in: store)
    } throws: { error in
      (error as? PrefsError)?.kind
        == .changedSinceApply([
          PrefsError.ChangedKeys(domain: "a", paths: [PrefKeyPath([.key("n"), .key("x")])]),
          PrefsError.ChangedKeys(domain: "b", paths: [PrefKeyPath()]),
        ])
    }
    #expect(try store.domain(named: "a").read(options: ReadOptions())?["n"] == .dictionary(["x": .integer(3)]))
    #expect(try snapshots.list().last?.undone == false)
    try snapshots.restore(again, in: store, force: true)
    #expect(try store.domainNames().isEmpty)
  }

  /// A domain kept in memory, at a place where no file is: what a snapshot of it holds
  /// can only come through the domain itself.
  final class MemoryDomain: PreferenceDomain, @unchecked Sendable {
    let name = "mem"
    var location: String { "/nonexistent/mem.plist" }
    var contents: PrefDictionary?
    init(_ contents: PrefDictionary?) { self.contents = contents }
    func read(options: ReadOptions) throws -> PrefDictionary? { contents }
    func modify(
      force: Bool, dryRun: Bool, options: ReadOptions, dropNulls: Bool, warnings: Warnings,
      _ body: (inout PrefDictionary?) throws -> Void
    ) throws -> (before: PrefDictionary?, after: PrefDictionary?) {
      let before = contents
      var after = before
      try body(&after)
      if !dryRun { contents = after }
      return (before, after)
    }
    func snapshot() throws -> DomainSnapshot { contents.map(DomainSnapshot.value) ?? .missing }
    func restore(_ snapshot: DomainSnapshot) throws { contents = try snapshot.contents(name: name) }
  }

  struct MemoryStore: DomainStore {
    let domain: MemoryDomain
    var location: String { "memory" }
    func domainNames() throws -> [String] { [domain.name] }
    func domain(named name: String) throws -> any PreferenceDomain { domain }
  }

  @Test func aSnapshotIsTakenAndRestoredThroughTheDomain() throws {
    let folder = try TestFolder()
    let domain = MemoryDomain(["k": .integer(1)])
    let store = MemoryStore(domain: domain)
    let snapshots = SnapshotStore(directory: folder.path("snapshots"))
    let steps = SettingsApply.plan([try settings("mem:\n  k: 2\n")], store: store)
    let outcome = try SettingsApply.apply(steps, sources: ["s.yaml"], snapshots: snapshots)
    #expect(domain.contents == ["k": .integer(2)])
    // Saved and read back as the value, not as bytes of a file.
    let saved = try #require(try snapshots.list().first)
    #expect(saved.id == outcome.snapshot?.id)
    #expect(saved.domains.map(\.saved) == [.value(["k": .integer(1)])])
    try snapshots.restore(saved, in: store)
    #expect(domain.contents == ["k": .integer(1)])
    #expect(try snapshots.list().map(\.undone) == [true])
  }

  /// A snapshot planted in the folder, or one whose entry names a place its domain is
  /// not, restores nothing; a folder others can enter, or a symlink, is refused before use.
  @Test func aSnapshotIsCheckedBeforeItIsTrusted() throws {
    let folder = try TestFolder()
    let store = FileDomainStore(directory: folder.path("store"))
    let snapshots = SnapshotStore(directory: folder.path("snapshots"))
    let steps = SettingsApply.plan([try settings("a:\n  k: 2\n")], store: store)
    let outcome = try SettingsApply.apply(steps, sources: ["s.yaml"], snapshots: snapshots)
    var info = stat()
    #expect(lstat(snapshots.directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
    // The entry sent elsewhere: refused, and the file it names is left alone.
    let victim = try folder.write("victim", "mine\n")
    var planted = try #require(outcome.snapshot)
    planted.domains[0].path = victim
    let file = snapshots.directory + "/" + planted.id + ".plist"
    try SnapshotStore.encode(planted).write(to: URL(fileURLWithPath: file))
    let mismatch = try #require(throws: PrefsError.self) {
      try snapshots.restore(try snapshots.snapshot(named: planted.id), in: store)
    }
    #expect(
      mismatch.kind == .untrusted(problem: "the snapshot puts 'a' at \(victim), which is not where that domain is"))
    #expect(try folder.read("victim") == "mine\n")
    // A file someone else may write, a folder others may enter, a symlinked folder.
    chmod(file, 0o666)
    #expect(throws: PrefsError.self) { try snapshots.list() }
    chmod(file, 0o600)
    chmod(snapshots.directory, 0o755)
    #expect(throws: PrefsError.self) { try snapshots.list() }
    #expect(throws: PrefsError.self) { try snapshots.save(steps, sources: ["s.yaml"]) }
    chmod(snapshots.directory, 0o700)
    try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: snapshots.directory)
    let linked = SnapshotStore(directory: folder.path("link"))
    let error = try #require(throws: PrefsError.self) { try linked.list() }
    #expect(error.category == .badInput)
  }

  /// A save keeps the last snapshots only, and removes what a killed save left.
  @Test func savingPrunesOldSnapshotsAndStaleTemporaries() throws {
    let folder = try TestFolder()
    let store = FileDomainStore(directory: folder.path("store"))
    let snapshots = SnapshotStore(directory: folder.path("snapshots"), keep: 2)
    let steps = SettingsApply.plan([try settings("a:\n  k: 2\n")], store: store)
    try snapshots.save(steps, sources: [], now: Date(timeIntervalSince1970: 1_000_000_000))
    let stale = folder.path("snapshots/.19700101T000000.000Z-1.plist.Ab12Cd")
    let live = folder.path("snapshots/.19700101T000000.000Z-2.plist.Ef34Gh")
    for file in [stale, live] { try Data("x".utf8).write(to: URL(fileURLWithPath: file)) }
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: stale)
    let second = try snapshots.save(steps, sources: [], now: Date(timeIntervalSince1970: 1_000_000_100))
    let third = try snapshots.save(steps, sources: [], now: Date(timeIntervalSince1970: 1_000_000_200))
    #expect(try snapshots.list().map(\.id) == [second.id, third.id])
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(SnapshotStore(environment: ["XDG_STATE_HOME": "/s", "PREFS_SNAPSHOTS_KEEP": "7"]).keep == 7)
    #expect(SnapshotStore(environment: ["XDG_STATE_HOME": "/s", "PREFS_SNAPSHOTS_KEEP": "0"]).keep == 50)
  }

  @Test func snapshotsGoUnderXDGStateHome() {
    #expect(SnapshotStore(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).directory == "/s/prefs/snapshots")
    #expect(
      SnapshotStore(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]).directory == "/h/.local/state/prefs/snapshots"
    )
  }

  // MARK: Watching

  @Test(arguments: [false, true])
  func theWatcherSeesAFileReplacedOrWrittenInPlace(polling: Bool) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("d.plist").path
    let other = folder.appendingPathComponent("other.plist").path
    let watcher = DomainWatcher(paths: [path], polling: polling)
    #expect(watcher.usesNotifications == !polling)
    #expect(watcher.changes(waitingUpTo: 0.05).isEmpty)
    try Data("x".utf8).write(to: URL(fileURLWithPath: other))
    #expect(watcher.changes(waitingUpTo: 0.2).isEmpty)
    try AtomicFile.write(Data("a".utf8), to: path)
    #expect(watcher.changes(waitingUpTo: 2) == [path])
    // In place, as UserDefaults writes on Linux.
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data("bb".utf8))
    try handle.close()
    #expect(watcher.changes(waitingUpTo: 2) == [path])
  }
}

/// `"a.b"` for the path of keys `a` and `b`: the directives of a settings file, as
/// tests write them.
extension PrefKeyPath: ExpressibleByStringLiteral {
  public init(stringLiteral text: String) {
    self.init(text.split(separator: ".").map { .key(String($0)) })
  }
}
