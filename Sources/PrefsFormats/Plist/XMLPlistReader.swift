import PrefsModel
import PrefsText

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
/// The parser reads UTF-8; documents in other encodings are transcoded first (see
/// ``utf8(_:)``).
///
/// The root dictionary of a large document is read in parts, on other threads
/// (`XMLPlistReadAhead.swift`), as ``ParallelPolicy`` says.
package struct XMLPlistReader {
  private let data: Data
  private let maxDepth: Int
  private let duplicates: DuplicateKeys
  private let parallelism: ParallelPolicy

  init(
    _ data: Data, maxDepth: Int, duplicates: DuplicateKeys = .refused, parallelism: ParallelPolicy
  ) {
    self.data = data
    self.maxDepth = maxDepth
    self.duplicates = duplicates
    self.parallelism = parallelism
  }

  /// Whether the document is UTF-8 (no UTF-16 byte order mark or NUL bytes up front,
  /// and no other encoding declared).
  package static func canRead(_ data: Data) -> Bool {
    let head = data.prefix(256)
    // Any NUL among the first bytes is UTF-16 or UTF-32 not starting with `<?xml`; a
    // NUL later on is an error for the native reader to report.
    if unicodeEncoding(of: data) != nil || head.prefix(4).contains(0) { return false }
    let name = declaredEncoding(head)
    return name == nil || name == "utf-8" || name == "utf8"
  }

  /// The encoding the XML declaration at the start of `head` names, lowercased, if
  /// it names one. (Searched as bytes: the string algorithms would cost a command's
  /// start-up more than the rest of reading a small plist.)
  private static func declaredEncoding(_ head: Data) -> String? {
    let bytes = [UInt8](head)
    func offset(of pattern: String) -> Int? {
      let pattern = Array(pattern.utf8)
      guard bytes.count >= pattern.count else { return nil }
      return (0...bytes.count - pattern.count).first { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
    guard offset(of: "<?xml") != nil, let start = offset(of: "encoding") else { return nil }
    let isQuote = { (byte: UInt8) in byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") }
    let name = bytes[(start + 8)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "=") || isQuote($0) }
      .prefix { !isQuote($0) && $0 != UInt8(ascii: "?") }
    return String(decoding: name, as: UTF8.self).lowercased()
  }

  /// The UTF-16 or UTF-32 form the first bytes of `data` show: a byte order mark, or
  /// the NULs around a first `<`; nil for text of single bytes (or UTF-8).
  static func unicodeEncoding(of data: Data) -> TextEncoding? {
    let encoding = TextEncoding.detect(data, unmarkedFirst: UInt8(ascii: "<"))
    return encoding.isUTF8 ? nil : encoding
  }

  /// `data` as UTF-8, the only encoding the reader parses: UTF-8 as it is; UTF-16
  /// and UTF-32 (told by a byte order mark, or by the NULs around `<`) and a
  /// declared ISO-8859-1 or US-ASCII transcoded. Another declared encoding is an
  /// error: the binary is built on FoundationEssentials, which has no converters for
  /// it (and Apple's tools write UTF-8).
  static func utf8(_ data: Data) throws -> Data {
    if canRead(data) { return data }
    if let unicode = unicodeEncoding(of: data) {
      guard let utf8 = try? unicode.utf8(data) else {
        let name = unicode.name
        throw PrefsError.syntax(in: .xml, "the XML plist is not valid \(name)", line: 1, column: 1, stage: .reader)
      }
      return utf8
    }
    let name = declaredEncoding(data.prefix(256)) ?? ""
    switch name {
    case "iso-8859-1", "latin1", "latin-1", "iso_8859-1":
      return Data(String(String.UnicodeScalarView(data.lazy.map { Unicode.Scalar($0) })).utf8)
    case "us-ascii", "ascii", "utf-16", "utf-16le", "utf-16be", "utf-32", "utf-32le", "utf-32be":
      // Text of single bytes that says it is UTF-16 (a file re-encoded without its
      // declaration) can only be UTF-8; the reader refuses it if it is not.
      return data
    default:
      throw PrefsError.syntax(
        in: .xml,
        "an XML plist in encoding '\(name)' cannot be read (UTF-8, UTF-16, UTF-32 and ISO-8859-1 can); "
          + "convert it to UTF-8 first (iconv -f \(name) -t UTF-8)", line: 1, column: 1)
    }
  }

  /// How many runs of the root dictionary the last read took from other threads.
  private(set) var runsTaken = 0

  /// Reads the whole document; `map` records where each value stands.
  mutating func read(map: SourceMapBuilder? = nil) throws -> PrefValue {
    // The parser works on the input's own bytes: no copy of a large file.
    let data = self.data
    return try data.withUnsafeBytes { raw in
      var parser = XMLPlistParser(
        raw.bindMemory(to: UInt8.self), maxDepth: maxDepth, duplicates: duplicates,
        parallelism: parallelism, parts: parallelism.parts(forSize: raw.count))
      parser.map = map
      defer { runsTaken = parser.runsTaken }
      return try parser.read()
    }
  }
}

/// The parser behind ``XMLPlistReader``, over bytes that stay alive while it runs.
struct XMLPlistParser {
  package let bytes: UnsafeBufferPointer<UInt8>
  var i = 0
  let maxDepth: Int
  let duplicates: DuplicateKeys
  /// How many parsers may read the root dictionary at once.
  let parts: Int
  /// Where the other parsers run.
  let parallelism: ParallelPolicy
  /// How many runs were taken from the other parsers.
  var runsTaken = 0
  /// Records where each value stands, when a source map is wanted.
  var map: SourceMapBuilder?

  init(
    _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, duplicates: DuplicateKeys,
    parallelism: ParallelPolicy, parts: Int
  ) {
    self.bytes = bytes
    self.maxDepth = maxDepth
    self.duplicates = duplicates
    self.parallelism = parallelism
    self.parts = parts
  }

  // MARK: Document

  mutating func read() throws -> PrefValue {
    i = TextEncoding.utf8MarkLength(bytes)
    try skipMisc(prolog: true)
    guard peek(UInt8(ascii: "<")) else { throw error("expected '<plist>'") }
    let tag = try openTag()
    let value: PrefValue
    if tag.kind == .plist {
      guard !tag.selfClosing else { throw error("empty <plist>", at: tag.start) }
      try skipMisc()
      if starts("</") { throw error("<plist> holds no value", at: tag.start) }
      guard peek(UInt8(ascii: "<")) else { throw error("text where a value was expected") }
      value = try rootValue(try openTag())
      try skipMisc()
      if !starts("</") { throw error("<plist> can hold only one value") }
      try closeTag(tag)
    } else {
      value = try rootValue(tag)
    }
    try skipMisc()
    guard i == bytes.count else { throw error("content after the end of the property list") }
    return value
  }

  // MARK: Values

  /// The element names a property list uses, recognised from their bytes so that no
  /// string is made per tag.
  enum Kind {
    case plist, dict, array, key, string, `true`, `false`, integer, real, date, data, other
  }

  struct Tag {
    var kind: Kind
    /// Where the name lies in the input.
    var name: Range<Int>
    var selfClosing: Bool
    var start: Int
  }

  package func name(_ tag: Tag) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[tag.name]), as: UTF8.self)
  }

  mutating func value(_ tag: Tag, depth: Int) throws -> PrefValue {
    guard let map else { return try plainValue(tag, depth: depth) }
    switch tag.kind {
    case .dict, .array:
      map.open(start: tag.start)
      let value = try plainValue(tag, depth: depth)
      if case .uid = value { map.closeOpaque(end: i) } else { map.close(end: i) }
      return value
    default:
      let value = try plainValue(tag, depth: depth)
      map.scalar(tag.start..<i)
      return value
    }
  }

  mutating func plainValue(_ tag: Tag, depth: Int) throws -> PrefValue {
    switch tag.kind {
    case .dict: return try dictionary(tag, depth: depth)
    case .array: return try array(tag, depth: depth)
    case .string, .key: return .string(try text(of: tag))
    case .true, .false:
      if !tag.selfClosing {
        try skipMisc()
        try closeTag(tag)
      }
      return .bool(tag.kind == .true)
    case .integer: return try scalar(tag) { try $0.integer($1, at: $2) }
    case .real: return try scalar(tag) { try $0.real($1, at: $2) }
    case .date: return try scalar(tag) { try $0.date($1, at: $2) }
    case .data: return try data(of: tag)
    case .plist, .other: throw error("unknown tag <\(name(tag))>", at: tag.start)
    }
  }

  mutating func array(_ tag: Tag, depth: Int) throws -> PrefValue {
    guard depth < maxDepth else {
      throw error(.tooDeep(limit: maxDepth), at: tag.start)
    }
    if tag.selfClosing { return .array([]) }
    var items: [PrefValue] = []
    while true {
      try skipMisc()
      if starts("</") {
        try closeTag(tag)
        return .array(items)
      }
      guard peek(UInt8(ascii: "<")) else {
        throw error("text inside <array> where a value was expected")
      }
      items.append(try value(try openTag(), depth: depth + 1))
    }
  }

  mutating func dictionary(_ tag: Tag, depth: Int) throws -> PrefValue {
    guard depth < maxDepth else {
      throw error(.tooDeep(limit: maxDepth), at: tag.start)
    }
    if tag.selfClosing { return .dictionary([:]) }
    var dict = PrefDictionary()
    while true {
      try skipMisc()
      if starts("</") {
        try closeTag(tag)
        break
      }
      let (key, keyStart, item) = try entry(depth: depth)
      try insert(key, item, at: keyStart, into: &dict)
    }
    return Self.dictionaryOrUID(dict)
  }

  /// A `<key>` and its value at the current position, in a dictionary at `depth`.
  mutating func entry(depth: Int) throws -> Entry {
    guard peek(UInt8(ascii: "<")) else {
      throw error("text inside <dict> where a <key> was expected")
    }
    let keyTag = try openTag()
    guard keyTag.kind == .key else {
      throw error("<\(name(keyTag))> inside <dict> where a <key> was expected", at: keyTag.start)
    }
    let key = try text(of: keyTag)
    map?.key(key, keyTag.start..<i)
    try skipMisc()
    guard peek(UInt8(ascii: "<")), !starts("</") else {
      throw error("value missing for key '\(key)'")
    }
    return (key, keyTag.start, try value(try openTag(), depth: depth + 1))
  }

  typealias Entry = (key: String, keyStart: Int, value: PrefValue)

  func insert(_ key: String, _ item: PrefValue, at keyStart: Int, into dict: inout PrefDictionary) throws {
    try duplicates.insert(
      key, item, into: &dict, position: { .of(offset: keyStart, in: bytes) }, refusal: { error($0, at: keyStart) })
  }

  /// CF reads a one-key CF$UID dictionary as a keyed-archive UID.
  static func dictionaryOrUID(_ dict: PrefDictionary) -> PrefValue {
    if dict.count == 1, case .integer(let n)? = dict["CF$UID"], n >= 0, n <= Int64(UInt32.max) {
      return .uid(UInt64(n))
    }
    return .dictionary(dict)
  }

  // MARK: Scalars

  /// Parses a scalar element's text: straight from the input when it is plain, else
  /// (references or CDATA) from the resolved text.
  mutating func scalar(
    _ tag: Tag, _ parse: (XMLPlistParser, UnsafeBufferPointer<UInt8>, Tag) throws -> PrefValue
  ) throws -> PrefValue {
    if let range = try simpleText(of: tag) {
      return try parse(self, UnsafeBufferPointer(rebasing: bytes[range]), tag)
    }
    var text = try text(of: tag)
    return try text.withUTF8 { try parse(self, $0, tag) }
  }

  func integer(_ t: UnsafeBufferPointer<UInt8>, at tag: Tag) throws -> PrefValue {
    guard t.count <= TextForms.maxNumberLength else {
      throw error(TextForms.numberTooLong(t.count), at: tag.start)
    }
    var p = 0
    let end = t.count
    let negative = p < end && t[p] == UInt8(ascii: "-")
    if p < end, t[p] == UInt8(ascii: "-") || t[p] == UInt8(ascii: "+") { p += 1 }
    var radix: UInt64 = 10
    if end - p >= 2, t[p] == UInt8(ascii: "0"),
      t[p + 1] == UInt8(ascii: "x") || t[p + 1] == UInt8(ascii: "X")
    {
      radix = 16
      p += 2
    }
    let text = { String(decoding: t, as: UTF8.self) }
    guard p < end else { throw error("malformed <integer> '\(text())'", at: tag.start) }
    var magnitude: UInt64 = 0
    var overflow = false
    while p < end {
      let b = t[p]
      let digit: UInt64
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(b &- UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
        digit = UInt64(b &- UInt8(ascii: "a") &+ 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
        digit = UInt64(b &- UInt8(ascii: "A") &+ 10)
      default: throw error("malformed <integer> '\(text())'", at: tag.start)
      }
      let (scaled, o1) = magnitude.multipliedReportingOverflow(by: radix)
      let (sum, o2) = scaled.addingReportingOverflow(digit)
      overflow = overflow || o1 || o2
      magnitude = sum
      p += 1
    }
    guard !overflow else {
      throw error("integer \(text()) is outside the 64-bit range", at: tag.start)
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else {
        throw error("integer \(text()) is outside the 64-bit range", at: tag.start)
      }
      return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
    }
    return .integer(exactly: magnitude)
  }

  func real(_ t: UnsafeBufferPointer<UInt8>, at tag: Tag) throws -> PrefValue {
    guard t.count <= TextForms.maxNumberLength else {
      throw error(TextForms.numberTooLong(t.count), at: tag.start)
    }
    // Foundation skips leading white space, nothing else.
    var p = 0
    while p < t.count, isSpace(t[p]) { p += 1 }
    let trimmed = UnsafeBufferPointer(rebasing: t[p...])
    if trimmed.count <= 9, trimmed.contains(where: { $0 >= UInt8(ascii: "A") }) {
      let lower = String(decoding: trimmed, as: UTF8.self).lowercased()
      switch lower {
      case "nan": return .real(.nan)
      case "inf", "infinity", "+inf", "+infinity": return .real(.infinity)
      case "-inf", "-infinity": return .real(-.infinity)
      default: break
      }
    }
    let digits = Substring(String(decoding: trimmed, as: UTF8.self))
    guard let value = TextForms.parseReal(digits) else {
      let reason =
        TextForms.isDecimalReal(digits)
        ? "is out of range"
        : digits.lowercased().contains("0x") ? "is hexadecimal: a <real> is decimal" : "is malformed"
      throw error("<real> '\(String(decoding: t, as: UTF8.self))' \(reason)", at: tag.start)
    }
    return .real(value)
  }

  func date(_ t: UnsafeBufferPointer<UInt8>, at tag: Tag) throws -> PrefValue {
    // Exactly YYYY-MM-DDThh:mm:ssZ, the only form Foundation reads.
    func digits(_ from: Int, _ count: Int) -> Int64? {
      var n: Int64 = 0
      for k in from..<(from + count) {
        let b = t[k]
        guard b >= 0x30 && b <= 0x39 else { return nil }
        n = n * 10 + Int64(b - 0x30)
      }
      return n
    }
    func at(_ k: Int, _ c: UInt8) -> Bool { t[k] == c }
    guard t.count == 20, at(4, UInt8(ascii: "-")), at(7, UInt8(ascii: "-")),
      at(10, UInt8(ascii: "T")), at(13, UInt8(ascii: ":")), at(16, UInt8(ascii: ":")),
      at(19, UInt8(ascii: "Z")), let year = digits(0, 4), let month = digits(5, 2),
      let day = digits(8, 2), let hour = digits(11, 2), let minute = digits(14, 2),
      let second = digits(17, 2), (1...12).contains(month), day >= 1,
      day <= TextForms.daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
    else {
      throw error(
        "malformed <date> '\(String(decoding: t, as: UTF8.self))' (expected YYYY-MM-DDThh:mm:ssZ)",
        at: tag.start)
    }
    let days = TextForms.daysFromCivil(year: year, month: month, day: day)
    let unix = days * 86400 + hour * 3600 + minute * 60 + second
    let date = Date(timeIntervalSinceReferenceDate: Double(unix - TextForms.referenceEpochOffset))
    guard TextForms.isInDateRange(date) else {
      throw error("<date> '\(String(decoding: t, as: UTF8.self))' is \(TextForms.dateRangeProblem)", at: tag.start)
    }
    return .date(date)
  }

  mutating func data(of tag: Tag) throws -> PrefValue {
    if tag.selfClosing { return .data(Data()) }
    let start = i
    guard let end = find(UInt8(ascii: "<")) else {
      throw error("unterminated <data>", at: tag.start)
    }
    let out: Data
    do {
      out = try Base64.decode(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    } catch {
      throw self.error("<data>: \(error.message)", at: start + error.offset)
    }
    i = end
    try closeTag(tag)
    return .data(out)
  }

  // MARK: Text

  /// The range of an element's text when it is plain (no references, no CDATA),
  /// consuming it and the close tag; `nil`, consuming nothing, otherwise.
  mutating func simpleText(of tag: Tag) throws -> Range<Int>? {
    if tag.selfClosing { return i..<i }
    guard let lt = try findTextEnd(), bytes[lt] == UInt8(ascii: "<"), !starts("<!", at: lt) else {
      return nil
    }
    let range = i..<lt
    i = lt
    try closeTag(tag)
    return range
  }

  /// The character data of a `<key>`, `<string>` or scalar element up to its close
  /// tag, with references and CDATA resolved.
  package mutating func text(of tag: Tag) throws -> String {
    if tag.selfClosing { return "" }
    // Nearly all text is plain: make the string straight from the input.
    if let lt = try findTextEnd(), bytes[lt] == UInt8(ascii: "<"), !starts("<!", at: lt) {
      let run = UnsafeBufferPointer(rebasing: bytes[i..<lt])
      i = lt
      try closeTag(tag)
      guard let text = UTF8Text.string(validating: run) else {
        throw error("<\(name(tag))> text is not valid UTF-8", at: tag.start)
      }
      return text
    }
    var buffer: [UInt8] = []
    var runStart = i
    while true {
      guard let lt = try findTextEnd() else {
        throw error("unterminated <\(name(tag))>", at: tag.start)
      }
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
      try closeTag(tag)
      break
    }
    guard let text = String(validating: buffer, as: UTF8.self) else {
      throw error("<\(name(tag))> text is not valid UTF-8", at: tag.start)
    }
    return text
  }

  /// The next `<` or `&` from the current position. A control character other
  /// than tab, line feed and carriage return (XML 1.0 allows no other) is an error.
  func findTextEnd() throws -> Int? {
    var p = i
    // Eight bytes at a time while none of them is `<`, `&` or below 0x20 (text is
    // most of a plist); the byte loop below then finds exactly which one it is.
    if let base = bytes.baseAddress {
      while p + 8 <= bytes.count {
        let word = UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self)
        if Self.mayEndText(word) { break }
        p += 8
      }
    }
    while p < bytes.count {
      let b = bytes[p]
      if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") { return p }
      if b < 0x20, b != 0x09, b != 0x0A, b != 0x0D {
        throw error("control character U+\(hexDigits(b, width: 4, uppercase: true)) is not allowed in XML", at: p)
      }
      p += 1
    }
    return nil
  }

  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Whether any byte of `word` is `<`, `&` or below 0x20 (the classic "has zero
  /// byte" and "has byte less than" bit tricks: exact about whether, not where).
  @inline(__always)
  static func mayEndText(_ word: UInt64) -> Bool {
    func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
    let below0x20 = (word &- ones &* 0x20) & ~word & highs != 0
    return below0x20 || hasZeroByte(word ^ (ones &* 0x3C)) || hasZeroByte(word ^ (ones &* 0x26))
  }

  mutating func reference(into buffer: inout [UInt8]) throws {
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
  mutating func openTag() throws -> Tag {
    let start = i
    i += 1
    let nameStart = i
    while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
    guard i > nameStart else { throw error("malformed tag", at: start) }
    let name = nameStart..<i
    func tag(selfClosing: Bool) -> Tag { Tag(kind: kind(name), name: name, selfClosing: selfClosing, start: start) }
    // Nearly every tag has no attributes.
    if peek(UInt8(ascii: ">")) {
      i += 1
      return tag(selfClosing: false)
    }
    // Attributes are not used by property lists, but must be well-formed XML 1.0:
    // `name="value"` after white space, each name once, no `<` in a value.
    var attributes: [Range<Int>] = []
    while true {
      let spaceStart = i
      while i < bytes.count, isSpace(bytes[i]) { i += 1 }
      guard i < bytes.count else { throw error("unterminated tag <\(self.name(tag(selfClosing: false)))", at: start) }
      if bytes[i] == UInt8(ascii: ">") {
        i += 1
        return tag(selfClosing: false)
      }
      if starts("/>") {
        i += 2
        return tag(selfClosing: true)
      }
      guard i > spaceStart, isNameByte(bytes[i]), !isDigitOrDashOrDot(bytes[i]) else {
        throw error("malformed tag <\(self.name(tag(selfClosing: false)))>: expected an attribute, '>' or '/>'")
      }
      let attributeStart = i
      while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
      let attribute = attributeStart..<i
      let attributeName = String(decoding: bytes[attribute], as: UTF8.self)
      if attributes.contains(where: { bytes[$0].elementsEqual(bytes[attribute]) }) {
        throw error("attribute '\(attributeName)' is given twice", at: attributeStart)
      }
      attributes.append(attribute)
      while i < bytes.count, isSpace(bytes[i]) { i += 1 }
      guard peek(UInt8(ascii: "=")) else {
        throw error("attribute '\(attributeName)' has no value (XML needs name=\"value\")", at: attributeStart)
      }
      i += 1
      while i < bytes.count, isSpace(bytes[i]) { i += 1 }
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
        throw error("the value of attribute '\(attributeName)' is not quoted", at: attributeStart)
      }
      let quote = bytes[i]
      i += 1
      while i < bytes.count, bytes[i] != quote {
        if bytes[i] == UInt8(ascii: "<") {
          throw error("'<' in the value of attribute '\(attributeName)'")
        }
        i += 1
      }
      guard i < bytes.count else {
        throw error("unterminated value of attribute '\(attributeName)'", at: attributeStart)
      }
      i += 1
    }
  }

  func isDigitOrDashOrDot(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
  }

  func kind(_ name: Range<Int>) -> Kind {
    func named(_ text: StaticString) -> Bool {
      name.count == text.utf8CodeUnitCount
        && memcmp(bytes.baseAddress! + name.lowerBound, text.utf8Start, name.count) == 0
    }
    switch bytes[name.lowerBound] {
    case UInt8(ascii: "k"): return named("key") ? .key : .other
    case UInt8(ascii: "s"): return named("string") ? .string : .other
    case UInt8(ascii: "i"): return named("integer") ? .integer : .other
    case UInt8(ascii: "d"): return named("dict") ? .dict : named("date") ? .date : named("data") ? .data : .other
    case UInt8(ascii: "a"): return named("array") ? .array : .other
    case UInt8(ascii: "r"): return named("real") ? .real : .other
    case UInt8(ascii: "t"): return named("true") ? .true : .other
    case UInt8(ascii: "f"): return named("false") ? .false : .other
    case UInt8(ascii: "p"): return named("plist") ? .plist : .other
    default: return .other
    }
  }

  /// The close tag of `tag` at the current position (white space allowed before `>`).
  mutating func closeTag(_ tag: Tag) throws {
    let start = i
    guard starts("</") else { throw error("expected </\(name(tag))>") }
    i += 2
    let nameStart = i
    while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
    let found = nameStart..<i
    guard found.count == tag.name.count,
      memcmp(bytes.baseAddress! + found.lowerBound, bytes.baseAddress! + tag.name.lowerBound, found.count) == 0
    else {
      throw error(
        "close tag </\(String(decoding: bytes[found], as: UTF8.self))> does not match open tag <\(name(tag))>",
        at: start)
    }
    while i < bytes.count, isSpace(bytes[i]) { i += 1 }
    guard peek(UInt8(ascii: ">")) else { throw error("malformed close tag </\(name(tag))>", at: start) }
    i += 1
  }

  /// Skips white space, comments and processing instructions (and in the prolog the
  /// XML declaration and DOCTYPE).
  mutating func skipMisc(prolog: Bool = false) throws {
    while i < bytes.count {
      if isSpace(bytes[i]) {
        i += 1
      } else if starts("<!--") {
        // XML 1.0: `--` may stand in a comment only as part of its end, `-->`.
        guard let dashes = find("--", from: i + 4) else { throw error("unterminated comment") }
        guard dashes + 2 < bytes.count, bytes[dashes + 2] == UInt8(ascii: ">") else {
          throw error("'--' inside a comment (XML allows it only in the closing '-->')", at: dashes)
        }
        i = dashes + 3
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

  mutating func doctype() throws {
    guard let end = XMLMarkup.firstUnquoted(in: bytes, from: i, where: XMLMarkup.endsDoctype) else {
      throw error("unterminated DOCTYPE")
    }
    i = end
    guard bytes[end] == UInt8(ascii: ">") else { throw error(XMLMarkup.internalSubsetRefusal) }
    i += 1
  }

  // MARK: Scanning

  func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  func isNameByte(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
      || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
      || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
      || b == UInt8(ascii: "-")
      || b == UInt8(ascii: ".") || b == UInt8(ascii: ":") || b >= 0x80
  }

  func peek(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

  func starts(_ text: StaticString, at position: Int? = nil) -> Bool {
    let p = position ?? i
    let n = text.utf8CodeUnitCount
    guard p + n <= bytes.count else { return false }
    let start = text.utf8Start
    for k in 0..<n where bytes[p + k] != start[k] { return false }
    return true
  }

  func find(_ b: UInt8) -> Int? {
    var p = i
    while p < bytes.count {
      if bytes[p] == b { return p }
      p += 1
    }
    return nil
  }

  func find(_ text: StaticString, from: Int, within limit: Int = .max) -> Int? {
    var p = from
    let first = text.utf8Start[0]
    let end = limit >= bytes.count - from ? bytes.count : from + limit
    while p < end {
      if bytes[p] == first, starts(text, at: p) { return p }
      p += 1
    }
    return nil
  }

  // MARK: Errors

  func error(_ message: String, at position: Int? = nil) -> PrefsError {
    error(.syntax(format: Format.xml.name, stage: .parser, problem: message), at: position)
  }

  func error(_ kind: PrefsError.Kind, at position: Int? = nil) -> PrefsError {
    PrefsError(kind, position: .of(offset: position ?? i, in: bytes))
  }
}

/// Markup scanning shared by the native XML reader and the checks made before
/// Foundation's.
enum XMLMarkup {
  /// The first index at or after `start` whose byte satisfies `stop`, outside
  /// quoted attribute values and DOCTYPE literals.
  static func firstUnquoted(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, where stop: (UInt8) -> Bool
  ) -> Int? {
    var quote: UInt8? = nil
    var i = start
    while i < bytes.count {
      let b = bytes[i]
      if let q = quote {
        if b == q { quote = nil }
      } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
        quote = b
      } else if stop(b) {
        return i
      }
      i += 1
    }
    return nil
  }

  /// Where a DOCTYPE ends (`>`) or its internal subset starts (`[`).
  static func endsDoctype(_ b: UInt8) -> Bool { b == UInt8(ascii: ">") || b == UInt8(ascii: "[") }

  /// Plists never need an internal subset, and entity expansion is a classic attack.
  static let internalSubsetRefusal =
    "DOCTYPE with an internal subset (entity declarations) is not allowed in a property list"
}
