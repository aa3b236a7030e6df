import PrefsModel

extension SourcePosition {
  /// The line and column of byte `offset` of UTF-8 text, as editors count them: a
  /// line break is `\n`, `\r\n` or a lone `\r`, and a column is a character (a
  /// Unicode scalar), not a byte. The one place every reader turns offsets into lines.
  package static func of<Bytes: Collection<UInt8>>(offset: Int, in bytes: Bytes) -> SourcePosition
  where Bytes.Index == Int {
    let end = min(offset, bytes.count) + bytes.startIndex
    var line = 1
    var lineStart = bytes.startIndex
    var k = bytes.startIndex
    while k < end {
      let b = bytes[k]
      if b == 0x0A || (b == 0x0D && (k + 1 >= bytes.endIndex || bytes[k + 1] != 0x0A)) {
        line += 1
        lineStart = k + 1
      }
      k += 1
    }
    var column = 1
    for k in lineStart..<end where bytes[k] & 0xC0 != 0x80 { column += 1 }
    return .lineColumn(line: line, column: column)
  }
}
