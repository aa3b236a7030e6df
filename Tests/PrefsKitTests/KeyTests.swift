import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// Keys are their Unicode scalars everywhere, and a key given twice is refused in one
/// wording, or read last-wins with a warning when asked.
@Suite struct KeyTests {
  static let precomposed = "caf\u{E9}"
  static let decomposed = "cafe\u{301}"

  @Test func canonicallyEqualKeysAreTwoKeys() throws {
    var dict = PrefDictionary()
    let inserted546 = dict.insertNew(Self.precomposed, .integer(1))
    #expect(inserted546)
    let inserted188 = dict.insertNew(Self.decomposed, .integer(2))
    #expect(inserted188)
    #expect(dict.count == 2)
    #expect(dict[Self.decomposed] == .integer(2))
    // The same past the size where the dictionary keeps an index.
    var large = PrefDictionary((0..<100).map { (key: "k\($0)", value: PrefValue.integer(Int64($0))) })
    let inserted196 = large.insertNew(Self.precomposed, .integer(1))
    #expect(inserted196)
    let inserted185 = large.insertNew(Self.decomposed, .integer(2))
    #expect(inserted185)
    #expect(large[Self.precomposed] == .integer(1))
    #expect(large.count == 102)
    let inserted330 = large.renameKey(Self.decomposed, to: "x")
    #expect(inserted330)
    #expect(large[Self.precomposed] == .integer(1))
  }

  @Test(arguments: [Format.json, .yaml, .xml])
  func readersKeepCanonicallyEqualKeysApart(format: Format) throws {
    let text: String
    switch format {
    case .json: text = "{\"\(Self.precomposed)\": 1, \"\(Self.decomposed)\": 2}"
    case .yaml: text = "\(Self.precomposed): 1\n\(Self.decomposed): 2\n"
    default:
      text =
        "<plist><dict><key>\(Self.precomposed)</key><integer>1</integer>"
        + "<key>\(Self.decomposed)</key><integer>2</integer></dict></plist>"
    }
    let value = try format.codec.decode(Data(text.utf8))
    #expect(value.dictionaryValue?.count == 2)
  }

  @Test func diffTellsCanonicallyEqualKeysApart() {
    let a = PrefValue.dictionary([Self.precomposed: .integer(1)])
    let b = PrefValue.dictionary([Self.decomposed: .integer(1)])
    #expect(a != b)
    #expect(StructuralDiff.changes(from: a, to: b).count == 2)
  }

  /// A key given twice, in each reader: `text`, and where the second one stands.
  static let duplicates: [(Format, String, String)] = [
    (.json, "{\"a\": 1,\n \"a\": 2}", "2:2"),
    (.yaml, "a: 1\na: 2\n", "2:1"),
    (.xml, "<plist><dict><key>a</key><integer>1</integer>\n<key>a</key><integer>2</integer></dict></plist>", "2:1"),
  ]

  @Test(arguments: 0..<3)
  func aDuplicateKeyIsRefusedInOneWording(index: Int) throws {
    let (format, text, position) = Self.duplicates[index]
    let error = #expect(throws: PrefsError.self) { try format.codec.decode(Data(text.utf8)) }
    #expect(error?.kind == .duplicateKey("a"))
    #expect(PrefsError.located("", file: nil, position: error?.position) == "\(position): ")
  }

  @Test(arguments: 0..<3)
  func allowDuplicateKeysKeepsTheLastWithAWarning(index: Int) throws {
    let (format, text, position) = Self.duplicates[index]
    var options = ReadOptions()
    options.allowDuplicateKeys = true
    let warnings = Warnings()
    let value = try format.codec.read(Data(text.utf8), options: options, warnings: warnings)
    #expect(value == .dictionary(["a": .integer(2)]))
    #expect(warnings.all.map(\.description) == ["\(position): duplicate key \"a\": the last value is kept"])
  }

  @Test func binaryPlistDuplicatesUseTheSameWording() throws {
    // A dictionary of keys a, a and values 1, 2.
    var bytes = Array("bplist00".utf8)
    let objects: [[UInt8]] = [[0xD2, 1, 1, 2, 3], [0x51, 0x61], [0x10, 1], [0x10, 2]]
    var offsets: [UInt8] = []
    for object in objects {
      offsets.append(UInt8(bytes.count))
      bytes += object
    }
    let tableAt = UInt8(bytes.count)
    bytes += offsets
    bytes +=
      [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 4] + [0, 0, 0, 0, 0, 0, 0, 0]
      + [0, 0, 0, 0, 0, 0, 0, tableAt]
    let error = #expect(throws: PrefsError.self) { try Format.binary.codec.decode(Data(bytes)) }
    #expect(error?.kind == .duplicateKey("a"))
    var options = ReadOptions()
    options.allowDuplicateKeys = true
    let warnings = Warnings()
    let value = try Format.binary.codec.read(Data(bytes), options: options, warnings: warnings)
    #expect(value == .dictionary(["a": .integer(2)]))
    #expect(warnings.all.count == 1)
  }
}
