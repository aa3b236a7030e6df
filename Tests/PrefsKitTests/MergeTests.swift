import Foundation
import PrefsTestSupport
import Testing

@testable import PrefsKit

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
    #expect(result.value == .array([item(3, 5), item(4, 1), item(1, 2), item(2, 1)]))
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
    // By value alone, the moved item and the renamed one clash.
    #expect(!Self.merge(base, current, other).conflicts.isEmpty)
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

  @Test func aConflictOnASharedLineMarksTheEnclosingEntry() throws {
    let (text, _, other) = try Self.marked(
      .yaml, "top:\n  list: [1, 2, 3]\nz: 0\n", "top:\n  list: [1, 5, 3]\nz: 0\n", "top:\n  list: [1, 6, 3]\nz: 0\n")
    #expect(text.contains("<<<<<<< CURRENT\n  list: [1, 5, 3]\n=======\n"))
    #expect(text.hasPrefix("top:\n<<<<<<< CURRENT\n"))
    #expect(text.hasSuffix(">>>>>>> OTHER\nz: 0\n"))
    #expect(
      try Format.yaml.codec.read(Self.sides(Data(text.utf8)).other, options: ReadOptions(), warnings: Warnings())
        == other)
    // A one-line JSON document is marked whole.
    let json = try Self.marked(.json, #"{"a": 1, "b": 2}"#, #"{"a": 5, "b": 2}"#, #"{"a": 6, "b": 2}"#)
    #expect(json.text.hasPrefix("<<<<<<< CURRENT\n{\"a\": 5, \"b\": 2}\n=======\n"))
  }
}

// Dictionaries written as literals, for the tests above.
extension PrefValue: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, PrefValue)...) {
    self = .dictionary(PrefDictionary(elements.map { (key: $0.0, value: $0.1) }))
  }
}
