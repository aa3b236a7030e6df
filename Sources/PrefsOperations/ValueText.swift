import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// Values typed on the command line (`prefs write`, `prefs set`): bools as
/// `true/false/yes/no/1/0`, dates in ISO 8601, data in hex (`-data`) or base64
/// (`--type data`), arrays and dictionaries as JSON or YAML flow text, a null as `null`
/// (`--type null`; YAML and JSON hold it, a property list does not).
public enum ValueText {
  /// The kinds a value can be given as, with the names `--type` accepts.
  public enum TypeName: String, Sendable, CaseIterable {
    case string, integer, real, bool, date, data, array, dict, null

    /// `--type` spellings, including the `defaults` words (`int`, `float`, `boolean`).
    public static func named(_ text: String) -> TypeName? {
      switch text.lowercased() {
      case "string", "str": .string
      case "integer", "int": .integer
      case "real", "float", "double": .real
      case "bool", "boolean": .bool
      case "date": .date
      case "data": .data
      case "array": .array
      case "dict", "dictionary": .dict
      case "null": .null
      default: nil
      }
    }
  }

  /// Reads `text` as a value of `type`. Data is base64 unless `hexData` (as
  /// `defaults -data` takes it), see ``parseData(_:hexData:)``; arrays and dictionaries are JSON or YAML flow text
  /// (`[1, 2]`, `{a: 1}`); a null is `null` or `~`, as YAML writes it.
  public static func parse(_ text: String, as type: TypeName, hexData: Bool = false) throws -> PrefValue {
    func refuse(_ expected: String) -> PrefsError {
      PrefsError(.invalidValue(text: text, expected: expected))
    }
    switch type {
    case .string:
      return .string(text)
    case .integer:
      if let n = Int64(text) { return .integer(n) }
      if let n = UInt64(text) { return .unsignedInteger(n) }
      throw refuse("an integer (64 bits)")
    case .real:
      switch text.lowercased() {
      case "inf", "+inf", ".inf", "infinity": return .real(.infinity)
      case "-inf", "-.inf", "-infinity": return .real(-.infinity)
      // NaN has no sign worth keeping: `-float -nan` is NaN, as `-float nan` is.
      case "nan", ".nan", "-nan", "+nan": return .real(.nan)
      default:
        guard let real = TextForms.parseReal(Substring(text)) else { throw refuse("a real number") }
        return .real(real)
      }
    case .bool:
      switch text.lowercased() {
      case "true", "yes", "1": return .bool(true)
      case "false", "no", "0": return .bool(false)
      default: throw refuse("a boolean (true/false, yes/no, 1/0)")
      }
    case .date:
      guard let date = TextForms.parseDate(text) else { throw refuse("an ISO 8601 date (2023-11-14T22:13:20Z)") }
      return .date(date)
    case .data:
      return .data(try parseData(text, hexData: hexData))
    case .null:
      guard text == "null" || text == "~" else { throw refuse("null (null or ~)") }
      return .null
    case .array, .dict:
      let value: PrefValue
      do {
        value = try Format.read(Data(text.utf8)).value
      } catch let error as PrefsError {
        throw refuse("a valid \(type.rawValue): \(error.message)")
      }
      guard value.kind == (type == .array ? .array : .dictionary) else {
        throw refuse(type == .array ? "an array ([a, b])" : "a dictionary ({key: value})")
      }
      return value
    }
  }

  /// Whether `text`, given without a type, is a property list as `defaults write`
  /// takes one: it starts with `<` (an XML fragment such as `<dict>…</dict>` or
  /// `<true/>`, or OpenStep data), `(` or `{` (OpenStep: `(a, b)`, `{a = 1;}`).
  public static func startsAsPropertyList(_ text: String) -> Bool {
    guard let first = text.first else { return false }
    return first == "<" || first == "(" || first == "{"
  }

  /// Reads `text` as the property list it starts as (``startsAsPropertyList(_:)``):
  /// an XML fragment or element, or OpenStep text. Text that does not read is an
  /// `invalidValue` error, never a string.
  public static func parsePropertyList(_ text: String) throws -> PrefValue {
    do {
      // A plist-declared read takes whichever plist variant the text starts as.
      return try Format.read(Data(text.utf8), declared: .openStep).value
    } catch let error as PrefsError {
      throw PrefsError(.invalidValue(text: text, expected: "a property list (\(error.message))"))
    }
  }

  /// Reads `text` given without a type (no `--type`, no `-int`), for a key that holds
  /// `existing` (nil: a new key). A value that would change the key's type silently
  /// (the string `"false"` where an app reads a bool) is never stored:
  /// - an existing scalar keeps its type when the text reads as that type (`false`
  ///   for a bool, `3` for a real), and is refused otherwise (a `typeMismatch` error);
  /// - an existing array or dictionary is refused: it takes a type;
  /// - a new key is a string, as `defaults write` stores it; when the text reads as
  ///   a number, bool, date or null, that value is returned too, for a warning.
  /// A key that holds null keeps it for `null`; any other text takes a type, as the
  /// string `"null"` and the null stay two values.
  /// Returns the value and what else the text reads as.
  /// `key` names the key in errors.
  public static func parseUntyped(_ text: String, existing: PrefValue?, key: String) throws -> (
    PrefValue, readsAs: PrefValue?
  ) {
    guard let existing else {
      for type in [TypeName.integer, .real, .bool, .date, .null] {
        if let value = try? parse(text, as: type) { return (.string(text), value) }
      }
      return (.string(text), nil)
    }
    let kind = existing.kind
    let type: TypeName? =
      switch kind {
      case .string: .string
      case .integer: .integer
      case .real: .real
      case .bool: .bool
      case .date: .date
      case .null: .null
      case .data, .array, .dictionary, .uid: nil
      }
    if let type, let value = try? parse(text, as: type) { return (value, nil) }
    throw PrefsError(.typeMismatch(text: text, key: key, holds: kind))
  }

  /// Data typed as text: hex when `hexData` (as `defaults -data` takes it), else
  /// base64. A text the other spelling reads too is never turned into other bytes
  /// than were meant: base64 that is also hex (`0a1b`) is refused as ambiguous, and
  /// text that is not the asked spelling says whether it is the other.
  public static func parseData(_ text: String, hexData: Bool) throws -> Data {
    let hex = hexDecoded(text)
    // The one strict decoder every reader uses.
    let base64 = try? Base64.decode(text)
    if hexData {
      if let hex { return hex }
      throw PrefsError(.invalidData(text: text, expected: .hex, readsAsOther: base64 != nil))
    }
    guard let base64 else {
      throw PrefsError(.invalidData(text: text, expected: .base64, readsAsOther: hex != nil))
    }
    if hex != nil, !text.isEmpty { throw PrefsError(.ambiguousData(text: text, base64: base64)) }
    return base64
  }

  /// Bytes from hex text; white space and `<` `>` are ignored, as `defaults` does.
  public static func hexDecoded(_ text: String) -> Data? {
    let digits = text.filter { !$0.isWhitespace && $0 != "<" && $0 != ">" }
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
      let next = digits.index(index, offsetBy: 2)
      guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return Data(bytes)
  }

  /// A scalar as `read` prints it: raw, as `defaults read` does (bools as 1 and 0,
  /// data as hex); nil for containers, which are printed as YAML. With
  /// `booleanWords`, bools are `true` and `false`, as `get` prints them.
  public static func raw(_ value: PrefValue, booleanWords: Bool = false) -> String? {
    if booleanWords, case .bool(let b) = value { return b ? "true" : "false" }
    return switch value {
    case .string(let s): s
    case .integer(let n): String(n)
    case .unsignedInteger(let n): String(n)
    case .real(let r): TextForms.realOrWord(r)
    case .bool(let b): b ? "1" : "0"
    case .date(let d): TextForms.date(d)
    case .data(let d): hexBytes(d)
    case .uid(let n): String(n)
    case .null: "null"
    case .array, .dictionary: nil
    }
  }
}
