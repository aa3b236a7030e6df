import PrefsModel
import PrefsText

/// Reads OpenStep (old-style ASCII) property lists: Xcode's `project.pbxproj`,
/// `.strings` files, and the `{ key = value; }` text `defaults` once wrote.
///
/// It accepts what CoreFoundation's old-style parser accepts and reads it to the same
/// values (strings, data, arrays and dictionaries; words that look like numbers stay
/// strings), and in addition keeps dictionary keys in file order, gives errors at
/// their line and column, and never prints. Where CF quietly turns a mistake into a
/// value, this reader refuses it with a position instead:
/// - a duplicate key (CF keeps the last value; with ``ReadOptions/allowDuplicateKeys``
///   so does this reader, with a warning);
/// - an escape that CF turns into U+0000 or U+FFFD: `\U` without a hex digit, a lone
///   UTF-16 surrogate, octal above `\375` (`\376` and `\377` have no NeXTSTEP character);
/// - an unterminated `/* comment` (CF ends the document there), text after a
///   brace-less `.strings` list (CF stops reading at it), a raw NUL byte.
///
/// Text is UTF-8 (with or without a byte order mark) or UTF-16 or UTF-32 with a byte
/// order mark, transcoded to UTF-8 first (``text(of:)``); source map offsets are
/// offsets into that transcoding.
struct OpenStepReader {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let maxDepth: Int
  private let map: SourceMapBuilder?
  private let duplicates: DuplicateKeys
  /// Where the text starts (after a UTF-8 byte order mark).
  private let start: Int
  private var i: Int
  private var depth = 0
  /// The end of the last `;` read, where a brace-less `.strings` list ends.
  private var entriesEnd = 0

  private init(
    bytes: UnsafeBufferPointer<UInt8>, start: Int, maxDepth: Int, map: SourceMapBuilder?, duplicates: DuplicateKeys
  ) {
    self.bytes = bytes
    self.duplicates = duplicates
    self.start = start
    self.i = start
    self.maxDepth = maxDepth
    self.map = map
  }

  // MARK: Entry points

  /// Reads a whole document. With `sourceMap`, records every value's byte ranges in
  /// the UTF-8 text (``text(of:)``) as it scans.
  static func read(
    _ data: Data, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings(),
    sourceMap: SourceMapBuilder? = nil
  ) throws -> PrefValue {
    if let error = options.sizeError(data.count) { throw error }
    guard !data.isEmpty else {
      throw PrefsError.syntax(in: .openStep, "empty input: not a property list", line: 1, column: 1)
    }
    let (text, encoding) = try text(of: data)
    return try text.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      var reader = OpenStepReader(
        bytes: bytes, start: encoding == .utf8(marked: true) ? 3 : 0, maxDepth: options.maxDepth, map: sourceMap,
        duplicates: DuplicateKeys(options, warnings: warnings))
      return try reader.readDocument()
    }
  }

  /// The UTF-8 text of a document and the encoding it came in: UTF-8 input as it is
  /// (a byte order mark kept), UTF-16 and UTF-32 (which need a byte order mark)
  /// transcoded to UTF-8 without one. Source map offsets count bytes of this text.
  package static func text(of data: Data) throws -> (text: Data, encoding: TextEncoding) {
    let encoding = TextEncoding.detect(data)
    if encoding.isUTF8 { return (data, encoding) }
    do {
      return (try encoding.utf8(data), encoding)
    } catch {
      let name = encoding.name
      let problem =
        error.problem == .truncated
        ? "\(name) text ends in the middle of a character" : "invalid \(name): a lone surrogate"
      throw PrefsError.syntax(problem, format: Format.openStep.name, stage: .reader, position: error.position)
    }
  }

  // MARK: Document

  private mutating func readDocument() throws -> PrefValue {
    if !UTF8Text.isASCII(bytes) {
      let bad = firstInvalidUTF8(bytes)
      if bad < bytes.count { throw error("invalid UTF-8", at: bad) }
    }
    try skipSpace()
    // Only white space and comments: CF reads an empty dictionary.
    guard i < bytes.count else {
      map?.open(start: i)
      map?.close(end: i)
      return .dictionary(PrefDictionary())
    }
    let first = i
    if isStringStart(bytes[i]) {
      // A string followed by more text is a `.strings` list without braces
      // (`"key" = "value";`); scan the string alone first to tell.
      let string = try withoutMap { try $0.parseString() }
      let end = i
      try skipSpace()
      guard i < bytes.count else {
        map?.scalar(first..<end)
        return .string(string)
      }
      i = first
      // The list is the root dictionary: one level, as if it had braces.
      try enter()
      map?.open(start: first)
      let dictionary = try parseEntries(closing: nil, openedAt: first)
      map?.close(end: entriesEnd)
      try skipSpace()
      guard i == bytes.count else { throw error("unexpected \(describe(i)): expected a key", at: i) }
      return dictionary
    }
    let value = try parseValue()
    try skipSpace()
    guard i == bytes.count else {
      throw error("unexpected \(describe(i)) after the property list", at: i)
    }
    return value
  }

  private mutating func withoutMap<T>(_ body: (inout OpenStepReader) throws -> T) throws -> T {
    var plain = OpenStepReader(bytes: bytes, start: start, maxDepth: maxDepth, map: nil, duplicates: duplicates)
    plain.i = i
    let result = try body(&plain)
    i = plain.i
    return result
  }

  // MARK: Values

  /// A value starting at `i` (after white space), recorded in the map as the entry
  /// `name` (`key` its bytes) of the innermost open container.
  private mutating func parseValue(name: String? = nil, key: Range<Int>? = nil) throws -> PrefValue {
    guard i < bytes.count else { throw error("unexpected end of input: expected a value", at: i) }
    let valueStart = i
    if let name, let key { map?.key(name, key) }
    switch bytes[i] {
    case UInt8(ascii: "{"):
      try enter()
      defer { depth -= 1 }
      map?.open(start: valueStart)
      i += 1
      let dictionary = try parseEntries(closing: UInt8(ascii: "}"), openedAt: valueStart)
      map?.close(end: i)
      return dictionary
    case UInt8(ascii: "("):
      try enter()
      defer { depth -= 1 }
      map?.open(start: valueStart)
      i += 1
      let array = try parseArray(openedAt: valueStart)
      map?.close(end: i)
      return array
    case UInt8(ascii: "<"):
      let data = try parseData()
      map?.scalar(valueStart..<i)
      return .data(data)
    case let byte where isStringStart(byte):
      let string = try parseString()
      map?.scalar(valueStart..<i)
      return .string(string)
    default:
      throw error("unexpected \(describe(i)): expected a value", at: i)
    }
  }

  private mutating func enter() throws {
    depth += 1
    if depth > maxDepth { throw error(.tooDeep(limit: maxDepth), at: i) }
  }

  /// Entries up to `closing` (`}`), or to the end of the text for a brace-less
  /// `.strings` list (`closing` nil). Leaves `i` after the closing brace.
  private mutating func parseEntries(closing: UInt8?, openedAt open: Int) throws -> PrefValue {
    var dictionary = PrefDictionary()
    while true {
      try skipSpace()
      guard i < bytes.count else {
        if closing == nil { return .dictionary(dictionary) }
        throw error("'{' is never closed: the input ends before its '}'", at: open)
      }
      if let closing, bytes[i] == closing {
        i += 1
        return .dictionary(dictionary)
      }
      guard isStringStart(bytes[i]) else {
        throw error(
          "unexpected \(describe(i)): expected a key\(closing == nil ? "" : " or '}'")", at: i)
      }
      let keyStart = i
      let key = try parseString()
      let keyRange = keyStart..<i
      try skipSpace()
      guard i < bytes.count else {
        throw error("unexpected end of input: expected '=' after key '\(key)'", at: i)
      }
      let value: PrefValue
      let valueEnd: Int
      switch bytes[i] {
      case UInt8(ascii: "="):
        i += 1
        try skipSpace()
        value = try parseValue(name: key, key: keyRange)
        valueEnd = i
        try skipSpace()
      case UInt8(ascii: ";"):
        // `"key";` is short for `"key" = "key";` (CF reads it so in any dictionary).
        map?.key(key, keyRange)
        map?.scalar(keyRange)
        value = .string(key)
        valueEnd = keyRange.upperBound
      default:
        throw error("unexpected \(describe(i)): expected '=' after key '\(key)'", at: i)
      }
      try duplicates.insert(
        key, value, into: &dictionary, position: { position(of: keyStart) }, refusal: { error($0, at: keyStart) })
      guard i < bytes.count, bytes[i] == UInt8(ascii: ";") else {
        throw error("missing ';' after the value of '\(key)'", at: valueEnd)
      }
      i += 1
      entriesEnd = i
    }
  }

  /// Items up to `)`; a comma after the last item is allowed.
  private mutating func parseArray(openedAt open: Int) throws -> PrefValue {
    var items: [PrefValue] = []
    while true {
      try skipSpace()
      guard i < bytes.count else {
        throw error("'(' is never closed: the input ends before its ')'", at: open)
      }
      if bytes[i] == UInt8(ascii: ")") {
        i += 1
        return .array(items)
      }
      items.append(try parseValue())
      try skipSpace()
      guard i < bytes.count else {
        throw error("'(' is never closed: the input ends before its ')'", at: open)
      }
      switch bytes[i] {
      case UInt8(ascii: ","): i += 1
      case UInt8(ascii: ")"):
        i += 1
        return .array(items)
      default: throw error("unexpected \(describe(i)): expected ',' or ')'", at: i)
      }
    }
  }

  /// `<0fbd 7712>`: pairs of hex digits, white space between pairs.
  private mutating func parseData() throws -> Data {
    let open = i
    i += 1
    var result = [UInt8]()
    while i < bytes.count {
      let byte = bytes[i]
      if byte == UInt8(ascii: ">") {
        i += 1
        return Data(result)
      }
      if let high = hexDigitValue(byte) {
        guard i + 1 < bytes.count, let low = hexDigitValue(bytes[i + 1]) else {
          throw error("odd number of hex digits in data: expected a second digit", at: i + 1)
        }
        result.append(high << 4 | low)
        i += 2
      } else if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
        i += 1
      } else if let width = unicodeLineBreak(at: i) {
        i += width
      } else {
        throw error("unexpected \(describe(i)) in data: expected hex digits or '>'", at: i)
      }
    }
    throw error("'<' is never closed: the input ends before its '>'", at: open)
  }

  // MARK: Strings

  private func isStringStart(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || Self.isUnquoted(byte)
  }

  /// CF's characters of an unquoted string: `A-Z a-z 0-9 _ $ / : . -`.
  static func isUnquoted(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"),
      UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
      true
    default: false
    }
  }

  /// A quoted (`"…"` or `'…'`) or unquoted string at `i`.
  private mutating func parseString() throws -> String {
    let first = bytes[i]
    guard first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") else {
      let begin = i
      while i < bytes.count, Self.isUnquoted(bytes[i]) { i += 1 }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<i]), as: UTF8.self)
    }
    let open = i
    i += 1
    let begin = i
    // Most strings have no escape: take their bytes as they are.
    while i < bytes.count, bytes[i] != first, bytes[i] != UInt8(ascii: "\\"), bytes[i] != 0 { i += 1 }
    guard i < bytes.count else { throw unterminated(open) }
    if bytes[i] == first {
      i += 1
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<(i - 1)]), as: UTF8.self)
    }
    var text = Array(bytes[begin..<i])
    while i < bytes.count {
      let byte = bytes[i]
      if byte == first {
        i += 1
        return String(decoding: text, as: UTF8.self)
      } else if byte == UInt8(ascii: "\\") {
        try appendEscape(to: &text)
      } else if byte == 0 {
        throw error("NUL byte in a string (write it \\000)", at: i)
      } else {
        text.append(byte)
        i += 1
      }
    }
    throw unterminated(open)
  }

  private func unterminated(_ open: Int) -> PrefsError {
    if i < bytes.count, bytes[i] == 0 { return error("NUL byte in a string (write it \\000)", at: i) }
    return error("unterminated string: the quote is never closed", at: open)
  }

  /// The escape at `i` (a backslash), as CF reads it: `\a \b \f \n \r \t \v`, up to
  /// three octal digits in NeXTSTEP Latin, `\U` with up to four hex digits (UTF-16;
  /// a surrogate pair as two escapes), a backslash before a line break is that
  /// break, and before any other character is that character (`\\`, `\"`, `\'`).
  private mutating func appendEscape(to text: inout [UInt8]) throws {
    let escape = i
    i += 1
    guard i < bytes.count else { throw unterminated(escape) }
    let byte = bytes[i]
    i += 1
    let scalar: UInt32
    switch byte {
    case UInt8(ascii: "a"): scalar = 0x07
    case UInt8(ascii: "b"): scalar = 0x08
    case UInt8(ascii: "f"): scalar = 0x0C
    case UInt8(ascii: "n"): scalar = 0x0A
    case UInt8(ascii: "r"): scalar = 0x0D
    case UInt8(ascii: "t"): scalar = 0x09
    case UInt8(ascii: "v"): scalar = 0x0B
    case UInt8(ascii: "0")...UInt8(ascii: "7"):
      var code = UInt32(byte - UInt8(ascii: "0"))
      for _ in 0..<2 {
        guard i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[i]) else { break }
        code = code << 3 + UInt32(bytes[i] - UInt8(ascii: "0"))
        i += 1
      }
      guard code < 0x80 || Int(code - 0x80) < Self.nextStepLatin.count else {
        throw error(
          "bad escape '\\\(String(code, radix: 8))': no NeXTSTEP character has that code (CF reads it as U+0000)",
          at: escape)
      }
      scalar = code < 0x80 ? code : UInt32(Self.nextStepLatin[Int(code - 0x80)])
    case UInt8(ascii: "U"):
      let unit = try hexEscape(at: escape)
      if UTF16.isLeadSurrogate(unit) {
        // The trailing half must follow as another `\U` escape.
        let trail = i
        guard trail + 1 < bytes.count, bytes[trail] == UInt8(ascii: "\\"), bytes[trail + 1] == UInt8(ascii: "U")
        else { throw loneSurrogate(unit, at: escape) }
        i += 2
        let low = try hexEscape(at: trail)
        guard UTF16.isTrailSurrogate(low) else { throw loneSurrogate(unit, at: escape) }
        scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
      } else if UTF16.isTrailSurrogate(unit) {
        throw loneSurrogate(unit, at: escape)
      } else {
        scalar = UInt32(unit)
      }
    default:
      // Any other byte stands for itself; a multi-byte character is copied whole.
      text.append(byte)
      while i < bytes.count, bytes[i] & 0xC0 == 0x80 {
        text.append(bytes[i])
        i += 1
      }
      return
    }
    UTF8.encode(Unicode.Scalar(scalar)!) { text.append($0) }
  }

  /// The one to four hex digits after `\U` (`i` is after the `U`).
  private mutating func hexEscape(at escape: Int) throws -> UInt16 {
    var unit: UInt16 = 0
    var count = 0
    while count < 4, i < bytes.count, let digit = hexDigitValue(bytes[i]) {
      unit = unit << 4 | UInt16(digit)
      count += 1
      i += 1
    }
    guard count > 0 else {
      throw error("bad escape '\\U': expected one to four hex digits (CF reads it as U+0000)", at: escape)
    }
    return unit
  }

  private func loneSurrogate(_ unit: UInt16, at escape: Int) -> PrefsError {
    error(
      "bad escape '\\U\(String(unit, radix: 16, uppercase: true))': a lone UTF-16 surrogate is not a character",
      at: escape)
  }

  /// NeXTSTEP Latin 0x80...0xFD, as UTF-16 (CF's table; 0xFE and 0xFF have no character).
  static let nextStepLatin: [UInt16] = [
    0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7, 0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD,
    0x00CE, 0x00CF, 0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9, 0x00DA, 0x00DB, 0x00DC, 0x00DD,
    0x00DE, 0x00B5, 0x00D7, 0x00F7, 0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7, 0x00A4, 0x2019,
    0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02, 0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022,
    0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0x00AC, 0x00BF, 0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF,
    0x02D8, 0x02D9, 0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD, 0x02DB, 0x02C7, 0x2014, 0x00B1, 0x00BC, 0x00BD,
    0x00BE, 0x00E0, 0x00E1, 0x00E2, 0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB, 0x00EC, 0x00C6,
    0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1, 0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3, 0x00F4, 0x00F5,
    0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD, 0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF,
  ]

  // MARK: White space and comments

  /// Skips white space (CF's: tab through carriage return, space, U+2028, U+2029),
  /// `// line` and `/* block */` comments.
  private mutating func skipSpace() throws {
    while i < bytes.count {
      let byte = bytes[i]
      if byte == 0x20 || (0x09...0x0D).contains(byte) {
        i += 1
      } else if byte == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
        i += 2
        while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D, unicodeLineBreak(at: i) == nil { i += 1 }
      } else if byte == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
        let open = i
        i += 2
        while true {
          guard i + 1 < bytes.count else {
            throw error("unterminated comment: '/*' is never closed by '*/'", at: open)
          }
          if bytes[i] == UInt8(ascii: "*"), bytes[i + 1] == UInt8(ascii: "/") { break }
          i += 1
        }
        i += 2
      } else if let width = unicodeLineBreak(at: i) {
        i += width
      } else {
        return
      }
    }
  }

  /// 3 at U+2028 or U+2029 (which CF takes for white space), else nil.
  private func unicodeLineBreak(at k: Int) -> Int? {
    guard bytes[k] == 0xE2, k + 2 < bytes.count, bytes[k + 1] == 0x80, bytes[k + 2] == 0xA8 || bytes[k + 2] == 0xA9
    else { return nil }
    return 3
  }

  // MARK: Errors

  private func describe(_ k: Int) -> String {
    guard k < bytes.count else { return "end of input" }
    let byte = bytes[k]
    if byte == 0 { return "NUL byte" }
    if byte < 0x20 || byte == 0x7F {
      return "control character U+\(hexDigits(byte, width: 4, uppercase: true))"
    }
    if byte < 0x80 { return "'\(Character(Unicode.Scalar(byte)))'" }
    var end = k + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    return "'\(String(decoding: UnsafeBufferPointer(rebasing: bytes[k..<end]), as: UTF8.self))'"
  }

  private func error(_ message: String, at k: Int) -> PrefsError {
    error(.syntax(format: Format.openStep.name, stage: .parser, problem: message), at: k)
  }

  private func error(_ kind: PrefsError.Kind, at k: Int) -> PrefsError {
    PrefsError(kind, position: position(of: k))
  }

  /// The line and column of byte `k`, counted from after a byte order mark.
  private func position(of k: Int) -> SourcePosition {
    .of(offset: min(k, bytes.count) - start, in: UnsafeBufferPointer(rebasing: bytes[start...]))
  }
}
