import PrefsModel

/// How a text file's bytes encode its characters, as its first bytes tell: the one
/// detector and transcoder every reader, the sniffer and the document use. The readers
/// parse UTF-8 alone; UTF-16 and UTF-32 are transcoded to it first and, when a file is
/// patched, back.
public enum TextEncoding: Sendable, Equatable {
  /// UTF-8, after a byte order mark (`EF BB BF`) when `marked`.
  case utf8(marked: Bool)
  /// UTF-16, after a byte order mark when `marked`.
  case utf16(bigEndian: Bool, marked: Bool)
  /// UTF-32, after a byte order mark when `marked`.
  case utf32(bigEndian: Bool, marked: Bool)

  /// The UTF-8 byte order mark.
  package static let utf8Mark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// The encoding the first bytes of `bytes` show: a byte order mark; else, when
  /// `unmarkedFirst` is given (XML's `<`), the NULs around that first character that
  /// UTF-16 and UTF-32 without a mark put there; else UTF-8.
  package static func detect(_ bytes: some Collection<UInt8>, unmarkedFirst: UInt8? = nil) -> TextEncoding {
    let head = Array(bytes.prefix(4))
    func starts(_ prefix: [UInt8]) -> Bool { head.starts(with: prefix) }
    // UTF-32 LE's mark starts like UTF-16 LE's: the longer one first.
    if starts([0x00, 0x00, 0xFE, 0xFF]) { return .utf32(bigEndian: true, marked: true) }
    if starts([0xFF, 0xFE, 0x00, 0x00]) { return .utf32(bigEndian: false, marked: true) }
    if starts([0xFE, 0xFF]) { return .utf16(bigEndian: true, marked: true) }
    if starts([0xFF, 0xFE]) { return .utf16(bigEndian: false, marked: true) }
    if starts(utf8Mark) { return .utf8(marked: true) }
    if let c = unmarkedFirst {
      if starts([0x00, 0x00, 0x00, c]) { return .utf32(bigEndian: true, marked: false) }
      if starts([c, 0x00, 0x00, 0x00]) { return .utf32(bigEndian: false, marked: false) }
      if starts([0x00, c]) { return .utf16(bigEndian: true, marked: false) }
      if starts([c, 0x00]) { return .utf16(bigEndian: false, marked: false) }
    }
    return .utf8(marked: false)
  }

  /// The length of the UTF-8 byte order mark at the start of `bytes`: 3 or 0.
  package static func utf8MarkLength(_ bytes: some Collection<UInt8>) -> Int {
    bytes.starts(with: utf8Mark) ? 3 : 0
  }

  /// Whether `bytes` hold nothing but white space (after a UTF-8 byte order mark): a
  /// file with nothing to lose, read as an empty dictionary where a file is a domain
  /// or a side of a merge (a file both branches added has an empty base).
  package static func isBlank(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.dropFirst(utf8MarkLength(bytes)).allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
  }

  /// Whether the text is UTF-8 (marked or not), which readers parse as it is.
  public var isUTF8: Bool {
    if case .utf8 = self { return true }
    return false
  }

  /// The encoding's name, for messages: `UTF-8`, `UTF-16` or `UTF-32`.
  public var name: String {
    switch self {
    case .utf8: "UTF-8"
    case .utf16: "UTF-16"
    case .utf32: "UTF-32"
    }
  }

  /// How many bytes the byte order mark takes.
  public var markLength: Int {
    switch self {
    case .utf8(let marked): marked ? 3 : 0
    case .utf16(_, let marked): marked ? 2 : 0
    case .utf32(_, let marked): marked ? 4 : 0
    }
  }

  /// Why bytes are not text in their encoding, and where: the line and column in the
  /// text decoded before the problem.
  package struct Failure: Error, Equatable {
    package enum Problem: Sendable, Equatable {
      /// A UTF-16 surrogate without its partner, or a UTF-32 unit that is not a scalar.
      case notAScalar
      /// The bytes end inside a code unit.
      case truncated
    }
    package var problem: Problem
    package var position: SourcePosition
  }

  /// The text of `data` (in this encoding) as UTF-8 without a byte order mark: UTF-16
  /// and UTF-32 transcoded; UTF-8 with its mark dropped and otherwise as it is (its
  /// validity is the reader's to judge, with a position). With `repairing`, a unit
  /// that is not a character reads as U+FFFD and a cut-off last unit is left out, for
  /// a look at the start of a file.
  package func utf8(_ data: Data, repairing: Bool = false) throws(Failure) -> Data {
    let width: Int
    let bigEndian: Bool
    switch self {
    case .utf8: return data.dropFirst(markLength)
    case .utf16(let big, _): (width, bigEndian) = (2, big)
    case .utf32(let big, _): (width, bigEndian) = (4, big)
    }
    var out: [UInt8] = []
    out.reserveCapacity(data.count)
    var failure: Failure? = nil
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let bytes = raw.bindMemory(to: UInt8.self)
      func unit(at k: Int) -> UInt32 {
        var value: UInt32 = 0
        for j in 0..<width { value = value << 8 | UInt32(bytes[bigEndian ? k + j : k + width - 1 - j]) }
        return value
      }
      var k = markLength
      while k + width <= bytes.count {
        var scalar = unit(at: k)
        k += width
        if width == 2, (0xD800...0xDBFF).contains(scalar) {
          if k + 2 <= bytes.count, case let low = unit(at: k), (0xDC00...0xDFFF).contains(low) {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            k += 2
          }
        }
        guard let character = Unicode.Scalar(scalar) ?? (repairing ? "\u{FFFD}" : nil) else {
          failure = Failure(problem: .notAScalar, position: .of(offset: out.count, in: out))
          return
        }
        UTF8.encode(character) { out.append($0) }
      }
      if k < bytes.count, !repairing {
        failure = Failure(problem: .truncated, position: .of(offset: out.count, in: out))
      }
    }
    if let failure { throw failure }
    return Data(out)
  }

  /// UTF-8 text `utf8` (without a byte order mark) in this encoding, with the mark
  /// when the encoding has one: how a patched document goes back to its file.
  package func encode(_ utf8: [UInt8]) -> Data {
    let width: Int
    let bigEndian: Bool
    switch self {
    case .utf8(let marked): return Data(marked ? Self.utf8Mark + utf8 : utf8)
    case .utf16(let big, _): (width, bigEndian) = (2, big)
    case .utf32(let big, _): (width, bigEndian) = (4, big)
    }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count * width + width)
    func append(_ unit: UInt32) {
      for j in 0..<width {
        let shift = 8 * (bigEndian ? width - 1 - j : j)
        out.append(UInt8(truncatingIfNeeded: unit >> shift))
      }
    }
    if markLength > 0 { append(0xFEFF) }
    for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
      if width == 2 {
        for unit in UTF16.encode(scalar)! { append(UInt32(unit)) }
      } else {
        append(scalar.value)
      }
    }
    return Data(out)
  }
}
