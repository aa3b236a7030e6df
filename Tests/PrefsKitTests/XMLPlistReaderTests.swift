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
  // MARK: Hostile XML

  @Test func truncatedOrAlteredXMLIsReadOrRefusedWithAPosition() throws {
    let original = TestSupport.everyKind
    let full = try Self.xml.encode(original)
    for length in 0..<full.count {
      do {
        let value = try Self.xml.decode(full.prefix(length))
        // Only dropping the final newline leaves a complete document.
        #expect(value == original && length == full.count - 1, "length \(length)")
      } catch let error as PrefsError {
        #expect(error.category == .badInput, "length \(length): \(error)")
      }
    }
    for position in stride(from: 0, to: full.count, by: 3) {
      for replacement in Array("<>&/=\"!?[]x".utf8) + [0x00, 0xFF] {
        var data = full
        data[position] = replacement
        do { _ = try Self.xml.decode(data) } catch let error as PrefsError {
          #expect(
            error.position != nil || data.starts(with: Array("bplist".utf8)),
            "\(position): \(error)")
        }
      }
    }
  }

  @Test func deeplyNestedXMLIsRefusedWithoutOverflowingTheStack() throws {
    let n = 100_000
    let text =
      "<plist>" + String(repeating: "<array>", count: n) + String(repeating: "</array>", count: n)
      + "</plist>"
    let error = #expect(throws: PrefsError.self) { try Self.xml.decode(Data(text.utf8)) }
    #expect(error?.kind == .tooDeep(limit: 512))
  }

  @Test func aSharedEmptyContainerMeetsTheDepthLimitInEitherOrder() throws {
    // {a: E, b: [E]} with one empty array E: E sits two levels below the root.
    func document(bFirst: Bool) -> Data {
      let keys: [UInt8] = bFirst ? [2, 1] : [1, 2]
      let values: [UInt8] = bFirst ? [4, 3] : [3, 4]
      return Self.bplist([[0xD2] + keys + values, [0x51, 0x61], [0x51, 0x62], [0xA0], [0xA1, 3]])
    }
    var options = ReadOptions()
    options.maxDepth = 2
    for bFirst in [false, true] {
      #expect(throws: PrefsError.self, "b first: \(bFirst)") {
        try Self.binary.decode(document(bFirst: bFirst), options: options)
      }
    }
    options.maxDepth = 3
    for bFirst in [false, true] {
      let value = try Self.binary.decode(document(bFirst: bFirst), options: options)
      #expect(value.dictionaryValue?["b"] == .array([.array([])]))
    }
  }

  @Test func sharedSubtreesCannotExplode() throws {
    // 64 levels of arrays each referencing the next twice: 2^64 values if expanded.
    var objects: [[UInt8]] = (0..<64).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
    objects.append([0x09])
    let error = #expect(throws: PrefsError.self) { try Self.binary.decode(Self.bplist(objects)) }
    #expect(error?.kind.syntax?.stage == .parser)
    #expect(error?.kind.problem?.contains("expand") == true)
    // Moderate sharing is fine.
    let shared = Self.bplist([[0xA2, 1, 1], [0xA1, 2], [0x09]])
    #expect(
      try Self.binary.decode(shared) == .array([.array([.bool(true)]), .array([.bool(true)])]))
  }
}

/// The native XML reader's word-at-a-time scans agree with the byte-at-a-time rules.
@Suite struct XMLPlistFastPathTests {
  func read(_ body: String) throws -> PrefValue {
    try Format.xml.codec.decode(Data("<plist>\(body)</plist>".utf8))
  }

  @Test func base64GroupsAcrossLinesAndIndentation() throws {
    let bytes = Data((0..<100).map { UInt8($0) })
    let lines = bytes.base64EncodedString(options: .lineLength64Characters)
    #expect(try read("<data>\n\t\(lines.replacingOccurrences(of: "\r\n", with: "\n\t"))\n</data>") == .data(bytes))
  }

  @Test func base64AfterPaddingIsRefusedEvenInWholeGroups() {
    #expect(throws: PrefsError.self) { _ = try read("<data>AA==AAAA</data>") }
  }

  @Test func textEndsAreFoundAtEveryOffset() throws {
    for length in 0..<20 {
      let text = String(repeating: "x", count: length)
      #expect(try read("<string>\(text)</string>") == .string(text))
      #expect(try read("<string>\(text)&amp;y</string>") == .string(text + "&y"))
      #expect(throws: PrefsError.self, "control character after \(length) bytes") {
        _ = try read("<string>\(text)\u{1}</string>")
      }
    }
  }
}
