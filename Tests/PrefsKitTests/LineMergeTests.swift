import Testing

@testable import PrefsText

/// The three-way merge of lines a merge by value starts from.
@Suite struct LineMergeTests {
  func merge(_ base: String, _ current: String, _ other: String) -> (text: String, conflicts: Int) {
    let merged = LineMerge.merged(base: Array(base.utf8), current: Array(current.utf8), other: Array(other.utf8))
    return (String(decoding: merged.text, as: UTF8.self), merged.conflicts)
  }

  @Test func changesOfSeparateStretchesBothComeOver() {
    let merged = merge("a\nb\nc\nd\n", "A\nb\nc\nd\n", "a\nb\nc\n// d\nd\n")
    #expect(merged.text == "A\nb\nc\n// d\nd\n")
    #expect(merged.conflicts == 0)
  }

  @Test func aStretchBothChangedDifferentlyKeepsCurrentsLinesAndCounts() {
    let merged = merge("a\nb\nc\n", "a\nmine\nc\n", "a\ntheirs\nc\nnew\n")
    #expect(merged.text == "a\nmine\nc\nnew\n")
    #expect(merged.conflicts == 1)
  }

  @Test func changesThatTouchConflictAsGitsDo() {
    // OTHER inserts right after the line CURRENT changed: no unchanged line between.
    let merged = merge("a\nb\nc\n", "a\nB\nc\n", "a\nb\nnew\nc\n")
    #expect(merged.text == "a\nB\nc\n")
    #expect(merged.conflicts == 1)
  }

  @Test func theSameChangeOnBothSidesIsNoConflict() {
    let merged = merge("a\nb\n", "a\nB\nc", "a\nB\nc")
    #expect(merged.text == "a\nB\nc")
    #expect(merged.conflicts == 0)
  }

  @Test func lineEndsAndALastLineWithoutOneAreKept() {
    let merged = merge("a\r\nb\r\nc", "x\r\nb\r\nc", "a\r\nb\r\nz")
    #expect(merged.text == "x\r\nb\r\nz")
    #expect(merged.conflicts == 0)
  }
}
