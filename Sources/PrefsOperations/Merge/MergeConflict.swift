import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// A place where both sides of a merge changed the same thing differently: its key
/// path in the merged value and the three values there. The merged value keeps
/// CURRENT's value at every conflict.
public struct MergeConflict: Sendable, Equatable {
  /// Where the conflict is, in the merged value: the conflicting value itself, or for
  /// a run of array items (see ``items``) the array that holds them.
  public let path: PrefKeyPath
  /// For a conflicting run of array items: their positions in the merged array (the
  /// run as CURRENT has it; empty when CURRENT removed it). ``base``, ``current`` and
  /// ``other`` are then arrays of the run's items on each side.
  public let items: Range<Int>?
  /// The value in BASE; nil when BASE does not have it.
  public let base: PrefValue?
  /// The value in CURRENT, which the merged value keeps; nil when CURRENT removed it.
  public let current: PrefValue?
  /// The value in OTHER; nil when OTHER removed it.
  public let other: PrefValue?
  /// Why the values conflict, when they alone do not say it (both sides of an Xcode
  /// project added one file under IDs of their own); nil when they do.
  public let reason: String?
  /// For data holding JSON or a binary plist whose structures were merged
  /// (``ThreeWayMerge/Options/expandData``): the conflicts inside it, with key paths
  /// that go on into the data (`items.0.name`). This conflict is then the whole data
  /// value, which a text marks as one entry (markers cannot stand inside base64):
  /// ``current`` is the merged structure with CURRENT's values at those conflicts (the
  /// merged value holds it), ``other`` the same with OTHER's, each in its side's bytes.
  public let embedded: [MergeConflict]
  /// For a key CURRENT removed: the key before it in OTHER that the merged dictionary
  /// has, so that OTHER's entry can be shown where it would go.
  let precedingKey: String?
  /// In a YAML stream, the document the conflict is in, as ``DocumentAlignment`` labels
  /// it (`[2]`, `[Deployment/web]`); ``path`` is then within that document.
  public internal(set) var document: String? = nil

  init(
    path: PrefKeyPath, items: Range<Int>? = nil, base: PrefValue?, current: PrefValue?, other: PrefValue?,
    precedingKey: String? = nil, reason: String? = nil, embedded: [MergeConflict] = []
  ) {
    self.embedded = embedded
    self.path = path
    self.items = items
    self.base = base
    self.current = current
    self.other = other
    self.precedingKey = precedingKey
    self.reason = reason
  }

  /// The key path to show: ``path``, and for a run of items the position of its first
  /// item (`list.3`), or of its first and last (`list.3-5`).
  public var location: String {
    guard let document else { return locationInDocument }
    return path.components.isEmpty && items == nil ? document : document + " " + locationInDocument
  }

  /// The conflicts to tell the user of: this one, or those inside the data it is
  /// (``embedded``), in their document.
  public var reported: [MergeConflict] {
    guard !embedded.isEmpty else { return [self] }
    return embedded.flatMap { inner in
      var inner = inner
      inner.document = document
      return inner.reported
    }
  }

  /// This conflict with its key path relative to `prefix`, which it starts with: the
  /// conflict as it stands in the value at `prefix`.
  func relative(to prefix: PrefKeyPath) -> MergeConflict {
    var copy = MergeConflict(
      path: PrefKeyPath(Array(path.components.dropFirst(prefix.components.count))), items: items, base: base,
      current: current, other: other, precedingKey: precedingKey, reason: reason, embedded: embedded)
    copy.document = document
    return copy
  }

  /// ``location`` within the conflict's document.
  private var locationInDocument: String {
    var shown = path
    if let items {
      shown = path.appending(index: items.lowerBound)
      if items.count > 1 { return shown.description + "-\(items.upperBound - 1)" }
    }
    return shown.nameInMessages
  }

  /// Which side of a conflict to take.
  public enum Side: Sendable {
    /// CURRENT's value, which the merged value holds.
    case current
    /// OTHER's value.
    case other
  }
}

extension PrefValue {
  /// This merged value with each conflict settled for `side`: what choosing that side
  /// at every conflict gives. `conflicts` are those of the merge that made this value.
  public func resolving(_ conflicts: [MergeConflict], to side: MergeConflict.Side) -> PrefValue {
    guard side == .other else { return self }
    var result = self
    // The last places first: a run that changes length moves only the items after it.
    for conflict in conflicts.sorted(by: { MergeConflict.comesAfter($0, $1) }) {
      result.resolve(conflict, at: conflict.path.components[...])
    }
    return result
  }

  /// Settles `conflict` for OTHER in place. Each container on the path is taken out of
  /// the value while it changes, so that one conflict costs its path, not a copy of
  /// every array on it (which made many conflicts in a long array quadratic).
  private mutating func resolve(_ conflict: MergeConflict, at path: ArraySlice<PrefKeyPath.Component>) {
    guard let first = path.first else {
      if let items = conflict.items, case .array(var list) = self {
        self = .null
        list.replaceSubrange(items, with: conflict.other?.arrayValue ?? [])
        self = .array(list)
      } else if let other = conflict.other {
        self = other
      }
      return
    }
    let rest = path.dropFirst()
    if case .key(let key) = first, case .dictionary(var dict) = self {
      self = .null
      if rest.isEmpty, conflict.items == nil {
        if let other = conflict.other {
          if dict[key] == nil {
            dict = dict.inserting(key, other, after: conflict.precedingKey)
          } else {
            dict[key] = other
          }
        } else {
          dict[key] = nil
        }
      } else {
        dict.changeValue(forKey: key) { $0.resolve(conflict, at: rest) }
      }
      self = .dictionary(dict)
    } else if case .index(let index) = first, case .array(var list) = self, index < list.count || rest.isEmpty {
      self = .null
      if rest.isEmpty, conflict.items == nil {
        if let other = conflict.other { list[index] = other } else { list.remove(at: index) }
      } else {
        list[index].resolve(conflict, at: rest)
      }
      self = .array(list)
    }
  }
}

extension MergeConflict {
  /// Whether `a` lies after `b` in document order, comparing array positions as numbers.
  static func comesAfter(_ a: MergeConflict, _ b: MergeConflict) -> Bool {
    let x = a.position
    let y = b.position
    for (p, q) in zip(x, y) where p != q {
      switch (p, q) {
      case (.index(let i), .index(let j)): return i > j
      case (.key(let k), .key(let l)): return PrefDictionary.codePointOrder(l, k)
      case (.index, .key): return true
      case (.key, .index): return false
      }
    }
    return x.count > y.count
  }

  /// The path with a run's first position, for ordering.
  var position: [PrefKeyPath.Component] {
    items.map { path.components + [.index($0.lowerBound)] } ?? path.components
  }
}

extension PrefDictionary {
  /// A copy with `key` added right after `preceding` (at the start when nil or absent).
  func inserting(_ key: String, _ value: PrefValue, after preceding: String?) -> PrefDictionary {
    var pairs: [Element] = []
    pairs.reserveCapacity(count + 1)
    if preceding == nil || !contains(preceding!) { pairs.append((key, value)) }
    for entry in self {
      pairs.append(entry)
      if let preceding, sameScalars(entry.key, preceding) { pairs.append((key, value)) }
    }
    return PrefDictionary(pairs)
  }
}
