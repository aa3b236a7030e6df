import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// The native XML reader refuses what XML 1.0 refuses, with a position.
@Suite struct XMLWellFormednessTests {
  static let refused: [(String, String)] = [
    ("<plist>\n<string foo>x</string></plist>", "2:9: attribute 'foo' has no value"),
    ("<plist>\n<string a=\"1\" a=\"2\">x</string></plist>", "2:15: attribute 'a' is given twice"),
    ("<plist>\n<string a=1>x</string></plist>", "2:9: the value of attribute 'a' is not quoted"),
    ("<plist>\n<string a=\"1\"b=\"2\">x</string></plist>", "2:14: malformed tag <string>"),
    ("<plist>\n<!-- a -- b -->\n<true/></plist>", "2:8: '--' inside a comment"),
    ("<plist>\n<!-- a --->\n<true/></plist>", "2:8: '--' inside a comment"),
    ("<plist>\n<string a=\"<\">x</string></plist>", "2:12: '<' in the value of attribute 'a'"),
    // A quote in a nameless attribute that would hide the real value from a lenient reader.
    (
      "<plist><dict><key>k</key>\n<string =\">one</string><!--<string \">two</string><!----></dict></plist>",
      "2:9: malformed tag <string>"
    ),
  ]

  @Test(arguments: 0..<refused.count)
  func malformedMarkupIsRefusedWithAPosition(index: Int) throws {
    let (text, message) = Self.refused[index]
    let error = #expect(throws: PrefsError.self) { try Format.xml.codec.decode(Data(text.utf8)) }
    let located = error.map { PrefsError.located($0.kind.problem ?? "", file: nil, position: $0.position) }
    #expect(located?.hasPrefix(message) == true, "\(String(describing: error))")
  }

  @Test func wellFormedAttributesAndCommentsStillRead() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- one - dash -->
      <plist version = '1.0' xmlns:x="u">
      <dict><!----><key a="1" b='2'>k</key><string\tc="&lt;"/></dict>
      </plist>
      """
    #expect(try Format.xml.codec.decode(Data(text.utf8)) == .dictionary(["k": .string("")]))
  }
}
