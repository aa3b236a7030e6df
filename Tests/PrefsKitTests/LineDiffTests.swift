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

  @Test(.timeLimit(.minutes(1))) func manyScatteredChangesInALargeTextAreQuick() {
    // 20,000 lines, every 20th changed: the old search kept a frontier copy per step.
    let a = (0..<20_000).map { "key\($0): v\($0)" }
    var b = a
    for i in stride(from: 7, to: b.count, by: 20) { b[i] = "key\(i): w\(i)" }
    let script = LineDiff.editScript(a, b)
    #expect(script.count(where: { $0 == .delete }) == 1_000)
    #expect(script.count(where: { $0 == .insert }) == 1_000)
    #expect(Self.apply(script, a, b) == b)
  }
}
