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

  /// The shortest edit script turning `a` into `b`: Myers' O(ND) algorithm in its
  /// linear-space form (Myers 1986, section 4b). Each step finds the middle snake of
  /// an optimal path with two frontiers of size O(N + M) and splits the problem there,
  /// so memory stays linear in the input however many lines differ (keeping every
  /// frontier for a backtrack costs O(ND)), and time is O((N + M) D), near linear
  /// when few lines change.
  static func editScript(_ a: [String], _ b: [String]) -> [Op] {
    // Lines as small integers: the search compares them many times.
    var ids: [String: Int] = [:]
    func id(_ line: String) -> Int {
      if let known = ids[line] { return known }
      ids[line] = ids.count
      return ids.count - 1
    }
    // Within each run of changes, deletions first, as diff -u shows them.
    var ops = shortestScript(a.map(id), b.map(id))
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
  /// The shortest edit script turning `a` into `b`, for any sequence of equatable
  /// items: the one sequence diff, which lines and arrays (``ArrayAlignment``) share.
  /// With `maximumCost`, a stretch whose shortest script needs more than that many
  /// steps is given up on and written as removed and inserted whole, so that the time
  /// stays near linear in the input whatever it holds.
  static func shortestScript<Element: Equatable>(_ a: [Element], _ b: [Element], maximumCost: Int? = nil) -> [Op] {
    var script = MyersScript(a: a, b: b, maximumCost: maximumCost)
    script.diff(aRange: 0..<a.count, bRange: 0..<b.count)
    return script.ops
  }
}

/// The state of one linear-space Myers search: the two sequences, the operations
/// found so far (in order), and the two frontiers, reused by every step.
private struct MyersScript<Element: Equatable> {
  let a: [Element]
  let b: [Element]
  var ops: [LineDiff.Op] = []
  private var forward: [Int]
  private var backward: [Int]

  /// The most differences one middle-snake search looks for, if bounded.
  let maximumCost: Int?

  init(a: [Element], b: [Element], maximumCost: Int?) {
    self.a = a
    self.b = b
    self.maximumCost = maximumCost
    ops.reserveCapacity(a.count + b.count)
    forward = [Int](repeating: -1, count: a.count + b.count + 3)
    backward = forward
  }

  /// Appends the operations turning `a[aRange]` into `b[bRange]`. Each split leaves
  /// about half the differences to either side, so recursion is about log2 D deep.
  mutating func diff(aRange: Range<Int>, bRange: Range<Int>) {
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
      diff(aRange: aLow..<x, bRange: bLow..<y)
      diff(aRange: x..<aHigh, bRange: y..<bHigh)
    } else {
      ops.append(contentsOf: repeatElement(.delete, count: aHigh - aLow))
      ops.append(contentsOf: repeatElement(.insert, count: bHigh - bLow))
    }
    ops.append(contentsOf: repeatElement(.same, count: tail))
  }

  /// A point strictly inside the box from (aLow, bLow) to (aHigh, bHigh) on a
  /// shortest path through it: the end of the forward search's snake where it first
  /// overlaps the backward search (as diff-match-patch's `diff_bisect` finds it).
  /// Diagonals whose paths leave the box are dropped from either end of the search.
  private mutating func middle(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int) -> (Int, Int)? {
    let n = aHigh - aLow
    let m = bHigh - bLow
    let maxD = min((n + m + 1) / 2, maximumCost ?? .max)
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
