import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// File names as the system gives them: bytes, not always UTF-8.
///
/// Swift's `CommandLine.arguments` repairs bytes that are not UTF-8 into U+FFFD, so a
/// file named `bad\xFFname.yaml` could not be opened. An argument is read here
/// instead with each such byte kept as one scalar of a private range (U+10FF00 plus
/// the byte), and turned back into the same bytes where a file is opened.
package enum RawPath {
  /// The first scalar of the range that stands for single bytes.
  static let base: UInt32 = 0x10_FF00

  /// An argument of the command line, its bytes kept (see the type's description).
  package static func argument(_ bytes: UnsafePointer<CChar>) -> String {
    if let text = String(validatingCString: bytes) { return text }
    return string(from: Array(UnsafeBufferPointer(start: bytes, count: strlen(bytes))).map { UInt8(bitPattern: $0) })
  }

  /// `bytes` as text: UTF-8 where it is, each other byte as its stand-in scalar.
  package static func string(from bytes: [UInt8]) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var scalars = String.UnicodeScalarView()
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
      if length > 0, index + length <= bytes.count,
        let text = String(validating: bytes[index..<index + length], as: UTF8.self),
        text.unicodeScalars.count == 1
      {
        scalars.append(text.unicodeScalars.first!)
        index += length
      } else {
        scalars.append(Unicode.Scalar(base + UInt32(lead))!)
        index += 1
      }
    }
    return String(scalars)
  }

  /// The bytes `path` stands for: its UTF-8, with each stand-in scalar its byte.
  package static func bytes(_ path: String) -> [UInt8] {
    if !path.unicodeScalars.contains(where: { $0.value >= base }) { return Array(path.utf8) }
    var bytes: [UInt8] = []
    for scalar in path.unicodeScalars {
      if scalar.value >= base, scalar.value <= base + 0xFF {
        bytes.append(UInt8(scalar.value - base))
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// Calls `body` with `path` as the C string of its bytes, for stat(2) and open(2).
  package static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
    try (bytes(path).map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
  }

  /// `path` for messages: each byte that is not UTF-8 as `\xFF`.
  package static func display(_ path: String) -> String {
    var text = ""
    for scalar in path.unicodeScalars {
      if scalar.value >= base, scalar.value <= base + 0xFF {
        text += "\\x" + hexDigits(scalar.value - base, width: 2, uppercase: true)
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    return text
  }
}
