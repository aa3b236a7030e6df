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

/// The property list codec: the corpus, round trips, differential tests against
/// `PropertyListSerialization` and Python's `plistlib`, Foundation's traps, and
/// hostile binaries.
@Suite struct PlistCodecTests {
  // MARK: Helpers

  static let xml = PlistCodec(variant: .xml)
  static let binary = PlistCodec(variant: .binary)

  /// What reading a corpus file must give.
  enum Outcome: Equatable, CustomStringConvertible {
    /// Reads, with this root kind.
    case reads(PrefValue.Kind)
    /// Refused with a LINE:COL position (XML).
    case positioned
    /// Refused with a byte offset (binary).
    case byteOffset
    /// Refused as a reference cycle, with a byte offset.
    case cycle

    var description: String {
      switch self {
      case .reads(let kind): "reads \(kind)"
      case .positioned: "refused at LINE:COL"
      case .byteOffset: "refused at a byte offset"
      case .cycle: "refused: reference cycle"
      }
    }
  }

  /// Every corpus file and what reading it gives. A file added to the corpus and
  /// missing here fails ``corpusTableListsEveryFile()``.
  static let corpusTable: [String: Outcome] = [
    "real-world/asc.onlyoffice.editors-helper-renderer__Fadil369.plist": .reads(.dictionary),
    "real-world/com.apple.Accessibility.Assets__Fadil369.plist": .reads(.dictionary),
    "real-world/com.apple.AppleMultitouchTrackpad__Fadil369.plist": .reads(.dictionary),
    "real-world/com.apple.EmojiCache__Fadil369.plist": .reads(.dictionary),
    "real-world/com.apple.EmojiPreferences__Fadil369.plist": .reads(.dictionary),
    "real-world/com.apple.HIToolbox__Fadil369.plist": .reads(.dictionary),
    "real-world/com.apple.QuartzComposer.editor__Fadil369.plist": .reads(.dictionary),
    "real-world/com.apple.ServicesMenu.Services__Fadil369.plist": .reads(.dictionary),
    "real-world/com.apple.Terminal__joshtronic.plist": .reads(.dictionary),
    "real-world/com.apple.dock__initialed85.plist": .reads(.dictionary),
    "real-world/com.apple.mobiletimerd__Fadil369.plist": .reads(.dictionary),
    "real-world/com.googlecode.iterm2__AidySun.plist": .reads(.dictionary),
    "real-world/com.googlecode.iterm2__AlfredJKwack.plist": .reads(.dictionary),
    "real-world/com.googlecode.iterm2__fnichol.plist": .reads(.dictionary),
    "fixtures/cpython__keyed_archive.plist": .reads(.dictionary),
    "fixtures/cpython__testdata.binary.plist": .reads(.dictionary),
    "fixtures/cpython__testdata.xml.plist": .reads(.dictionary),
    // DOCTYPE internal subset with an entity declaration.
    "fixtures/cpython__xml_with_entity.plist": .positioned,
    "fixtures/libplist__2.plist": .reads(.dictionary),
    "fixtures/libplist__4.plist": .reads(.dictionary),
    "fixtures/libplist__6.plist": .reads(.array),
    "fixtures/libplist__7.plist": .reads(.dictionary),
    // `&amp` without `;`.
    "fixtures/libplist__amp.plist": .positioned,
    "fixtures/libplist__cdata.plist": .reads(.dictionary),
    "fixtures/libplist__data.bplist": .reads(.dictionary),
    "fixtures/libplist__dictref8bytes.bplist": .reads(.dictionary),
    // A comment inside <key>: well-formed XML that plistlib reads, but the reference
    // reader (Foundation) refuses it.
    "fixtures/libplist__empty_keys.plist": .positioned,
    "fixtures/libplist__entities.plist": .reads(.dictionary),
    "fixtures/libplist__hex.plist": .reads(.integer),
    // `<!test>` inside a key.
    "fixtures/libplist__invalid_tag.plist": .positioned,
    "fixtures/libplist__malformed_dict.bplist": .byteOffset,
    "fixtures/libplist__off8bytes.bplist": .reads(.dictionary),
    "fixtures/libplist__recursion.bplist": .cycle,
    "fixtures/libplist__signedunsigned.plist": .reads(.array),
    "fixtures/libplist__uid.bplist": .reads(.uid),
    // UTF-8 in ASCII-typed strings: read as UTF-8.
    "fixtures/node-bplist-parser__iTunes-small.bplist": .reads(.dictionary),
    "fixtures/node-bplist-parser__int64.bplist": .reads(.dictionary),
    "fixtures/node-bplist-parser__int64.xml": .reads(.dictionary),
    "fixtures/node-bplist-parser__sample1.bplist": .reads(.dictionary),
    "fixtures/node-bplist-parser__utf16_chinese.plist": .reads(.dictionary),
    // OpenStep text.
    "fixtures/rust-plist__ascii-animals.plist": .reads(.dictionary),
    "fixtures/rust-plist__binary.plist": .reads(.dictionary),
    "fixtures/rust-plist__binary_NSKeyedArchiver.plist": .reads(.dictionary),
    "fixtures/rust-plist__binary_circular_array.plist": .cycle,
    "fixtures/rust-plist__binary_three_byte_integer_offset_table.plist": .reads(.dictionary),
    "fixtures/rust-plist__binary_zero_offset_size.plist": .byteOffset,
    "fixtures/rust-plist__utf16_bplist.plist": .reads(.dictionary),
    "fixtures/rust-plist__xml.plist": .reads(.dictionary),
    // Stray `&amp;` at the <plist> level (plistlib reads it as None).
    "fixtures/rust-plist__xml_entity_error.plist": .positioned,
    // Truncated XML.
    "fixtures/rust-plist__xml_error.plist": .positioned,
    "fixtures/swift-corelibs-foundation__Test.plist": .reads(.dictionary),
  ]

  /// The corpus files (relative name and URL), or nil when the corpus is absent.
  static func corpusFiles() -> [(name: String, url: URL)]? {
    guard let root = TestSupport.corpus("plist") else { return nil }
    var result: [(String, URL)] = []
    for folder in ["real-world", "fixtures"] {
      for url in TestSupport.files(in: root.appendingPathComponent(folder)) {
        result.append(("\(folder)/\(url.lastPathComponent)", url))
      }
    }
    return result
  }

  /// Every corpus file that reads, with its value.
  static func readableCorpus() throws -> [(name: String, url: URL, value: PrefValue)] {
    guard let files = corpusFiles() else { return [] }
    var result: [(String, URL, PrefValue)] = []
    for (name, url) in files {
      guard case .reads = corpusTable[name] else { continue }
      result.append((name, url, try xml.decode(Data(contentsOf: url))))
    }
    return result
  }

  static func contains(_ value: PrefValue, where predicate: (PrefValue) -> Bool) -> Bool {
    if predicate(value) { return true }
    switch value {
    case .array(let items): return items.contains { contains($0, where: predicate) }
    case .dictionary(let dict): return dict.values.contains { contains($0, where: predicate) }
    default: return false
    }
  }

  static func hasUID(_ value: PrefValue) -> Bool {
    contains(value) { if case .uid = $0 { true } else { false } }
  }

  static func hasDateFraction(_ value: PrefValue) -> Bool {
    contains(value) {
      if case .date(let d) = $0 {
        d.timeIntervalSinceReferenceDate.rounded() != d.timeIntervalSinceReferenceDate
      } else {
        false
      }
    }
  }

  /// `value` with every date cut to its whole second, as the XML writer writes it.
  static func wholeSecondDates(_ value: PrefValue) -> PrefValue {
    switch value {
    case .date(let d):
      .date(
        Date(
          timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate.rounded(
            .down)))
    case .array(let items): .array(items.map(wholeSecondDates))
    case .dictionary(let dict): .dictionary(dict.mapValues(wholeSecondDates))
    default: value
    }
  }

  /// Foundation's reading of `data`, converted.
  static func foundationRead(_ data: Data) throws -> PrefValue {
    let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    return try FoundationPlistReader.convert(object, maxDepth: 512)
  }

  /// A binary plist of these objects (raw bytes each), top object 0, 1-byte refs.
  static func bplist(_ objects: [[UInt8]], refSize: UInt8 = 1) -> Data {
    var data = Data("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(data.count)
      data.append(contentsOf: object)
    }
    let table = data.count
    let offsetSize = BinaryPlistWriter.byteWidth(UInt64(offsets.last!))
    for offset in offsets { data.append(contentsOf: bigEndian(UInt64(offset), offsetSize)) }
    data.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), refSize])
    data.append(contentsOf: bigEndian(UInt64(objects.count), 8))
    data.append(contentsOf: bigEndian(0, 8))
    data.append(contentsOf: bigEndian(UInt64(table), 8))
    return data
  }

  static func bigEndian(_ n: UInt64, _ width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: n >> UInt64(8 * (width - 1 - $0))) }
  }

  /// Reading `data` throws a bad-input error at a byte offset.
  static func expectByteOffsetError(
    _ data: Data, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let value = try binary.decode(data)
      Issue.record(
        "read \(value) instead of failing \(comment?.rawValue ?? "")",
        sourceLocation: sourceLocation)
    } catch let error as PrefsError {
      #expect(error.category == .badInput, sourceLocation: sourceLocation)
      guard case .byteOffset(let offset)? = error.position else {
        Issue.record("no byte offset in '\(error)'", sourceLocation: sourceLocation)
        return
      }
      #expect(offset >= 0 && offset <= data.count, sourceLocation: sourceLocation)
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
  }
}
