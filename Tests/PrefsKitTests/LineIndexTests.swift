import Foundation
import PrefsTestSupport
import Testing

@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsText

/// The one line index: a line ends at `\n`, `\r\n` or a lone `\r`; a column counts
/// Unicode scalars from 1. Every reader reports its errors by it.
@Suite struct LineIndexTests {
  func position(_ text: String, at offset: Int) -> SourcePosition {
    .of(offset: offset, in: Array(text.utf8))
  }

  @Test func lineBreaksAreLFCRLFAndALoneCR() {
    #expect(position("ab", at: 1) == .lineColumn(line: 1, column: 2))
    #expect(position("a\nb", at: 2) == .lineColumn(line: 2, column: 1))
    #expect(position("a\r\nb", at: 3) == .lineColumn(line: 2, column: 1))
    #expect(position("a\rb", at: 2) == .lineColumn(line: 2, column: 1))
    #expect(position("a\r\r\nb", at: 4) == .lineColumn(line: 3, column: 1))
    // The CR of a CRLF is still on its line.
    #expect(position("a\r\nb", at: 1) == .lineColumn(line: 1, column: 2))
  }

  @Test func columnsCountScalarsNotBytes() {
    // é is two bytes, 👋 four, e + U+0301 two scalars.
    #expect(position("é👋x", at: 6) == .lineColumn(line: 1, column: 3))
    #expect(position("e\u{301}x", at: 3) == .lineColumn(line: 1, column: 3))
  }

  @Test func anOffsetPastTheEndIsTheEnd() {
    #expect(position("ab", at: 9) == .lineColumn(line: 1, column: 3))
    #expect(position("", at: 0) == .lineColumn(line: 1, column: 1))
  }

  @Test func aSliceCountsFromItsStart() {
    let bytes = Array("xx\nab".utf8)
    #expect(SourcePosition.of(offset: 1, in: bytes[3...]) == .lineColumn(line: 1, column: 2))
  }

  /// The same mistake, after a lone CR and a character of two bytes, is at the same
  /// line and column in every text format (OpenStep also after a byte order mark
  /// and a CRLF, which it counts from).
  @Test(arguments: [
    ("t.json", "[\"é\",\r\"ü\", x]", 2, 6),
    ("t.strings", "(\"é\",\r\"ü\", %)", 2, 6),
    ("t.strings", "\u{FEFF}(\"é\",\r\n\"ü\", %)", 2, 6),
    ("t.plist", "<plist><array><string>é</string>\r<string>ü</string> <x></array></plist>", 2, 20),
  ])
  func everyReaderCountsTheSame(file: String, text: String, line: Int, column: Int) {
    let error = #expect(throws: PrefsError.self) { try Format.read(Data(text.utf8), path: file) }
    #expect(error?.position == .lineColumn(line: line, column: column), "\(String(describing: error))")
  }
}
