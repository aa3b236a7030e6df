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
