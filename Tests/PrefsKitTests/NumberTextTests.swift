import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// Reals are decimal text everywhere: hexadecimal floats are refused with the right
/// message, never read as their value.
@Suite struct NumberTextTests {
  @Test func hexadecimalRealsAreNotReals() throws {
    for text in ["0x1p3", "0X1P3", "-0x1.8p1", "0x10", "inf", "nan", "1e", "e5", ".", "+", "1.5x", " 1"] {
      #expect(TextForms.parseReal(Substring(text)) == nil, "\(text)")
    }
    for (text, value) in [("1.5", 1.5), ("-2e10", -2e10), (".5", 0.5), ("5.", 5.0), ("+1E+3", 1000.0)] {
      #expect(TextForms.parseReal(Substring(text)) == value, "\(text)")
    }
  }

  @Test func anXMLHexadecimalRealSaysSo() throws {
    let error = #expect(throws: PrefsError.self) {
      try Format.xml.codec.decode(Data("<plist><real>0x1p3</real></plist>".utf8))
    }
    #expect(error?.kind.problem == "<real> '0x1p3' is hexadecimal: a <real> is decimal")
    let range = #expect(throws: PrefsError.self) {
      try Format.xml.codec.decode(Data("<plist><real>1e400</real></plist>".utf8))
    }
    #expect(range?.kind.problem == "<real> '1e400' is out of range")
  }

  @Test func aHexadecimalRealOnTheCommandLineIsRefused() throws {
    #expect(throws: PrefsError.self) { try ValueText.parse("0x1p3", as: .real) }
    #expect(try ValueText.parse("8.0", as: .real) == .real(8))
  }
}
