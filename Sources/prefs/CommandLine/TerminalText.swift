import PrefsKit

/// Text for a person's terminal: the one escaping of control characters that came
/// from a file (a key, an XML `encoding=` name, a value in a message), so that no
/// input can move the cursor, retitle the window or hide a line. Messages, hints,
/// warnings, diff lines and lint findings go through it; documents written as data
/// (`convert`, `export`, `read` of a value) do not.
enum TerminalText {
  /// `text` with each control character (C0 but line breaks and tabs when
  /// `keepingLineBreaks`, else C0 but tabs; DEL; C1) written as `\xHH` or `\u{HHHH}`.
  static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let value = scalar.value
      let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
      let kept = value == 0x09 || (keepingLineBreaks && value == 0x0A)
      guard isControl, !kept else {
        result.append(scalar)
        continue
      }
      let hex = String(value, radix: 16, uppercase: true)
      let shown = value <= 0xFF ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex : "\\u{\(hex)}"
      result.append(contentsOf: shown.unicodeScalars)
    }
    return String(result)
  }
}
