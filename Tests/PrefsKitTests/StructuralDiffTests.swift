import PrefsKit
import Testing

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
}
