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

  @Test func pastTheTableLimitTheEndsStayAndTheMiddlePairsByPosition() throws {
    // 2,500 items with the 6th and the 6th from last changed: the middle is 2,490 by
    // 2,590 after the common ends, more cells than the table may have.
    let old = Array(0..<2_500)
    var new = old
    new[5] = -1
    new[2_494] = -2
    new.insert(contentsOf: (0..<100).map { -10 - $0 }, at: 1_000)
    try #require((old.count - 10) * (new.count - 10) > ArrayAlignment.maximumCells)
    let steps = ArrayAlignment.align(old, new)
    #expect(Self.problem(steps, old, new) == nil)
    #expect(steps.prefix(5) == ArraySlice((0..<5).map { Step.same($0, $0) }))
    #expect(steps.suffix(5) == ArraySlice((0..<5).map { Step.same(2_495 + $0, 2_595 + $0) }))
    let middle = steps.dropFirst(5).dropLast(5)
    #expect(middle.prefix(2_490) == ArraySlice((5..<2_495).map { Step.changed($0, $0) }))
    #expect(middle.dropFirst(2_490) == ArraySlice((2_495..<2_595).map { Step.inserted($0) }))
  }
}
