import PrefsModel

/// Encodes `Encodable` values as a ``PrefValue``, keeping every type the model has,
/// in the manner of Foundation's `PropertyListEncoder`.
///
/// The mapping is type-strict, so that what a program stores reads back as the same
/// type in every format:
/// - `String` is `.string`; `Bool` is `.bool`, never a number.
/// - Every integer type is `.integer`; a `UInt64` (or `UInt`) above `Int64.max` is
///   `.unsignedInteger`. An `Int128` or `UInt128` outside those ranges throws.
/// - `Double` and `Float` are `.real`, even when whole (`1.0` stays a real).
/// - `Date` is `.date`, `Data` is `.data` (not the numbers and arrays of their own
///   `Codable` forms), and `URL` is `.string` holding its `absoluteString`.
/// - A ``PrefValue`` is stored as it is.
/// - Keyed containers become `.dictionary` in the order the keys were encoded (a key
///   encoded again keeps its place and takes the new value); unkeyed containers
///   become `.array`. A value that encodes nothing becomes an empty dictionary.
/// - A `nil` optional property is left out (`encodeIfPresent`, as synthesized
///   conformances call it). An explicit `encodeNil`, such as a `nil` element of an
///   `[Int?]`, is ``PrefValue/null``: YAML and JSON write it as `null`; a property list
///   has no form for it, and writing one refuses it by its key path.
///
/// It is a value type: copies are independent and it is `Sendable`.
public struct PrefsEncoder: Sendable {
  /// Contextual information for the types being encoded, passed on as each
  /// `Encoder`'s `userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// An encoder with no user info.
  public init() {}

  /// The value `value` encodes to.
  ///
  /// - Throws: `EncodingError.invalidValue` for a value the model cannot hold (an
  ///   `Int128` beyond `UInt64`) or a container misused (a single value
  ///   encoded twice, a keyed container asked of an encoder that holds an array).
  public func encode<T: Encodable>(_ value: T) throws -> PrefValue {
    let state = EncodingState(userInfo: userInfo)
    let node = try state.box(value, at: [])
    if let error = state.error { throw error }
    return node.value
  }
}

// MARK: - The tree being built

/// What the encoding state shares with every encoder and container: the user info
/// and the first misuse of a container, which the protocol's non-throwing methods
/// cannot throw themselves and ``PrefsEncoder/encode(_:)`` throws at the end.
final class EncodingState {
  let userInfo: [CodingUserInfoKey: Any]
  var error: EncodingError?

  init(userInfo: [CodingUserInfoKey: any Sendable]) {
    self.userInfo = userInfo
  }

  /// Records a misuse at `path`, keeping the first.
  func misuse(_ message: String, at path: [any CodingKey]) {
    guard error == nil else { return }
    error = .invalidValue(Void(), EncodingError.Context(codingPath: path, debugDescription: message))
  }

  /// The node `value` encodes to: the model's own types directly, anything else
  /// through its `encode(to:)`.
  func box<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> EncodedNode {
    if let leaf = Self.leaf(value) { return EncodedNode(leaf) }
    let node = EncodedNode()
    try value.encode(to: PrefsEncoding(node: node, state: self, codingPath: path))
    return node
  }

  /// The value of the types the model holds as they are rather than as their
  /// `Codable` forms (a `Date` would encode as a number, `Data` as an array).
  static func leaf(_ value: some Encodable) -> PrefValue? {
    switch value {
    case let value as PrefValue: value
    case let date as Date: .date(date)
    case let data as Data: .data(data)
    case let url as URL: .string(url.absoluteString)
    default: nil
    }
  }

  static func integer(_ value: some BinaryInteger, at path: [any CodingKey]) throws -> PrefValue {
    if let n = Int64(exactly: value) { return .integer(n) }
    if let n = UInt64(exactly: value) { return .unsignedInteger(n) }
    throw EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: path, debugDescription: "\(value) is outside the range of Int64 and UInt64"))
  }

}

/// One value being encoded: a leaf, or an array or dictionary whose elements are
/// filled in as the containers over them encode (nested containers and super
/// encoders hold on to their node and write into it later).
final class EncodedNode {
  enum Content {
    case empty
    case leaf(PrefValue)
    case array
    case dictionary
  }

  var content: Content
  var items: [EncodedNode] = []
  var keys: [String] = []
  var positions: [ScalarKey: Int] = [:]

  init(_ leaf: PrefValue? = nil) {
    content = leaf.map(Content.leaf) ?? .empty
  }

  /// Makes this node a dictionary; false when it already holds something else.
  func becomeDictionary() -> Bool {
    switch content {
    case .empty:
      content = .dictionary
      return true
    case .dictionary: return true
    case .leaf, .array: return false
    }
  }

  /// Makes this node an array; false when it already holds something else.
  func becomeArray() -> Bool {
    switch content {
    case .empty:
      content = .array
      return true
    case .array: return true
    case .leaf, .dictionary: return false
    }
  }

  /// Sets `key` to `node`, appending a new key and keeping the place of one encoded before.
  func set(_ key: String, _ node: EncodedNode) {
    if let at = positions[ScalarKey(key)] {
      items[at] = node
    } else {
      positions[ScalarKey(key)] = items.count
      keys.append(key)
      items.append(node)
    }
  }

  /// The finished value.
  var value: PrefValue {
    switch content {
    case .empty: .dictionary(PrefDictionary())
    case .leaf(let value): value
    case .array: .array(items.map(\.value))
    case .dictionary:
      .dictionary(PrefDictionary(zip(keys, items).lazy.map { (key: $0.0, value: $0.1.value) }))
    }
  }
}

// MARK: - Encoder

/// The `Encoder` a type's `encode(to:)` is given: it writes into one node.
struct PrefsEncoding: PrefValueEncoding {
  let node: EncodedNode
  let state: EncodingState
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

  func store(_ value: PrefValue) {
    guard case .empty = node.content else {
      return state.misuse("a value was encoded where another value was encoded already", at: codingPath)
    }
    node.content = .leaf(value)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if !node.becomeDictionary() {
      state.misuse("a keyed container was requested where a single value or an array was encoded", at: codingPath)
    }
    return KeyedEncodingContainer(PrefsKeyedEncodingContainer<Key>(node: node, state: state, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if !node.becomeArray() {
      state.misuse(
        "an unkeyed container was requested where a single value or a dictionary was encoded", at: codingPath)
    }
    return PrefsUnkeyedEncodingContainer(node: node, state: state, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    PrefsSingleValueEncodingContainer(node: node, state: state, codingPath: codingPath)
  }
}

// MARK: - Containers

struct PrefsKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodedNode
  let state: EncodingState
  let codingPath: [any CodingKey]

  private func put(_ value: PrefValue, _ key: Key) { node.set(key.stringValue, EncodedNode(value)) }

  mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { put(.real(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { put(.real(Double(value)), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(value), key) }
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    put(try EncodingState.integer(value, at: codingPath + [key]), key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws { put(.integer(exactly: UInt64(value)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.integer(exactly: value), key) }
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    put(try EncodingState.integer(value, at: codingPath + [key]), key)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    node.set(key.stringValue, try state.box(value, at: codingPath + [key]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    child(key).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    child(key).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { child(PrefsCodingKey.super) }

  mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }

  /// An encoder for a new node under `key`, which its containers fill in later.
  private func child(_ key: any CodingKey) -> PrefsEncoding {
    let child = EncodedNode()
    node.set(key.stringValue, child)
    return PrefsEncoding(node: child, state: state, codingPath: codingPath + [key])
  }
}

struct PrefsUnkeyedEncodingContainer: UnkeyedEncodingContainer {
  let node: EncodedNode
  let state: EncodingState
  let codingPath: [any CodingKey]
  var count: Int { node.items.count }

  private var nextKey: any CodingKey { PrefsCodingKey(index: node.items.count) }
  private func append(_ value: PrefValue) { node.items.append(EncodedNode(value)) }

  mutating func encodeNil() throws { append(.null) }
  mutating func encode(_ value: Bool) throws { append(.bool(value)) }
  mutating func encode(_ value: String) throws { append(.string(value)) }
  mutating func encode(_ value: Double) throws { append(.real(value)) }
  mutating func encode(_ value: Float) throws { append(.real(Double(value))) }
  mutating func encode(_ value: Int) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { append(.integer(value)) }
  mutating func encode(_ value: Int128) throws { append(try EncodingState.integer(value, at: codingPath + [nextKey])) }
  mutating func encode(_ value: UInt) throws { append(.integer(exactly: UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { append(.integer(exactly: value)) }
  mutating func encode(_ value: UInt128) throws { append(try EncodingState.integer(value, at: codingPath + [nextKey])) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    // Box first: the element's own path names its index, and a failed element adds nothing.
    let child = try state.box(value, at: codingPath + [nextKey])
    node.items.append(child)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    appendChild().container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { appendChild().unkeyedContainer() }

  mutating func superEncoder() -> any Encoder { appendChild() }

  /// An encoder for a new last element, which its containers fill in later.
  private func appendChild() -> PrefsEncoding {
    let child = EncodedNode()
    let path = codingPath + [nextKey]
    node.items.append(child)
    return PrefsEncoding(node: child, state: state, codingPath: path)
  }
}

struct PrefsSingleValueEncodingContainer: SingleValueEncodingContainer {
  let node: EncodedNode
  let state: EncodingState
  let codingPath: [any CodingKey]

  private func set(_ value: PrefValue) {
    guard case .empty = node.content else {
      state.misuse("a single value container was given a second value", at: codingPath)
      return
    }
    node.content = .leaf(value)
  }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { set(.real(value)) }
  mutating func encode(_ value: Float) throws { set(.real(Double(value))) }
  mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { set(.integer(value)) }
  mutating func encode(_ value: Int128) throws { set(try EncodingState.integer(value, at: codingPath)) }
  mutating func encode(_ value: UInt) throws { set(.integer(exactly: UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { set(.integer(exactly: value)) }
  mutating func encode(_ value: UInt128) throws { set(try EncodingState.integer(value, at: codingPath)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    if let leaf = EncodingState.leaf(value) { return set(leaf) }
    guard case .empty = node.content else {
      return state.misuse("a single value container was given a second value", at: codingPath)
    }
    // The value's own containers write into this node.
    try value.encode(to: PrefsEncoding(node: node, state: state, codingPath: codingPath))
  }
}
