import Foundation
import PrefsTestSupport
import Testing

@testable import PrefsModel
@testable import PrefsText

/// The one encoding detector and transcoder: byte order marks, UTF-16 and UTF-32
/// without one (by the NULs around a first `<`), and the way back.
@Suite struct TextEncodingTests {
  static let text = "<a>Grüß dich 👋 \u{7F}\u{FFFF}\u{10FFFF}</a>\n"

  static let encodings: [(TextEncoding, String.Encoding, mark: [UInt8])] = [
    (.utf16(bigEndian: true, marked: true), .utf16BigEndian, [0xFE, 0xFF]),
    (.utf16(bigEndian: false, marked: true), .utf16LittleEndian, [0xFF, 0xFE]),
    (.utf32(bigEndian: true, marked: true), .utf32BigEndian, [0x00, 0x00, 0xFE, 0xFF]),
    (.utf32(bigEndian: false, marked: true), .utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00]),
  ]

  @Test func byteOrderMarksAreDetected() {
    for (encoding, _, mark) in Self.encodings {
      #expect(TextEncoding.detect(mark + Array("x".utf8)) == encoding)
      #expect(encoding.markLength == mark.count)
    }
    #expect(TextEncoding.detect([0xEF, 0xBB, 0xBF, 0x41]) == .utf8(marked: true))
    #expect(TextEncoding.detect(Array("plain".utf8)) == .utf8(marked: false))
    #expect(TextEncoding.detect([UInt8]()) == .utf8(marked: false))
    #expect(TextEncoding.utf8MarkLength([0xEF, 0xBB, 0xBF]) == 3)
    #expect(TextEncoding.utf8MarkLength([0xEF, 0xBB]) == 0)
  }

  @Test func unmarkedUTF16AndUTF32AreToldByTheNULsAroundTheFirstCharacter() {
    let lt = UInt8(ascii: "<")
    #expect(TextEncoding.detect([0x00, lt, 0x00, 0x3F], unmarkedFirst: lt) == .utf16(bigEndian: true, marked: false))
    #expect(TextEncoding.detect([lt, 0x00, 0x3F, 0x00], unmarkedFirst: lt) == .utf16(bigEndian: false, marked: false))
    #expect(TextEncoding.detect([0x00, 0x00, 0x00, lt], unmarkedFirst: lt) == .utf32(bigEndian: true, marked: false))
    #expect(TextEncoding.detect([lt, 0x00, 0x00, 0x00], unmarkedFirst: lt) == .utf32(bigEndian: false, marked: false))
    // Without the hint, NULs are only NULs.
    #expect(TextEncoding.detect([0x00, lt, 0x00, 0x3F]) == .utf8(marked: false))
  }

  @Test func transcodingIsFoundationsAndGoesBack() throws {
    for (encoding, foundation, mark) in Self.encodings {
      let data = Data(mark) + Self.text.data(using: foundation)!
      let utf8 = try encoding.utf8(data)
      #expect(String(decoding: utf8, as: UTF8.self) == Self.text, "\(encoding)")
      #expect(encoding.encode(Array(utf8)) == data, "\(encoding)")
    }
    let marked = Data([0xEF, 0xBB, 0xBF]) + Data("x".utf8)
    #expect(try TextEncoding.utf8(marked: true).utf8(marked) == Data("x".utf8))
    #expect(TextEncoding.utf8(marked: true).encode(Array("x".utf8)) == marked)
  }

  @Test func aLoneSurrogateOrACutUnitIsAFailureWithItsPosition() {
    // "a\nb" then a high surrogate with no low one, in UTF-16 LE.
    let lone = Data([0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00, 0x62, 0x00, 0x3D, 0xD8, 0x63, 0x00])
    #expect(throws: TextEncoding.Failure(problem: .notAScalar, position: .lineColumn(line: 2, column: 2))) {
      try TextEncoding.utf16(bigEndian: false, marked: true).utf8(lone)
    }
    let cut = Data([0xFE, 0xFF, 0x00, 0x61, 0x00])
    #expect(throws: TextEncoding.Failure(problem: .truncated, position: .lineColumn(line: 1, column: 2))) {
      try TextEncoding.utf16(bigEndian: true, marked: true).utf8(cut)
    }
    let notAScalar = Data([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x11, 0x00, 0x00])
    #expect(throws: TextEncoding.Failure.self) {
      try TextEncoding.utf32(bigEndian: true, marked: true).utf8(notAScalar)
    }
    // Repairing, as the sniffer looks at a cut-off start: U+FFFD, and the cut unit left out.
    let repaired = try? TextEncoding.utf16(bigEndian: false, marked: true).utf8(lone + Data([0x64]), repairing: true)
    #expect(repaired.map { String(decoding: $0, as: UTF8.self) } == "a\nb\u{FFFD}c")
  }
}
