import PrefsKit

/// What a Swift type, as written, is to a schema: the kind of value `UserDefaults`
/// holds for it, and the kind an encoder writes for it.
enum SwiftTypeShapes {
  static let integerNames: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
  ]
  static let realNames: Set<String> = ["Double", "Float", "CGFloat", "Float32", "Float64", "TimeInterval", "Decimal"]

  /// The kind of a plain Swift type (`Bool`, `[String]`), ignoring an optional; nil
  /// for a type of the app's own (an enum, a structure) or one prefs cannot tell.
  static func kind(of text: String) -> ValueText.TypeName? {
    let text = text.trimmingOptional.trimmingModule
    if text == "Bool" { return .bool }
    if integerNames.contains(text) { return .integer }
    if realNames.contains(text) { return .real }
    if ["String", "Character", "URL", "UUID"].contains(text) { return .string }
    if text == "Date" { return .date }
    if text == "Data" { return .data }
    if elementType(of: text) != nil { return .array }
    if text.hasPrefix("["), text.contains(":") { return .dict }
    if text.hasPrefix("Dictionary<") || text.hasPrefix("[String: ") { return .dict }
    return nil
  }

  /// The element type of an array type: `[Item]` to `Item`, `Array<Item>` and `Set<Item>` too.
  static func elementType(of text: String) -> String? {
    if text.hasPrefix("["), text.hasSuffix("]"), !topLevelContains(text.dropFirst().dropLast(), ":") {
      return String(text.dropFirst().dropLast().filter { $0 != " " })
    }
    for prefix in ["Array<", "Set<", "ContiguousArray<"] where text.hasPrefix(prefix) && text.hasSuffix(">") {
      return String(text.dropFirst(prefix.count).dropLast())
    }
    return nil
  }

  /// Whether `character` stands in `text` outside brackets.
  private static func topLevelContains(_ text: Substring, _ character: Character) -> Bool {
    var depth = 0
    for c in text {
      if c == "[" || c == "<" || c == "(" { depth += 1 }
      if c == "]" || c == ">" || c == ")" { depth -= 1 }
      if c == character, depth == 0 { return true }
    }
    return false
  }

  /// The Swift type of a literal value, for a property declared without a type.
  static func literalType(of value: ValueExpression) -> String? {
    guard case .value(let value) = value else { return nil }
    switch value {
    case .bool: return "Bool"
    case .integer: return "Int"
    case .real: return "Double"
    case .string: return "String"
    default: return nil
    }
  }

  /// The kind an encoder writes for a plain Swift type: JSON has no dates or data
  /// (`JSONEncoder` writes a date as seconds since 2001, data as base64 text).
  static func encodedKind(of text: String, encoding: DataEncoding) -> ValueText.TypeName? {
    let kind = kind(of: text)
    guard encoding == .json else { return kind }
    switch kind {
    case .date?: return .real
    case .data?: return .string
    default: return kind
    }
  }
}

extension String {
  /// `Foundation.Date` to `Date`, `Swift.Int` to `Int`.
  var trimmingModule: String {
    for module in ["Swift.", "Foundation.", "CoreGraphics."] where hasPrefix(module) {
      return String(dropFirst(module.count))
    }
    return self
  }
}
