import PrefsModel

/// Decodes `Decodable` values from a ``PrefValue``, in the manner of Foundation's
/// `PropertyListDecoder`, and as strictly as the model is typed.
///
/// A value decodes only as the type it is, so that a domain holding the wrong type
/// is an error here rather than a silent fallback in the app:
/// - `.bool` is the only `Bool` (not `.integer(1)`, not `.string("false")`).
/// - `.integer` and `.unsignedInteger` decode as any integer type they fit; one that
///   does not fit throws `DecodingError.dataCorrupted`, never truncating. They do not
///   decode as `Double` or `Float`.
/// - `.real` is the only `Double` or `Float` (a `.real(1.0)` is not an `Int`); a real
///   beyond `Float`'s range throws `dataCorrupted` when a `Float` is asked for.
/// - `.date` is the only `Date`, `.data` the only `Data`; `URL` is read from a
///   `.string` (`dataCorrupted` when it is not a URL).
/// - Asking for ``PrefValue`` gives the value as it is.
///
/// Errors are Swift's `DecodingError` with the coding path of the value:
/// `typeMismatch` for a value of another type, `keyNotFound` for a missing key,
/// `valueNotFound` past the end of an array, `dataCorrupted` for a value out of range.
/// `decodeNil` is true for ``PrefValue/null`` (a YAML or JSON null) and false for every
/// other value, so `decodeIfPresent` gives nil for a missing key and for a null.
///
/// It is a value type: copies are independent and it is `Sendable`.
public struct PrefsDecoder: Sendable {
  /// Contextual information for the types being decoded, passed on as each
  /// `Decoder`'s `userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// A decoder with no user info.
  public init() {}

  /// The `T` that `value` holds.
  ///
  /// - Throws: `DecodingError` naming the coding path of the value that did not fit.
  public func decode<T: Decodable>(_ type: T.Type, from value: PrefValue) throws -> T {
    try PrefsDecoding(value: value, userInfo: userInfo, codingPath: []).unbox(value, as: type, at: [])
  }
}

// MARK: - Decoder

/// The `Decoder` a type's `init(from:)` is given: it reads one value.
struct PrefsDecoding: PrefValueDecoding {
  let value: PrefValue
  let userInfo: [CodingUserInfoKey: Any]
  let codingPath: [any CodingKey]
  var prefValue: PrefValue { value }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .dictionary(let dictionary) = value else {
      throw Self.mismatch([String: Any].self, value, at: codingPath)
    }
    return KeyedDecodingContainer(PrefsKeyedDecodingContainer(dictionary: dictionary, decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let items) = value else { throw Self.mismatch([Any].self, value, at: codingPath) }
    return PrefsUnkeyedDecodingContainer(items: items, decoder: self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { PrefsSingleValueDecodingContainer(self) }

  /// A decoder for a value inside this one.
  func child(_ value: PrefValue, at path: [any CodingKey]) -> PrefsDecoding {
    PrefsDecoding(value: value, userInfo: userInfo, codingPath: path)
  }

  // MARK: Values

  /// `value` as `T`: the model's own types directly, anything else through its `init(from:)`.
  func unbox<T: Decodable>(_ value: PrefValue, as type: T.Type, at path: [any CodingKey]) throws -> T {
    if T.self == PrefValue.self { return value as! T }
    if T.self == Date.self {
      guard case .date(let date) = value else { throw Self.mismatch(type, value, at: path) }
      return date as! T
    }
    if T.self == Data.self {
      guard case .data(let data) = value else { throw Self.mismatch(type, value, at: path) }
      return data as! T
    }
    if T.self == URL.self {
      guard case .string(let text) = value else { throw Self.mismatch(type, value, at: path) }
      guard let url = URL(string: text) else {
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "invalid URL string \(value)"))
      }
      return url as! T
    }
    return try T(from: child(value, at: path))
  }

  static func bool(_ value: PrefValue, at path: [any CodingKey]) throws -> Bool {
    guard case .bool(let b) = value else { throw mismatch(Bool.self, value, at: path) }
    return b
  }

  static func string(_ value: PrefValue, at path: [any CodingKey]) throws -> String {
    guard case .string(let s) = value else { throw mismatch(String.self, value, at: path) }
    return s
  }

  static func double(_ value: PrefValue, at path: [any CodingKey]) throws -> Double {
    guard case .real(let r) = value else { throw mismatch(Double.self, value, at: path) }
    return r
  }

  static func float(_ value: PrefValue, at path: [any CodingKey]) throws -> Float {
    guard case .real(let r) = value else { throw mismatch(Float.self, value, at: path) }
    guard !r.isFinite || abs(r) <= Double(Float.greatestFiniteMagnitude) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: path, debugDescription: "real \(value) does not fit in Float"))
    }
    return Float(r)
  }

  static func integer<I: FixedWidthInteger>(_ value: PrefValue, as type: I.Type, at path: [any CodingKey]) throws -> I {
    let fitted: I?
    switch value {
    case .integer(let n): fitted = I(exactly: n)
    case .unsignedInteger(let n): fitted = I(exactly: n)
    default: throw mismatch(type, value, at: path)
    }
    guard let fitted else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: path, debugDescription: "integer \(value) does not fit in \(I.self)"))
    }
    return fitted
  }

  /// The error for `value` where a `type` was expected.
  static func mismatch(_ type: Any.Type, _ value: PrefValue, at path: [any CodingKey]) -> DecodingError {
    .typeMismatch(
      type, .init(codingPath: path, debugDescription: "expected to decode \(type) but found \(value.summary) instead"))
  }
}

// MARK: - Containers

struct PrefsKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let dictionary: PrefDictionary
  let decoder: PrefsDecoding
  var codingPath: [any CodingKey] { decoder.codingPath }
  var allKeys: [Key] { dictionary.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { dictionary.contains(key.stringValue) }

  private func value(_ key: any CodingKey) throws -> PrefValue {
    guard let value = dictionary[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: codingPath, debugDescription: "no value for key '\(key.stringValue)'"))
    }
    return value
  }

  private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

  func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try PrefsDecoding.bool(value(key), at: path(key)) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try PrefsDecoding.string(value(key), at: path(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try PrefsDecoding.double(value(key), at: path(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try PrefsDecoding.float(value(key), at: path(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try int(key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try int(key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try int(key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try int(key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try int(key) }
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try int(key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try int(key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try int(key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try int(key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try int(key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try int(key) }
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try int(key) }

  private func int<I: FixedWidthInteger>(_ key: Key) throws -> I {
    try PrefsDecoding.integer(value(key), as: I.self, at: path(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.unbox(value(key), as: type, at: path(key))
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try decoder.child(value(key), at: path(key)).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder.child(value(key), at: path(key)).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    try decoder.child(value(PrefsCodingKey.super), at: codingPath + [PrefsCodingKey.super])
  }

  func superDecoder(forKey key: Key) throws -> any Decoder { try decoder.child(value(key), at: path(key)) }
}

struct PrefsUnkeyedDecodingContainer: UnkeyedDecodingContainer {
  let items: [PrefValue]
  let decoder: PrefsDecoding
  var codingPath: [any CodingKey] { decoder.codingPath }
  var count: Int? { items.count }
  var isAtEnd: Bool { currentIndex >= items.count }
  private(set) var currentIndex = 0

  init(items: [PrefValue], decoder: PrefsDecoding) {
    self.items = items
    self.decoder = decoder
  }

  private var path: [any CodingKey] { codingPath + [PrefsCodingKey(index: currentIndex)] }

  /// The next element, converted by `read`; the index moves on only when it succeeds.
  private mutating func next<T>(_ type: T.Type, _ read: (PrefValue, [any CodingKey]) throws -> T) throws -> T {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, .init(codingPath: path, debugDescription: "the array has no element at index \(currentIndex)"))
    }
    let result = try read(items[currentIndex], path)
    currentIndex += 1
    return result
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any?.self, .init(codingPath: path, debugDescription: "the array has no element at index \(currentIndex)"))
    }
    // A null is consumed; any other element is left for the next decode.
    guard items[currentIndex].isNull else { return false }
    currentIndex += 1
    return true
  }
  mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type, PrefsDecoding.bool) }
  mutating func decode(_ type: String.Type) throws -> String { try next(type, PrefsDecoding.string) }
  mutating func decode(_ type: Double.Type) throws -> Double { try next(type, PrefsDecoding.double) }
  mutating func decode(_ type: Float.Type) throws -> Float { try next(type, PrefsDecoding.float) }
  mutating func decode(_ type: Int.Type) throws -> Int { try int() }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try int() }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try int() }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try int() }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try int() }
  mutating func decode(_ type: Int128.Type) throws -> Int128 { try int() }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try int() }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try int() }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try int() }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try int() }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try int() }
  mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try int() }

  private mutating func int<I: FixedWidthInteger>() throws -> I {
    try next(I.self) { try PrefsDecoding.integer($0, as: I.self, at: $1) }
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try next(type) { [decoder] in try decoder.unbox($0, as: type, at: $1) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next(KeyedDecodingContainer<NestedKey>.self) { [decoder] in
      try decoder.child($0, at: $1).container(keyedBy: type)
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next((any UnkeyedDecodingContainer).self) { [decoder] in try decoder.child($0, at: $1).unkeyedContainer() }
  }

  mutating func superDecoder() throws -> any Decoder {
    try next((any Decoder).self) { [decoder] in decoder.child($0, at: $1) }
  }
}

struct PrefsSingleValueDecodingContainer: SingleValueDecodingContainer {
  let decoder: PrefsDecoding
  var codingPath: [any CodingKey] { decoder.codingPath }
  private var value: PrefValue { decoder.value }

  init(_ decoder: PrefsDecoding) { self.decoder = decoder }

  func decodeNil() -> Bool { value.isNull }
  func decode(_ type: Bool.Type) throws -> Bool { try PrefsDecoding.bool(value, at: codingPath) }
  func decode(_ type: String.Type) throws -> String { try PrefsDecoding.string(value, at: codingPath) }
  func decode(_ type: Double.Type) throws -> Double { try PrefsDecoding.double(value, at: codingPath) }
  func decode(_ type: Float.Type) throws -> Float { try PrefsDecoding.float(value, at: codingPath) }
  func decode(_ type: Int.Type) throws -> Int { try int() }
  func decode(_ type: Int8.Type) throws -> Int8 { try int() }
  func decode(_ type: Int16.Type) throws -> Int16 { try int() }
  func decode(_ type: Int32.Type) throws -> Int32 { try int() }
  func decode(_ type: Int64.Type) throws -> Int64 { try int() }
  func decode(_ type: Int128.Type) throws -> Int128 { try int() }
  func decode(_ type: UInt.Type) throws -> UInt { try int() }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try int() }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try int() }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try int() }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try int() }
  func decode(_ type: UInt128.Type) throws -> UInt128 { try int() }

  private func int<I: FixedWidthInteger>() throws -> I { try PrefsDecoding.integer(value, as: I.self, at: codingPath) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(value, as: type, at: codingPath) }
}
