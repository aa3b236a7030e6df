// Hashing, literals, descriptions and Codable for the model, each consistent with its
// type-strict equality.

// MARK: - Hashable

extension PrefValue: Hashable {
  /// Hashes exactly what `==` compares: the case, strings by their Unicode scalars,
  /// reals and dates by bit pattern (every NaN alike), dictionaries regardless of
  /// key order. So `0.0` and `-0.0` hash apart, and equal values always hash alike.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .string(let s):
      hasher.combine(0 as UInt8)
      hasher.combine(ScalarKey(s))
    case .integer(let n):
      hasher.combine(1 as UInt8)
      hasher.combine(n)
    case .unsignedInteger(let n):
      hasher.combine(2 as UInt8)
      hasher.combine(n)
    case .real(let r):
      hasher.combine(3 as UInt8)
      hasher.combine(r.isNaN ? Double.nan.bitPattern : r.bitPattern)
    case .bool(let b):
      hasher.combine(4 as UInt8)
      hasher.combine(b)
    case .date(let d):
      hasher.combine(5 as UInt8)
      hasher.combine(d.timeIntervalSinceReferenceDate.bitPattern)
    case .data(let d):
      hasher.combine(6 as UInt8)
      hasher.combine(d)
    case .array(let items):
      hasher.combine(7 as UInt8)
      hasher.combine(items)
    case .dictionary(let d):
      hasher.combine(8 as UInt8)
      hasher.combine(d)
    case .uid(let n):
      hasher.combine(9 as UInt8)
      hasher.combine(n)
    case .null:
      hasher.combine(10 as UInt8)
    }
  }
}

extension PrefDictionary: Hashable {
  /// Hashes the entries regardless of their order, as `==` compares them: each
  /// key (by its Unicode scalars) and value is hashed on its own and the results
  /// are summed.
  public func hash(into hasher: inout Hasher) {
    var sum = 0
    for (key, value) in self {
      var entry = Hasher()
      entry.combine(ScalarKey(key))
      entry.combine(value)
      sum &+= entry.finalize()
    }
    hasher.combine(count)
    hasher.combine(sum)
  }
}

// MARK: - Literals

extension PrefValue: ExpressibleByStringLiteral {
  /// A `.string`: `let ringtone: PrefValue = "Chimes"`.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension PrefValue: ExpressibleByIntegerLiteral {
  /// An `.integer`: `let count: PrefValue = 3`.
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PrefValue: ExpressibleByFloatLiteral {
  /// A `.real`: `let ratio: PrefValue = 1.0` (a real, not the integer 1).
  public init(floatLiteral value: Double) { self = .real(value) }
}

extension PrefValue: ExpressibleByBooleanLiteral {
  /// A `.bool`: `let isPrivate: PrefValue = true`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PrefValue: ExpressibleByArrayLiteral {
  /// An `.array`: `let tones: PrefValue = ["Chimes", "Signal"]`.
  public init(arrayLiteral elements: PrefValue...) { self = .array(elements) }
}

extension PrefValue: ExpressibleByDictionaryLiteral {
  /// A `.dictionary` with its keys in the literal's order: `let settings: PrefValue = ["ringtone": "Chimes"]`.
  /// A key written twice keeps its first place and its last value.
  public init(dictionaryLiteral elements: (String, PrefValue)...) {
    self = .dictionary(PrefDictionary(elements.map { (key: $0.0, value: $0.1) }))
  }
}

// MARK: - Descriptions

extension PrefValue: CustomStringConvertible, CustomDebugStringConvertible {
  /// The value in a short form that tells every kind apart, in the style of a Swift
  /// literal: a string quoted with Swift's escapes (`"Chimes"`), an integer as digits
  /// (`1`), a real always with a `.` or an exponent (`1.0`, `1.0e+20`, `.inf`, `-.inf`,
  /// `.nan`), `true`/`false`, a date unquoted in ISO 8601 UTC (`2023-11-14T22:13:20Z`),
  /// `<data 3 bytes>`, `<uid 5>`, `null`, an array as `[1, 2]` and a dictionary, in its
  /// order, as `["a": 1]` (`[:]` when empty).
  public var description: String {
    switch self {
    case .string(let s): Self.quoted(s)
    case .integer(let n): String(n)
    case .unsignedInteger(let n): String(n)
    case .real(let r): TextForms.realOrSpecial(r)
    case .bool(let b): b ? "true" : "false"
    case .date(let d): TextForms.date(d)
    case .data(let d): "<data \(d.count) byte\(d.count == 1 ? "" : "s")>"
    case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
    case .dictionary(let d): d.description
    case .uid(let n): "<uid \(n)>"
    case .null: "null"
    }
  }

  /// The value with the case of every node spelled out, as Swift code would build it:
  /// `.dictionary(["ratio": .real(1.0), "blob": .data(<00 01>)])`. Data shows its first
  /// 32 bytes in hex.
  public var debugDescription: String {
    switch self {
    case .string(let s): ".string(\(Self.quoted(s)))"
    case .integer(let n): ".integer(\(n))"
    case .unsignedInteger(let n): ".unsignedInteger(\(n))"
    case .real: ".real(\(description))"
    case .bool(let b): ".bool(\(b))"
    case .date(let d): ".date(\(TextForms.date(d)))"
    case .data(let d):
      ".data(<"
        + d.prefix(32).map { hexBytes([$0]) }.joined(separator: " ")
        + (d.count > 32 ? " … \(d.count) bytes" : "") + ">)"
    case .array(let items): ".array([" + items.map(\.debugDescription).joined(separator: ", ") + "])"
    case .dictionary(let dictionary):
      dictionary.isEmpty
        ? ".dictionary([:])"
        : ".dictionary(["
          + dictionary.map { "\(Self.quoted($0.key)): \($0.value.debugDescription)" }.joined(separator: ", ") + "])"
    case .uid(let n): ".uid(\(n))"
    case .null: ".null"
    }
  }

  /// `text` in double quotes with Swift's escapes (`\0`, `\u{1b}` for other controls).
  static func quoted(_ text: String) -> String {
    doubleQuoted(text) { $0 == "\0" ? "\\0" : "\\u{\(String($0.value, radix: 16))}" }
  }
}

extension PrefDictionary: CustomStringConvertible {
  /// The entries in their order, in the form of ``PrefValue/description``: `["a": 1]`, or `[:]` when empty.
  public var description: String {
    guard !isEmpty else { return "[:]" }
    return "[" + map { "\(PrefValue.quoted($0.key)): \($0.value)" }.joined(separator: ", ") + "]"
  }
}

// MARK: - Codable

extension PrefValue: Codable {
  /// Writes the value through any `Encoder`. ``PrefsEncoder`` stores it as it is;
  /// other encoders get each kind's nearest `Codable` form: dates and data as their own
  /// `Codable` forms, an array as an unkeyed container, a dictionary as a keyed one
  /// in its order, a UID as its number (as plain JSON writes it) and a null as `nil`.
  public func encode(to encoder: any Encoder) throws {
    if let encoder = encoder as? any PrefValueEncoding { return encoder.store(self) }
    switch self {
    case .array(let items):
      var container = encoder.unkeyedContainer()
      for item in items { try container.encode(item) }
    case .dictionary(let dictionary):
      var container = encoder.container(keyedBy: AnyKey.self)
      for (key, value) in dictionary { try container.encode(value, forKey: AnyKey(key)) }
    default:
      var container = encoder.singleValueContainer()
      switch self {
      case .string(let s): try container.encode(s)
      case .integer(let n): try container.encode(n)
      case .unsignedInteger(let n), .uid(let n): try container.encode(n)
      case .real(let r): try container.encode(r)
      case .bool(let b): try container.encode(b)
      case .date(let d): try container.encode(d)
      case .data(let d): try container.encode(d)
      case .null: try container.encodeNil()
      case .array, .dictionary: break
      }
    }
  }

  /// Reads a value from any `Decoder`. ``PrefsDecoder`` gives the value as it is;
  /// other decoders are asked, in turn, for a dictionary, an array, a `nil` (null), a
  /// `Bool`, an integer, a `Double` and a `String`, so that dates and data come back as
  /// whatever form that decoder keeps them in.
  public init(from decoder: any Decoder) throws {
    if let decoder = decoder as? any PrefValueDecoding {
      self = decoder.prefValue
    } else if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
      var dictionary = PrefDictionary()
      for key in keyed.allKeys { dictionary[key.stringValue] = try keyed.decode(PrefValue.self, forKey: key) }
      self = .dictionary(dictionary)
    } else if var unkeyed = try? decoder.unkeyedContainer() {
      var items: [PrefValue] = []
      while !unkeyed.isAtEnd { items.append(try unkeyed.decode(PrefValue.self)) }
      self = .array(items)
    } else {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let b = try? container.decode(Bool.self) {
        self = .bool(b)
      } else if let n = try? container.decode(Int64.self) {
        self = .integer(n)
      } else if let n = try? container.decode(UInt64.self) {
        self = .unsignedInteger(n)
      } else if let r = try? container.decode(Double.self) {
        self = .real(r)
      } else if let s = try? container.decode(String.self) {
        self = .string(s)
      } else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "not a string, number, boolean, null, array or dictionary")
      }
    }
  }

  /// Any string as a coding key, for dictionaries.
  private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ key: String) { stringValue = key }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
  }
}

/// An `Encoder` that stores a ``PrefValue`` as it is (PrefsKit's), so that a value
/// encoded through its own `encode(to:)` keeps its kind (a UID stays a UID).
package protocol PrefValueEncoding: Encoder {
  /// Stores `value` as the encoder's value.
  func store(_ value: PrefValue)
}

/// A `Decoder` over a ``PrefValue`` (PrefsKit's), so that `PrefValue(from:)` gives it as it is.
package protocol PrefValueDecoding: Decoder {
  /// The value being decoded.
  var prefValue: PrefValue { get }
}
