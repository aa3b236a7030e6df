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

/// The three-way merge of values, and conflicts set in text.
@Suite struct MergeTests {
  static func merge(
    _ base: PrefValue, _ current: PrefValue, _ other: PrefValue, options: ThreeWayMerge.Options = .init()
  )
    -> ThreeWayMerge.Result
  {
    ThreeWayMerge.merge(base: base, current: current, other: other, options: options)
  }

  static func list(_ items: String...) -> PrefValue { .array(items.map { .string($0) }) }

  // MARK: Dictionaries

  @Test func differentKeysOfOneDictionaryMerge() {
    let result = Self.merge(
      ["a": .integer(1), "b": .integer(2)], ["a": .integer(10), "b": .integer(2)],
      ["a": .integer(1), "b": .integer(20)])
    #expect(result.conflicts.isEmpty)
    #expect(result.value == ["a": .integer(10), "b": .integer(20)])
  }

  /// Keys are told apart by their scalars: OTHER's new key goes after the key it
  /// follows there, not after a canonically equal one, and only once.
  @Test func aKeyAddedAfterOneOfTwoCanonicallyEqualKeysGoesAfterThatOne() throws {
    let (composed, decomposed) = ("\u{E9}", "e\u{301}")
    let base: PrefValue = .dictionary([composed: 1, "x": 2, decomposed: 3])
    let other: PrefValue = .dictionary([composed: 1, "x": 2, decomposed: 3, "new": 4])
    let result = Self.merge(base, base, other)
    #expect(result.conflicts.isEmpty)
    let merged = try #require(result.value.dictionaryValue)
    #expect(
      merged.keys.map { Array($0.unicodeScalars) }
        == [composed, "x", decomposed, "new"].map { Array($0.unicodeScalars) })
    let inserted = merged.inserting("y", 5, after: decomposed)
    #expect(
      inserted.keys.map { Array($0.unicodeScalars) }
        == [composed, "x", decomposed, "y", "new"].map { Array($0.unicodeScalars) })
  }

  @Test func theSameChangeOnBothSidesIsNoConflict() {
    let result = Self.merge(
      ["a": .integer(1)], ["a": .integer(2), "n": .bool(true)], ["a": .integer(2), "n": .bool(true)])
    #expect(result.conflicts.isEmpty)
    #expect(result.value == ["a": .integer(2), "n": .bool(true)])
  }

  @Test func aChangeOfTypeIsAChange() {
    let taken = Self.merge(["n": .integer(1)], ["n": .integer(1)], ["n": .real(1)])
    #expect(taken.conflicts.isEmpty)
    #expect(taken.value == ["n": .real(1)])
    let clash = Self.merge(["n": .integer(1)], ["n": .string("1")], ["n": .real(1)])
    #expect(clash.conflicts.map(\.location) == ["n"])
    #expect(clash.value == ["n": .string("1")])
  }

  @Test func bothChangingOneKeyIsAConflictWithTheThreeValues() throws {
    let result = Self.merge(
      ["window": ["width": .integer(800)]], ["window": ["width": .integer(1024)]], ["window": ["width": .integer(640)]])
    let conflict = try #require(result.conflicts.first)
    #expect(result.conflicts.count == 1)
    #expect(conflict.location == "window.width")
    #expect(conflict.base == .integer(800))
    #expect(conflict.current == .integer(1024))
    #expect(conflict.other == .integer(640))
    #expect(result.value == ["window": ["width": .integer(1024)]])
    #expect(result.value.resolving(result.conflicts, to: .other) == ["window": ["width": .integer(640)]])
  }

  @Test func aKeyRemovedOnOneSideAndChangedOnTheOtherConflicts() {
    let removedHere = Self.merge(
      ["a": .integer(1), "b": .integer(2)], ["b": .integer(2)], ["a": .integer(3), "b": .integer(2)])
    #expect(removedHere.conflicts.map(\.location) == ["a"])
    #expect(removedHere.conflicts.first?.current == nil)
    #expect(removedHere.value == ["b": .integer(2)])
    #expect(removedHere.value.resolving(removedHere.conflicts, to: .other) == ["a": .integer(3), "b": .integer(2)])
    let removedThere = Self.merge(["a": .integer(1)], ["a": .integer(3)], [:])
    #expect(removedThere.conflicts.map(\.location) == ["a"])
    #expect(removedThere.value == ["a": .integer(3)])
    // Removed on one side, untouched on the other: removed.
    #expect(
      Self.merge(["a": .integer(1), "b": .integer(1)], ["b": .integer(1)], ["a": .integer(1), "b": .integer(2)]).value
        == ["b": .integer(2)])
  }

  @Test func keyOrderFollowsCurrentAndAnAddedKeyFollowsItsNeighbour() {
    let base: PrefValue = ["a": .integer(1), "b": .integer(2), "c": .integer(3)]
    let current: PrefValue = .dictionary(PrefDictionary([("c", .integer(3)), ("a", .integer(1)), ("b", .integer(2))]))
    let other: PrefValue = .dictionary(
      PrefDictionary([
        ("x", .integer(0)), ("a", .integer(1)), ("y", .integer(9)), ("b", .integer(2)), ("c", .integer(3)),
      ]))
    let result = Self.merge(base, current, other)
    #expect(result.conflicts.isEmpty)
    #expect(result.value.dictionaryValue?.keys == ["x", "c", "a", "y", "b"])
  }

  // MARK: Arrays

  @Test func insertionsAtDifferentPlacesMerge() {
    let result = Self.merge(Self.list("a", "b", "c"), Self.list("z", "a", "b", "c"), Self.list("a", "b", "c", "d"))
    #expect(result.conflicts.isEmpty)
    #expect(result.value == Self.list("z", "a", "b", "c", "d"))
  }

  @Test func anItemDeletedOnBothSidesIsOneDelete() {
    let result = Self.merge(Self.list("a", "b", "c"), Self.list("a", "c"), Self.list("a", "c", "d"))
    #expect(result.conflicts.isEmpty)
    #expect(result.value == Self.list("a", "c", "d"))
  }

  @Test func insertionsAtOnePlaceKeepBothCurrentFirst() {
    let result = Self.merge(Self.list("a"), Self.list("a", "x"), Self.list("a", "y", "x"))
    #expect(result.conflicts.isEmpty)
    #expect(result.value == Self.list("a", "x", "y"))
  }

  @Test func itemsChangedDifferentlyConflictAtTheItem() {
    let result = Self.merge(Self.list("a", "b", "c"), Self.list("a", "B", "c"), Self.list("a", "β", "c"))
    #expect(result.conflicts.map(\.location) == ["1"])
    #expect(result.value == Self.list("a", "B", "c"))
  }

  @Test func aLongArrayChangedEverywhereOnBothSidesConflictsItemByItem() {
    // 20,000 items: CURRENT changes one in 10, OTHER one in 10 elsewhere, the same 20
    // items as CURRENT otherwise, and removes one in 500. More differences than one
    // search looks for: each conflict is still its own item, not the whole array.
    let base = (0..<20_000).map { "item \($0)" }
    var current = base
    var other = base
    for i in stride(from: 3, to: base.count, by: 10) { current[i] = "current \(i)" }
    for i in stride(from: 7, to: base.count, by: 10) { other[i] = "other \(i)" }
    for i in stride(from: 3, to: 200, by: 10) { other[i] = "other \(i)" }
    other = other.enumerated().filter { $0.offset % 500 != 499 }.map(\.element)
    let array = { (items: [String]) in PrefValue.array(items.map { .string($0) }) }
    let result = Self.merge(["list": array(base)], ["list": array(current)], ["list": array(other)])
    #expect(result.conflicts.map(\.location) == stride(from: 3, to: 200, by: 10).map { "list.\($0)" })
    var expected = current
    for i in stride(from: 7, to: base.count, by: 10) { expected[i] = "other \(i)" }
    expected = expected.enumerated().filter { $0.offset % 500 != 499 }.map(\.element)
    #expect(result.value == ["list": array(expected)])
  }

  @Test func aRunRemovedOnOneSideAndChangedOnTheOtherConflictsAsARun() throws {
    let result = Self.merge(Self.list("a", "b", "c", "d"), Self.list("a", "d"), Self.list("a", "b", "C", "D2", "d"))
    let conflict = try #require(result.conflicts.first)
    #expect(conflict.items == 1..<1)
    #expect(conflict.current == .array([]))
    #expect(result.value == Self.list("a", "d"))
    #expect(result.value.resolving(result.conflicts, to: .other) == Self.list("a", "b", "C", "D2", "d"))
  }

  @Test func dictionariesInAnArrayMergeFieldByField() {
    let base: PrefValue = .array([["title": .string("x"), "size": .integer(1)]])
    let result = Self.merge(
      base, .array([["title": .string("y"), "size": .integer(1)]]),
      .array([["title": .string("x"), "size": .integer(2)]]))
    #expect(result.conflicts.isEmpty)
    #expect(result.value == .array([["title": .string("y"), "size": .integer(2)]]))
  }

  @Test func itemsWithABuiltInIdentityFieldMatchWhereverTheyMoved() {
    func item(_ id: Int, _ v: Int) -> PrefValue { ["id": .integer(Int64(id)), "v": .integer(Int64(v))] }
    let result = Self.merge(
      .array([item(1, 1), item(2, 1), item(3, 1)]), .array([item(3, 1), item(1, 1), item(2, 1)]),
      .array([item(1, 2), item(2, 1), item(3, 5), item(4, 1)]))
    #expect(result.conflicts.isEmpty)
    // The item OTHER appended stays at the end, wherever CURRENT moved the one before it.
    #expect(result.value == .array([item(3, 5), item(1, 2), item(2, 1), item(4, 1)]))
  }

  @Test func anArrayKeyOptionNamesANestedIdentityField() throws {
    func tile(_ id: String, _ label: String) -> PrefValue {
      ["tile-data": ["bundle-identifier": .string(id), "file-label": .string(label)]]
    }
    let base: PrefValue = ["persistent-apps": .array([tile("a", "A"), tile("b", "B")])]
    let current: PrefValue = ["persistent-apps": .array([tile("b", "B"), tile("a", "A"), tile("c", "C")])]
    let other: PrefValue = ["persistent-apps": .array([tile("d", "D"), tile("a", "Apple"), tile("b", "B")])]
    let key = try #require(ThreeWayMerge.Options.arrayKey("persistent-apps=tile-data.bundle-identifier"))
    let result = Self.merge(base, current, other, options: .init(arrayKeys: [key]))
    #expect(result.conflicts.isEmpty)
    #expect(
      result.value == ["persistent-apps": .array([tile("d", "D"), tile("b", "B"), tile("a", "Apple"), tile("c", "C")])])
    // The Dock's arrays need no option: their identity is built in.
    #expect(Self.merge(base, current, other).value == result.value)
    // Elsewhere, by value alone, the moved item and the renamed one clash.
    func renamed(_ value: PrefValue) -> PrefValue { ["tiles": value.dictionaryValue!["persistent-apps"]!] }
    #expect(!Self.merge(renamed(base), renamed(current), renamed(other)).conflicts.isEmpty)
  }

  /// One branch reorders a profile's payloads, the other changes one of them: its
  /// payloads are named by their `PayloadIdentifier`, so the change lands on the
  /// payload that moved.
  @Test func aProfilesPayloadsMatchByPayloadIdentifier() {
    func payload(_ id: String, _ size: Int) -> PrefValue {
      ["PayloadIdentifier": .string(id), "PayloadType": .string(id), "size": .integer(Int64(size))]
    }
    let base: PrefValue = ["PayloadContent": .array([payload("dock", 40), payload("finder", 1)])]
    let current: PrefValue = ["PayloadContent": .array([payload("finder", 1), payload("dock", 40)])]
    let other: PrefValue = ["PayloadContent": .array([payload("dock", 48), payload("finder", 1)])]
    let result = Self.merge(base, current, other)
    #expect(result.conflicts.isEmpty)
    #expect(result.value == ["PayloadContent": .array([payload("finder", 1), payload("dock", 48)])])
  }

  @Test func theDocksTilesMatchByBundleIdentifierThenByGUID() {
    func app(_ id: String, guid: Int) -> PrefValue {
      ["GUID": .integer(Int64(guid)), "tile-data": ["bundle-identifier": .string(id)]]
    }
    func folder(_ label: String, guid: Int) -> PrefValue {
      ["GUID": .integer(Int64(guid)), "tile-data": ["file-label": .string(label)]]
    }
    // OTHER's Dock numbered its tiles anew and added an app; CURRENT added another.
    let base: PrefValue = ["persistent-apps": .array([app("mail", guid: 1), app("safari", guid: 2)])]
    let current: PrefValue = [
      "persistent-apps": .array([app("mail", guid: 1), app("safari", guid: 2), app("notes", guid: 3)])
    ]
    let other: PrefValue = [
      "persistent-apps": .array([app("mail", guid: 11), app("safari", guid: 12), app("music", guid: 13)])
    ]
    let apps = Self.merge(base, current, other)
    #expect(apps.conflicts.isEmpty)
    #expect(
      apps.value == [
        "persistent-apps": .array([
          app("mail", guid: 11), app("safari", guid: 12), app("notes", guid: 3), app("music", guid: 13),
        ])
      ])
    // Folders and files have no bundle identifier: their GUIDs name them.
    let others = Self.merge(
      ["persistent-others": .array([folder("Downloads", guid: 5)])],
      ["persistent-others": .array([folder("Downloads", guid: 5), folder("Documents", guid: 6)])],
      ["persistent-others": .array([folder("Downloads 2", guid: 5)])])
    #expect(others.conflicts.isEmpty)
    #expect(
      others.value == ["persistent-others": .array([folder("Downloads 2", guid: 5), folder("Documents", guid: 6)])])
  }

  @Test func anItemOtherAppendedAtTheEndStaysAtTheEnd() {
    func item(_ id: String) -> PrefValue { ["id": .string(id)] }
    let result = Self.merge(
      .array([item("a"), item("b")]), .array([item("a"), item("b"), item("mine")]),
      .array([item("a"), item("b"), item("theirs")]))
    #expect(result.conflicts.isEmpty)
    #expect(result.value == .array([item("a"), item("b"), item("mine"), item("theirs")]))
    // One inserted between two items stays after the one before it.
    let between = Self.merge(
      .array([item("a"), item("b")]), .array([item("a"), item("b"), item("mine")]),
      .array([item("a"), item("theirs"), item("b")]))
    #expect(between.value == .array([item("a"), item("theirs"), item("b"), item("mine")]))
  }

  // MARK: The repository's identity file

  @Test func theIdentityFileMapsPathGlobsToArrayKeys() throws {
    let file = try MergeIdentityFile(
      """
      # files    arrays
      com.apple.dock.plist   persistent-apps=tile-data.file-label
      config/*.json  servers=host	users.*.keys=fingerprint

      /top.yaml list=name
      deep/**/x.yaml list=id
      """)
    #expect(file.rules.count == 4)
    func keys(_ path: String) -> [String] {
      file.arrayKeys(for: path).map { "\($0.array)=\($0.field.joined(separator: "."))" }
    }
    #expect(keys("com.apple.dock.plist") == ["persistent-apps=tile-data.file-label"])
    #expect(keys("backup/com.apple.dock.plist") == ["persistent-apps=tile-data.file-label"])
    #expect(keys("config/app.json") == ["servers=host", "users.*.keys=fingerprint"])
    #expect(keys("config/sub/app.json").isEmpty, "* stays within a folder")
    #expect(keys("top.yaml") == ["list=name"])
    #expect(keys("sub/top.yaml").isEmpty, "a leading / anchors the glob at the root")
    #expect(keys("deep/a/b/x.yaml") == ["list=id"])
    #expect(keys("other.plist").isEmpty)
  }

  @Test(arguments: ["com.apple.dock.plist\n", "a b=c\n*.plist apps\n"])
  func aBadLineOfTheIdentityFileIsASyntaxErrorAtItsLine(text: String) throws {
    let error = try #require(throws: PrefsError.self) { try MergeIdentityFile(text, file: "repo/.prefs-merge") }
    #expect(Self.isSyntax(error.kind, format: MergeIdentityFile.name))
    #expect(error.file == "repo/.prefs-merge")
    #expect(error.position == .lineColumn(line: text.hasPrefix("a") ? 2 : 1, column: 1))
  }

  // MARK: Merging files

  static func isSyntax(_ kind: PrefsError.Kind, format: String) -> Bool {
    if case .syntax(format, _, _) = kind { return true }
    return false
  }

  static func refusal(_ outcome: FileMerge.Outcome) -> FileMerge.Refusal? {
    if case .byLines(let refusal) = outcome { return refusal }
    return nil
  }

  static func merged(_ outcome: FileMerge.Outcome) -> FileMerge.Merged? {
    if case .merged(let merged) = outcome { return merged }
    return nil
  }

  /// The merge of three YAML texts, each version named by its side.
  static func fileMerge(_ current: String, _ base: String, _ other: String) throws -> FileMerge.Outcome {
    func version(_ text: String, _ name: String) -> FileMerge.Version {
      FileMerge.Version(Data(text.utf8), path: "s.yaml", name: name)
    }
    return try FileMerge.merge(
      current: version(current, "current"), base: version(base, "base"), other: version(other, "other"))
  }

  @Test func aFileMergeRefusesWhatDoesNotReadNamingTheSide() throws {
    let unknownTag = try #require(Self.refusal(try Self.fileMerge("a: 1\n", "a: 0\n", "a: !ruby/regexp /x/\n")))
    #expect(unknownTag.side == .other)
    #expect(unknownTag.error.file == "other")
    #expect(Self.isSyntax(unknownTag.error.kind, format: "yaml"))
    let duplicate = try #require(Self.refusal(try Self.fileMerge("a: 1\na: 2\n", "a: 0\n", "a: 3\n")))
    #expect(duplicate.side == .current)
    #expect(duplicate.error.kind == .duplicateKey("a"))
    let clean = try #require(Self.merged(try Self.fileMerge("a: 1\nb: 0\n", "a: 0\nb: 0\n", "a: 0\nb: 1\n")))
    #expect(String(decoding: clean.data, as: UTF8.self) == "a: 1\nb: 1\n")
    #expect(!clean.hasMarkers)
  }

  /// A workflow whose jobs take their settings from an anchor, by merge key and by alias.
  static let workflow = """
    defaults: &d
      runs-on: ubuntu-latest
      timeout: 10
    jobs:
      build:
        <<: *d
        steps:
          - run: make
      lint: *d

    """

  @Test func aMergeChangingAnAnchorNextToTheOtherSidesChangeKeepsTheAliases() throws {
    // The two changes touch neighbouring lines, so the values are patched into CURRENT's text.
    let current = Self.workflow.replacingOccurrences(of: "ubuntu-latest", with: "ubuntu-24.04")
    let other = Self.workflow.replacingOccurrences(of: "timeout: 10", with: "timeout: 20")
    let merged = try #require(Self.merged(try Self.fileMerge(current, Self.workflow, other)))
    #expect(
      String(decoding: merged.data, as: UTF8.self)
        == current.replacingOccurrences(of: "timeout: 10", with: "timeout: 20"))
    #expect(!merged.hasMarkers)
    #expect(merged.notes.isEmpty)
  }

  @Test func aMergeThatWouldWriteAnAliasOutIsMergedByLines() throws {
    // OTHER changes the anchor and writes the alias out with the old values; CURRENT's
    // change to the anchor reaches `z` only through the alias.
    let base = "d: &d\n  k: 1\n  m: 2\nz: *d\n"
    let current = "d: &d\n  k: 1\n  m: 3\nz: *d\n"
    let other = "d: &d\n  k: 5\n  m: 2\nz:\n  k: 1\n  m: 2\n"
    let refusal = try #require(Self.refusal(try Self.fileMerge(current, base, other)))
    #expect(refusal.side == nil)
    var format: String?
    if case .unrepresentable(let written, _, _, _) = refusal.error.kind { format = written }
    #expect(format == "yaml", "\(refusal.error.kind)")
  }

  @Test func aConflictWhereAnAliasGivesTheValueIsMergedByLines() throws {
    // Both sides change the anchored list; the alias would repeat the conflict with a copy.
    let base = "styles: &s\n  - nested\n  - compact\nmodules: *s\n"
    let current = base.replacingOccurrences(of: "- compact", with: "- compacted")
    let other = base.replacingOccurrences(of: "- compact\n", with: "- compact\n  - flat\n")
    let refusal = try #require(Self.refusal(try Self.fileMerge(current, base, other)))
    #expect(refusal.side == nil)
    var path: PrefKeyPath?
    if case .unrepresentable(_, _, let at, _) = refusal.error.kind { path = at }
    #expect(path?.components.first == .key("modules"), "\(refusal.error.kind)")
  }

  @Test func gitTakesAFileWithANulByteInItsFirst8000BytesForBinary() {
    #expect(FileMerge.isBinary(Data("bplist00".utf8) + [0]))
    #expect(!FileMerge.isBinary(Data("a: 1\n".utf8)))
    #expect(!FileMerge.isBinary(Data(repeating: 0x61, count: 8_000) + [0]))
  }

  @Test func anItemWhoseIdentityChangedInPlaceIsStillThatItem() {
    func app(_ name: String, _ pinned: Bool) -> PrefValue { ["name": .string(name), "pinned": .bool(pinned)] }
    let base: PrefValue = .array([app("Mail", true), app("Safari", false)])
    let renamedTwice = Self.merge(
      base, .array([app("Mail 2", true), app("Safari", false)]), .array([app("Mail 3", true), app("Safari", false)]))
    #expect(renamedTwice.conflicts.map(\.location) == ["0.name"])
    let renamedAndChanged = Self.merge(
      base, .array([app("Mail 2", true), app("Safari", false)]), .array([app("Safari", false), app("Mail", false)]))
    #expect(renamedAndChanged.conflicts.isEmpty)
    // OTHER moved the items, so its order stands.
    #expect(renamedAndChanged.value == .array([app("Safari", false), app("Mail 2", false)]))
  }

  @Test func anItemRemovedOnOneSideAndChangedOnTheOtherConflictsByIdentity() {
    func item(_ id: String, _ v: Int) -> PrefValue { ["id": .string(id), "v": .integer(Int64(v))] }
    let base: PrefValue = .array([item("a", 1), item("b", 1)])
    let removedHere = Self.merge(base, .array([item("b", 1)]), .array([item("a", 2), item("b", 1)]))
    #expect(removedHere.conflicts.map(\.location) == ["0"])
    #expect(removedHere.value == .array([item("b", 1)]))
    #expect(removedHere.value.resolving(removedHere.conflicts, to: .other) == .array([item("a", 2), item("b", 1)]))
    let removedThere = Self.merge(base, .array([item("a", 2), item("b", 1)]), .array([item("b", 1)]))
    #expect(removedThere.conflicts.map(\.location) == ["0"])
    #expect(removedThere.value == .array([item("a", 2), item("b", 1)]))
  }

  // MARK: Conflicts in text

  /// The two texts of a marked document: each conflict's CURRENT side, or its OTHER side.
  static func sides(_ data: Data) -> (current: Data, other: Data) {
    var current = Data()
    var other = Data()
    var state = 0
    for line in CorpusEdits.lines(data) {
      let text = String(decoding: line, as: UTF8.self)
      if text.hasPrefix("<<<<<<< ") {
        state = 1
      } else if text.hasPrefix("=======") && state == 1 {
        state = 2
      } else if text.hasPrefix(">>>>>>> ") && state == 2 {
        state = 0
      } else {
        if state != 2 { current += line }
        if state != 1 { other += line }
      }
    }
    return (current, other)
  }

  static func marked(_ format: Format, _ base: String, _ current: String, _ other: String) throws
    -> (text: String, result: ThreeWayMerge.Result, other: PrefValue)
  {
    let document = try #require(try TextDocument(Data(current.utf8), format: format))
    let b = try format.codec.read(Data(base.utf8), options: ReadOptions(), warnings: Warnings())
    let o = try format.codec.read(Data(other.utf8), options: ReadOptions(), warnings: Warnings())
    let result = ThreeWayMerge.merge(base: b, current: document.value, other: o)
    let marked = try ConflictMarkers.text(of: document, merged: result)
    return (String(decoding: marked.data, as: UTF8.self), result, o)
  }

  @Test func aYAMLConflictIsMarkedAroundItsLinesOnly() throws {
    let (text, result, _) = try Self.marked(
      .yaml, "a: 1\n# the size\nsize: 10\nz: 0\n", "a: 2\n# the size\nsize: 11\nz: 0\n",
      "a: 1\n# the size\nsize: 12\nz: 1\n")
    #expect(result.conflicts.map(\.location) == ["size"])
    #expect(
      text == """
        a: 2
        # the size
        <<<<<<< CURRENT
        size: 11
        =======
        size: 12
        >>>>>>> OTHER
        z: 1

        """)
  }

  @Test func aJSONConflictKeepsTheSeparatorsOfEachSide() throws {
    let (text, _, other) = try Self.marked(
      .json, "{\n  \"a\": 1,\n  \"b\": [1, 2],\n  \"c\": true\n}\n",
      "{\n  \"a\": 1,\n  \"b\": [1, 3],\n  \"c\": true\n}\n",
      "{\n  \"a\": 1,\n  \"b\": {\"x\": 1},\n  \"c\": true\n}\n")
    #expect(
      text == """
        {
          "a": 1,
        <<<<<<< CURRENT
          "b": [1, 3],
        =======
          "b": {
            "x": 1
          },
        >>>>>>> OTHER
          "c": true
        }

        """)
    let sides = Self.sides(Data(text.utf8))
    #expect(try Format.json.codec.read(sides.other, options: ReadOptions(), warnings: Warnings()) == other)
  }

  @Test func anXMLConflictWhereCurrentRemovedTheKeyShowsOthersEntryWhereItWouldGo() throws {
    func plist(_ body: String) -> String {
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)</dict>\n</plist>\n"
    }
    let (text, result, other) = try Self.marked(
      .xml, plist("\t<key>a</key>\n\t<integer>1</integer>\n\t<key>b</key>\n\t<string>x</string>\n"),
      plist("\t<key>b</key>\n\t<string>x</string>\n"),
      plist("\t<key>a</key>\n\t<integer>2</integer>\n\t<key>b</key>\n\t<string>x</string>\n"))
    #expect(result.conflicts.map(\.location) == ["a"])
    #expect(
      text
        == plist(
          "<<<<<<< CURRENT\n=======\n\t<key>a</key>\n\t<integer>2</integer>\n>>>>>>> OTHER\n\t<key>b</key>\n\t<string>x</string>\n"
        ))
    #expect(
      try Format.xml.codec.read(Self.sides(Data(text.utf8)).other, options: ReadOptions(), warnings: Warnings())
        == other)
  }

  @Test func aJSONEntryAtTheEndIsMarkedWithTheEntryBeforeIt() throws {
    let base = "{\n  \"a\": 1,\n  \"b\": 2\n}\n"
    let removedHere = try Self.marked(.json, base, "{\n  \"a\": 1\n}\n", "{\n  \"a\": 1,\n  \"b\": 3\n}\n")
    #expect(
      removedHere.text
        == "{\n<<<<<<< CURRENT\n  \"a\": 1\n=======\n  \"a\": 1,\n  \"b\": 3\n>>>>>>> OTHER\n}\n")
    let removedThere = try Self.marked(.json, base, "{\n  \"a\": 1,\n  \"b\": 5\n}\n", "{\n  \"a\": 1\n}\n")
    #expect(
      removedThere.text
        == "{\n<<<<<<< CURRENT\n  \"a\": 1,\n  \"b\": 5\n=======\n  \"a\": 1\n>>>>>>> OTHER\n}\n")
    for (text, _, other) in [removedHere, removedThere] {
      #expect(
        try Format.json.codec.read(Self.sides(Data(text.utf8)).other, options: ReadOptions(), warnings: Warnings())
          == other)
    }
  }

  @Test func aConflictOnASharedLineMarksTheEnclosingEntry() throws {
    let (text, _, other) = try Self.marked(
      .yaml, "top:\n  list: [1, 2, 3]\nz: 0\n", "top:\n  list: [1, 5, 3]\nz: 0\n", "top:\n  list: [1, 6, 3]\nz: 0\n")
    // The list stood on one line, and OTHER's is shown on one line too.
    #expect(text == "top:\n<<<<<<< CURRENT\n  list: [1, 5, 3]\n=======\n  list: [1, 6, 3]\n>>>>>>> OTHER\nz: 0\n")
    #expect(
      try Format.yaml.codec.read(Self.sides(Data(text.utf8)).other, options: ReadOptions(), warnings: Warnings())
        == other)
    // A one-line JSON document is marked whole.
    let json = try Self.marked(.json, #"{"a": 1, "b": 2}"#, #"{"a": 5, "b": 2}"#, #"{"a": 6, "b": 2}"#)
    #expect(json.text.hasPrefix("<<<<<<< CURRENT\n{\"a\": 5, \"b\": 2}\n=======\n"))
  }
}

/// Seeded pairs of edits on the files of the corpora, merged by prefs and, for the
/// text files, by `git merge-file` on the same texts.
@Suite struct MergeCorpusTests {
  /// One merge: BASE, the two sides, and what the merge must give.
  struct Case {
    var category: Category
    var label: String
    var base: PrefValue
    var current: PrefValue
    var other: PrefValue
    /// For disjoint edits: the merged value.
    var expected: PrefValue?
    /// For overlapping edits: where the conflict is.
    var conflictAt: String?
  }

  /// The kinds of cases, as the figures group them.
  enum Category: String, CaseIterable {
    case disjoint = "disjoint edits"
    case neighbours = "neighbouring keys"
    case appends = "both append to one array"
    case overlapping = "overlapping edits"
  }

  /// The key path of text components in `value` (keys or indexes as the containers are).
  static func keyPath(_ parts: [String], in value: PrefValue) -> PrefKeyPath {
    var path = PrefKeyPath()
    var current = value
    for part in parts {
      if case .array(let items) = current, let index = Int(part) {
        path = path.appending(index: index)
        current = items[index]
      } else {
        path = path.appending(key: part)
        current = current.dictionaryValue?[part] ?? .bool(false)
      }
    }
    return path
  }

  static func isPrefix(_ a: [String], _ b: [String]) -> Bool { b.starts(with: a) || a.starts(with: b) }

  /// The seeded cases of one document's value.
  static func cases(_ base: PrefValue, seed: UInt64) throws -> [Case] {
    var rng = SeededGenerator(state: seed)
    var cases: [Case] = []
    let kinds = CorpusEdits.Edit.allCases
    // Disjoint: two edits whose key paths do not contain each other.
    for attempt in 0..<8 where cases.count < 2 {
      let k1 = kinds[Int(rng.next() % UInt64(kinds.count))]
      let k2 = kinds[Int(rng.next() % UInt64(kinds.count))]
      guard let (one, at1) = try CorpusEdits.edit(base, k1, using: &rng),
        let (two, at2) = try CorpusEdits.edit(base, k2, using: &rng), !isPrefix(at1, at2)
      else { continue }
      let expected = try one.setting(two.value(at: at2), at: at2)
      cases.append(
        Case(
          category: .disjoint,
          label:
            "disjoint \(k1) at \(at1.joined(separator: ".")) + \(k2) at \(at2.joined(separator: ".")) (\(attempt))",
          base: base, current: one, other: two, expected: expected))
    }
    // Disjoint: an insertion at the start of an array and one at its end.
    let arrays = CorpusEdits.nodes(base).filter { $0.value.arrayValue.map { !$0.isEmpty } ?? false }
    if !arrays.isEmpty {
      let target = arrays[Int(rng.next() % UInt64(arrays.count))]
      let items = target.value.arrayValue!
      let first = PrefValue.string("inserted first")
      let last = PrefValue.string("appended last")
      cases.append(
        Case(
          category: .disjoint, label: "insertions at both ends of \(target.path.joined(separator: "."))", base: base,
          current: try base.setting(.array([first] + items), at: target.path),
          other: try base.setting(.array(items + [last]), at: target.path),
          expected: try base.setting(.array([first] + items + [last]), at: target.path)))
      let mine = PrefValue.string("appended here")
      let theirs = PrefValue.string("appended there")
      cases.append(
        Case(
          category: .appends, label: "both append to \(target.path.joined(separator: "."))", base: base,
          current: try base.setting(.array(items + [mine]), at: target.path),
          other: try base.setting(.array(items + [theirs]), at: target.path),
          expected: try base.setting(.array(items + [mine, theirs]), at: target.path)))
    }
    // Disjoint: two neighbouring keys of one dictionary, each changed on one side.
    let pairs = CorpusEdits.nodes(base).compactMap { node -> (path: [String], a: String, b: String)? in
      guard let dict = node.value.dictionaryValue else { return nil }
      let entries = Array(dict)
      for k in entries.indices.dropLast()
      where entries[k].value.dictionaryValue == nil && entries[k].value.arrayValue == nil
        && entries[k + 1].value.dictionaryValue == nil && entries[k + 1].value.arrayValue == nil
      {
        return (node.path, entries[k].key, entries[k + 1].key)
      }
      return nil
    }
    if !pairs.isEmpty {
      let pair = pairs[Int(rng.next() % UInt64(pairs.count))]
      let (pa, pb) = (pair.path + [pair.a], pair.path + [pair.b])
      let one = try base.setting(CorpusEdits.changedScalar(base.value(at: pa)), at: pa)
      let two = try base.setting(CorpusEdits.changedScalar(base.value(at: pb)), at: pb)
      cases.append(
        Case(
          category: .neighbours, label: "neighbours \(pa.joined(separator: ".")) and \(pair.b)", base: base,
          current: one, other: two, expected: try one.setting(two.value(at: pb), at: pb)))
    }
    // Overlapping: one scalar changed two ways, and removed on one side and changed on the other.
    let scalars = CorpusEdits.nodes(base).filter {
      !$0.path.isEmpty && $0.value.arrayValue == nil && $0.value.dictionaryValue == nil
    }
    if !scalars.isEmpty {
      let target = scalars[Int(rng.next() % UInt64(scalars.count))]
      let at = keyPath(target.path, in: base).description
      let changed = try base.setting(CorpusEdits.changedScalar(target.value), at: target.path)
      let retyped = try base.setting(CorpusEdits.otherType(target.value), at: target.path)
      cases.append(
        Case(
          category: .overlapping, label: "both change \(at)", base: base, current: changed, other: retyped,
          conflictAt: at))
      cases.append(
        Case(
          category: .overlapping, label: "removed and changed \(at)", base: base,
          current: try base.removing(at: target.path), other: changed,
          conflictAt: at))
      cases.append(
        Case(
          category: .disjoint, label: "the same change at \(at)", base: base, current: changed, other: changed,
          expected: changed))
    }
    return cases
  }

  /// Tallies of one merger over the cases.
  struct Tally: CustomStringConvertible {
    var cases = 0
    var right = 0
    var conflicted = 0
    var broken = 0
    var wrong = 0
    var description: String {
      func share(_ n: Int) -> String {
        cases == 0 ? "0" : String(format: "%d (%.0f%%)", n, Double(n) * 100 / Double(cases))
      }
      return
        "\(cases) cases: right \(share(right)), conflicts \(share(conflicted)), broken \(share(broken)), wrong \(share(wrong))"
    }
  }

  /// The corpus is merged in this many parts, one test case each, so that they run side by side.
  static let shards = 3

  @Test(.enabled(if: CorpusEdits.corpus != nil, "the corpus at ../shared/corpus is absent"), arguments: 0..<shards)
  func seededMergesOfTheCorporaMergeDisjointEditsAndConflictOverlappingOnes(shard: Int) throws {
    let documents = CorpusEdits.documents(includingYAMLTestSuite: false, includingOpenStep: false)
    #expect(documents.count > 100, "only \(documents.count) corpus documents read")
    let git = TestSupport.executable(named: "git")
    if git == nil { print("note: git is not installed; the git merge-file comparison is skipped") }
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }

    var values: [(name: String, value: PrefValue, document: (data: Data, format: Format)?)] = documents.map {
      ($0.name, try! $0.format.codec.read($0.data, options: ReadOptions(), warnings: Warnings()), ($0.data, $0.format))
    }
    // Xcode projects merge as values (their OpenStep text is read by Foundation).
    for url in TestSupport.files(in: CorpusEdits.corpus!.appendingPathComponent("xcode"))
    where url.pathExtension == "pbxproj" {
      let data = try Data(contentsOf: url)
      values.append(("/xcode/" + url.lastPathComponent, try Format.read(data, path: url.path).value, nil))
    }

    var prefsTally: [Category: Tally] = [:]
    var textTally: [Category: Tally] = [:]
    var gitTally: [String: [Category: Tally]] = [:]
    var markedLines = 0
    var regions = 0
    for (index, entry) in values.enumerated() where index % Self.shards == shard {
      for test in try Self.cases(entry.value, seed: UInt64(index) * 7919) {
        let label = "\(entry.name): \(test.label)"
        let isDisjoint = test.expected != nil
        // The library merge.
        let result = ThreeWayMerge.merge(base: test.base, current: test.current, other: test.other)
        var ok: Bool
        if let expected = test.expected {
          ok = result.conflicts.isEmpty && result.value == expected
          #expect(result.conflicts.isEmpty, "\(label): conflicts at \(result.conflicts.map(\.location))")
          #expect(result.value == expected, "\(label): merged into another value")
        } else {
          ok = result.conflicts.map(\.location) == [test.conflictAt!]
          #expect(ok, "\(label): conflicts at \(result.conflicts.map(\.location))")
          // Nothing is lost: each side's value is the merge with every conflict settled its way.
          #expect(result.value == test.current, "\(label): CURRENT's value is not kept at the conflict")
          #expect(
            result.value.resolving(result.conflicts, to: .other) == test.other, "\(label): OTHER's change is lost")
        }
        prefsTally[test.category, default: Tally()].cases += 1
        if isDisjoint {
          if ok {
            prefsTally[test.category]!.right += 1
          } else if result.conflicts.isEmpty {
            prefsTally[test.category]!.wrong += 1
          } else {
            prefsTally[test.category]!.conflicted += 1
          }
        } else {
          if ok { prefsTally[test.category]!.conflicted += 1 } else { prefsTally[test.category]!.wrong += 1 }
        }

        // The text merge: each side is the base text patched by one edit, as a user's edit would be.
        guard let (data, format) = entry.document,
          let baseDocument = try TextDocument(data, format: format)
        else { continue }
        let currentText = try baseDocument.patched(to: test.current).data
        let otherText = try baseDocument.patched(to: test.other).data
        guard let currentDocument = try TextDocument(currentText, format: format),
          currentDocument.value == test.current
        else { continue }
        let marked = try ConflictMarkers.text(of: currentDocument, merged: result)
        let sides = MergeTests.sides(marked.data)
        textTally[test.category, default: Tally()].cases += 1
        if isDisjoint {
          let reads = try currentDocument.readsBack(marked.data, as: test.expected!)
          #expect(marked.regions == 0 && reads, "\(label): the merged text is not the expected value")
          if marked.regions == 0 && reads {
            textTally[test.category]!.right += 1
          } else {
            textTally[test.category]!.wrong += 1
          }
        } else {
          // Markers stand on lines of their own: a last line without a line end gets one.
          let keepsCurrent =
            sides.current == currentText || (currentText.last != 0x0A && sides.current == currentText + [0x0A])
          let readsOther = try currentDocument.readsBack(sides.other, as: test.other)
          #expect(marked.regions == 1, "\(label): \(marked.regions) marked regions")
          #expect(keepsCurrent, "\(label): taking CURRENT's side does not give CURRENT's text")
          #expect(readsOther, "\(label): taking OTHER's side does not read as OTHER's value")
          if marked.regions == 1 && keepsCurrent && readsOther {
            textTally[test.category]!.conflicted += 1
          } else {
            textTally[test.category]!.wrong += 1
          }
          regions += marked.regions
          markedLines += CorpusEdits.lines(marked.data).count - CorpusEdits.lines(currentText).count
        }

        // git merge-file on the same three texts.
        guard let git else { continue }
        let paths = ["current", "base", "other"].map { folder.appendingPathComponent($0).path }
        for (path, bytes) in zip(paths, [currentText, data, otherText]) {
          try bytes.write(to: URL(fileURLWithPath: path))
        }
        let run = try TestSupport.run(git, ["merge-file", "-p"] + paths)
        var tally = gitTally[format.name, default: [:]][test.category, default: Tally()]
        let expected = test.expected
        let merged = try? format.codec.read(Data(run.stdout.utf8), options: ReadOptions(), warnings: Warnings())
        tally.cases += 1
        if run.status != 0 {
          tally.conflicted += 1
        } else if merged == nil {
          tally.broken += 1
        } else if let expected, try currentDocument.readsBack(Data(run.stdout.utf8), as: expected) {
          tally.right += 1
        } else {
          tally.wrong += 1
        }
        gitTally[format.name, default: [:]][test.category] = tally
      }
    }
    // One print for the part: the parts run side by side.
    var report = [
      "merge corpus, part \(shard + 1) of \(Self.shards): one in \(Self.shards) of \(values.count) documents"
        + " (overlapping edits must conflict; a clean merge of them is wrong)"
    ]
    for category in Category.allCases {
      report.append("  \(category.rawValue):")
      report.append("    prefs, values: \(prefsTally[category] ?? Tally())")
      report.append("    prefs, text files: \(textTally[category] ?? Tally())")
      for (format, tallies) in gitTally.sorted(by: { $0.key < $1.key }) {
        report.append("    git merge-file, \(format): \(tallies[category] ?? Tally())")
      }
    }
    report.append("  conflict markers: \(markedLines) lines of markers and OTHER's text for \(regions) regions")
    print(report.joined(separator: "\n"))
    #expect((prefsTally[.disjoint]?.cases ?? 0) > 200 / Self.shards)
    #expect((prefsTally[.overlapping]?.cases ?? 0) > 200 / Self.shards)
  }
}

/// Xcode projects: objects keyed by identifier merge as a dictionary, children and
/// file lists as arrays.
@Suite struct XcodeProjectMergeTests {
  /// A project with one more Swift file: its file reference in the first group that
  /// holds Swift files, and its build file in the first Sources phase.
  static func addingFile(_ name: String, id: String, to project: PrefValue) throws -> PrefValue {
    var objects = try #require(project.dictionaryValue?["objects"]?.dictionaryValue)
    let group = try #require(
      objects.first { entry in
        entry.value.dictionaryValue?["isa"] == .string("PBXGroup")
          && (entry.value.dictionaryValue?["children"]?.arrayValue ?? []).contains { child in
            child.stringValue.flatMap { objects[$0]?.dictionaryValue?["path"]?.stringValue }?.hasSuffix(".swift")
              ?? false
          }
      }?.key)
    let phase = try #require(
      objects.first { $0.value.dictionaryValue?["isa"] == .string("PBXSourcesBuildPhase") }?.key)
    let fileID = id + "0000000000000001"
    let buildID = id + "0000000000000002"
    objects[fileID] = [
      "isa": .string("PBXFileReference"), "lastKnownFileType": .string("sourcecode.swift"), "path": .string(name),
      "sourceTree": .string("<group>"),
    ]
    objects[buildID] = ["isa": .string("PBXBuildFile"), "fileRef": .string(fileID)]
    var groupValue = objects[group]!.dictionaryValue!
    groupValue["children"] = .array(groupValue["children"]!.arrayValue! + [.string(fileID)])
    objects[group] = .dictionary(groupValue)
    var phaseValue = objects[phase]!.dictionaryValue!
    phaseValue["files"] = .array(phaseValue["files"]!.arrayValue! + [.string(buildID)])
    objects[phase] = .dictionary(phaseValue)
    var root = project.dictionaryValue!
    root["objects"] = .dictionary(objects)
    return .dictionary(root)
  }

  static func projects() -> [URL] {
    guard let corpus = CorpusEdits.corpus else { return [] }
    return TestSupport.files(in: corpus.appendingPathComponent("xcode")).filter { $0.pathExtension == "pbxproj" }
  }

  @Test(.enabled(if: CorpusEdits.corpus != nil, "the corpus at ../shared/corpus is absent"))
  func twoBranchesEachAddingAFileToOneGroupMergeCleanly() throws {
    #expect(Self.projects().count >= 5)
    for url in Self.projects() {
      let base = try Format.read(Data(contentsOf: url), path: url.path)
      #expect(base.format == .openStep)
      let current = try Self.addingFile("Mine.swift", id: "AAAAAAAA", to: base.value)
      let other = try Self.addingFile("Theirs.swift", id: "BBBBBBBB", to: base.value)
      let result = ThreeWayMerge.merge(base: base.value, current: current, other: other)
      #expect(result.conflicts.isEmpty, "\(url.lastPathComponent): \(result.conflicts.map(\.location))")
      // Both files, each once, in the group and the build phase: CURRENT's then OTHER's.
      let both = try Self.addingFile("Theirs.swift", id: "BBBBBBBB", to: current)
      #expect(result.value == both, "\(url.lastPathComponent)")
    }
  }

  @Test(.enabled(if: CorpusEdits.corpus != nil, "the corpus at ../shared/corpus is absent"))
  func oneObjectChangedTwoWaysConflictsAtItsKeyPath() throws {
    let url = try #require(Self.projects().first)
    let base = try Format.read(Data(contentsOf: url), path: url.path).value
    let objects = try #require(base.dictionaryValue?["objects"]?.dictionaryValue)
    let (id, _) = try #require(objects.first { $0.value.dictionaryValue?["isa"] == .string("PBXFileReference") })
    let current = try base.setting(.string("A.swift"), at: ["objects", id, "path"])
    let other = try base.setting(.string("B.swift"), at: ["objects", id, "path"])
    let result = ThreeWayMerge.merge(base: base, current: current, other: other)
    #expect(result.conflicts.map(\.location) == ["objects.\(id).path"])
  }

  // MARK: Xcode projects

  /// The merge by value an outcome holds; nil for a line merge.
  static func byValue(_ outcome: FileMerge.Outcome) -> FileMerge.Merged? {
    if case .merged(let merged) = outcome { return merged }
    return nil
  }

  /// A project with one group and one sources phase, and `files` (ID, name) in both.
  static func project(_ files: [(String, String)]) -> PrefValue {
    var objects: PrefDictionary = [
      "G": .dictionary(["isa": "PBXGroup", "children": .array(files.map { .string($0.0) }), "sourceTree": "<group>"]),
      "S": .dictionary(["isa": "PBXSourcesBuildPhase", "files": .array(files.map { .string("B" + $0.0) })]),
    ]
    for (id, name) in files {
      objects[id] = .dictionary(["isa": "PBXFileReference", "path": .string(name), "sourceTree": "<group>"])
      objects["B" + id] = .dictionary(["isa": "PBXBuildFile", "fileRef": .string(id)])
    }
    return .dictionary(["archiveVersion": "1", "objects": .dictionary(objects), "rootObject": "G"])
  }

  @Test func projectListsKeepWhatBothSidesInsertedAtOnePlaceCurrentsFirst() throws {
    let base = Self.project([("F1", "a.swift"), ("F9", "z.swift")])
    let current = Self.project([("F1", "a.swift"), ("F2", "b.swift"), ("F9", "z.swift")])
    let other = Self.project([("F1", "a.swift"), ("F3", "c.swift"), ("F9", "z.swift")])
    let result = try FileMerge.merge(
      current: .init(try Format.openStep.codec.encode(current), path: "p.pbxproj", name: "current"),
      base: .init(try Format.openStep.codec.encode(base), path: "p.pbxproj", name: "base"),
      other: .init(try Format.openStep.codec.encode(other), path: "p.pbxproj", name: "other"))
    let merged = try #require(Self.byValue(result))
    #expect(merged.result.conflicts.isEmpty)
    #expect(try merged.result.value.value(at: ["objects", "G", "children"]) == ["F1", "F2", "F3", "F9"])
    #expect(try merged.result.value.value(at: ["objects", "S", "files"]) == ["BF1", "BF2", "BF3", "BF9"])
  }

  @Test func oneFileAddedByBothSidesUnderTheirOwnIDsConflictsInEachList() throws {
    let base = Self.project([("F1", "a.swift")])
    let current = Self.project([("F1", "a.swift"), ("F2", "new.swift")])
    let other = Self.project([("F1", "a.swift"), ("F3", "new.swift")])
    let result = try FileMerge.merge(
      current: .init(try Format.openStep.codec.encode(current), path: "p.pbxproj", name: "current"),
      base: .init(try Format.openStep.codec.encode(base), path: "p.pbxproj", name: "base"),
      other: .init(try Format.openStep.codec.encode(other), path: "p.pbxproj", name: "other"))
    let merged = try #require(Self.byValue(result))
    #expect(merged.result.conflicts.map(\.path.description) == ["objects.G.children", "objects.S.files"])
    #expect(merged.result.conflicts.allSatisfy { $0.reason != nil })
    #expect(merged.hasMarkers)
    // The merged value keeps CURRENT's lists; OTHER's side resolves to OTHER's.
    #expect(try merged.result.value.value(at: ["objects", "G", "children"]) == ["F1", "F2"])
    let theirs = merged.result.value.resolving(merged.result.conflicts, to: .other)
    #expect(try theirs.value(at: ["objects", "G", "children"]) == ["F1", "F3"])
    // Two different files added at one place stay a clean merge.
    let different = Self.project([("F1", "a.swift"), ("F3", "other.swift")])
    let clean = try FileMerge.merge(
      current: .init(try Format.openStep.codec.encode(current), path: "p.pbxproj", name: "current"),
      base: .init(try Format.openStep.codec.encode(base), path: "p.pbxproj", name: "base"),
      other: .init(try Format.openStep.codec.encode(different), path: "p.pbxproj", name: "other"))
    let cleanMerge = try #require(Self.byValue(clean))
    #expect(cleanMerge.result.conflicts.isEmpty)
  }
}

// MARK: Data holding structure

extension MergeTests {
  static let expanding = ThreeWayMerge.Options(expandData: true)
  /// Items as a plain `JSONEncoder` writes them: compact, slashes escaped.
  static func items(_ first: String, _ second: String, extra: String = "") -> PrefValue {
    let text = #"[{"id":"a","name":"\#(first)","url":"x\/y"},{"id":"b","name":"\#(second)"}\#(extra)]"#
    return ["items": .data(Data(text.utf8)), "v": 1]
  }

  static func text(_ value: PrefValue?) -> String {
    guard case .data(let data)? = value else { return "" }
    return String(decoding: data, as: UTF8.self)
  }

  @Test func dataBothSidesChangedMergesAsItsStructure() throws {
    let result = Self.merge(
      Self.items("Milk", "Bread"), Self.items("Milk \\/ eggs", "Bread"), Self.items("Milk", "Rye"),
      options: Self.expanding)
    #expect(result.conflicts.isEmpty)
    // CURRENT's text, changed where OTHER changed it: its escaping and key order kept.
    #expect(
      Self.text(result.value.dictionaryValue?["items"])
        == #"[{"id":"a","name":"Milk \/ eggs","url":"x\/y"},{"id":"b","name":"Rye"}]"#)
    // Without the option it conflicts as one value.
    let whole = Self.merge(Self.items("Milk", "Bread"), Self.items("Milk \\/ eggs", "Bread"), Self.items("Milk", "Rye"))
    #expect(whole.conflicts.map(\.path) == [PrefKeyPath([.key("items")])])
    #expect(whole.conflicts.first?.embedded == [])
  }

  @Test func itemsAddedOnBothSidesMergeByIdentity() {
    let result = Self.merge(
      Self.items("Milk", "Bread"), Self.items("Milk", "Bread", extra: #",{"id":"c","name":"Tea"}"#),
      Self.items("Milk", "Bread", extra: #",{"id":"d","name":"Jam"}"#), options: Self.expanding)
    #expect(result.conflicts.isEmpty)
    #expect(
      Self.text(result.value.dictionaryValue?["items"])
        == #"[{"id":"a","name":"Milk","url":"x\/y"},{"id":"b","name":"Bread"},{"id":"c","name":"Tea"},"#
        + #"{"id":"d","name":"Jam"}]"#)
  }

  @Test func theSameItemChangedTwiceIsOneConflictOfTheDataNamingThePathInside() throws {
    let base = Self.items("Milk", "Bread")
    let current = Self.items("Food", "Bread", extra: #",{"id":"c","name":"Tea"}"#)
    let other = Self.items("Shopping", "Rye")
    let result = Self.merge(base, current, other, options: Self.expanding)
    let conflict = try #require(result.conflicts.first)
    #expect(result.conflicts.count == 1)
    #expect(conflict.path == PrefKeyPath([.key("items")]))
    #expect(
      conflict.embedded.map(\.path) == [PrefKeyPath([.key("items"), .index(0), .key("name")])])
    #expect(conflict.reported.map(\.location) == ["items.0.name"])
    #expect(conflict.embedded.first?.current == "Food")
    #expect(conflict.embedded.first?.other == "Shopping")
    // Each side is the merge with its own values at the conflict: both keep what merged cleanly.
    #expect(
      Self.text(conflict.current)
        == #"[{"id":"a","name":"Food","url":"x\/y"},{"id":"b","name":"Rye"},{"id":"c","name":"Tea"}]"#)
    #expect(
      Self.text(conflict.other)
        == #"[{"id":"a","name":"Shopping","url":"x\/y"},{"id":"b","name":"Rye"},{"id":"c","name":"Tea"}]"#)
    #expect(result.value.dictionaryValue?["items"] == conflict.current)
    #expect(result.value.resolving(result.conflicts, to: .other).dictionaryValue?["items"] == conflict.other)
  }

  @Test func dataOnlyOneSideChangedKeepsThatSidesBytes() {
    let spaced = PrefValue.dictionary(["items": .data(Data(#"[ {"id": "a"} ]"#.utf8))])
    let result = Self.merge(Self.items("Milk", "Bread"), Self.items("Milk", "Bread"), spaced, options: Self.expanding)
    #expect(result.value == spaced)
  }

  @Test(arguments: [
    (#"[{"id":"a","name":"M"#, "for OTHER's stays data: it is not valid JSON"),
    ("plist", "for the sides hold JSON and a binary plist"),
  ])
  func dataThatCannotMergeAsStructureConflictsWholeSayingWhy(other: String, reason: String) throws {
    let otherData = other == "plist" ? try Format.binary.codec.encode(.array([])) : Data(other.utf8)
    let result = Self.merge(
      Self.items("Milk", "Bread"), Self.items("Food", "Bread"), ["items": .data(otherData), "v": 1],
      options: Self.expanding)
    #expect(result.conflicts.count == 1)
    #expect(result.conflicts.first?.reason?.hasPrefix("the data is merged whole, \(reason)") == true)
  }
}
