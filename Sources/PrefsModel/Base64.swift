/// The one base64 codec: every reader decodes with it (XML `<data>`, YAML `!!binary`,
/// JSON `$data`), so that they accept exactly the same texts: the standard alphabet in
/// whole groups of four, `=` padding only at the end, and white space (space, tab,
/// line feed, carriage return) anywhere, as writers break base64 into lines. Every
/// writer encodes with it, in lines of the length its format uses.
package enum Base64 {
  /// Why a text is not base64, and the offset of the byte that shows it.
  package struct Failure: Error {
    package var message: String
    package var offset: Int
  }

  private static let table: [UInt8] = {
    // 0...63: the sextet; 64: `=`; 65: white space; 255: not base64.
    var table = [UInt8](repeating: 255, count: 256)
    for (k, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
      table[Int(c)] = UInt8(k)
    }
    table[Int(UInt8(ascii: "="))] = 64
    for c in [0x20, 0x09, 0x0A, 0x0D] { table[c] = 65 }
    return table
  }()

  /// The bytes `text` encodes.
  package static func decode(_ text: String) throws(Failure) -> Data {
    var text = text
    let result = text.withUTF8 { bytes in Result { () throws(Failure) -> Data in try decode(bytes) } }
    return try result.get()
  }

  /// The bytes `text` encodes.
  package static func decode(_ text: UnsafeBufferPointer<UInt8>) throws(Failure) -> Data {
    var out = Data(count: text.count / 4 * 3)
    var length = 0
    var failure: Failure? = nil
    out.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in
      let o = raw.bindMemory(to: UInt8.self)
      Self.table.withUnsafeBufferPointer { table in
        var quad: UInt32 = 0
        var count = 0
        var padding = 0
        var position = 0
        let end = text.count
        while position < end {
          // Whole groups of four plain base64 characters, the bulk of any data.
          if count == 0, padding == 0, position + 4 <= end {
            let a = table[Int(text[position])]
            let b = table[Int(text[position + 1])]
            let c = table[Int(text[position + 2])]
            let d = table[Int(text[position + 3])]
            if a | b | c | d < 64 {
              let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
              o[length] = UInt8(truncatingIfNeeded: group >> 16)
              o[length + 1] = UInt8(truncatingIfNeeded: group >> 8)
              o[length + 2] = UInt8(truncatingIfNeeded: group)
              length += 3
              position += 4
              continue
            }
          }
          let b = text[position]
          position += 1
          var sextet = table[Int(b)]
          switch sextet {
          case 65: continue
          case 255:
            failure = Failure(message: "byte 0x\(hexBytes([b])) is not base64", offset: position - 1)
            return
          case 64:
            padding += 1
            sextet = 0
          default:
            if padding > 0 {
              failure = Failure(message: "base64 continues after '=' padding", offset: position - 1)
              return
            }
          }
          if padding > 0, count == 4 {
            failure = Failure(message: "base64 continues after '=' padding", offset: position - 1)
            return
          }
          quad = quad << 6 | UInt32(sextet)
          count += 1
          if count == 4 {
            guard padding <= 2 else {
              failure = Failure(message: "too much '=' padding in base64", offset: position - 1)
              return
            }
            o[length] = UInt8(truncatingIfNeeded: quad >> 16)
            length += 1
            if padding < 2 {
              o[length] = UInt8(truncatingIfNeeded: quad >> 8)
              length += 1
            }
            if padding < 1 {
              o[length] = UInt8(truncatingIfNeeded: quad)
              length += 1
            }
            quad = 0
            // A padded group ends the data: `count` stays 4 so anything after it is refused.
            count = padding > 0 ? 4 : 0
          }
        }
        if count != 0, !(count == 4 && padding > 0) {
          failure = Failure(message: "base64 ends in the middle of a group", offset: end)
        }
      }
    }
    if let failure { throw failure }
    out.count = length
    return out
  }

  // MARK: Encoding

  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Encodes `data` padded with `=`, in lines of at most `lineLength` characters (a
  /// multiple of 4; 76 as MIME and XML plists use), handing each line's characters to
  /// `line` without a line break: the caller adds its own indentation and breaks.
  package static func encode<E: Error>(
    _ data: Data, lineLength: Int = .max, line: (UnsafeBufferPointer<UInt8>) throws(E) -> Void
  ) throws(E) {
    guard !data.isEmpty else { return }
    let groupsPerLine = max(1, min(lineLength, data.count / 3 * 4 + 4) / 4)
    var failure: E? = nil
    alphabet.withUnsafeBufferPointer { table in
      data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: groupsPerLine * 4) { buffer in
          var i = 0
          var n = 0
          func flush() -> Bool {
            do throws(E) { try line(UnsafeBufferPointer(rebasing: buffer[0..<n])) } catch {
              failure = error
              return false
            }
            n = 0
            return true
          }
          // Whole groups of three bytes, then the padded tail.
          while i + 3 <= bytes.count {
            let b0 = bytes[i]
            let b1 = bytes[i + 1]
            let b2 = bytes[i + 2]
            buffer[n] = table[Int(b0 >> 2)]
            buffer[n + 1] = table[Int((b0 & 0x03) << 4 | b1 >> 4)]
            buffer[n + 2] = table[Int((b1 & 0x0F) << 2 | b2 >> 6)]
            buffer[n + 3] = table[Int(b2 & 0x3F)]
            n += 4
            i += 3
            if n == buffer.count, !flush() { return }
          }
          if i < bytes.count {
            let b0 = bytes[i]
            let b1 = i + 1 < bytes.count ? bytes[i + 1] : 0
            buffer[n] = table[Int(b0 >> 2)]
            buffer[n + 1] = table[Int((b0 & 0x03) << 4 | b1 >> 4)]
            buffer[n + 2] = i + 1 < bytes.count ? table[Int((b1 & 0x0F) << 2)] : UInt8(ascii: "=")
            buffer[n + 3] = UInt8(ascii: "=")
            n += 4
          }
          if n > 0 { _ = flush() }
        }
      }
    }
    if let failure { throw failure }
  }

  /// `data` as one line of base64.
  package static func encode(_ data: Data) -> String {
    encodedLines(data, lineLength: .max)
  }

  /// `data` as base64 in lines of at most `lineLength` characters, each ended by a
  /// line feed but the last.
  package static func encodedLines(_ data: Data, lineLength: Int) -> String {
    var text: [UInt8] = []
    let characters = (data.count + 2) / 3 * 4
    text.reserveCapacity(characters + characters / lineLength)
    encode(data, lineLength: lineLength) { characters in
      if !text.isEmpty { text.append(0x0A) }
      text.append(contentsOf: characters)
    }
    return String(decoding: text, as: UTF8.self)
  }
}
