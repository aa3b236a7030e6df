/// A unified diff of two texts, line by line (Myers' algorithm), as `diff -u` prints it.
public enum LineDiff {
  /// The unified diff of `old` and `new` with `context` lines around each change,
  /// under `---`/`+++` headers; empty when the texts are equal.
  public static func unified(
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

  static func lines(_ text: String) -> [String] {
    var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if result.last == "" { result.removeLast() }
    return result
  }

  /// The shortest edit script turning `a` into `b` (Myers, 1986).
  static func editScript(_ a: [String], _ b: [String]) -> [Op] {
    let n = a.count
    let m = b.count
    let max = n + m
    if max == 0 { return [] }
    let offset = max
    var v = [Int](repeating: 0, count: 2 * max + 2)
    var trace: [[Int]] = []
    var found = false
    for d in 0...max {
      trace.append(v)
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
          x = v[offset + k + 1]
        } else {
          x = v[offset + k - 1] + 1
        }
        var y = x - k
        while x < n, y < m, a[x] == b[y] {
          x += 1
          y += 1
        }
        v[offset + k] = x
        if x >= n, y >= m {
          found = true
          break
        }
      }
      if found { break }
    }
    // Backtrack through the saved frontiers.
    var ops: [Op] = []
    var x = n
    var y = m
    for d in stride(from: trace.count - 1, through: 0, by: -1) {
      let frontier = trace[d]
      let k = x - y
      let previousK: Int
      if k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]) {
        previousK = k + 1
      } else {
        previousK = k - 1
      }
      let previousX = d == 0 ? 0 : frontier[offset + previousK]
      let previousY = previousX - previousK
      while x > previousX, y > previousY {
        ops.append(.same)
        x -= 1
        y -= 1
      }
      if d > 0 {
        if x == previousX {
          ops.append(.insert)
        } else {
          ops.append(.delete)
        }
      }
      x = previousX
      y = previousY
    }
    while x > 0, y > 0 {
      ops.append(.same)
      x -= 1
      y -= 1
    }
    return ops.reversed()
  }
}
