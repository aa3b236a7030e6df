import Foundation

/// A native reader for UTF-8 XML property lists, proven equal to
/// `PropertyListSerialization` on the corpus by a differential test.
///
/// It keeps dictionary keys in document order, gives errors with line and column,
/// and refuses what Foundation silently changes:
/// - duplicate dictionary keys (Foundation keeps the last),
/// - reals out of range (`1e400`; Foundation gives infinity),
/// - integers outside `Int64`/`UInt64`,
/// - base64 that is not base64 (Foundation gives empty or partial data),
/// - impossible dates (`2023-02-30`; Foundation moves them to another day),
/// - content after the root element (Foundation ignores it).
///
/// It accepts what Foundation accepts in well-formed files: hexadecimal integers
/// (`0x10`), `+`/`-` signs, `inf`/`infinity`/`nan` reals, `<true></true>`, attributes,
/// comments and processing instructions between elements, CDATA, character references,
/// a bare root element without `<plist>`. Like Foundation it refuses a comment inside
/// the text of a `<key>` or `<string>`, and a DOCTYPE internal subset (entity
/// declarations).
///
/// A `CF$UID` dictionary (one key, an integer from 0 to 2^32-1) reads as a UID, as CF
/// reads it; one with any other value stays a dictionary (Foundation would truncate it).
///
/// Documents in another encoding than UTF-8 are left to Foundation (see ``canRead(_:)``).
struct XMLPlistReader {
  private let bytes: [UInt8]
  private var i = 0
  private let maxDepth: Int

  init(_ data: Data, maxDepth: Int) {
    bytes = [UInt8](data)
    self.maxDepth = maxDepth
  }

  /// Whether the document is UTF-8 (no UTF-16 byte order mark or NUL bytes up front,
  /// and no other encoding declared).
  static func canRead(_ data: Data) -> Bool {
    let head = data.prefix(256)
    // UTF-16 or UTF-32 without a byte order mark has a NUL among the first bytes of
    // `<?xml`; a NUL later on is an error for the native reader to report.
    if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.prefix(4).contains(0) {
      return false
    }
    let text = String(decoding: head, as: UTF8.self)
    guard text.contains("<?xml"), let range = text.range(of: "encoding") else { return true }
    let rest = text[range.upperBound...].drop(while: {
      $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'"
    })
    let name = rest.prefix(while: { $0 != "\"" && $0 != "'" && $0 != "?" }).lowercased()
    return name == "utf-8" || name == "utf8"
  }

  // MARK: Document

  mutating func read() throws -> PrefValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    try skipMisc(prolog: true)
    guard peek(UInt8(ascii: "<")) else { throw error("expected '<plist>'") }
    let tag = try openTag()
    let value: PrefValue
    if tag.name == "plist" {
      guard !tag.selfClosing else { throw error("empty <plist>", at: tag.start) }
      try skipMisc()
      if starts("</") { throw error("<plist> holds no value", at: tag.start) }
      guard peek(UInt8(ascii: "<")) else { throw error("text where a value was expected") }
      value = try self.value(try openTag(), depth: 0)
      try skipMisc()
      if !starts("</") { throw error("<plist> can hold only one value") }
      try closeTag("plist")
    } else {
      value = try self.value(tag, depth: 0)
    }
    try skipMisc()
    guard i == bytes.count else { throw error("content after the end of the property list") }
    return value
  }

  // MARK: Values

  private struct Tag {
    var name: String
    var selfClosing: Bool
    var start: Int
  }

  private mutating func value(_ tag: Tag, depth: Int) throws -> PrefValue {
    switch tag.name {
    case "dict": return try dictionary(tag, depth: depth)
    case "array": return try array(tag, depth: depth)
    case "string", "key": return .string(try text(of: tag))
    case "true", "false":
      if !tag.selfClosing {
        try skipMisc()
        try closeTag(tag.name)
      }
      return .bool(tag.name == "true")
    case "integer": return try integer(try text(of: tag), at: tag)
    case "real": return try real(try text(of: tag), at: tag)
    case "date": return try date(try text(of: tag), at: tag)
    case "data": return try data(of: tag)
    default: throw error("unknown tag <\(tag.name)>", at: tag.start)
    }
  }

  private mutating func array(_ tag: Tag, depth: Int) throws -> PrefValue {
    guard depth < maxDepth else {
      throw error("nesting deeper than \(maxDepth) arrays and dictionaries", at: tag.start)
    }
    if tag.selfClosing { return .array([]) }
    var items: [PrefValue] = []
    while true {
      try skipMisc()
      if starts("</") {
        try closeTag("array")
        return .array(items)
      }
      guard peek(UInt8(ascii: "<")) else {
        throw error("text inside <array> where a value was expected")
      }
      items.append(try value(try openTag(), depth: depth + 1))
    }
  }

  private mutating func dictionary(_ tag: Tag, depth: Int) throws -> PrefValue {
    guard depth < maxDepth else {
      throw error("nesting deeper than \(maxDepth) arrays and dictionaries", at: tag.start)
    }
    if tag.selfClosing { return .dictionary([:]) }
    var dict = PrefDictionary()
    while true {
      try skipMisc()
      if starts("</") {
        try closeTag("dict")
        break
      }
      guard peek(UInt8(ascii: "<")) else {
        throw error("text inside <dict> where a <key> was expected")
      }
      let keyTag = try openTag()
      guard keyTag.name == "key" else {
        throw error("<\(keyTag.name)> inside <dict> where a <key> was expected", at: keyTag.start)
      }
      let key = try text(of: keyTag)
      try skipMisc()
      guard peek(UInt8(ascii: "<")), !starts("</") else {
        throw error("value missing for key '\(key)'")
      }
      let item = try value(try openTag(), depth: depth + 1)
      guard dict.insertNew(key, item) else {
        throw error("duplicate key '\(key)'", at: keyTag.start)
      }
    }
    // CF reads a one-key CF$UID dictionary as a keyed-archive UID.
    if dict.count == 1, case .integer(let n)? = dict["CF$UID"], n >= 0, n <= Int64(UInt32.max) {
      return .uid(UInt64(n))
    }
    return .dictionary(dict)
  }

  private func integer(_ text: String, at tag: Tag) throws -> PrefValue {
    guard text.utf8.count <= TextForms.maxNumberLength else {
      throw error(TextForms.numberTooLong(text.utf8.count), at: tag.start)
    }
    var digits = Substring(text)
    let negative = digits.first == "-"
    if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty,
      digits.allSatisfy({ $0.isASCII && $0.isHexDigit && (radix == 16 || $0.isNumber) })
    else {
      throw error("malformed <integer> '\(text)'", at: tag.start)
    }
    guard let magnitude = UInt64(digits, radix: radix) else {
      throw error("integer \(text) is outside the 64-bit range", at: tag.start)
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else {
        throw error("integer \(text) is outside the 64-bit range", at: tag.start)
      }
      return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
    }
    return .integer(exactly: magnitude)
  }

  private func real(_ text: String, at tag: Tag) throws -> PrefValue {
    guard text.utf8.count <= TextForms.maxNumberLength else {
      throw error(TextForms.numberTooLong(text.utf8.count), at: tag.start)
    }
    // Foundation skips leading white space, nothing else.
    let trimmed = text.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
    switch trimmed.lowercased() {
    case "nan": return .real(.nan)
    case "inf", "infinity", "+inf", "+infinity": return .real(.infinity)
    case "-inf", "-infinity": return .real(-.infinity)
    default: break
    }
    guard trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
      let value = TextForms.parseReal(trimmed)
    else {
      let reason = Double(trimmed) != nil ? "is out of range" : "is malformed"
      throw error("<real> '\(text)' \(reason)", at: tag.start)
    }
    return .real(value)
  }

  private func date(_ text: String, at tag: Tag) throws -> PrefValue {
    // Exactly YYYY-MM-DDThh:mm:ssZ, the only form Foundation reads.
    let u = Array(text.utf8)
    let shape = "dddd-dd-ddTdd:dd:ddZ".utf8
    let fits =
      u.count == shape.count
      && zip(u, shape).allSatisfy { b, s in
        s == UInt8(ascii: "d") ? (b >= 0x30 && b <= 0x39) : b == s
      }
    guard fits, let date = TextForms.parseDate(text), u[17] < UInt8(ascii: "6") else {
      throw error("malformed <date> '\(text)' (expected YYYY-MM-DDThh:mm:ssZ)", at: tag.start)
    }
    return .date(date)
  }

  private mutating func data(of tag: Tag) throws -> PrefValue {
    if tag.selfClosing { return .data(Data()) }
    let start = i
    guard let end = find(UInt8(ascii: "<")) else {
      throw error("unterminated <data>", at: tag.start)
    }
    var out = Data()
    out.reserveCapacity((end - start) / 4 * 3)
    var quad: UInt32 = 0
    var count = 0
    var padding = 0
    for position in start..<end {
      let b = bytes[position]
      let sextet: UInt8
      switch b {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = b - UInt8(ascii: "A")
      case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = b - UInt8(ascii: "a") + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = b - UInt8(ascii: "0") + 52
      case UInt8(ascii: "+"): sextet = 62
      case UInt8(ascii: "/"): sextet = 63
      case UInt8(ascii: "="):
        padding += 1
        sextet = 0
      case 0x20, 0x09, 0x0A, 0x0D: continue
      default: throw error("byte 0x\(plistHex(b)) in <data> is not base64", at: position)
      }
      if padding > 0 && b != UInt8(ascii: "=") {
        throw error("base64 continues after '=' padding", at: position)
      }
      quad = quad << 6 | UInt32(sextet)
      count += 1
      if count == 4 {
        guard padding <= 2 else { throw error("too much '=' padding in <data>", at: position) }
        out.append(UInt8(truncatingIfNeeded: quad >> 16))
        if padding < 2 { out.append(UInt8(truncatingIfNeeded: quad >> 8)) }
        if padding < 1 { out.append(UInt8(truncatingIfNeeded: quad)) }
        quad = 0
        count = 0
      }
    }
    guard count == 0 else { throw error("base64 in <data> ends in the middle of a group", at: end) }
    i = end
    try closeTag("data")
    return .data(out)
  }

  // MARK: Text

  /// The character data of a `<key>`, `<string>` or scalar element up to its close
  /// tag, with references and CDATA resolved.
  private mutating func text(of tag: Tag) throws -> String {
    if tag.selfClosing { return "" }
    var buffer: [UInt8] = []
    var runStart = i
    while true {
      guard let lt = try findTextEnd() else { throw error("unterminated <\(tag.name)>", at: tag.start) }
      if bytes[lt] == UInt8(ascii: "&") {
        buffer.append(contentsOf: bytes[runStart..<lt])
        i = lt
        try reference(into: &buffer)
        runStart = i
        continue
      }
      // `<`
      if starts("<![CDATA[", at: lt) {
        buffer.append(contentsOf: bytes[runStart..<lt])
        guard let close = find("]]>", from: lt + 9) else {
          throw error("unterminated CDATA section", at: lt)
        }
        buffer.append(contentsOf: bytes[(lt + 9)..<close])
        i = close + 3
        runStart = i
        continue
      }
      if starts("<!", at: lt) {
        throw error(
          "'<!' inside an element's text: only <![CDATA[ is read there (no comments)", at: lt)
      }
      buffer.append(contentsOf: bytes[runStart..<lt])
      i = lt
      try closeTag(tag.name)
      break
    }
    guard let text = String(validating: buffer, as: UTF8.self) else {
      throw error("<\(tag.name)> text is not valid UTF-8", at: tag.start)
    }
    return text
  }

  /// The next `<` or `&` from the current position. A control character other
  /// than tab, line feed and carriage return (XML 1.0 allows no other) is an error.
  private func findTextEnd() throws -> Int? {
    var p = i
    while p < bytes.count {
      let b = bytes[p]
      if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") { return p }
      if b < 0x20, b != 0x09, b != 0x0A, b != 0x0D {
        throw error("control character U+\(String(format: "%04X", b)) is not allowed in XML", at: p)
      }
      p += 1
    }
    return nil
  }

  private mutating func reference(into buffer: inout [UInt8]) throws {
    let start = i
    guard let semicolon = find(UInt8(ascii: ";")), semicolon - start <= 12 else {
      throw error("unknown entity reference ('&' must be written '&amp;')", at: start)
    }
    let name = String(decoding: bytes[(start + 1)..<semicolon], as: UTF8.self)
    i = semicolon + 1
    switch name {
    case "lt": buffer.append(UInt8(ascii: "<"))
    case "gt": buffer.append(UInt8(ascii: ">"))
    case "amp": buffer.append(UInt8(ascii: "&"))
    case "quot": buffer.append(UInt8(ascii: "\""))
    case "apos": buffer.append(UInt8(ascii: "'"))
    default:
      var code: UInt32? = nil
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        code = UInt32(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        code = UInt32(name.dropFirst(), radix: 10)
      }
      guard let code else { throw error("unknown entity reference '&\(name);'", at: start) }
      guard let scalar = Unicode.Scalar(code) else {
        throw error("character reference '&\(name);' is not a Unicode scalar", at: start)
      }
      buffer.append(contentsOf: String(Character(scalar)).utf8)
    }
  }

  // MARK: Markup

  /// `<name attr="…">` or `<name/>` at the current position.
  private mutating func openTag() throws -> Tag {
    let start = i
    i += 1
    let nameStart = i
    while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
    guard i > nameStart else { throw error("malformed tag", at: start) }
    let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
    // Attributes are not used by property lists; skip them, minding quotes.
    var quote: UInt8? = nil
    while i < bytes.count {
      let b = bytes[i]
      if let q = quote {
        if b == q { quote = nil }
      } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
        quote = b
      } else if b == UInt8(ascii: ">") {
        let selfClosing = bytes[i - 1] == UInt8(ascii: "/")
        i += 1
        return Tag(name: name, selfClosing: selfClosing, start: start)
      } else if b == UInt8(ascii: "<") {
        break
      }
      i += 1
    }
    throw error("unterminated tag <\(name)", at: start)
  }

  /// `</name>` at the current position (white space allowed before `>`).
  private mutating func closeTag(_ name: String) throws {
    let start = i
    guard starts("</") else { throw error("expected </\(name)>") }
    i += 2
    let nameStart = i
    while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
    let found = String(decoding: bytes[nameStart..<i], as: UTF8.self)
    guard found == name else {
      throw error("close tag </\(found)> does not match open tag <\(name)>", at: start)
    }
    while i < bytes.count, isSpace(bytes[i]) { i += 1 }
    guard peek(UInt8(ascii: ">")) else { throw error("malformed close tag </\(name)>", at: start) }
    i += 1
  }

  /// Skips white space, comments and processing instructions (and in the prolog the
  /// XML declaration and DOCTYPE).
  private mutating func skipMisc(prolog: Bool = false) throws {
    while i < bytes.count {
      if isSpace(bytes[i]) {
        i += 1
      } else if starts("<!--") {
        guard let end = find("-->", from: i + 4) else { throw error("unterminated comment") }
        i = end + 3
      } else if starts("<?") {
        guard let end = find("?>", from: i + 2) else {
          throw error("unterminated processing instruction")
        }
        i = end + 2
      } else if prolog, starts("<!DOCTYPE") {
        try doctype()
      } else {
        return
      }
    }
  }

  private mutating func doctype() throws {
    var quote: UInt8? = nil
    while i < bytes.count {
      let b = bytes[i]
      if let q = quote {
        if b == q { quote = nil }
      } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
        quote = b
      } else if b == UInt8(ascii: "[") {
        throw error(
          "DOCTYPE with an internal subset (entity declarations) is not allowed in a property list")
      } else if b == UInt8(ascii: ">") {
        i += 1
        return
      }
      i += 1
    }
    throw error("unterminated DOCTYPE")
  }

  // MARK: Scanning

  private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  private func isNameByte(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
      || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
      || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
      || b == UInt8(ascii: "-")
      || b == UInt8(ascii: ".") || b == UInt8(ascii: ":") || b >= 0x80
  }

  private func peek(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

  private func starts(_ text: StaticString, at position: Int? = nil) -> Bool {
    let p = position ?? i
    let n = text.utf8CodeUnitCount
    guard p + n <= bytes.count else { return false }
    let start = text.utf8Start
    for k in 0..<n where bytes[p + k] != start[k] { return false }
    return true
  }

  private func find(_ b: UInt8) -> Int? {
    var p = i
    while p < bytes.count {
      if bytes[p] == b { return p }
      p += 1
    }
    return nil
  }

  private func find(_ text: StaticString, from: Int) -> Int? {
    var p = from
    let first = text.utf8Start[0]
    while p < bytes.count {
      if bytes[p] == first, starts(text, at: p) { return p }
      p += 1
    }
    return nil
  }

  // MARK: Errors

  private func error(_ message: String, at position: Int? = nil) -> PrefsError {
    let p = min(position ?? i, bytes.count)
    var line = 1
    var lineStart = 0
    for k in 0..<p where bytes[k] == 0x0A {
      line += 1
      lineStart = k + 1
    }
    let column = String(decoding: bytes[lineStart..<p], as: UTF8.self).unicodeScalars.count + 1
    return .badInput(message, line: line, column: column)
  }
}
