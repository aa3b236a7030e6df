import PrefsTestSupport
import Testing

@testable import PrefsText

/// How two arrays line up: equal items kept, the rest removed, inserted, or changed in
/// place, in order, and sensible still where the table would be too large.
@Suite struct ArrayAlignmentTests {
  typealias Step = ArrayAlignment.Step

  /// Whether `steps` walk both arrays once, in order, with `.same` only on equal items;
  /// nil when they do, else what is wrong.
  static func problem<T: Equatable>(_ steps: [Step], _ old: [T], _ new: [T]) -> String? {
    var i = 0
    var j = 0
    for step in steps {
      switch step {
      case .same(let a, let b):
        guard a == i, b == j, old[a] == new[b] else { return "\(step) at (\(i), \(j))" }
        i += 1
        j += 1
      case .changed(let a, let b):
        guard a == i, b == j else { return "\(step) at (\(i), \(j))" }
        i += 1
        j += 1
      case .removed(let a):
        guard a == i else { return "\(step) at (\(i), \(j))" }
        i += 1
      case .inserted(let b):
        guard b == j else { return "\(step) at (\(i), \(j))" }
        j += 1
      }
    }
    return i == old.count && j == new.count ? nil : "ends at (\(i), \(j)) of (\(old.count), \(new.count))"
  }

  /// The length of a longest common subsequence, by the textbook table.
  static func lcs(_ a: [Int], _ b: [Int]) -> Int {
    var row = [Int](repeating: 0, count: b.count + 1)
    for x in a {
      var diagonal = 0
      for j in stride(from: 1, through: b.count, by: 1) {
        let above = row[j]
        row[j] = x == b[j - 1] ? diagonal + 1 : max(row[j], row[j - 1])
        diagonal = above
      }
    }
    return row[b.count]
  }

  @Test func equalArraysAreTheSameThroughout() {
    #expect(ArrayAlignment.align([1, 2, 3], [1, 2, 3]) == [.same(0, 0), .same(1, 1), .same(2, 2)])
    #expect(ArrayAlignment.align([Int](), []) == [])
  }

  @Test func anEmptySideIsAllInsertionsOrAllRemovals() {
    #expect(ArrayAlignment.align([], ["a", "b"]) == [.inserted(0), .inserted(1)])
    #expect(ArrayAlignment.align(["a", "b"], []) == [.removed(0), .removed(1)])
  }

  @Test func insertionsAndRemovalsAtEitherEndKeepTheRest() {
    #expect(ArrayAlignment.align([2, 3], [1, 2, 3]) == [.inserted(0), .same(0, 1), .same(1, 2)])
    #expect(ArrayAlignment.align([1, 2], [1, 2, 3]) == [.same(0, 0), .same(1, 1), .inserted(2)])
    #expect(ArrayAlignment.align([1, 2, 3], [2, 3]) == [.removed(0), .same(1, 0), .same(2, 1)])
    #expect(ArrayAlignment.align([1, 2, 3], [1, 2]) == [.same(0, 0), .same(1, 1), .removed(2)])
  }

  @Test func aRemovalAndAnInsertionAtOnePlacePairAsAChange() {
    #expect(ArrayAlignment.align([1, 2, 3], [1, 9, 3]) == [.same(0, 0), .changed(1, 1), .same(2, 2)])
    // Pairs in order; what is left over stays a removal or an insertion.
    #expect(
      ArrayAlignment.align([1, 2, 3, 4], [1, 8, 9, 7, 4]) == [
        .same(0, 0), .changed(1, 1), .changed(2, 2), .inserted(3), .same(3, 4),
      ])
  }

  @Test func aMovedItemIsRemovedWhereItWasAndInsertedWhereItGoes() {
    #expect(ArrayAlignment.align([1, 2, 3], [2, 3, 1]) == [.removed(0), .same(1, 0), .same(2, 1), .inserted(2)])
    #expect(ArrayAlignment.align([1, 2, 3], [3, 1, 2]) == [.inserted(0), .same(0, 1), .same(1, 2), .removed(2)])
  }

  @Test func alignmentsKeepALongestCommonSubsequence() {
    var generator = SeededGenerator(state: 5)
    for round in 0..<1_000 {
      let a = (0..<Int.random(in: 0...12, using: &generator)).map { _ in Int.random(in: 0...3, using: &generator) }
      let b = (0..<Int.random(in: 0...12, using: &generator)).map { _ in Int.random(in: 0...3, using: &generator) }
      let steps = ArrayAlignment.align(a, b)
      #expect(Self.problem(steps, a, b) == nil, "round \(round): \(a) -> \(b)")
      let kept = steps.count { if case .same = $0 { true } else { false } }
      #expect(kept == Self.lcs(a, b), "round \(round): \(a) -> \(b)")
    }
  }

  @Test func largeArraysAreStillAlignedByTheirItems() throws {
    // 20,000 items with the 6th and the 6th from last changed and 100 new ones in the
    // middle: a table of common-subsequence lengths would need 4e8 cells; the one
    // sequence diff keeps every unchanged item, changes two and inserts 100.
    let old = Array(0..<20_000)
    var new = old
    new[5] = -1
    new[19_994] = -2
    new.insert(contentsOf: (0..<100).map { -10 - $0 }, at: 1_000)
    let steps = ArrayAlignment.align(old, new)
    #expect(Self.problem(steps, old, new) == nil)
    #expect(steps.count { if case .same = $0 { true } else { false } } == 19_998)
    #expect(
      steps.filter { if case .changed = $0 { true } else { false } } == [.changed(5, 5), .changed(19_994, 20_094)])
    #expect(
      steps.filter { if case .inserted = $0 { true } else { false } } == (1_000..<1_100).map { Step.inserted($0) })
  }

  @Test func changesEverywherePastTheCostCutOffStillPairInPlace() {
    // 40,000 items with one in 10 changed and one in 500 removed: more differences
    // than one search looks for, so the alignment anchors on items each side holds once.
    let old = Array(0..<40_000)
    var new = old
    for i in stride(from: 3, to: new.count, by: 10) { new[i] = -i }
    new = new.enumerated().filter { $0.offset % 500 != 7 }.map(\.element)
    let steps = ArrayAlignment.align(old, new)
    #expect(Self.problem(steps, old, new) == nil)
    #expect(steps.count { if case .changed = $0 { true } else { false } } == 4_000)
    #expect(steps.count { if case .removed = $0 { true } else { false } } == 80)
    #expect(steps.count { if case .inserted = $0 { true } else { false } } == 0)
  }

  @Test func aShuffledOrReversedArrayIsAlignedWithoutATable() {
    var generator = SeededGenerator(state: 9)
    let old = Array(0..<40_000)
    for new in [old.shuffled(using: &generator), old.reversed()] {
      let steps = ArrayAlignment.align(old, new)
      #expect(Self.problem(steps, old, new) == nil)
    }
  }

  @Test func arraysWithNothingInCommonPairByPositionAtOnce() {
    // 200,000 items against 200,000 others: more differences than the search looks
    // for, so the items pair by position (an unbounded search would take minutes).
    let old = Array(0..<200_000)
    let new = old.map { -1 - $0 }
    let steps = ArrayAlignment.align(old, new)
    #expect(Self.problem(steps, old, new) == nil)
    #expect(steps == (0..<200_000).map { Step.changed($0, $0) })
  }
}
