import Foundation
import PrefsKit
import PrefsTestSupport
import Synchronization
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

extension PlistCodecTests {
  // MARK: Bool vs integer

  @Test func boolsAreNeverNumbers() throws {
    // On this Foundation `is Bool` holds for the number 1.
    let one: Any = NSNumber(value: 1)
    #expect(one is Bool)
    let mixed = PrefValue.array([
      .bool(true), .bool(false), .integer(1), .integer(0), .real(1.0), .real(0.0),
      .unsignedInteger(1 << 63),
    ])
    for codec in [Self.binary, Self.xml] {
      let data = try codec.encode(mixed)
      #expect(try codec.decode(data) == mixed)
      #expect(try Self.foundationRead(data) == mixed)
    }
    let text = String(decoding: try Self.xml.encode(mixed), as: UTF8.self)
    #expect(text.contains("<true/>") && text.contains("<false/>"))
    #expect(text.contains("<integer>1</integer>") && text.contains("<integer>0</integer>"))
    #expect(text.contains("<real>1.0</real>") && text.contains("<real>0.0</real>"))
    let source = Data(
      #"<plist version="1.0"><array><true/><integer>1</integer><false/><integer>0</integer></array></plist>"#
        .utf8)
    #expect(
      try Self.xml.decode(source) == .array([.bool(true), .integer(1), .bool(false), .integer(0)]))
  }

  // MARK: XML writer details

  @Test func xmlWriterRefusesCharactersXMLCannotHold() throws {
    for bad in ["a\u{1}b", "\u{0}", "x\u{FFFE}", "\u{FFFF}"] {
      let error = #expect(throws: PrefsError.self) {
        try Self.xml.encode(.dictionary(["outer": .array([.string(bad)])]))
      }
      #expect(error?.kind.name == "unrepresentable")
      if case .unrepresentable(let format, let kind, let path, _)? = error?.kind {
        #expect(format == "xml" && kind == .string && path == PrefKeyPath([.key("outer"), .index(0)]))
      }
      // Binary holds them.
      #expect(try TestSupport.roundTrip(.string(bad), through: .binary) == .string(bad))
    }
    let keyError = #expect(throws: PrefsError.self) {
      try Self.xml.encode(.dictionary(["k\u{7}": .bool(true)]))
    }
    if case .unrepresentable(_, _, let path, _)? = keyError?.kind {
      #expect(path == PrefKeyPath([.key("k\u{7}")]))
    } else {
      Issue.record("not a value XML cannot hold: \(String(describing: keyError))")
    }
    // Tab, newline and carriage return are kept exactly.
    let text = PrefValue.string("a\tb\nc\rd\r\n")
    #expect(try TestSupport.roundTrip(text, through: .xml) == text)
  }

  @Test func xmlWriterWritesNonFiniteRealsAsCFDoes() throws {
    let value = PrefValue.array([
      .real(.nan), .real(.infinity), .real(-.infinity), .real(1e20), .real(1e-7), .real(0.1),
    ])
    let text = String(decoding: try Self.xml.encode(value), as: UTF8.self)
    for form in ["nan", "+infinity", "-infinity", "1.0e+20", "1.0e-07", "0.1"] {
      #expect(text.contains("<real>\(form)</real>"))
    }
    #expect(try Self.xml.decode(Data(text.utf8)) == value)
    #expect(try Self.foundationRead(Data(text.utf8)) == value)
  }

  @Test func openStepIsReadAndWrittenNatively() throws {
    let value = try Self.xml.decode(
      Data(#"{ name = "Chimes"; list = (a, b); blob = <0102>; }"#.utf8))
    #expect(
      value
        == .dictionary([
          "name": .string("Chimes"), "list": .array([.string("a"), .string("b")]),
          "blob": .data(Data([1, 2])),
        ]))
    #expect(value.dictionaryValue?.keys == ["name", "list", "blob"])
    let text = try PlistCodec(variant: .openStep).encode(value)
    #expect(
      String(decoding: text, as: UTF8.self)
        == "{\n\tname = Chimes;\n\tlist = (\n\t\ta,\n\t\tb,\n\t);\n\tblob = <0102>;\n}\n")
    #expect(try Self.foundationRead(text) == value)
    let broken = #expect(throws: PrefsError.self) {
      try Self.xml.decode(Data("{ a = b \n c = d; }".utf8))
    }
    #expect(broken?.position == .lineColumn(line: 1, column: 8))
  }
}
