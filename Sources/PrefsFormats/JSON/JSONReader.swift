import PrefsModel
import PrefsText

/// A strict RFC 8259 reader producing ``PrefValue`` directly, with line:column errors.
struct JSONReader {
  package let bytes: UnsafeBufferPointer<UInt8>
  package let options: ReadOptions
  let warnings: Warnings
  var i = 0
  var depth = 0
  /// Records where each value stands, when a source map is wanted.
  var map: SourceMapBuilder?

  init(bytes: UnsafeBufferPointer<UInt8>, options: ReadOptions, warnings: Warnings) {
    self.bytes = bytes
    self.options = options
    self.warnings = warnings
  }

  /// Reads the whole document; `$json`/`$plist` structures are left as placeholders
  /// for the pass after reading when ``ReadOptions/embeddedData`` is given.
  mutating func readDocument() throws -> PrefValue {
    // RFC 8259 lets a reader ignore a UTF-8 byte order mark; editors on Windows add one.
    i = TextEncoding.utf8MarkLength(bytes)
    skipSpace()
    guard i < bytes.count else { throw error("empty input: expected a JSON value", at: i) }
    let value = try parseValue(path: PrefKeyPath())
    skipSpace()
    guard i == bytes.count else { throw error("unexpected \(describe(i)) after the JSON value", at: i) }
    return value
  }

  // MARK: Values

  mutating func parseValue(path: PrefKeyPath) throws -> PrefValue {
    guard i < bytes.count else { throw error("unexpected end of input: expected a value", at: i) }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try parseObject(path: path, literal: false)
    case UInt8(ascii: "["): return try parseArray(path: path)
    default:
      let start = i
      let scalar = try parseScalar()
      if let map { map.scalar(start..<i) }
      return scalar
    }
  }

  mutating func parseScalar() throws -> PrefValue {
    switch bytes[i] {
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectWord("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectWord("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectWord("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("unexpected \(describe(i)): expected a value", at: i)
    }
  }

  mutating func expectWord(_ word: StaticString) throws {
    let start = i
    let count = word.utf8CodeUnitCount
    guard bytes.count - i >= count,
      memcmp(bytes.baseAddress! + i, word.utf8Start, count) == 0
    else { throw error("unexpected \(describe(start)): expected a value", at: start) }
    i += count
  }

  mutating func enter(at position: Int) throws {
    depth += 1
    if depth > options.maxDepth {
      throw error(.tooDeep(limit: options.maxDepth), at: position)
    }
  }

  mutating func parseArray(path: PrefKeyPath) throws -> PrefValue {
    try enter(at: i)
    defer { depth -= 1 }
    map?.open(start: i)
    i += 1
    var items: [PrefValue] = []
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
      map?.close(end: i)
      return .array(items)
    }
    while true {
      skipSpace()
      items.append(try parseValue(path: path.appending(index: items.count)))
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of input: expected ',' or ']'", at: i) }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
      } else if bytes[i] == UInt8(ascii: "]") {
        i += 1
        map?.close(end: i)
        return .array(items)
      } else {
        throw error("unexpected \(describe(i)): expected ',' or ']'", at: i)
      }
    }
  }

  /// Parses an object; `literal` keeps it a dictionary even when it looks like a
  /// typed object (the contents of a `$dict` escape).
  mutating func parseObject(path: PrefKeyPath, literal: Bool) throws -> PrefValue {
    let objectStart = i
    try enter(at: i)
    defer { depth -= 1 }
    map?.open(start: i)
    i += 1
    var dict = PrefDictionary()
    // Whether this object is the escape `{"$dict": {…}}` of a look-alike dictionary.
    var isEscape = false
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      i += 1
      map?.close(end: i)
      return .dictionary(dict)
    }
    while true {
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of input: expected a key", at: i) }
      guard bytes[i] == UInt8(ascii: "\"") else {
        throw error("unexpected \(describe(i)): expected a string key", at: i)
      }
      let keyStart = i
      let key = try parseString()
      let keyEnd = i
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
        throw error(
          i < bytes.count ? "unexpected \(describe(i)): expected ':'" : "unexpected end of input: expected ':'", at: i)
      }
      i += 1
      skipSpace()
      let valuePath = path.appending(key: key)
      map?.key(key, keyStart..<keyEnd)
      let parsed: PrefValue
      if !literal, !options.plainJSON, key == "$dict", dict.isEmpty, isOnlyMember(at: i) {
        // The escape's object is the dictionary itself, read as written: decided
        // before reading it, so that the same text means the same at every depth.
        parsed = try parseObject(path: valuePath, literal: true)
        isEscape = true
      } else {
        parsed = try parseValue(path: valuePath)
      }
      // One lookup: the insert itself reports a duplicate.
      try DuplicateKeys(options, warnings: warnings).insert(
        key, parsed, into: &dict, position: { .of(offset: keyStart, in: bytes) },
        refusal: { error($0, at: keyStart) })
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of input: expected ',' or '}'", at: i) }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
      } else if bytes[i] == UInt8(ascii: "}") {
        i += 1
        break
      } else {
        throw error("unexpected \(describe(i)): expected ',' or '}'", at: i)
      }
    }
    if literal {
      map?.close(end: i)
      return .dictionary(dict)
    }
    if isEscape, case .dictionary(let escaped)? = dict["$dict"] {
      map?.closeOpaque(end: i)
      return .dictionary(escaped)
    }
    if let log = options.settingsDirectives, dict.count == 1, let key = dict.keys.first,
      key == SettingsDirective.replaceWord || key == SettingsDirective.deleteWord
    {
      map?.closeOpaque(end: i)
      let position = SourcePosition.of(offset: objectStart, in: bytes)
      if key == SettingsDirective.deleteWord {
        guard dict[key] == .bool(true) else { throw error("\"$delete\" takes true", at: objectStart) }
        log.report(.delete, at: path, position: position)
        return SettingsDirective.deleteStandIn
      }
      log.report(.replace, at: path, position: position)
      return dict[key]!
    }
    if !options.plainJSON, dict.count == 1, let key = dict.keys.first, JSONCodec.typedKeys.contains(key) {
      // A typed object is one value: its member is not a value of the document.
      map?.closeOpaque(end: i)
      return try interpretTyped(key: key, value: dict[key]!, at: objectStart)
    }
    map?.close(end: i)
    return .dictionary(dict)
  }

  /// Whether an object starts at `position` and is the last member of the object
  /// around it (`}` follows it), judged by scanning its syntax ahead.
  func isOnlyMember(at position: Int) -> Bool {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "{"),
      var p = JSONGrammar.endOfValue(in: bytes, from: position)
    else { return false }
    while p < bytes.count, JSONGrammar.isSpace(bytes[p]) { p += 1 }
    return p < bytes.count && bytes[p] == UInt8(ascii: "}")
  }

  /// The value a one-key typed object stands for.
  func interpretTyped(key: String, value: PrefValue, at position: Int) throws -> PrefValue {
    switch (key, value) {
    case ("$date", .string(let text)):
      switch TextForms.readDate(text) {
      case .date(let date): return .date(date)
      case .outOfRange:
        throw error("\"$date\" \"\(text)\" is \(TextForms.dateRangeProblem)", at: position, stage: .composer)
      case .malformed: throw error("\"$date\" needs an ISO 8601 date, not \"\(text)\"", at: position, stage: .composer)
      }
    case ("$data", .string(let text)):
      do {
        return .data(try Base64.decode(text))
      } catch {
        throw self.error("\"$data\" needs base64 text: \(error.message)", at: position, stage: .composer)
      }
    case ("$real", .string(let text)):
      switch text.lowercased() {
      case "inf", "+inf", "infinity", "+infinity": return .real(.infinity)
      case "-inf", "-infinity": return .real(-.infinity)
      case "nan": return .real(.nan)
      default:
        if let real = TextForms.parseReal(Substring(text)) { return .real(real) }
        throw error(
          "\"$real\" needs \"inf\", \"-inf\", \"nan\" or a number, not \"\(text)\"", at: position, stage: .composer)
      }
    case ("$real", .real(let real)): return .real(real)
    case ("$uid", .integer(let n)) where n >= 0: return .uid(UInt64(n))
    case ("$uid", .unsignedInteger(let n)): return .uid(n)
    case ("$json", .array), ("$json", .dictionary), ("$plist", .array), ("$plist", .dictionary):
      guard let embedded = options.embeddedData else { return value }
      let failure = error("", at: position)
      return embedded.placeholder(for: value, kind: key == "$json" ? .json : .plist) { reason in
        var refusal = failure
        refusal.kind = .syntax(
          format: "json", stage: .composer, problem: "\"\(key)\" value cannot be encoded: \(reason)")
        return refusal
      }
    default:
      let shown = shortText(value)
      throw error(
        "\"\(key)\" cannot hold \(value.kind.rawValue)\(shown.isEmpty ? "" : " " + shown)", at: position,
        stage: .composer)
    }
  }

  func shortText(_ value: PrefValue) -> String {
    switch value {
    case .integer(let n): String(n)
    case .unsignedInteger(let n): String(n)
    case .bool(let b): String(b)
    case .string(let s): "\"\(s.prefix(40))\""
    default: ""
    }
  }

  // MARK: Numbers

  mutating func parseNumber() throws -> PrefValue {
    let start = i
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard i < bytes.count, isDigit(bytes[i]) else { throw error("a number needs digits", at: i, stage: .scanner) }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
      if i < bytes.count, isDigit(bytes[i]) { throw error("a number cannot start with 0", at: start, stage: .scanner) }
    } else {
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    var isReal = false
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      isReal = true
      i += 1
      guard i < bytes.count, isDigit(bytes[i]) else {
        throw error("a number needs digits after '.'", at: i, stage: .scanner)
      }
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      isReal = true
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard i < bytes.count, isDigit(bytes[i]) else {
        throw error("a number needs digits in its exponent", at: i, stage: .scanner)
      }
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    guard i - start <= TextForms.maxNumberLength else { throw error(TextForms.numberTooLong(i - start), at: start) }
    let text = Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    if isReal {
      guard let real = TextForms.parseReal(text) else {
        throw error("number \(text.prefix(40)) is out of range for a real", at: start, stage: .composer)
      }
      return .real(real)
    }
    if let n = Int64(text) { return .integer(n) }
    if text.first != "-", let n = UInt64(text) { return .unsignedInteger(n) }
    throw error("integer \(text.prefix(40)) is out of range (64 bits)", at: start, stage: .composer)
  }

  @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  // MARK: Strings

  mutating func parseString() throws -> String {
    let open = i
    i += 1
    let start = i
    // Fast path: no escapes.
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<i])
        i += 1
        if let text = String(validating: slice, as: UTF8.self) { return text }
        throw error("invalid UTF-8", at: start + firstInvalidUTF8(slice), stage: .reader)
      }
      if b == UInt8(ascii: "\\") { break }
      if b < 0x20 {
        throw error(
          "control character U+\(hexDigits(b, width: 4, uppercase: true)) must be escaped in a string", at: i,
          stage: .scanner)
      }
      i += 1
    }
    guard i < bytes.count else { throw error("unterminated string", at: open, stage: .scanner) }
    // Slow path: build the bytes with escapes decoded.
    var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<i]))
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        i += 1
        if let text = String(validating: out, as: UTF8.self) { return text }
        throw error("invalid UTF-8 in string", at: start, stage: .reader)
      }
      if b < 0x20 {
        throw error(
          "control character U+\(hexDigits(b, width: 4, uppercase: true)) must be escaped in a string", at: i,
          stage: .scanner)
      }
      if b != UInt8(ascii: "\\") {
        out.append(b)
        i += 1
        continue
      }
      let escapeStart = i
      i += 1
      guard i < bytes.count else { break }
      switch bytes[i] {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = UInt32(try hexEscape(at: escapeStart))
        if (0xD800...0xDBFF).contains(scalar) {
          guard i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") else {
            throw error(
              "unpaired surrogate \\u\(hexDigits(scalar, width: 4, uppercase: true))", at: escapeStart, stage: .scanner)
          }
          i += 2
          let low = UInt32(try hexEscape(at: i - 1))
          guard (0xDC00...0xDFFF).contains(low) else {
            throw error(
              "unpaired surrogate \\u\(hexDigits(scalar, width: 4, uppercase: true))", at: escapeStart, stage: .scanner)
          }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
          throw error(
            "unpaired surrogate \\u\(hexDigits(scalar, width: 4, uppercase: true))", at: escapeStart, stage: .scanner)
        }
        out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
      default:
        throw error("invalid escape \\\(describeByte(bytes[i]))", at: escapeStart, stage: .scanner)
      }
      i += 1
    }
    throw error("unterminated string", at: open, stage: .scanner)
  }

  /// Reads the four hex digits after `\u` (with `i` on the `u`), leaving `i` on the last digit.
  mutating func hexEscape(at escapeStart: Int) throws -> UInt16 {
    guard bytes.count - i > 4 else { throw error("\\u needs four hex digits", at: escapeStart, stage: .scanner) }
    var value: UInt16 = 0
    for _ in 0..<4 {
      i += 1
      let b = bytes[i]
      guard let digit = hexDigitValue(b) else {
        throw error("\\u needs four hex digits", at: escapeStart, stage: .scanner)
      }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  // MARK: Positions and messages

  mutating func skipSpace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return
      }
    }
  }

  func describe(_ position: Int) -> String {
    guard position < bytes.count else { return "end of input" }
    return "'\(describeByte(bytes[position]))'"
  }

  func describeByte(_ b: UInt8) -> String {
    b >= 0x21 && b < 0x7F ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16, uppercase: true)
  }

  func error(_ message: String, at position: Int, stage: PrefsError.SyntaxStage = .parser) -> PrefsError {
    error(.syntax(format: "json", stage: stage, problem: message), at: position)
  }

  func error(_ kind: PrefsError.Kind, at position: Int) -> PrefsError {
    PrefsError(kind, position: .of(offset: position, in: bytes))
  }
}

/// The offset of the first byte that makes `bytes` invalid UTF-8 (or its count).
func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
  var k = 0
  while k < bytes.count {
    let b = bytes[k]
    let length: Int
    switch b {
    case 0x00...0x7F: length = 1
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return k
    }
    guard k + length <= bytes.count else { return k }
    if length > 1 {
      // Validate the whole sequence through the standard library.
      if String(validating: UnsafeBufferPointer(rebasing: bytes[k..<k + length]), as: UTF8.self) == nil {
        return k
      }
    }
    k += length
  }
  return k
}
