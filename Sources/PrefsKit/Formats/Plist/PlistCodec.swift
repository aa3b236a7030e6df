import Foundation

/// Which property list format a ``PlistCodec`` writes.
public enum PlistVariant: Sendable {
  /// XML (`<?xml …><plist version="1.0">`).
  case xml
  /// Binary (`bplist00`).
  case binary
  /// OpenStep (old-style ASCII); read only.
  case openStep
}

/// Reads any property list and writes one variant.
///
/// Reading sniffs the content whatever the variant: `bplist` goes to the native
/// binary reader (positions as byte offsets, cycles refused), text starting with
/// `<` to the native XML reader (or `PropertyListSerialization` when it is not
/// UTF-8), anything else to `PropertyListSerialization` as OpenStep.
/// Writing is native for XML and binary; OpenStep is refused (Foundation crashes
/// writing it, and `prefs` treats it as read-only).
public struct PlistCodec: FormatCodec {
  /// The variant ``write(_:to:options:warnings:)`` produces.
  public let variant: PlistVariant

  /// A codec that writes `variant`.
  public init(variant: PlistVariant) { self.variant = variant }

  /// Reads a binary, XML or OpenStep property list, whatever ``variant`` is.
  public func read(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue {
    guard !data.isEmpty else {
      throw PrefsError.badInput("empty input: not a property list", line: 1, column: 1)
    }
    switch Self.sniff(data) {
    case .binary:
      var reader = BinaryPlistReader(
        data, maxDepth: options.maxDepth, warnings: warnings, allowDuplicateKeys: options.allowDuplicateKeys)
      return try reader.read()
    case .xml:
      // UTF-8 (nearly every plist) is read natively: key order, exact errors, no
      // silent changes. Other encodings go to Foundation, the reference reader.
      guard XMLPlistReader.canRead(data) else {
        return try FoundationPlistReader.read(data, isXML: true, maxDepth: options.maxDepth)
      }
      var reader = XMLPlistReader(
        data, maxDepth: options.maxDepth, duplicates: DuplicateKeys(options, warnings: warnings))
      return try reader.read()
    case .openStep:
      return try FoundationPlistReader.read(data, isXML: false, maxDepth: options.maxDepth)
    }
  }

  /// Writes `value` as ``variant``; OpenStep is refused.
  public func write(
    _ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings
  ) throws {
    switch variant {
    case .xml:
      var xml = XMLPlistWriter(to: writer, sortKeys: options.sortKeys, warnings: warnings)
      try xml.write(value)
    case .binary:
      var binary = BinaryPlistWriter(sortKeys: options.sortKeys)
      try binary.write(value, to: writer)
    case .openStep:
      throw PrefsError(
        .usage, "OpenStep property lists are read only; write xml or binary instead",
        hints: ["Foundation cannot write the OpenStep format on this platform"])
    }
  }

  /// The variant `data` is read as: what ``Format/sniffPlist(_:)`` (the one plist
  /// sniffer) says, else XML when it starts with `<` (for the XML reader's error),
  /// else OpenStep.
  static func sniff(_ data: Data) -> PlistVariant {
    switch Format.sniffPlist(data) {
    case .binary?: return .binary
    case .xml?: return .xml
    case .openStep?: return .openStep
    default:
      var rest = data[...]
      if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
      let first = rest.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) })
      return first == UInt8(ascii: "<") ? .xml : .openStep
    }
  }
}
