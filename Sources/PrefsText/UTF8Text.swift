import PrefsModel

/// Strings from raw UTF-8 bytes, fast for the ASCII text that fills most documents.
package enum UTF8Text {
  /// Whether every byte is below 0x80, tested eight bytes at a time.
  package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var i = 0
    var high: UInt64 = 0
    while i + 8 <= bytes.count {
      high |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      i += 8
    }
    while i < bytes.count {
      high |= UInt64(base[i])
      i += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }

  /// The text of `bytes`, or `nil` when they are not valid UTF-8.
  package static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
    // ASCII cannot be invalid, and decoding a buffer pointer takes the standard
    // library's specialised path; `String(validating:)` is generic and costs a
    // witness table lookup per call.
    if isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
  }
}
