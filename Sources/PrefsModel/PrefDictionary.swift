/// A dictionary with `String` keys that remembers the order its keys were added in.
///
/// Readers that see an order (YAML, JSON, the native plist readers) keep it, so that
/// `convert`, `set` and `edit` do not shuffle a file. Equality ignores order.
public struct PrefDictionary: Sendable, Equatable, Sequence {
  public typealias Element = (key: String, value: PrefValue)

  private var entries: [Element] = []
  /// Positions by key, kept only once the dictionary is large: for the few dozen keys
  /// most dictionaries hold, comparing keys is cheaper than hashing each one (readers
  /// check every key for a duplicate), and an index per dictionary costs memory.
  /// (From 64 rather than 16 keys: 5-10% faster conversions of the benchmark domain,
  /// whose dictionaries hold up to 40 keys, and 3-5 MB less memory.)
  private var index: [ScalarKey: Int]? = nil
  private static let indexedFrom = 64

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
  public func contains(_ key: String) -> Bool { position(of: key) != nil }

  private func position(of key: String) -> Int? {
    if let index { return index[ScalarKey(key)] }
    // Keys are their scalars: Swift's `==` would find a canonically equal key.
    return entries.firstIndex { sameScalars($0.key, key) }
  }

  private mutating func append(_ key: String, _ value: PrefValue) {
    entries.append((key, value))
    if index != nil {
      index![ScalarKey(key)] = entries.count - 1
    } else if entries.count >= Self.indexedFrom {
      rebuildIndex()
    }
  }

  private mutating func rebuildIndex() {
    guard entries.count >= Self.indexedFrom else {
      index = nil
      return
    }
    var positions = [ScalarKey: Int](minimumCapacity: entries.count)
    for (i, entry) in entries.enumerated() { positions[ScalarKey(entry.key)] = i }
    index = positions
  }

  /// The value for `key`; setting `nil` removes the key, setting a new key appends it.
  public subscript(key: String) -> PrefValue? {
    get { position(of: key).map { entries[$0].value } }
    set {
      if let newValue {
        if let position = position(of: key) {
          entries[position].value = newValue
        } else {
          append(key, newValue)
        }
      } else if let position = position(of: key) {
        entries.remove(at: position)
        rebuildIndex()
      }
    }
  }

  /// Changes the value for `key` where it stands, if the key is there; false when it is
  /// not. The value is not copied while `change` runs, so changing one item of a large
  /// array inside it costs no copy of that array.
  @discardableResult
  package mutating func changeValue(forKey key: String, _ change: (inout PrefValue) -> Void) -> Bool {
    guard let position = position(of: key) else { return false }
    change(&entries[position].value)
    return true
  }

  /// Adds `key` only if it is new; returns false (changing nothing) for a duplicate.
  @discardableResult
  public mutating func insertNew(_ key: String, _ value: PrefValue) -> Bool {
    guard position(of: key) == nil else { return false }
    append(key, value)
    return true
  }

  /// Renames `old` to `new` in place, keeping its position; false when `old` is missing or `new` exists.
  @discardableResult
  public mutating func renameKey(_ old: String, to new: String) -> Bool {
    guard let at = position(of: old), position(of: new) == nil else { return false }
    entries[at].key = new
    if index != nil {
      index![ScalarKey(old)] = nil
      index![ScalarKey(new)] = at
    }
    return true
  }

  /// The canonical key order: by Unicode code point, as `plutil` and `defaults` sort.
  /// (Swift's `<` on strings compares canonical equivalents as equal.)
  public static func codePointOrder(_ a: String, _ b: String) -> Bool {
    a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
  }

  /// A copy with keys in ``codePointOrder(_:_:)``.
  public func sortedByKey() -> PrefDictionary {
    var sorted = PrefDictionary()
    sorted.entries = entries.sorted { Self.codePointOrder($0.key, $1.key) }
    sorted.rebuildIndex()
    return sorted
  }

  /// A copy with keys in ``codePointOrder(_:_:)`` at every depth: the order the
  /// writers give with `sortKeys`, as a value (for patching a sorted export).
  public func sortedDeep() -> PrefDictionary {
    func sorted(_ value: PrefValue) -> PrefValue {
      switch value {
      case .dictionary(let d): .dictionary(d.sortedDeep())
      case .array(let items): .array(items.map(sorted))
      default: value
      }
    }
    return sortedByKey().mapValues(sorted)
  }

  /// A copy with each value transformed, in the same key order.
  public func mapValues(_ transform: (PrefValue) throws -> PrefValue) rethrows -> PrefDictionary {
    var result = self
    for i in result.entries.indices { result.entries[i].value = try transform(result.entries[i].value) }
    return result
  }

  public func makeIterator() -> IndexingIterator<[Element]> { entries.makeIterator() }

  public static func == (lhs: PrefDictionary, rhs: PrefDictionary) -> Bool {
    guard lhs.count == rhs.count else { return false }
    // Dictionaries read from the same text have their keys in the same order: compare
    // them side by side, and look keys up only from the first that differs.
    var same = 0
    while same < lhs.entries.count, sameScalars(lhs.entries[same].key, rhs.entries[same].key) {
      guard lhs.entries[same].value == rhs.entries[same].value else { return false }
      same += 1
    }
    if same == lhs.entries.count { return true }
    for (key, value) in lhs.entries[same...] {
      guard let other = rhs[key], other == value else { return false }
    }
    return true
  }
}

/// A key hashed and compared by its Unicode scalars, as the model compares keys
/// (`String`'s own hashing treats canonically equal keys as one).
package struct ScalarKey: Hashable {
  package let text: String
  package init(_ text: String) { self.text = text }
  package static func == (a: ScalarKey, b: ScalarKey) -> Bool { sameScalars(a.text, b.text) }
  package func hash(into hasher: inout Hasher) {
    // Native strings hash their bytes at once; others byte by byte.
    let hashedAtOnce: Void? = text.utf8.withContiguousStorageIfAvailable {
      hasher.combine(bytes: UnsafeRawBufferPointer($0))
    }
    if hashedAtOnce == nil {
      for byte in text.utf8 { hasher.combine(byte) }
    }
  }
}

extension PrefDictionary: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, PrefValue)...) {
    self.init(elements.map { (key: $0.0, value: $0.1) })
  }
}
