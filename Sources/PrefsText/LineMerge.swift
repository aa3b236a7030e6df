/// A three-way merge of lines, as `diff3` and git's line merge make it: both sides'
/// changes are lined up against the base by the one sequence diff, a stretch only one
/// side changed takes that side's lines, and a stretch both changed differently is a
/// conflict. Lines keep their line breaks, so a merged text is made of the sides'
/// own bytes: what a side wrote (comments, quoting, blank lines, its place for a new
/// entry) comes over as it wrote it.
package enum LineMerge {
  /// The merged text, with CURRENT's lines kept wherever both sides changed a stretch
  /// differently, and how many such stretches there were.
  package static func merged(base: [UInt8], current: [UInt8], other: [UInt8]) -> (text: [UInt8], conflicts: Int) {
    let baseLines = lines(of: base)
    let currentLines = lines(of: current)
    let otherLines = lines(of: other)
    // Lines as small integers: the diff compares them many times.
    var ids: [ArraySlice<UInt8>: Int] = [:]
    func numbered(_ lines: [ArraySlice<UInt8>]) -> [Int] {
      lines.map { line in
        if let known = ids[line] { return known }
        ids[line] = ids.count
        return ids.count - 1
      }
    }
    let baseIDs = numbered(baseLines)
    let currentIDs = numbered(currentLines)
    let otherIDs = numbered(otherLines)
    let inCurrent = matches(baseIDs, currentIDs)
    let inOther = matches(baseIDs, otherIDs)

    var out: [UInt8] = []
    out.reserveCapacity(max(current.count, other.count))
    var conflicts = 0
    var (b, c, o) = (0, 0, 0)
    // Between two base lines both sides kept, each side's stretch replaces the base's.
    func settle(_ baseEnd: Int, _ currentEnd: Int, _ otherEnd: Int) {
      let baseStretch = baseIDs[b..<baseEnd]
      let currentStretch = currentIDs[c..<currentEnd]
      let otherStretch = otherIDs[o..<otherEnd]
      let taken: Range<Int>
      var fromOther = false
      if currentStretch.elementsEqual(baseStretch) {
        taken = o..<otherEnd
        fromOther = true
      } else {
        if !otherStretch.elementsEqual(baseStretch), !otherStretch.elementsEqual(currentStretch) { conflicts += 1 }
        taken = c..<currentEnd
      }
      for line in taken { out += fromOther ? otherLines[line] : currentLines[line] }
    }
    for line in baseIDs.indices {
      guard let atCurrent = inCurrent[line], let atOther = inOther[line] else { continue }
      settle(line, atCurrent, atOther)
      out += currentLines[atCurrent]
      (b, c, o) = (line + 1, atCurrent + 1, atOther + 1)
    }
    settle(baseIDs.count, currentIDs.count, otherIDs.count)
    return (out, conflicts)
  }

  /// The lines of a text, each with its line break (the last may have none).
  static func lines(of text: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for (index, byte) in text.enumerated() where byte == 0x0A {
      lines.append(text[start...index])
      start = index + 1
    }
    if start < text.count { lines.append(text[start...]) }
    return lines
  }

  /// For each line of `base`, the line of `side` it stays as, when it stays.
  private static func matches(_ base: [Int], _ side: [Int]) -> [Int?] {
    var found = [Int?](repeating: nil, count: base.count)
    var (i, j) = (0, 0)
    for op in LineDiff.shortestScript(base, side) {
      switch op {
      case .same:
        found[i] = j
        (i, j) = (i + 1, j + 1)
      case .delete:
        i += 1
      case .insert:
        j += 1
      }
    }
    return found
  }
}
