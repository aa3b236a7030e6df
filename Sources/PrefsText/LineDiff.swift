import PrefsModel

/// A unified diff of two texts, line by line (Myers' algorithm), as `diff -u` prints it.
package enum LineDiff {
  /// The unified diff of `old` and `new` with `context` lines around each change,
  /// under `---`/`+++` headers; empty when the texts are equal.
  package static func unified(
    old: String, new: String, oldName: String, newName: String, context: Int = 3
  ) -> String {
    let a = lines(old)
    let b = lines(new)
    let script = editScript(a, b)
    guard script.contains(where: { $0 != .same }) else { return "" }

    // Walk the script, tracking positions in both texts, and group changes into hunks.
    struct Line {
      let op: Op
      let text: String
      let oldIndex: Int
      let newIndex: Int
    }
    var all: [Line] = []
    var i = 0
    var j = 0
    for op in script {
      switch op {
      case .same:
        all.append(Line(op: op, text: a[i], oldIndex: i, newIndex: j))
        i += 1
        j += 1
      case .delete:
        all.append(Line(op: op, text: a[i], oldIndex: i, newIndex: j))
        i += 1
      case .insert:
        all.append(Line(op: op, text: b[j], oldIndex: i, newIndex: j))
        j += 1
      }
    }
    var out = "--- \(oldName)\n+++ \(newName)\n"
    var k = 0
    while k < all.count {
      guard let firstChange = all[k...].firstIndex(where: { $0.op != .same }) else { break }
      let start = max(k, firstChange - context)
      var end = firstChange
      // Extend the hunk while the next change is within 2 * context lines.
      var scan = firstChange
      while scan < all.count {
        if all[scan].op != .same {
          end = scan
          scan += 1
        } else if let next = all[scan...].firstIndex(where: { $0.op != .same }), next - end <= 2 * context {
          scan = next
        } else {
          break
        }
      }
      let stop = min(all.count, end + context + 1)
      let hunk = all[start..<stop]
      let oldCount = hunk.filter { $0.op != .insert }.count
      let newCount = hunk.filter { $0.op != .delete }.count
      let oldStart = oldCount == 0 ? hunk.first!.oldIndex : hunk.first!.oldIndex + 1
      let newStart = newCount == 0 ? hunk.first!.newIndex : hunk.first!.newIndex + 1
      out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
      for line in hunk {
        out += (line.op == .same ? " " : line.op == .delete ? "-" : "+") + line.text + "\n"
      }
      k = stop
    }
    return out
  }

  enum Op: Equatable { case same, delete, insert }

  package static func lines(_ text: String) -> [String] {
    var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if result.last == "" { result.removeLast() }
    return result
  }

  /// The edit script turning `a` into `b` (`shortestScript`), with each run of
  /// changes written as its deletions, then its insertions, as `diff -u` shows them.
  static func editScript(_ a: [String], _ b: [String]) -> [Op] {
    var ops = shortestScript(a, b)
    var start = 0
    while start < ops.count {
      guard ops[start] != .same else {
        start += 1
        continue
      }
      var end = start
      var deletions = 0
      while end < ops.count, ops[end] != .same {
        if ops[end] == .delete { deletions += 1 }
        end += 1
      }
      for i in start..<end { ops[i] = i - start < deletions ? .delete : .insert }
      start = end
    }
    return ops
  }
}

extension LineDiff {
  /// The most differences one search for a shortest script looks for. A stretch that
  /// needs more is split at the items it holds once on either side, in the longest run
  /// that keeps their order (as patience diff anchors), and each part is searched on
  /// its own; what holds no such item is removed and inserted whole. So the time stays
  /// near linear in the input whatever changed, and a script with fewer differences
  /// than this is a shortest one.
  package static let maximumCost = 1 << 10

  /// How often a stretch is split at its unique items before what remains of it is
  /// removed and inserted whole: each split finds new unique items in the smaller parts.
  static let maximumSplits = 4

  /// The edit script turning `a` into `b`, for any sequence of hashable items: the one
  /// sequence diff, which lines and arrays (`ArrayAlignment`) share. It is Myers' O(ND)
  /// algorithm in its linear-space form (Myers 1986, section 4b): each step finds the
  /// middle snake of an optimal path with two frontiers and splits the problem there,
  /// so memory stays linear in the input, and time is O((N + M) D), near linear when
  /// few items change. The script is a shortest one when fewer than `maximumCost`
  /// items differ; else a shortest one in each stretch between the items that anchor it.
  static func shortestScript<Element: Hashable>(_ a: [Element], _ b: [Element]) -> [Op] {
    // Items as small integers: the search compares them many times.
    var ids: [Element: Int] = [:]
    func id(_ item: Element) -> Int {
      if let known = ids[item] { return known }
      ids[item] = ids.count
      return ids.count - 1
    }
    let a = a.map(id)
    let b = b.map(id)
    var script = MyersScript(a: a, b: b, distinctItems: ids.count)
    script.diff(aRange: 0..<a.count, bRange: 0..<b.count, splits: 0)
    return script.ops
  }
}

/// The state of one linear-space Myers search: the two sequences (as item numbers),
/// the operations found so far (in order), and the buffers every step reuses.
private struct MyersScript {
  let a: [Int]
  let b: [Int]
  var ops: [LineDiff.Op] = []
  private var forward: [Int]
  private var backward: [Int]
  /// By item number: how often it occurs in the stretch of `a` and of `b` being split,
  /// and where in `b` it was last seen. Zero outside a split.
  private var countInA: [Int]
  private var countInB: [Int]
  private var placeInB: [Int]

  init(a: [Int], b: [Int], distinctItems: Int) {
    self.a = a
    self.b = b
    ops.reserveCapacity(a.count + b.count)
    let frontier = 2 * min((a.count + b.count + 1) / 2, LineDiff.maximumCost) + 3
    forward = [Int](repeating: -1, count: frontier)
    backward = forward
    countInA = [Int](repeating: 0, count: distinctItems)
    countInB = countInA
    placeInB = countInA
  }

  /// Appends the operations turning `a[aRange]` into `b[bRange]`. Each split leaves
  /// about half the differences to either side, so recursion is about log2 D deep;
  /// `splits` counts the splits at unique items above this stretch.
  mutating func diff(aRange: Range<Int>, bRange: Range<Int>, splits: Int) {
    var aLow = aRange.lowerBound
    var aHigh = aRange.upperBound
    var bLow = bRange.lowerBound
    var bHigh = bRange.upperBound
    // A common head and tail need no search.
    while aLow < aHigh, bLow < bHigh, a[aLow] == b[bLow] {
      aLow += 1
      bLow += 1
    }
    var tail = 0
    while aHigh > aLow, bHigh > bLow, a[aHigh - 1] == b[bHigh - 1] {
      aHigh -= 1
      bHigh -= 1
      tail += 1
    }
    ops.append(contentsOf: repeatElement(.same, count: aLow - aRange.lowerBound))
    if aLow == aHigh {
      ops.append(contentsOf: repeatElement(.insert, count: bHigh - bLow))
    } else if bLow == bHigh {
      ops.append(contentsOf: repeatElement(.delete, count: aHigh - aLow))
    } else if let (x, y) = middle(aLow, aHigh, bLow, bHigh) {
      diff(aRange: aLow..<x, bRange: bLow..<y, splits: splits)
      diff(aRange: x..<aHigh, bRange: y..<bHigh, splits: splits)
    } else if splits < LineDiff.maximumSplits, case let anchors = uniqueAnchors(aLow..<aHigh, bLow..<bHigh),
      !anchors.isEmpty
    {
      var (i, j) = (aLow, bLow)
      for (x, y) in anchors {
        diff(aRange: i..<x, bRange: j..<y, splits: splits + 1)
        ops.append(.same)
        (i, j) = (x + 1, y + 1)
      }
      diff(aRange: i..<aHigh, bRange: j..<bHigh, splits: splits + 1)
    } else {
      ops.append(contentsOf: repeatElement(.delete, count: aHigh - aLow))
      ops.append(contentsOf: repeatElement(.insert, count: bHigh - bLow))
    }
    ops.append(contentsOf: repeatElement(.same, count: tail))
  }

  /// The items that occur once in `a[aRange]` and once in `b[bRange]`, as pairs of
  /// places, in the longest run whose places rise in both (patience sorting).
  private mutating func uniqueAnchors(_ aRange: Range<Int>, _ bRange: Range<Int>) -> [(Int, Int)] {
    for i in aRange { countInA[a[i]] += 1 }
    for j in bRange {
      countInB[b[j]] += 1
      placeInB[b[j]] = j
    }
    var candidates: [(Int, Int)] = []
    for i in aRange where countInA[a[i]] == 1 && countInB[a[i]] == 1 {
      candidates.append((i, placeInB[a[i]]))
    }
    for i in aRange { countInA[a[i]] = 0 }
    for j in bRange { countInB[b[j]] = 0 }
    // The longest subsequence of candidates rising in `b`: `tails[k]` is the candidate
    // ending the best run of length k + 1 found so far, `previous` links each run back.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: candidates.count)
    for (index, candidate) in candidates.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let mid = (low + high) / 2
        if candidates[tails[mid]].1 < candidate.1 { low = mid + 1 } else { high = mid }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var run: [(Int, Int)] = []
    var index = tails.last ?? -1
    while index >= 0 {
      run.append(candidates[index])
      index = previous[index]
    }
    return run.reversed()
  }

  /// A point strictly inside the box from (aLow, bLow) to (aHigh, bHigh) on a
  /// shortest path through it: the end of the forward search's snake where it first
  /// overlaps the backward search (as diff-match-patch's `diff_bisect` finds it).
  /// Diagonals whose paths leave the box are dropped from either end of the search.
  private mutating func middle(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int) -> (Int, Int)? {
    let n = aHigh - aLow
    let m = bHigh - bLow
    let maxD = min((n + m + 1) / 2, LineDiff.maximumCost)
    let offset = maxD
    let length = 2 * maxD
    for i in 0..<(length + 2) {
      forward[i] = -1
      backward[i] = -1
    }
    forward[offset + 1] = 0
    backward[offset + 1] = 0
    let delta = n - m
    // With an odd delta the forward search meets the backward one; else the reverse.
    let forwardMeets = delta & 1 != 0
    var forwardStart = 0
    var forwardEnd = 0
    var backwardStart = 0
    var backwardEnd = 0
    for d in 0..<maxD {
      var k = -d + forwardStart
      while k <= d - forwardEnd {
        let at = offset + k
        var x = k == -d || (k != d && forward[at - 1] < forward[at + 1]) ? forward[at + 1] : forward[at - 1] + 1
        var y = x - k
        while x < n, y < m, a[aLow + x] == b[bLow + y] {
          x += 1
          y += 1
        }
        forward[at] = x
        if x > n {
          forwardEnd += 2
        } else if y > m {
          forwardStart += 2
        } else if forwardMeets {
          let other = offset + delta - k
          if other >= 0, other < length, backward[other] != -1, x >= n - backward[other] {
            return (aLow + x, bLow + y)
          }
        }
        k += 2
      }
      k = -d + backwardStart
      while k <= d - backwardEnd {
        let at = offset + k
        var x =
          k == -d || (k != d && backward[at - 1] < backward[at + 1]) ? backward[at + 1] : backward[at - 1] + 1
        var y = x - k
        while x < n, y < m, a[aHigh - 1 - x] == b[bHigh - 1 - y] {
          x += 1
          y += 1
        }
        backward[at] = x
        if x > n {
          backwardEnd += 2
        } else if y > m {
          backwardStart += 2
        } else if !forwardMeets {
          let other = offset + delta - k
          if other >= 0, other < length, forward[other] != -1, forward[other] >= n - x {
            let fx = forward[other]
            return (aLow + fx, bLow + fx - (other - offset))
          }
        }
        k += 2
      }
    }
    // No line in common, or more differences than the search may look for.
    return nil
  }
}
