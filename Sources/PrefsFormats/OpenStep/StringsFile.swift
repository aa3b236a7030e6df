import PrefsModel
import PrefsText

/// `.strings` files as genstrings and Xcode write them: a list of `"key" = "value";`
/// entries without braces, each after its `/* comment */` line, a blank line between
/// entries, in UTF-8. ``OpenStepReader`` reads such a list as a dictionary; the
/// patcher writes new entries of one with their key and value quoted.
package enum StringsFile {
  /// What genstrings writes above an entry whose source gives no comment.
  static let noComment = "No comment provided by engineer."

  /// Whether `value` is what a `.strings` file holds: a dictionary of strings, not empty.
  package static func holds(_ value: PrefValue) -> Bool {
    guard case .dictionary(let entries) = value, !entries.isEmpty else { return false }
    return entries.allSatisfy { $0.value.stringValue != nil }
  }

  /// Writes `entries` (a dictionary of strings, as ``holds(_:)`` says) as genstrings does.
  static func write(_ entries: PrefDictionary, sortKeys: Bool, to out: ByteWriter) throws {
    for (index, item) in (sortKeys ? entries.sortedByKey() : entries).enumerated() {
      if index > 0 { try out.write(0x0A) }
      try out.write(Array("/* \(noComment) */\n".utf8))
      try out.write(entry(key: item.key, value: item.value.stringValue ?? ""))
      try out.write(literal: ";\n")
    }
  }

  /// `"key" = "value"`, without the `;`.
  static func entry(key: String, value: String) -> [UInt8] {
    OpenStepWriter.quoted(key) + Array(" = ".utf8) + OpenStepWriter.quoted(value)
  }

  /// Whether an OpenStep text is a list without braces, as a `.strings` file is: its
  /// first byte outside white space and comments is not `{` or `(`.
  static func isList(_ text: [UInt8]) -> Bool {
    var i = 0
    while i < text.count {
      switch text[i] {
      case 0x20, 0x09, 0x0A, 0x0D:
        i += 1
      case UInt8(ascii: "/") where i + 1 < text.count && text[i + 1] == UInt8(ascii: "/"):
        while i < text.count, text[i] != 0x0A { i += 1 }
      case UInt8(ascii: "/") where i + 1 < text.count && text[i + 1] == UInt8(ascii: "*"):
        i += 2
        while i + 1 < text.count, !(text[i] == UInt8(ascii: "*") && text[i + 1] == UInt8(ascii: "/")) { i += 1 }
        i += 2
      case 0xEF where text[i...].starts(with: [0xEF, 0xBB, 0xBF]):
        i += 3
      default:
        return text[i] != UInt8(ascii: "{") && text[i] != UInt8(ascii: "(")
      }
    }
    return false
  }
}
