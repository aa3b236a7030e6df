import PrefsModel
import PrefsText

/// Characters outside the Basic Multilingual Plane (emoji, `🎉`), written as
/// themselves. libyaml 0.2.5's emitter takes them for unprintable and writes them
/// escaped in double quotes (`"\U0001F389"`), which YAML readers read back, but no
/// person reads. So the writer hands libyaml each such character as two stand-ins
/// from the BMP's private use area, which it writes as they are, and ``Restorer``
/// puts the character back in the bytes libyaml writes.
///
/// A character outside the BMP, U+10000 + n (n below 2^20), stands in as U+E000 plus
/// n's high ten bits, then U+E000 plus its low ten bits. A character of the stand-ins'
/// own range (U+E000 to U+E400) stands in as U+E400 followed by itself, so that every
/// character of that range in libyaml's output is a stand-in.
enum YAMLWideCharacters {
  private static let first: UInt32 = 0xE000
  private static let escape: UInt32 = 0xE400

  /// Whether a string's UTF-8 holds a character that needs stand-ins: a four-byte
  /// sequence, or one of U+E000 to U+E400 (`EE 80 80` to `EE 90 80`).
  static func needsStandIns(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    while i < bytes.count {
      let c = bytes[i]
      if c >= 0xF0 { return true }
      if c == 0xEE, i + 1 < bytes.count, bytes[i + 1] >= 0x80, bytes[i + 1] <= 0x90 { return true }
      i += 1
    }
    return false
  }

  /// `text` with each character outside the BMP, and each of the stand-ins' range, as its stand-ins.
  static func standingIn(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value >= 0x10000 {
        let n = value - 0x10000
        scalars.append(Unicode.Scalar(first + (n >> 10))!)
        scalars.append(Unicode.Scalar(first + (n & 0x3FF))!)
      } else if value >= first, value <= escape {
        scalars.append(Unicode.Scalar(escape)!)
        scalars.append(scalar)
      } else {
        scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  /// Puts the characters back in libyaml's output, which arrives in chunks: a chunk
  /// may end between a character's two stand-ins (never inside one character's bytes).
  struct Restorer {
    private enum Pending {
      case high(UInt32)
      case escaped
    }
    private var pending: Pending?

    /// Writes `chunk` to `writer` with the characters put back.
    mutating func write(_ chunk: UnsafeRawBufferPointer, to writer: ByteWriter) throws {
      let bytes = chunk.bindMemory(to: UInt8.self)
      var start = 0
      var i = 0
      while i < bytes.count {
        let c = bytes[i]
        // A stand-in is three bytes from EE 80 80 (U+E000) to EE 90 80 (U+E400).
        guard c == 0xEE, i + 2 < bytes.count, bytes[i + 1] >= 0x80, bytes[i + 1] <= 0x90 else {
          i += 1
          continue
        }
        let value = 0xE000 | (UInt32(bytes[i + 1] & 0x3F) << 6) | UInt32(bytes[i + 2] & 0x3F)
        guard value <= YAMLWideCharacters.escape || pending != nil else {
          i += 1
          continue
        }
        if start < i { try writer.write(UnsafeRawBufferPointer(rebasing: chunk[start..<i])) }
        i += 3
        start = i
        switch pending {
        case .escaped:
          pending = nil
          try writer.write(scalar: value)
        case .high(let high):
          pending = nil
          try writer.write(
            scalar: 0x10000 + ((high - YAMLWideCharacters.first) << 10) + (value - YAMLWideCharacters.first))
        case nil:
          pending = value == YAMLWideCharacters.escape ? .escaped : .high(value)
        }
      }
      if start < bytes.count { try writer.write(UnsafeRawBufferPointer(rebasing: chunk[start...])) }
    }
  }
}

extension ByteWriter {
  /// Writes one Unicode scalar as UTF-8.
  fileprivate func write(scalar value: UInt32) throws {
    guard let scalar = Unicode.Scalar(value) else { return }
    var bytes: [UInt8] = []
    UTF8.encode(scalar) { bytes.append($0) }
    try write(bytes)
  }
}
