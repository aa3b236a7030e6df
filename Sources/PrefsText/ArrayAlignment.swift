import PrefsModel

/// How two arrays line up: the longest common subsequence of equal items, with what
/// lies between as removals, insertions, or items changed in place. Diff, the patcher
/// and merge all read arrays through it.
package enum ArrayAlignment {
  /// One step of an alignment, in order.
  package enum Step: Sendable, Equatable {
    /// `old[i]` and `new[j]` are equal.
    case same(Int, Int)
    /// `old[i]` became `new[j]` (a removal and an insertion at one place).
    case changed(Int, Int)
    /// `old[i]` is gone.
    case removed(Int)
    /// `new[j]` is new.
    case inserted(Int)
  }

  /// Above this many cells the middle is paired by position instead: the table would
  /// cost more memory than the arrays (`4M` cells is 16 MB).
  static let maximumCells = 1 << 22

  /// The steps that turn `old` into `new`. Runs of removals and insertions at one
  /// place pair up, in order, as changes.
  package static func align<T: Equatable>(_ old: [T], _ new: [T]) -> [Step] {
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    var steps = (0..<prefix).map { Step.same($0, $0) }
    let a = prefix..<(old.count - suffix)
    let b = prefix..<(new.count - suffix)
    var middle: [Step] = []
    if a.count * b.count <= maximumCells, !a.isEmpty, !b.isEmpty {
      middle = lcs(old, a, new, b)
    } else {
      middle = a.map { .removed($0) } + b.map { .inserted($0) }
    }
    steps += pairChanges(middle)
    steps += (0..<suffix).map { .same(old.count - suffix + $0, new.count - suffix + $0) }
    return steps
  }

  /// The dynamic-programming table of common-subsequence lengths, walked forward.
  private static func lcs<T: Equatable>(_ old: [T], _ a: Range<Int>, _ new: [T], _ b: Range<Int>) -> [Step] {
    let n = a.count
    let m = b.count
    // lengths[i][j]: the longest common subsequence of old[a][i...] and new[b][j...].
    var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lengths[i * (m + 1) + j] =
          old[a.lowerBound + i] == new[b.lowerBound + j]
          ? lengths[(i + 1) * (m + 1) + j + 1] + 1
          : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
      }
    }
    var steps: [Step] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, old[a.lowerBound + i] == new[b.lowerBound + j] {
        steps.append(.same(a.lowerBound + i, b.lowerBound + j))
        i += 1
        j += 1
      } else if j < m, i == n || lengths[i * (m + 1) + j + 1] >= lengths[(i + 1) * (m + 1) + j] {
        steps.append(.inserted(b.lowerBound + j))
        j += 1
      } else {
        steps.append(.removed(a.lowerBound + i))
        i += 1
      }
    }
    return steps
  }

  /// Pairs the removals and insertions of each run between equal items as changes.
  private static func pairChanges(_ steps: [Step]) -> [Step] {
    var result: [Step] = []
    var removed: [Int] = []
    var inserted: [Int] = []
    func flush() {
      let paired = min(removed.count, inserted.count)
      for k in 0..<paired { result.append(.changed(removed[k], inserted[k])) }
      result += removed.dropFirst(paired).map { .removed($0) }
      result += inserted.dropFirst(paired).map { .inserted($0) }
      removed = []
      inserted = []
    }
    for step in steps {
      switch step {
      case .removed(let i): removed.append(i)
      case .inserted(let j): inserted.append(j)
      default:
        flush()
        result.append(step)
      }
    }
    flush()
    return result
  }
}
