import Foundation

/// A text document read for editing: its value, and where in its bytes each value
/// stands, so that a new value can be written back by changing only the bytes of
/// what changed (DESIGN.md section 10, house rule 6).
///
/// YAML, JSON and XML property lists have text; a binary property list does not, and
/// is written whole. UTF-16 text is edited as UTF-8 and written back as UTF-16.
public struct TextDocument: Sendable {
  /// The document's format.
  public let format: Format
  /// The value the document holds.
  public let value: PrefValue
  /// The source map of ``text``.
  public let map: SourceMap
  /// The document's text as UTF-8 (transcoded from UTF-16 when it was that).
  let text: [UInt8]
  let encoding: Encoding
  let syntax: any TextSyntax
  let options: ReadOptions

  /// How the document's bytes are encoded.
  enum Encoding: Sendable {
    case utf8
    case utf16(bigEndian: Bool)
  }

  /// The patcher's view of a format, or nil for one without text.
  static func syntax(for format: Format) -> (any TextSyntax)? {
    switch format {
    case .yaml: YAMLSyntax()
    case .json: JSONSyntax()
    case .xml: XMLSyntax()
    default: nil
    }
  }

  /// Reads `data` as `format` with its source map; nil when the format has no text
  /// to patch (a binary plist, an XML plist in an encoding other than UTF-8 or UTF-16).
  public init?(_ data: Data, format: Format, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings())
    throws
  {
    guard let syntax = Self.syntax(for: format) else { return nil }
    var encoding = Encoding.utf8
    var utf8 = data
    if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
      let bigEndian = data.first == 0xFE
      guard let text = String(data: data, encoding: bigEndian ? .utf16BigEndian : .utf16LittleEndian) else {
        return nil
      }
      encoding = .utf16(bigEndian: bigEndian)
      // The byte order mark stays out: the text is written back with one.
      utf8 = Data(text.utf8)
      if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { utf8 = utf8.dropFirst(3) }
    } else if format == .xml, !XMLPlistReader.canRead(data) {
      return nil
    }
    let (value, map) = try syntax.readMapped(utf8, options: options, warnings: warnings)
    self.format = format
    self.value = value
    self.map = map
    self.text = Array(utf8)
    self.encoding = encoding
    self.syntax = syntax
    self.options = options
  }

  /// The document's bytes changed to hold `newValue`.
  public struct Patch: Sendable {
    /// The new bytes of the whole document.
    public let data: Data
    /// Entries that could not change in place and were written whole, by key path.
    public let rewrittenEntries: [PrefKeyPath]
    /// Why the whole document was written anew, when it was.
    public let rewrittenWhole: String?
  }

  /// The document's bytes changed to hold `newValue`, only where the values differ.
  /// The result is read back and compared with `newValue`; when patching cannot give
  /// it, the whole document is written by the format's writer instead, and
  /// ``Patch/rewrittenWhole`` says why.
  public func patched(to newValue: PrefValue, warnings: Warnings = Warnings()) throws -> Patch {
    if newValue == value { return Patch(data: encoded(text), rewrittenEntries: [], rewrittenWhole: nil) }
    var patcher = TextPatcher(
      text: text, map: map, syntax: syntax, layout: TextLayout.detect(text, defaultUnit: defaultIndent),
      warnings: warnings)
    do {
      let data = encoded(try patcher.patch(from: value, to: newValue))
      if try readsBack(data, as: newValue) {
        return Patch(data: data, rewrittenEntries: patcher.rewrites, rewrittenWhole: nil)
      }
      return try rewritten(newValue, warnings: warnings, why: "the edited text did not read back as the new value")
    } catch is TextPatcher.NeedsRewrite {
      return try rewritten(newValue, warnings: warnings, why: "the document's top level changed kind")
    }
  }

  /// The indentation a document without any uses: what the format's writer uses.
  var defaultIndent: [UInt8] { format == .xml ? [0x09] : [0x20, 0x20] }

  /// Whether `bytes` read as `expected`, as far as the format can hold it (an XML
  /// plist rounds a date to the second, as its writer does).
  func readsBack(_ data: Data, as expected: PrefValue) throws -> Bool {
    guard let read = try? format.codec.read(data, options: options, warnings: Warnings()) else { return false }
    if read == expected { return true }
    let held = try format.codec.read(
      try format.codec.encode(expected, options: WriteOptions(), warnings: Warnings()), options: options,
      warnings: Warnings())
    return read == held
  }

  private func rewritten(_ newValue: PrefValue, warnings: Warnings, why: String) throws -> Patch {
    let bytes = try format.codec.encode(newValue, options: WriteOptions(), warnings: warnings)
    return Patch(data: encoded(Array(bytes)), rewrittenEntries: [], rewrittenWhole: why)
  }

  func encoded(_ bytes: [UInt8]) -> Data {
    switch encoding {
    case .utf8: return Data(bytes)
    case .utf16(let bigEndian):
      let text = String(decoding: bytes, as: UTF8.self)
      var out = Data(bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE])
      for unit in text.utf16 {
        let value = bigEndian ? unit.bigEndian : unit.littleEndian
        withUnsafeBytes(of: value) { out.append(contentsOf: $0) }
      }
      return out
    }
  }
}
