import PrefsModel
import PrefsText

/// Which property list format a ``PlistCodec`` writes.
public enum PlistVariant: Sendable {
  /// XML (`<?xml …><plist version="1.0">`).
  case xml
  /// Binary (`bplist00`).
  case binary
  /// OpenStep (old-style ASCII), in Xcode's layout.
  case openStep
}

/// Reads any property list and writes one variant.
///
/// Reading sniffs the content whatever the variant: `bplist` goes to the native
/// binary reader (positions as byte offsets, cycles refused), text starting with
/// `<` to the native XML reader (other encodings transcoded to UTF-8 first), anything
/// else to the native OpenStep reader. Writing is native for all
/// three (Foundation crashes writing OpenStep on Linux).
public struct PlistCodec: FormatCodec {
  /// The variant ``write(_:to:options:warnings:)`` produces.
  public let variant: PlistVariant

  /// A codec that writes `variant`.
  public init(variant: PlistVariant) { self.variant = variant }

  /// Reads a binary, XML or OpenStep property list, whatever ``variant`` is.
  public func read(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue {
    guard !data.isEmpty else {
      throw PrefsError.syntax(in: .xml, "empty input: not a property list", line: 1, column: 1)
    }
    switch Self.sniff(data) {
    case .binary:
      var reader = BinaryPlistReader(
        data, maxDepth: options.maxDepth, warnings: warnings, allowDuplicateKeys: options.allowDuplicateKeys,
        parallelism: options.parallelism)
      return try reader.read()
    case .xml:
      // Read natively (key order, exact errors, no silent changes), in UTF-8.
      var reader = XMLPlistReader(
        try XMLPlistReader.utf8(data), maxDepth: options.maxDepth,
        duplicates: DuplicateKeys(options, warnings: warnings), parallelism: options.parallelism)
      return try reader.read()
    case .openStep:
      return try OpenStepReader.read(data, options: options, warnings: warnings)
    }
  }

  /// Writes `value` as ``variant``; OpenStep refuses values it cannot hold (numbers,
  /// bools, dates, UIDs) with their key path. A null, which no plist holds, is refused
  /// by its key path, or with ``WriteOptions/dropNulls`` left out with a warning.
  public func write(
    _ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings
  ) throws {
    // Only when asked: the plain path pays no pass over the value.
    let value = options.dropNulls ? value.droppingNulls(warnings: warnings) : value
    switch variant {
    case .xml:
      var xml = XMLPlistWriter(to: writer, sortKeys: options.sortKeys, warnings: warnings)
      try xml.write(value)
    case .binary:
      var binary = BinaryPlistWriter(sortKeys: options.sortKeys)
      try binary.write(value, to: writer)
    case .openStep:
      if options.stringsFile, StringsFile.holds(value), let entries = value.dictionaryValue {
        return try StringsFile.write(entries, sortKeys: options.sortKeys, to: writer)
      }
      var openStep = OpenStepWriter(to: writer, sortKeys: options.sortKeys)
      try openStep.write(value)
    }
  }

  /// The variant `data` is read as: what ``Format/sniffPlist(_:)`` (the one plist
  /// sniffer) says; else, judged from its first bytes, XML when it starts with a tag
  /// (`<` after an optional byte order mark and white space, but not an OpenStep
  /// `<0fbd …>` data value; UTF-16 text judged by its first character; UTF-32, or
  /// UTF-16 without a byte order mark, by the NULs around its `<`), else OpenStep.
  static func sniff(_ data: Data) -> PlistVariant {
    switch Format.sniffPlist(data) {
    case .binary?: return .binary
    case .xml?: return .xml
    case .openStep?: return .openStep
    default:
      // UTF-32 (with or without a byte order mark) and UTF-16 without one, by the NULs around `<`.
      let encoding = XMLPlistReader.unicodeEncoding(of: data)
      switch encoding {
      case .utf32?, .utf16(_, marked: false)?: return .xml
      default: break
      }
      // The start as UTF-8: what is not ASCII there cannot make `<` or hex digits.
      var rest = data.dropFirst(TextEncoding.utf8MarkLength(data))
      if let encoding, let text = try? encoding.utf8(data.prefix(256), repairing: true) { rest = text[...] }
      guard let first = rest.firstIndex(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }),
        rest[first] == UInt8(ascii: "<")
      else { return .openStep }
      // `<0fbd 7712>` (only hex digits and white space up to `>`) is OpenStep data;
      // any tag (`<?xml`, `<plist`, `<dict/>`, `<date>`) has another character.
      for byte in rest[rest.index(after: first)...].prefix(64) {
        switch byte {
        case UInt8(ascii: ">"): return .openStep
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
          UInt8(ascii: "A")...UInt8(ascii: "F"), 0x20, 0x09, 0x0A, 0x0D:
          continue
        default: return .xml
        }
      }
      return .openStep
    }
  }
}

extension PlistCodec {
  /// The warning for a date whose fraction of a second an XML plist drops (every
  /// XML plist writer does: the second as written is kept); nil for a whole second.
  package static func droppedFraction(of date: Date, at path: [PrefKeyPath.Component]) -> String? {
    let t = date.timeIntervalSinceReferenceDate
    let whole = t.rounded(.down)
    guard t.isFinite, whole != t else { return nil }
    return "date at \(plistPath(path)) has a fraction of a second (\(TextForms.date(date))) that XML plists cannot"
      + " hold; written without it: \(TextForms.date(Date(timeIntervalSinceReferenceDate: whole)))"
  }
}

/// A key path for messages: `'a.b.0'`, or `the top level`.
package func plistPath(_ path: [PrefKeyPath.Component]) -> String {
  path.isEmpty ? PrefKeyPath().nameInMessages : "'\(PrefKeyPath(path).description)'"
}
