import PrefsKit

/// Text for a person's terminal: the one classification of what may not reach a
/// terminal as itself, and the escaping of messages that came from a file (a key, an
/// XML `encoding=` name, a value in a message), so that no input can move the cursor,
/// retitle the window, hide a line or reorder what a person reads. Messages, hints,
/// warnings, diff lines and lint findings go through `escaped`; the form draws its
/// screen through `Terminal.visible`, which shows the same characters its own way.
/// Documents written as data (`convert`, `export`, `read` of a value) go through neither.
enum TerminalText {
  /// Whether `scalar` must be shown as an escape: C0 controls, DEL and C1 controls
  /// (they move the cursor or start an escape sequence), the line and paragraph
  /// separators, and the bidirectional controls (they reorder the text around them).
  static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// `text` with each character that `mustEscape` names written as `\xHH` (up to
  /// 0xFF) or `\u{HHHH}`, except tabs, and line breaks when `keepingLineBreaks`.
  static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
    guard text.unicodeScalars.contains(where: mustEscape) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let value = scalar.value
      let kept = value == 0x09 || (keepingLineBreaks && value == 0x0A)
      guard mustEscape(scalar), !kept else {
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
