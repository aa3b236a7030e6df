/// One value of a preference domain: the single model every reader produces and
/// every writer consumes.
///
/// Integers keep their exact width: `.integer` holds every `Int64`, and
/// `.unsignedInteger` only values above `Int64.max` (use ``PrefValue/integer(exactly:)``
/// to build one from a `UInt64`). Equality is type-strict: `1`, `1.0` and `true`
/// are three different values; reals compare bit for bit (so `-0.0 != 0.0`) except
/// that NaN equals NaN; dates compare at full `Double` precision; dictionaries
/// compare regardless of key order. `.null` equals only itself: not `""`, `false`,
/// `0`, nor a missing key.
public enum PrefValue: Sendable {
  case string(String)
  case integer(Int64)
  /// An integer above `Int64.max`; never holds a value that fits `.integer`.
  case unsignedInteger(UInt64)
  case real(Double)
  case bool(Bool)
  case date(Date)
  case data(Data)
  case array([PrefValue])
  case dictionary(PrefDictionary)
  /// A keyed-archive UID (binary plists only).
  case uid(UInt64)
  /// A YAML or JSON null (`key:`, `~`, `null`). Kept through reading, writing and
  /// every operation on YAML and JSON; a property list has no form for it, so writing
  /// one refuses it by key path (``PrefsError/Kind/null(path:)``) or, asked to, drops it.
  case null

  /// The integer value `n`, as `.integer` when it fits `Int64`, else `.unsignedInteger`.
  public static func integer(exactly n: UInt64) -> PrefValue {
    n <= UInt64(Int64.max) ? .integer(Int64(n)) : .unsignedInteger(n)
  }

  /// The kind of this value, for messages and type checks.
  public var kind: Kind {
    switch self {
    case .string: .string
    case .integer, .unsignedInteger: .integer
    case .real: .real
    case .bool: .bool
    case .date: .date
    case .data: .data
    case .array: .array
    case .dictionary: .dictionary
    case .uid: .uid
    case .null: .null
    }
  }

  /// The kinds of ``PrefValue``, named as the command line and messages name them.
  public enum Kind: String, Sendable, CaseIterable {
    case string, integer, real, bool, date, data, array, dictionary, uid, null

    /// The word `defaults read-type` uses (`Type is boolean`).
    public var defaultsName: String {
      switch self {
      case .string: "string"
      case .integer: "integer"
      case .real: "float"
      case .bool: "boolean"
      case .date: "date"
      case .data: "data"
      case .array: "array"
      case .dictionary: "dictionary"
      case .uid: "uid"
      case .null: "null"
      }
    }
  }

  /// The dictionary this value holds, if it is one.
  public var dictionaryValue: PrefDictionary? {
    if case .dictionary(let d) = self { return d }
    return nil
  }

  /// The array this value holds, if it is one.
  public var arrayValue: [PrefValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// Whether this value is `.null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The string this value holds, if it is one.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }
}

extension PrefValue: Equatable {
  public static func == (lhs: PrefValue, rhs: PrefValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): sameScalars(a, b)
    case (.integer(let a), .integer(let b)): a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)): a == b
    case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    case (.bool(let a), .bool(let b)): a == b
    case (.date(let a), .date(let b)):
      a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
    case (.data(let a), .data(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.dictionary(let a), .dictionary(let b)): a == b
    case (.uid(let a), .uid(let b)): a == b
    case (.null, .null): true
    default: false
    }
  }
}

/// Whether two strings hold the same Unicode scalars (not merely canonically
/// equivalent ones, as `==` on `String` says): the same UTF-8 bytes.
package func sameScalars(_ a: String, _ b: String) -> Bool {
  guard a.utf8.count == b.utf8.count else { return false }
  // Native strings lend their bytes without a copy (`withUTF8` on a copy would retain
  // and release both on a path every dictionary lookup takes).
  let same = a.utf8.withContiguousStorageIfAvailable { x in
    b.utf8.withContiguousStorageIfAvailable { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
  }
  return (same ?? nil) ?? a.utf8.elementsEqual(b.utf8)
}
