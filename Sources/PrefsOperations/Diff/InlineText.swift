import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

extension PrefValue {
  /// The value on one line, for diff output and messages: strings quoted, reals and
  /// dates in their text forms, data as hex, a null as `null`, containers in flow style; long text is
  /// cut at about `limit` characters with `…`.
  public func inlineText(limit: Int = 80) -> String {
    var text = ""
    appendInline(to: &text, limit: limit)
    return text.count > limit ? String(text.prefix(limit)) + "…" : text
  }

  private func appendInline(to text: inout String, limit: Int) {
    guard text.count <= limit else { return }
    switch self {
    case .string(let s): text += Self.quoted(s)
    case .integer(let n): text += String(n)
    case .unsignedInteger(let n): text += String(n)
    case .real(let r): text += TextForms.realOrSpecial(r)
    case .bool(let b): text += b ? "true" : "false"
    case .date(let d): text += TextForms.date(d)
    case .data(let d):
      let shown = hexBytes(d.prefix(16))
      text += d.count > 16 ? "<\(shown)… (\(d.count) bytes)>" : "<\(shown)>"
    case .uid(let n): text += "uid(\(n))"
    case .null: text += "null"
    case .array(let items):
      text += "["
      for (index, item) in items.enumerated() {
        if index > 0 { text += ", " }
        item.appendInline(to: &text, limit: limit)
        if text.count > limit { return }
      }
      text += "]"
    case .dictionary(let dict):
      text += "{"
      for (index, entry) in dict.enumerated() {
        if index > 0 { text += ", " }
        text += Self.quoted(entry.key) + ": "
        entry.value.appendInline(to: &text, limit: limit)
        if text.count > limit { return }
      }
      text += "}"
    }
  }

  /// A string in double quotes with JSON escapes.
  static func quoted(_ s: String) -> String {
    doubleQuoted(s) { "\\u" + hexDigits($0.value, width: 4) }
  }
}

extension PrefChange {
  /// The change on one line: `~ path: old -> new`, `+ path: new`, `- path: old`;
  /// a change of type names both types.
  public var line: String { line(location: path.nameInMessages) }

  /// ``line`` for a change in the document of a stream that `document` names
  /// (`[2]`, `[Deployment/web]`): `~ [2] spec.replicas: 2 -> 3`.
  public func line(inDocument document: String) -> String {
    line(location: path.components.isEmpty ? document : document + " " + path.description)
  }

  private func line(location: String) -> String {
    switch kind {
    case .added: return "+ \(location): \(new!.inlineText())"
    case .removed: return "- \(location): \(old!.inlineText())"
    case .changed:
      if changesType {
        return
          "~ \(location): \(old!.inlineText()) (\(old!.kind.rawValue)) -> \(new!.inlineText()) (\(new!.kind.rawValue))"
      }
      return "~ \(location): \(old!.inlineText()) -> \(new!.inlineText())"
    }
  }
}
