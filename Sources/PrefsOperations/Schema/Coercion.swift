import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// The rules `import --schema` uses to turn a value of the wrong type into the type
/// the app reads; nothing else is ever converted.
public enum CoercionRule: String, Sendable, CaseIterable {
  /// `"true"`, `"yes"`, `"1"` and `"false"`, `"no"`, `"0"` (any case) to a bool.
  case boolWord = "boolean word"
  /// Integer 0 or 1 to a bool (on Linux a stored 1 is not a `Bool`).
  case boolNumber = "0 or 1"
  /// An integer or real to its decimal text, for a string key (`42` to `"42"`).
  case numberToString = "number as text"
  /// A string holding a decimal integer to that integer (`"42"`).
  case integerString = "integer text"
  /// A string holding a decimal number to that real (`"1.5"`, `"42"`).
  case realString = "number text"
  /// An integer to the same real, when the real holds it exactly.
  case integerToReal = "integer as real"
  /// A real without a fraction to the same integer (`42.0`).
  case wholeReal = "whole real"
  /// A string holding an ISO 8601 date to that date (`"2023-11-14T22:13:20Z"`).
  case isoDate = "ISO 8601 text"
  /// A string that is one of the values a schema allows but for letter case, to that
  /// value (`"Left"` to `"left"` for a range list of `bottom`, `left`, `right`).
  case allowedValue = "allowed value"
}

/// One value changed by ``Schema/coerce(_:at:)``.
public struct Coercion: Sendable, Equatable, CustomStringConvertible {
  public var path: PrefKeyPath
  public var from: PrefValue
  public var to: PrefValue
  public var rule: CoercionRule

  public init(path: PrefKeyPath, from: PrefValue, to: PrefValue, rule: CoercionRule) {
    self.path = path
    self.from = from
    self.to = to
    self.rule = rule
  }

  /// `isAccountPrivate: coerced string "false" to bool false (boolean word)`.
  public var description: String { "\(path): coerced \(from.summary) to \(to.summary) (\(rule.rawValue))" }
}

extension Schema {
  /// The contents with every value the app would discard coerced by the rules of
  /// ``CoercionRule``; what is left that still does not fit is in `remaining` (the
  /// findings of ``check(_:at:)`` on the result, unknown keys included).
  public func coerce(_ contents: PrefDictionary, at path: PrefKeyPath = PrefKeyPath()) -> (
    result: PrefDictionary, coercions: [Coercion], remaining: [SchemaFinding]
  ) {
    var result = contents
    var coercions: [Coercion] = []
    coerceInPlace(&result, at: path, into: &coercions)
    return (result, coercions, check(result, at: path))
  }

  fileprivate func coerceInPlace(
    _ contents: inout PrefDictionary, at path: PrefKeyPath, into coercions: inout [Coercion]
  ) {
    for key in keys {
      guard let stored = contents[key.name] else { continue }
      let keyPath = path.appending(key: key.name)
      contents[key.name] = key.coerced(stored, at: keyPath, into: &coercions)
    }
    if let otherKey {
      for (name, stored) in contents where self.key(name) == nil {
        contents[name] = otherKey.coerced(stored, at: path.appending(key: name), into: &coercions)
      }
    }
  }

  /// `value` as `type` by one of the rules, or nil when no rule applies.
  ///
  /// A string that is one of `values` but for case, and a string or number whose
  /// value is one of `values` once coerced, become that value (``CoercionRule/allowedValue``).
  public static func coerced(_ value: PrefValue, to type: ValueText.TypeName) -> (PrefValue, CoercionRule)? {
    switch (type, value) {
    // Strings are read by the command line's own rules (one table of boolean words).
    case (.bool, .string(let s)):
      return (try? ValueText.parse(s, as: .bool)).map { ($0, .boolWord) }
    case (.bool, .integer(let n)) where n == 0 || n == 1:
      return (.bool(n == 1), .boolNumber)
    case (.string, .integer), (.string, .unsignedInteger):
      return (.string(ValueText.raw(value)!), .numberToString)
    case (.string, .real(let r)) where r.isFinite:
      return (.string(TextForms.real(r)!), .numberToString)
    case (.integer, .string(let s)):
      return (try? ValueText.parse(s, as: .integer)).map { ($0, .integerString) }
    case (.integer, .real(let r)):
      return Int64(exactly: r).map { (.integer($0), .wholeReal) }
    case (.real, .string(let s)) where s.allSatisfy({ "0123456789+-.eE".contains($0) }):
      return TextForms.parseReal(Substring(s)).map { (.real($0), .realString) }
    case (.real, .integer(let n)):
      return Double(exactly: n).map { (.real($0), .integerToReal) }
    case (.date, .string(let s)):
      return (try? ValueText.parse(s, as: .date)).map { ($0, .isoDate) }
    default:
      return nil
    }
  }
}

extension SchemaKey {
  /// `stored` coerced to this key's type by the rules of ``CoercionRule``, then to one
  /// of its allowed values (``CoercionRule/allowedValue``); a dictionary's keys and an
  /// array's items are coerced by their own schemas. Each change is added to `coercions`.
  func coerced(_ stored: PrefValue, at path: PrefKeyPath, into coercions: inout [Coercion]) -> PrefValue {
    if allowsAnyType { return stored }
    var value = stored
    if value.kind != type.kind, let (typed, rule) = Schema.coerced(value, to: type) {
      coercions.append(Coercion(path: path, from: value, to: typed, rule: rule))
      value = typed
    }
    if let values, !values.contains(value), case .string(let text) = value,
      let match = values.first(where: { $0.stringValue?.lowercased() == text.lowercased() })
    {
      coercions.append(Coercion(path: path, from: value, to: match, rule: .allowedValue))
      value = match
    }
    switch value {
    case .dictionary(var inner) where keys != nil:
      keys?.coerceInPlace(&inner, at: path, into: &coercions)
      return .dictionary(inner)
    case .array(let elements) where items != nil:
      return .array(elements.enumerated().map { items!.coerced($1, at: path.appending(index: $0), into: &coercions) })
    default:
      return value
    }
  }
}
