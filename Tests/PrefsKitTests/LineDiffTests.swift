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

/// The unified diff's edit script: shortest, correct, and cheap on large inputs.
@Suite struct LineDiffTests {
  /// The length of a longest common subsequence, by the textbook table.
  static func lcs(_ a: [String], _ b: [String]) -> Int {
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

  /// `a` edited by `script`, checking that it consumes both sides exactly.
  static func apply(_ script: [LineDiff.Op], _ a: [String], _ b: [String]) -> [String]? {
    var result: [String] = []
    var i = 0
    var j = 0
    for op in script {
      switch op {
      case .same:
        guard i < a.count, j < b.count, a[i] == b[j] else { return nil }
        result.append(a[i])
        i += 1
        j += 1
      case .delete:
        guard i < a.count else { return nil }
        i += 1
      case .insert:
        guard j < b.count else { return nil }
        result.append(b[j])
        j += 1
      }
    }
    return i == a.count && j == b.count ? result : nil
  }

  @Test func scriptsAreShortestAndTurnOneTextIntoTheOther() {
    var generator = SeededGenerator(state: 11)
    for round in 0..<2_000 {
      let alphabet = ["a", "b", "c", "d"].prefix(Int.random(in: 1...4, using: &generator))
      let a = (0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
      let b = (0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
      let script = LineDiff.editScript(a, b)
      #expect(Self.apply(script, a, b) == b, "round \(round): \(a) -> \(b)")
      let edits = script.filter { $0 != .same }.count
      #expect(edits == a.count + b.count - 2 * Self.lcs(a, b), "round \(round): \(a) -> \(b)")
    }
  }

  @Test func deletionsComeBeforeInsertionsInEachChange() {
    let script = LineDiff.editScript(["k", "a", "b", "k"], ["k", "c", "d", "k"])
    #expect(script == [.same, .delete, .delete, .insert, .insert, .same])
  }

  @Test(.timeLimit(.minutes(5))) func manyScatteredChangesInALargeTextAreQuick() {
    // 20,000 lines, every 20th changed: the old search kept a frontier copy per step.
    let a = (0..<20_000).map { "key\($0): v\($0)" }
    var b = a
    for i in stride(from: 7, to: b.count, by: 20) { b[i] = "key\(i): w\(i)" }
    let script = LineDiff.editScript(a, b)
    #expect(script.count(where: { $0 == .delete }) == 1_000)
    #expect(script.count(where: { $0 == .insert }) == 1_000)
    #expect(Self.apply(script, a, b) == b)
  }

  @Test func changesEverywherePastTheCostCutOffStillKeepEveryUnchangedLine() {
    // 40,000 lines with one in 10 changed: more differences than one search looks
    // for, so the script anchors on the lines each side holds once.
    let a = (0..<40_000).map { "key\($0): v\($0)" }
    var b = a
    for i in stride(from: 3, to: b.count, by: 10) { b[i] = "key\(i): w\(i)" }
    let script = LineDiff.editScript(a, b)
    #expect(script.count(where: { $0 == .delete }) == 4_000)
    #expect(script.count(where: { $0 == .insert }) == 4_000)
    #expect(Self.apply(script, a, b) == b)
  }

  @Test func reversedShuffledAndWhollyChangedTextsGiveScriptsThatTurnOneIntoTheOther() {
    var generator = SeededGenerator(state: 22)
    let a = (0..<20_000).map { "line \($0)" }
    let cases = [
      ("reversed", Array(a.reversed())), ("shuffled", a.shuffled(using: &generator)),
      ("changed", a.map { $0 + " changed" }),
    ]
    for (name, b) in cases {
      let script = LineDiff.editScript(a, b)
      #expect(Self.apply(script, a, b) == b, "\(name)")
    }
    // A shuffle keeps the longest run of lines that stayed in order among those it anchors on.
    let shuffled = cases[1].1
    let kept = LineDiff.editScript(a, shuffled).count(where: { $0 == .same })
    #expect(kept >= 100, "a shuffle of 20,000 lines keeps a run of about 2 * sqrt(20,000) in order")
  }

  // MARK: The unified output

  static func unified(_ old: String, _ new: String, context: Int = 3) -> String {
    LineDiff.unified(old: old, new: new, oldName: "a", newName: "b", context: context)
  }

  /// Lines `l1` to `ln`, each ended by a newline.
  static func numbered(_ n: Int, changing changed: Set<Int> = []) -> String {
    (1...n).map { changed.contains($0) ? "x\($0)\n" : "l\($0)\n" }.joined()
  }

  @Test func equalTextsHaveNoDiff() {
    #expect(Self.unified("", "") == "")
    #expect(Self.unified("a\nb\n", "a\nb\n") == "")
  }

  @Test func anEmptySideIsOneHunkFromLineZero() {
    #expect(Self.unified("", "a\nb\n") == "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n")
    #expect(Self.unified("a\nb\n", "") == "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-a\n-b\n")
  }

  @Test func insertionsAndDeletionsAtEitherEnd() {
    #expect(Self.unified("b\nc\n", "a\nb\nc\n") == "--- a\n+++ b\n@@ -1,2 +1,3 @@\n+a\n b\n c\n")
    #expect(Self.unified("a\nb\n", "a\nb\nc\n") == "--- a\n+++ b\n@@ -1,2 +1,3 @@\n a\n b\n+c\n")
    #expect(Self.unified("a\nb\nc\n", "b\nc\n") == "--- a\n+++ b\n@@ -1,3 +1,2 @@\n-a\n b\n c\n")
    #expect(Self.unified("a\nb\nc\n", "a\nb\n") == "--- a\n+++ b\n@@ -1,3 +1,2 @@\n a\n b\n-c\n")
  }

  @Test func aMovedLineIsDeletedAndInserted() {
    #expect(Self.unified("a\nb\nc\n", "b\nc\na\n") == "--- a\n+++ b\n@@ -1,3 +1,3 @@\n-a\n b\n c\n+a\n")
  }

  @Test func hunksHaveThreeLinesOfContextAndHeadersCountingBothSides() {
    let diff = Self.unified(Self.numbered(20), Self.numbered(20, changing: [2, 19]))
    #expect(
      diff == """
        --- a
        +++ b
        @@ -1,5 +1,5 @@
         l1
        -l2
        +x2
         l3
         l4
         l5
        @@ -16,5 +16,5 @@
         l16
         l17
         l18
        -l19
        +x19
         l20

        """)
  }

  @Test func changesWithinTwiceTheContextShareAHunk() {
    let diff = Self.unified(Self.numbered(20), Self.numbered(20, changing: [5, 11]))
    #expect(diff.components(separatedBy: "@@ -").count == 2, "\(diff)")
    #expect(diff.contains("@@ -2,13 +2,13 @@\n l2\n"), "\(diff)")
    let apart = Self.unified(Self.numbered(20), Self.numbered(20, changing: [5, 12]))
    #expect(apart.components(separatedBy: "@@ -").count == 3, "\(apart)")
  }

  @Test func contextZeroShowsOnlyTheChangedLines() {
    #expect(
      Self.unified(Self.numbered(5), Self.numbered(5, changing: [3]), context: 0)
        == "--- a\n+++ b\n@@ -3,1 +3,1 @@\n-l3\n+x3\n")
    #expect(Self.unified("a\nc\n", "a\nb\nc\n", context: 0) == "--- a\n+++ b\n@@ -1,0 +2,1 @@\n+b\n")
  }
}
