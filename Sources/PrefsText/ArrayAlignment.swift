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

  /// The steps that turn `old` into `new`. Runs of removals and insertions at one
  /// place pair up, in order, as changes.
  package static func align<T: Hashable>(_ old: [T], _ new: [T]) -> [Step] {
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
    // The middle through the one sequence diff (Myers, in linear space): no table, so
    // no size at which arrays stop being aligned by their items. Past
    // `LineDiff.maximumCost` differences it anchors on the items each side holds once,
    // and what lies between anchors with none in common pairs by position, so that
    // neither a shuffle nor hostile input makes it slow or aligns it in one piece.
    var middle: [Step] = []
    var (i, j) = (a.lowerBound, b.lowerBound)
    for op in LineDiff.shortestScript(Array(old[a]), Array(new[b])) {
      switch op {
      case .same:
        middle.append(.same(i, j))
        (i, j) = (i + 1, j + 1)
      case .delete:
        middle.append(.removed(i))
        i += 1
      case .insert:
        middle.append(.inserted(j))
        j += 1
      }
    }
    steps += pairChanges(middle)
    steps += (0..<suffix).map { .same(old.count - suffix + $0, new.count - suffix + $0) }
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
