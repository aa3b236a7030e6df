extension PrefValue {
  /// The kind and a short form of the value, for messages: `string "false"`,
  /// `integer 1`, `data (3 bytes)`, `null`.
  public var summary: String {
    switch self {
    case .null: "null"
    case .string, .integer, .unsignedInteger, .real, .bool, .date, .uid: "\(kind.rawValue) \(literal)"
    case .data(let d): "data (\(d.count) byte\(d.count == 1 ? "" : "s"))"
    case .array(let items): "array (\(items.count) item\(items.count == 1 ? "" : "s"))"
    case .dictionary(let dict): "dictionary (\(dict.count) key\(dict.count == 1 ? "" : "s"))"
    }
  }

  /// The value as a message shows it: `"Chimes"`, `true`, `42`, `1.5`, `.inf`, a date
  /// in ISO 8601, `null`; a short summary for data and containers.
  public var literal: String {
    switch self {
    case .string(let s):
      let short = s.count > 40 ? s.prefix(40) + "…" : Substring(s)
      return "\""
        + short.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
        .replacingAll("\n", with: "\\n") + "\""
    case .real(let r): return TextForms.realOrSpecial(r)
    case .bool(let b): return b ? "true" : "false"
    case .integer(let n): return String(n)
    case .unsignedInteger(let n): return String(n)
    case .date(let d): return TextForms.date(d)
    case .uid(let n): return String(n)
    case .null: return "null"
    case .data, .array, .dictionary: return summary
    }
  }
}
