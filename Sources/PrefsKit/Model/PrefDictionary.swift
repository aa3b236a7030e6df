/// A dictionary with `String` keys that remembers the order its keys were added in.
///
/// Readers that see an order (YAML, JSON, the native plist readers) keep it, so that
/// `convert`, `set` and `edit` do not shuffle a file. Equality ignores order.
public struct PrefDictionary: Sendable, Equatable, Sequence {
  public typealias Element = (key: String, value: PrefValue)

  private var entries: [Element] = []
  private var index: [String: Int] = [:]

  /// An empty dictionary.
  public init() {}

  /// A dictionary of these pairs, in this order; a later duplicate key replaces the earlier value.
  public init(_ pairs: some Sequence<Element>) {
    for (key, value) in pairs { self[key] = value }
  }

  /// The number of keys.
  public var count: Int { entries.count }
  /// Whether there are no keys.
  public var isEmpty: Bool { entries.isEmpty }
  /// The keys, in order.
  public var keys: [String] { entries.map(\.key) }
  /// The values, in key order.
  public var values: [PrefValue] { entries.map(\.value) }

  /// Whether `key` is present.
  public func contains(_ key: String) -> Bool { index[key] != nil }

  /// The value for `key`; setting `nil` removes the key, setting a new key appends it.
  public subscript(key: String) -> PrefValue? {
    get { index[key].map { entries[$0].value } }
    set {
      if let newValue {
        if let position = index[key] {
          entries[position].value = newValue
        } else {
          index[key] = entries.count
          entries.append((key, newValue))
        }
      } else if let position = index.removeValue(forKey: key) {
        entries.remove(at: position)
        for i in position..<entries.count { index[entries[i].key] = i }
      }
    }
  }

  /// Adds `key` only if it is new; returns false (changing nothing) for a duplicate.
  @discardableResult
  public mutating func insertNew(_ key: String, _ value: PrefValue) -> Bool {
    guard index[key] == nil else { return false }
    index[key] = entries.count
    entries.append((key, value))
    return true
  }

  /// Renames `old` to `new` in place, keeping its position; false when `old` is missing or `new` exists.
  @discardableResult
  public mutating func renameKey(_ old: String, to new: String) -> Bool {
    guard let position = index[old], index[new] == nil else { return false }
    index[old] = nil
    index[new] = position
    entries[position].key = new
    return true
  }

  /// A copy with keys in Unicode code point order (the order `plutil` and `defaults` use).
  public func sortedByKey() -> PrefDictionary {
    var sorted = PrefDictionary()
    for entry in entries.sorted(by: { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }) {
      sorted.insertNew(entry.key, entry.value)
    }
    return sorted
  }

  /// A copy with each value transformed, in the same key order.
  public func mapValues(_ transform: (PrefValue) throws -> PrefValue) rethrows -> PrefDictionary {
    var result = PrefDictionary()
    result.entries.reserveCapacity(entries.count)
    for entry in entries { result.insertNew(entry.key, try transform(entry.value)) }
    return result
  }

  public func makeIterator() -> IndexingIterator<[Element]> { entries.makeIterator() }

  public static func == (lhs: PrefDictionary, rhs: PrefDictionary) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for (key, value) in lhs.entries {
      guard let other = rhs[key], other == value else { return false }
    }
    return true
  }
}

extension PrefDictionary: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, PrefValue)...) {
    self.init(elements.map { (key: $0.0, value: $0.1) })
  }
}
