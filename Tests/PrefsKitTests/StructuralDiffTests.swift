import Foundation
import PrefsKit
import PrefsTutorial
import Testing

@testable import PrefsFormats
@testable import PrefsOperations

/// The value diff behind `prefs diff`: type-strict, by key, and arrays lined up as
/// merge lines them up.
@Suite struct StructuralDiffTests {
  func payload(_ id: String, _ size: Int) -> PrefValue {
    ["PayloadIdentifier": .string(id), "size": .integer(Int64(size))]
  }

  @Test func aTypeChangeIsAChangeAndKeysComeInCodePointOrder() {
    let changes = StructuralDiff.changes(from: ["b": "1", "a": 1], to: ["b": 1, "a": 1.0, "c": .null])
    #expect(changes.map(\.path.description) == ["a", "b", "c"])
    #expect(changes.map(\.kind) == [.changed, .changed, .added])
    #expect(changes.allSatisfy { $0.kind == .added || $0.changesType })
  }

  @Test func removingOneItemIsOneChange() {
    let changes = StructuralDiff.changes(from: .array(["a", "b", "c"]), to: .array(["a", "c"]))
    #expect(changes == [PrefChange(kind: .removed, path: PrefKeyPath().appending(index: 1), old: "b", new: nil)])
  }

  /// A profile's payloads reordered and one of them changed: lined up by their
  /// identity, the change shows as the one setting that changed, at the payload's new
  /// place, not as every field of two payloads.
  @Test func itemsWithAnIdentityAreLinedUpByIt() {
    let old: PrefValue = ["PayloadContent": .array([payload("dock", 40), payload("finder", 1), payload("mail", 2)])]
    let new: PrefValue = ["PayloadContent": .array([payload("finder", 1), payload("mail", 3), payload("dock", 40)])]
    let changes = StructuralDiff.changes(from: old, to: new)
    let content = PrefKeyPath().appending(key: "PayloadContent")
    #expect(
      changes == [
        PrefChange(kind: .removed, path: content.appending(index: 0), old: payload("dock", 40), new: nil),
        PrefChange(
          kind: .changed, path: content.appending(index: 1).appending(key: "size"), old: .integer(2), new: .integer(3)),
        PrefChange(kind: .added, path: content.appending(index: 2), old: nil, new: payload("dock", 40)),
      ])
  }

  /// An item whose identity changed in place is the same item renamed, as in merge.
  @Test func anIdentityChangedInPlaceIsAChangeOfThatField() {
    let changes = StructuralDiff.changes(
      from: .array([["id": 1, "v": "a"], ["id": 2, "v": "b"]]),
      to: .array([["id": 1, "v": "a"], ["id": 9, "v": "b"]]))
    #expect(changes.map(\.path.description) == ["1.id"])
    #expect(changes.first?.kind == .changed)
  }

  // MARK: Data expanded

  static let items = [
    Item(id: UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!, name: "Groceries", description: "a / b"),
    Item(id: UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!, name: "Café", description: ""),
  ]

  /// The tutorial's blob, as its store writes it, with `items` renamed as given.
  func itemsBlob(renaming names: [Int: String] = [:], encoder: JSONEncoder = ItemStore<Item>.encoder) throws
    -> PrefValue
  {
    var items = Self.items
    for (index, name) in names { items[index].name = name }
    return .data(try encoder.encode(items))
  }

  let itemsPath = PrefKeyPath().appending(key: "items")

  @Test func blobsAreComparedByStructureWhenDataIsExpanded() throws {
    let old: PrefValue = ["items": try itemsBlob()]
    let new: PrefValue = ["items": try itemsBlob(renaming: [1: "Bistro"])]
    #expect(StructuralDiff.changes(from: old, to: new).map(\.path) == [itemsPath])
    let changes = StructuralDiff.changes(from: old, to: new, expandingData: true)
    #expect(
      changes == [
        PrefChange(
          kind: .changed, path: itemsPath.appending(index: 1).appending(key: "name"), old: "Café", new: "Bistro")
      ])
  }

  /// A plain `JSONEncoder` escapes `/` as `\/`; a pretty-printing one adds spacing.
  /// Either compares by structure with the compact blob, and the same structure in
  /// other bytes is one change of the data, never none.
  @Test(arguments: [JSONEncoder.OutputFormatting(), [.prettyPrinted, .sortedKeys]])
  func blobsInAnySpacingOrEscapingCompareByStructure(formatting: JSONEncoder.OutputFormatting) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = formatting
    let old: PrefValue = ["items": try itemsBlob()]
    let renamed: PrefValue = ["items": try itemsBlob(renaming: [0: "Shopping"], encoder: encoder)]
    #expect(
      StructuralDiff.changes(from: old, to: renamed, expandingData: true).map(\.path)
        == [itemsPath.appending(index: 0).appending(key: "name")])
    let respaced: PrefValue = ["items": try itemsBlob(encoder: encoder)]
    #expect(StructuralDiff.changes(from: old, to: respaced, expandingData: true).map(\.path) == [itemsPath])
  }

  @Test func aBlobOnOneSideOnlyOrOfAnotherKindIsOneChangeOfTheData() throws {
    let json = PrefValue.data(Data(#"{"a":1}"#.utf8))
    let plist = PrefValue.data(try Format.binary.codec.encode(["a": 1]))
    let image = PrefValue.data(Data([0x89, 0x50, 0x4E, 0x47]))
    for (old, new) in [(json, plist), (json, image), (image, json), (json, PrefValue.string(#"{"a":1}"#))] {
      let changes = StructuralDiff.changes(from: ["k": old], to: ["k": new], expandingData: true)
      #expect(changes == [PrefChange(kind: .changed, path: PrefKeyPath().appending(key: "k"), old: old, new: new)])
    }
  }

  @Test func aChangedBlobThatOnlyLooksLikeJSONIsAWarningOfItsSide() throws {
    let broken = Data("{not json".utf8)
    let reason = try #require(EmbeddedData.inspect(broken).leftAsDataReason)
    let warnings = (old: Warnings(), new: Warnings())
    let changes = StructuralDiff.changes(
      from: ["k": .data(Data("[1]".utf8))], to: ["k": .data(broken)], expandingData: true, warnings: warnings)
    #expect(changes.map(\.kind) == [.changed])
    #expect(warnings.old.all.isEmpty)
    #expect(warnings.new.all == [EmbeddedData.leftAsDataWarning(at: PrefKeyPath().appending(key: "k"), reason)])
  }

  @Test func aBlobInsideABlobAndStreamsAreComparedByStructureToo() throws {
    func outer(_ name: String) throws -> PrefValue {
      .data(try Format.binary.codec.encode(["inner": .data(Data(#"{"name":"\#(name)"}"#.utf8))]))
    }
    let changes = StructuralDiff.changes(
      fromDocuments: [["k": try outer("a")], ["k": 1]], to: [["k": try outer("b")], ["k": 1]],
      expandingData: true)
    #expect(changes.map(\.document) == ["[0]"])
    #expect(changes.map(\.change.path.description) == ["k.inner.name"])
  }
}
