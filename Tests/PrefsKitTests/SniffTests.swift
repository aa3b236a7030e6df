import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// Content sniffing: an XML plist is known by its first element.
@Suite struct SniffTests {
  static let munki = "<dict>\n\t<key>catalogs</key>\n\t<array><string>production</string></array>\n</dict>\n"

  @Test(arguments: [
    munki,
    "<!-- a Munki manifest -->\n" + munki,
    "\u{FEFF}  <?xml-stylesheet href=\"x\"?>\n<!-- c -->\n<!DOCTYPE dict>\n" + munki,
    "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">" + munki + "</plist>\n",
  ])
  func aBareDictOrACommentFirstIsAnXMLPlist(text: String) throws {
    let (value, format) = try Format.read(Data(text.utf8))
    #expect(format == .xml)
    #expect(value == .dictionary(["catalogs": .array([.string("production")])]))
    #expect(Format.sniffPlist(Data(text.utf8)) == .xml)
  }

  @Test(arguments: ["<foo>", "<!-- c --> <b>bold</b>", "<", "<3 hearts"])
  func otherTextStartingWithAnAngleIsYAML(text: String) throws {
    let (value, format) = try Format.read(Data(text.utf8))
    #expect(format == .yaml)
    #expect(value == .string(text))
  }

  @Test func thePlistCodecAndTheFormatTableSniffAlike() throws {
    for text in [Self.munki, "<!-- c -->" + Self.munki, "{ a = 1; }", "bplist00"] {
      let format = Format.sniffPlist(Data(text.utf8))
      let variant = PlistCodec.sniff(Data(text.utf8))
      #expect(format == [.binary: Format.binary, .xml: .xml, .openStep: .openStep][variant])
    }
  }
}

extension SniffTests {
  @Test func plainlyBinaryInputIsNoFormatWhateverItsName() throws {
    let elf = Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 56))
    let machO = Data([0xCF, 0xFA, 0xED, 0xFE, 0x0C, 0x00, 0x00, 0x01])
    for data in [elf, machO, Data([0x1F, 0x8B, 0x08, 0x00])] {
      for path in [nil, "x.yaml", "x.plist", "x.json"] {
        #expect(throws: PrefsError(.notAPreferenceFile)) { try Format.read(data, path: path) }
      }
    }
  }

  /// Text stays text: a stray NUL further in, UTF-16 with its mark, UTF-16 XML without
  /// one, a binary plist, a text that starts with a multi-byte character.
  @Test func textAndBinaryPlistsAreNotPlainlyBinary() throws {
    let texts: [Data] = [
      Data("a: 1".utf8) + Data([0]) + Data("\n".utf8),
      Data([0xFF, 0xFE]) + "a: 1\n".data(using: .utf16LittleEndian)!,
      "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist/>".data(using: .utf16LittleEndian)!,
      Data("bplist00".utf8) + Data([0x00, 0x7F]),
      Data("日本: 1\n".utf8) + Data([0]),
      Data(),
    ]
    for data in texts { #expect(!Format.isPlainlyBinary(data)) }
  }
}
