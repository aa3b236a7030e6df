import PrefsModel
import PrefsText

/// JSON's grammar alone (RFC 8259), without building a value: whether a text is
/// JSON, and where a value ends. Sniffing uses it (a text that is JSON by its syntax
/// keeps the JSON reader's error), and the reader looks ahead with it.
enum JSONGrammar {
  static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

  /// Whether `bytes` hold exactly one JSON value (a UTF-8 byte order mark and white
  /// space around it allowed).
  static func isJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var p = TextEncoding.utf8MarkLength(bytes)
    while p < bytes.count, isSpace(bytes[p]) { p += 1 }
    guard var end = endOfValue(in: bytes, from: p) else { return false }
    while end < bytes.count, isSpace(bytes[end]) { end += 1 }
    return end == bytes.count
  }

  /// Where the value starting at `start` ends, or nil when it is not JSON. Nesting
  /// is kept on a stack of brackets, never the call stack.
  static func endOfValue(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var p = start
    var open: [UInt8] = []
    func skipSpace() { while p < bytes.count, isSpace(bytes[p]) { p += 1 } }
    func at(_ c: Character) -> Bool { p < bytes.count && bytes[p] == c.asciiValue! }
    while true {
      // A value.
      skipSpace()
      guard p < bytes.count else { return nil }
      switch bytes[p] {
      case UInt8(ascii: "{"):
        open.append(UInt8(ascii: "}"))
        p += 1
        skipSpace()
        if at("}") {
          open.removeLast()
          p += 1
        } else {
          guard skipKey(bytes, &p) else { return nil }
          continue
        }
      case UInt8(ascii: "["):
        open.append(UInt8(ascii: "]"))
        p += 1
        skipSpace()
        if at("]") {
          open.removeLast()
          p += 1
        } else {
          continue
        }
      case UInt8(ascii: "\""):
        guard skipString(bytes, &p) else { return nil }
      case UInt8(ascii: "t"): guard skipWord("true", bytes, &p) else { return nil }
      case UInt8(ascii: "f"): guard skipWord("false", bytes, &p) else { return nil }
      case UInt8(ascii: "n"): guard skipWord("null", bytes, &p) else { return nil }
      default: guard skipNumber(bytes, &p) else { return nil }
      }
      // After a value: close brackets, or a separator before the next value.
      while true {
        guard let close = open.last else { return p }
        skipSpace()
        guard p < bytes.count else { return nil }
        if bytes[p] == close {
          open.removeLast()
          p += 1
          continue
        }
        guard bytes[p] == UInt8(ascii: ",") else { return nil }
        p += 1
        if close == UInt8(ascii: "}") {
          skipSpace()
          guard skipKey(bytes, &p) else { return nil }
        }
        break
      }
    }
  }

  /// A member's key and its `:`.
  private static func skipKey(_ bytes: UnsafeBufferPointer<UInt8>, _ p: inout Int) -> Bool {
    guard p < bytes.count, bytes[p] == UInt8(ascii: "\""), skipString(bytes, &p) else { return false }
    while p < bytes.count, isSpace(bytes[p]) { p += 1 }
    guard p < bytes.count, bytes[p] == UInt8(ascii: ":") else { return false }
    p += 1
    return true
  }

  private static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, _ p: inout Int) -> Bool {
    p += 1
    while p < bytes.count {
      let b = bytes[p]
      p += 1
      switch b {
      case UInt8(ascii: "\""): return true
      case UInt8(ascii: "\\"):
        guard p < bytes.count else { return false }
        let e = bytes[p]
        p += 1
        if e == UInt8(ascii: "u") {
          guard p + 4 <= bytes.count,
            bytes[p..<(p + 4)].allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit })
          else { return false }
          p += 4
        } else if !"\"\\/bfnrt".utf8.contains(e) {
          return false
        }
      case 0..<0x20: return false
      default: break
      }
    }
    return false
  }

  private static func skipWord(_ word: String, _ bytes: UnsafeBufferPointer<UInt8>, _ p: inout Int) -> Bool {
    for c in word.utf8 {
      guard p < bytes.count, bytes[p] == c else { return false }
      p += 1
    }
    return true
  }

  private static func skipNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ p: inout Int) -> Bool {
    func digit() -> Bool { p < bytes.count && bytes[p] >= 0x30 && bytes[p] <= 0x39 }
    func digits() -> Bool {
      guard digit() else { return false }
      while digit() { p += 1 }
      return true
    }
    if p < bytes.count, bytes[p] == UInt8(ascii: "-") { p += 1 }
    if p < bytes.count, bytes[p] == UInt8(ascii: "0") {
      p += 1
    } else if !digits() {
      return false
    }
    if p < bytes.count, bytes[p] == UInt8(ascii: ".") {
      p += 1
      guard digits() else { return false }
    }
    if p < bytes.count, bytes[p] == UInt8(ascii: "e") || bytes[p] == UInt8(ascii: "E") {
      p += 1
      if p < bytes.count, bytes[p] == UInt8(ascii: "+") || bytes[p] == UInt8(ascii: "-") { p += 1 }
      guard digits() else { return false }
    }
    return true
  }
}

extension JSONGrammar {
  /// Whether `data` holds exactly one JSON value.
  static func isJSON(_ data: Data) -> Bool {
    data.withUnsafeBytes { isJSON($0.bindMemory(to: UInt8.self)) }
  }
}
