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

  // MARK: The corpus

  @Test(.needsCorpus("plist")) func corpusTableListsEveryFile() throws {
    let files = try #require(Self.corpusFiles())
    let names = Set(files.map(\.name))
    for name in names.subtracting(Self.corpusTable.keys).sorted() {
      Issue.record("corpus file \(name) is not in the outcome table")
    }
    for name in Set(Self.corpusTable.keys).subtracting(names).sorted() {
      Issue.record("outcome table lists \(name), which is not in the corpus")
    }
  }

  @Test(.needsCorpus("plist")) func everyCorpusFileHasItsOutcome() throws {
    let files = try #require(Self.corpusFiles())
    for (name, url) in files {
      guard let expected = Self.corpusTable[name] else { continue }
      let data = try Data(contentsOf: url)
      // Reading with any variant accepts any plist format.
      for codec in [Self.xml, Self.binary, PlistCodec(variant: .openStep)] {
        do {
          let value = try codec.decode(data)
          #expect(
            expected == .reads(value.kind), "\(name): read a \(value.kind), expected \(expected)")
        } catch let error as PrefsError {
          #expect(error.category == .badInput, "\(name): \(error)")
          #expect(!error.message.contains("\n"), "\(name): message is not one line: \(error)")
          #expect(!error.message.contains("Unexpected character b"), "\(name): \(error)")
          switch (expected, error.position) {
          case (.positioned, .lineColumn(let line, let column)?):
            #expect(line >= 1 && column >= 1)
          case (.byteOffset, .byteOffset?):
            #expect(!error.message.contains("cycle"), "\(name): \(error)")
          case (.cycle, .byteOffset?):
            #expect(error.message.contains("cycle"), "\(name): \(error)")
          default:
            Issue.record(
              "\(name): refused with '\(error)' (position \(String(describing: error.position))), expected \(expected)"
            )
          }
        }
      }
    }
  }

  @Test(.needsCorpus("plist")) func refusalsSayWhatIsWrong() throws {
    let root = try #require(TestSupport.corpus("plist"))
    func error(_ name: String) throws -> PrefsError? {
      let data = try Data(contentsOf: root.appendingPathComponent("fixtures/\(name)"))
      do {
        _ = try Self.xml.decode(data)
        return nil
      } catch let error as PrefsError { return error }
    }
    let entity = try #require(try error("cpython__xml_with_entity.plist"))
    #expect(entity.message.contains("entity declarations"))
    #expect(entity.position == .lineColumn(line: 2, column: 103))
    let truncated = try #require(try error("rust-plist__xml_error.plist"))
    #expect(truncated.position == .lineColumn(line: 16, column: 11))
    #expect(truncated.message.contains("</ke>"))
    let amp = try #require(try error("libplist__amp.plist"))
    #expect(amp.message.contains("&amp;"))
    #expect(amp.position == .lineColumn(line: 3, column: 14))
    let zeroOffsetSize = try #require(try error("rust-plist__binary_zero_offset_size.plist"))
    #expect(zeroOffsetSize.message.contains("offset size 0"))
    let cycle = try #require(try error("libplist__recursion.bplist"))
    #expect(cycle.message.contains("cycle"))
  }

  // MARK: Round trips

  @Test(.needsCorpus("plist")) func corpusRoundTripsThroughBinaryAndXML() throws {
    for (name, _, value) in try Self.readableCorpus() where !Self.hasUID(value) {
      let viaBinary = try Self.binary.decode(Self.binary.encode(value))
      #expect(viaBinary == value, "\(name): plist -> binary -> plist")
      let warnings = Warnings()
      let viaXML = try Self.xml.decode(Self.xml.encode(value, warnings: warnings))
      #expect(viaXML == Self.wholeSecondDates(value), "\(name): plist -> XML -> plist")
      if Self.hasDateFraction(value) {
        #expect(!warnings.all.isEmpty, "\(name): no warning for dropped date fractions")
        #expect(warnings.all.allSatisfy { $0.message.contains("fraction of a second") })
      } else {
        #expect(warnings.all.isEmpty, "\(name): \(warnings.all)")
      }
    }
  }

  @Test(.needsCorpus("plist")) func keyedArchivesKeepTheirUIDs() throws {
    var seen = 0
    for (name, _, value) in try Self.readableCorpus() where Self.hasUID(value) {
      seen += 1
      let viaBinary = try Self.binary.decode(Self.binary.encode(value))
      #expect(viaBinary == value, "\(name): binary -> binary")
      let xmlText = try Self.xml.encode(value)
      #expect(String(decoding: xmlText, as: UTF8.self).contains("<key>CF$UID</key>"))
      let viaXML = try Self.xml.decode(xmlText)
      #expect(viaXML == value, "\(name): binary -> XML")
      #expect(
        try Self.binary.decode(Self.binary.encode(viaXML)) == value,
        "\(name): binary -> XML -> binary")
    }
    #expect(seen == 3)
  }

  @Test func everyKindRoundTrips() throws {
    let value = TestSupport.everyKind
    #expect(try TestSupport.roundTrip(value, through: .binary) == value)
    #expect(try TestSupport.roundTrip(value, through: .xml) == value)
    let withUID = PrefValue.array([
      .uid(0), .uid(255), .uid(256), .uid(65536), .uid(UInt64(UInt32.max)),
    ])
    #expect(try TestSupport.roundTrip(withUID, through: .binary) == withUID)
    #expect(try TestSupport.roundTrip(withUID, through: .xml) == withUID)
  }

  @Test func keyOrderIsKeptUnlessSorted() throws {
    let value = PrefValue.dictionary([
      "zeta": .integer(1), "alpha": .integer(2),
      "mu": .dictionary(["b": .bool(true), "a": .bool(false)]),
    ])
    for codec in [Self.binary, Self.xml] {
      let back = try codec.decode(codec.encode(value))
      // Our readers keep the stored order (Foundation's would not).
      #expect(back.dictionaryValue?.keys == ["zeta", "alpha", "mu"])
      let sorted = try codec.decode(codec.encode(value, options: WriteOptions(sortKeys: true)))
      #expect(sorted.dictionaryValue?.keys == ["alpha", "mu", "zeta"])
      #expect(sorted == value)
    }
    let text = String(decoding: try Self.xml.encode(value), as: UTF8.self)
    #expect(text.range(of: "zeta")!.lowerBound < text.range(of: "alpha")!.lowerBound)
  }

  // MARK: Differential: Foundation

  /// Files whose ASCII-typed strings hold UTF-8: Foundation reads them as mojibake.
  static let mojibakeFiles: Set<String> = [
    "fixtures/node-bplist-parser__iTunes-small.bplist",
    "fixtures/node-bplist-parser__sample1.bplist",
  ]

  @Test(.needsCorpus("plist")) func nativeBinaryReaderEqualsFoundation() throws {
    let files = try #require(Self.corpusFiles())
    var compared = 0
    for (name, url) in files {
      let data = try Data(contentsOf: url)
      guard data.starts(with: Array("bplist".utf8)) else { continue }
      let foundation = try? Self.foundationRead(data)
      let native = try? Self.binary.decode(data)
      if Self.mojibakeFiles.contains(name) {
        #expect(native != nil && foundation != nil && native != foundation, "\(name)")
        continue
      }
      // Both refuse the invalid ones; Foundation only without a position.
      #expect(
        (foundation == nil) == (native == nil),
        "\(name): Foundation \(foundation == nil ? "refuses" : "reads")")
      if let foundation, let native {
        #expect(native == foundation, "\(name)")
        compared += 1
      }
    }
    #expect(compared >= 20)
  }

  @Test(.needsCorpus("plist")) func nativeXMLReaderEqualsFoundation() throws {
    let files = try #require(Self.corpusFiles())
    var compared = 0
    for (name, url) in files {
      let data = try Data(contentsOf: url)
      guard PlistCodec.sniff(data) == .xml else { continue }
      #expect(XMLPlistReader.canRead(data), "\(name)")
      let foundation = try? Self.foundationRead(data)
      var reader = XMLPlistReader(data, maxDepth: 512)
      let native = try? reader.read()
      #expect(
        (foundation == nil) == (native == nil),
        "\(name): Foundation \(foundation == nil ? "refuses" : "reads")")
      if let foundation, let native {
        #expect(native == foundation, "\(name)")
        compared += 1
      }
    }
    #expect(compared >= 14)
  }

  @Test(.needsCorpus("plist")) func nativeXMLReaderKeepsDocumentOrder() throws {
    let root = try #require(TestSupport.corpus("plist"))
    let data = try Data(contentsOf: root.appendingPathComponent("fixtures/rust-plist__xml.plist"))
    let text = String(decoding: data, as: UTF8.self)
    let keys = try #require(Self.xml.decode(data).dictionaryValue?.keys)
    #expect(keys.count > 3)
    // Each key appears in the text after the one before it.
    var cursor = text.startIndex
    for key in keys {
      let found = try #require(
        text.range(of: "<key>\(key)</key>", range: cursor..<text.endIndex), "\(key)")
      cursor = found.upperBound
    }
  }

  /// Inputs Foundation's XML reader changes silently; ours refuses them with a position.
  @Test(arguments: [
    ("<dict><key>a</key><true/><key>a</key><false/></dict>", "duplicate key"),
    ("<real>1e400</real>", "out of range"),
    ("<integer>18446744073709551616</integer>", "64-bit"),
    ("<integer>-9223372036854775809</integer>", "64-bit"),
    ("<data>!!!</data>", "not base64"),
    ("<data>AAE</data>", "middle of a group"),
    ("<date>2023-02-30T22:13:20Z</date>", "malformed <date>"),
    ("<date>2023-11-14T25:13:20Z</date>", "malformed <date>"),
  ])
  func nativeXMLReaderRefusesWhatFoundationChanges(body: String, message: String) throws {
    let data = Data(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n"
        .utf8)
    let error = #expect(throws: PrefsError.self) { try Self.xml.decode(data) }
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    if case .lineColumn(let line, _)? = error?.position {
      #expect(line == 3)
    } else {
      Issue.record("no position")
    }
  }

  @Test func nativeXMLReaderRefusesContentAfterTheRoot() throws {
    let data = Data("<plist version=\"1.0\"><true/></plist>\njunk".utf8)
    // Foundation ignores it.
    #expect(try Self.foundationRead(data) == .bool(true))
    let error = #expect(throws: PrefsError.self) { try Self.xml.decode(data) }
    #expect(error?.position == .lineColumn(line: 2, column: 1))
  }

  @Test func nativeXMLReaderAcceptsWhatFoundationAccepts() throws {
    let cases: [(String, PrefValue)] = [
      ("<integer>0x10</integer>", .integer(16)), ("<integer>-0x10</integer>", .integer(-16)),
      ("<integer>+5</integer>", .integer(5)),
      ("<integer>18446744073709551615</integer>", .unsignedInteger(.max)),
      ("<integer>-9223372036854775808</integer>", .integer(.min)),
      ("<real>inf</real>", .real(.infinity)), ("<real>-infinity</real>", .real(-.infinity)),
      ("<real>NaN</real>", .real(.nan)), ("<real> 1</real>", .real(1)),
      ("<real>.5</real>", .real(0.5)),
      ("<real>12</real>", .real(12)), ("<real>-0.0</real>", .real(-0.0)),
      ("<true></true>", .bool(true)), ("<true />", .bool(true)),
      ("<string/>", .string("")), ("<key>k</key>", .string("k")),
      ("<string>&quot;&apos;&#x41;&#65;&lt;<![CDATA[<&>]]></string>", .string("\"'AA<<&>")),
      ("<string>a\r\nb</string>", .string("a\r\nb")),
      ("<array><!-- c --><?pi x?><true/></array>", .array([.bool(true)])),
      ("<dict a=\"b\"><key>k</key><string>v</string></dict>", .dictionary(["k": .string("v")])),
      ("<data> AA\n== </data>", .data(Data([0]))),
      ("<dict><key>CF$UID</key><integer>7</integer></dict>", .uid(7)),
    ]
    for (body, expected) in cases {
      let data = Data("<plist version=\"1.0\">\(body)</plist>".utf8)
      #expect(try Self.xml.decode(data) == expected, "\(body)")
      #expect(try Self.foundationRead(data) == expected, "Foundation: \(body)")
    }
    // A bare root element, as Foundation reads it.
    #expect(try Self.xml.decode(Data("<dict/>".utf8)) == .dictionary([:]))
    // Foundation truncates a wide CF$UID to UID 0; we keep what the file says.
    let wide = Data(
      "<plist><dict><key>CF$UID</key><integer>4294967296</integer></dict></plist>".utf8)
    #expect(try Self.xml.decode(wide) == .dictionary(["CF$UID": .integer(1 << 32)]))
  }

  @Test func xmlInOtherEncodingsIsTranscodedAndReadAsFoundationReadsIt() throws {
    let document =
      "<?xml version=\"1.0\" encoding=\"ENCODING\"?>\n<plist version=\"1.0\">\n"
      + "<dict><key>caf\u{E9}</key><string>\u{E9}t\u{E9} \u{1F600}</string></dict>\n</plist>\n"
    let expected = PrefValue.dictionary(["caf\u{E9}": .string("\u{E9}t\u{E9} \u{1F600}")])
    func encoded(_ name: String, _ encoding: String.Encoding, bom: [UInt8] = []) -> Data {
      Data(bom) + document.replacingOccurrences(of: "ENCODING", with: name).data(using: encoding)!
    }
    let documents: [(String, Data)] = [
      ("UTF-16 BE with a byte order mark", encoded("UTF-16", .utf16BigEndian, bom: [0xFE, 0xFF])),
      ("UTF-16 LE with a byte order mark", encoded("UTF-16", .utf16LittleEndian, bom: [0xFF, 0xFE])),
      ("UTF-16 BE", encoded("UTF-16", .utf16BigEndian)),
      ("UTF-16 LE", encoded("UTF-16", .utf16LittleEndian)),
      ("UTF-32 BE with a byte order mark", encoded("UTF-32", .utf32BigEndian, bom: [0x00, 0x00, 0xFE, 0xFF])),
      ("UTF-32 LE", encoded("UTF-32", .utf32LittleEndian)),
    ]
    for (name, data) in documents {
      #expect(!XMLPlistReader.canRead(data), "\(name)")
      do {
        #expect(try Self.xml.decode(data) == expected, "\(name)")
      } catch {
        Issue.record("\(name): \(error)")
      }
      // Foundation reads UTF-16 and UTF-32 only with a byte order mark.
      if name.hasSuffix("byte order mark") { #expect(try Self.foundationRead(data) == expected, "Foundation: \(name)") }
    }
    // ISO-8859-1 declared: each byte is its code point.
    let latin1 =
      Data(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>caf".utf8) + Data([0xE9])
      + Data("</string></plist>".utf8)
    #expect(try Self.xml.decode(latin1) == .string("caf\u{E9}"))
    #expect(try Self.foundationRead(latin1) == .string("caf\u{E9}"))
    // A declaration of UTF-16 on single-byte text (re-encoded, declaration kept) is UTF-8.
    let relabelled = Data(
      "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><string>caf\u{E9}</string></plist>".utf8)
    #expect(try Self.xml.decode(relabelled) == .string("caf\u{E9}"))
    // Another declared encoding is refused with what to do, never misread.
    let shiftJIS = Data("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><plist><string>x</string></plist>".utf8)
    let error = #expect(throws: PrefsError.self) { try Self.xml.decode(shiftJIS) }
    #expect(
      error?.message
        == "an XML plist in encoding 'shift_jis' cannot be read (UTF-8, UTF-16, UTF-32 and ISO-8859-1 can); "
        + "convert it to UTF-8 first (iconv -f shift_jis -t UTF-8)")
    // Broken UTF-16 is an error, not a guess.
    let broken = Data([0xFE, 0xFF, 0x00, 0x3C, 0xD8, 0x00, 0x00, 0x3E])
    #expect(throws: PrefsError.self) { try Self.xml.decode(broken) }
  }

  @Test func foundationReadsBackWhatWeWrite() throws {
    var values = try Self.readableCorpus().map { ($0.name, $0.value) }
    values.append(("everyKind", TestSupport.everyKind))
    for (name, value) in values {
      do {
        let fromBinary = try Self.foundationRead(Self.binary.encode(value))
        #expect(fromBinary == value, "\(name): our binary read by Foundation")
        let fromXML = try Self.foundationRead(Self.xml.encode(value))
        #expect(fromXML == Self.wholeSecondDates(value), "\(name): our XML read by Foundation")
      } catch {
        Issue.record("\(name): \(error)")
      }
    }
  }

  @Test func xmlLayoutMatchesFoundation() throws {
    // Values where Foundation's writer is right: the layout must be the same bytes.
    let value = PrefValue.dictionary([
      "a": .array([
        .string("x<y>&z"), .integer(-5), .bool(true), .bool(false), .array([]), .dictionary([:]),
      ]),
      "b": .data(Data((0..<200).map { UInt8($0 & 0xFF) })),
      "c": .dictionary([
        "d": .data(Data(repeating: 7, count: 100)), "e": .data(Data()), "f": .real(1.5),
      ]),
      "g": .date(Date(timeIntervalSinceReferenceDate: 721_692_800)),
    ])
    let ours = try Self.xml.encode(value)
    let foundation = try PropertyListSerialization.data(
      fromPropertyList: [
        "a": ["x<y>&z", -5, true, false, [Any](), [String: Any]()] as [Any],
        "b": Data((0..<200).map { UInt8($0 & 0xFF) }),
        "c": ["d": Data(repeating: 7, count: 100), "e": Data(), "f": 1.5] as [String: Any],
        "g": Date(timeIntervalSinceReferenceDate: 721_692_800),
      ] as [String: Any], format: .xml, options: 0)
    #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
  }

  // MARK: Differential: Python plistlib

  /// The interpreter the plistlib cross-checks run (`TestSupport.python()`'s).
  static let python: String? = TestSupport.python()?.path

  /// Prints every value of each file as `path<TAB>type<TAB>value` lines.
  static let pythonScript = """
    import datetime, plistlib, struct, sys
    EPOCH = datetime.datetime(2001, 1, 1)
    def walk(v, path, out):
        if isinstance(v, dict) and len(v) == 1 and isinstance(v.get("CF$UID"), int):
            v = plistlib.UID(v["CF$UID"])
        if isinstance(v, bool): out.append(f"{path}\\tbool\\t{int(v)}")
        elif isinstance(v, int): out.append(f"{path}\\tinteger\\t{v}")
        elif isinstance(v, float): out.append(f"{path}\\treal\\t{'nan' if v != v else struct.pack('>d', v).hex()}")
        elif isinstance(v, str): out.append(f"{path}\\tstring\\t{v.encode('utf-8').hex()}")
        elif isinstance(v, bytes): out.append(f"{path}\\tdata\\t{v.hex()}")
        elif isinstance(v, datetime.datetime):
            out.append(f"{path}\\tdate\\t{(v - EPOCH) // datetime.timedelta(microseconds=1)}")
        elif isinstance(v, plistlib.UID): out.append(f"{path}\\tuid\\t{v.data}")
        elif isinstance(v, list):
            out.append(f"{path}\\tarray\\t{len(v)}")
            for i, x in enumerate(v): walk(x, f"{path}/{i}", out)
        elif isinstance(v, dict):
            out.append(f"{path}\\tdictionary\\t{len(v)}")
            for k, x in v.items(): walk(x, f"{path}/k{k.encode('utf-8').hex()}", out)
        else: out.append(f"{path}\\tunknown\\t{type(v).__name__}")
    for name in sys.argv[1:]:
        out = []
        try:
            with open(name, "rb") as f: walk(plistlib.load(f), "", out)
        except Exception as e:
            out = [f"error\\t{type(e).__name__}\\t{e}"]
        print("== " + name)
        print("\\n".join(out))
    """

  /// The same lines for one of our values.
  static func plistlibLines(_ value: PrefValue, path: String = "", into out: inout [String]) {
    func hexString<S: Sequence<UInt8>>(_ bytes: S) -> String {
      bytes.map {
        String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
      }.joined()
    }
    switch value {
    case .bool(let b): out.append("\(path)\tbool\t\(b ? 1 : 0)")
    case .integer(let n): out.append("\(path)\tinteger\t\(n)")
    case .unsignedInteger(let n): out.append("\(path)\tinteger\t\(n)")
    case .real(let r):
      out.append("\(path)\treal\t\(r.isNaN ? "nan" : hexString(bigEndian(r.bitPattern, 8)))")
    case .string(let s): out.append("\(path)\tstring\t\(hexString(s.utf8))")
    case .data(let d): out.append("\(path)\tdata\t\(hexString(d))")
    case .date(let d):
      out.append("\(path)\tdate\t\(Int64((d.timeIntervalSinceReferenceDate * 1e6).rounded(.down)))")
    case .uid(let n): out.append("\(path)\tuid\t\(n)")
    case .array(let items):
      out.append("\(path)\tarray\t\(items.count)")
      for (i, item) in items.enumerated() { plistlibLines(item, path: "\(path)/\(i)", into: &out) }
    case .dictionary(let dict):
      out.append("\(path)\tdictionary\t\(dict.count)")
      for (key, item) in dict {
        plistlibLines(item, path: "\(path)/k\(hexString(key.utf8))", into: &out)
      }
    }
  }

  @Test(.enabled(if: python != nil, "python3 is not installed: plistlib differential skipped"))
  func plistlibReadsBackWhatWeWrite() throws {
    let python = try #require(Self.python)
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("dump.py")
    try Data(Self.pythonScript.utf8).write(to: script)
    var values = try Self.readableCorpus().map { ($0.name, $0.value) }
    values.append(("everyKind", TestSupport.everyKind))
    var expected: [String: [String]] = [:]
    var paths: [String] = []
    for (i, (name, value)) in values.enumerated() {
      for (suffix, codec) in [("bin", Self.binary), ("xml", Self.xml)] {
        // plistlib reads XML UIDs as CF$UID dictionaries (mapped back by the script).
        let url = folder.appendingPathComponent("\(i).\(suffix)")
        try codec.encode(value).write(to: url)
        var lines: [String] = []
        Self.plistlibLines(suffix == "xml" ? Self.wholeSecondDates(value) : value, into: &lines)
        expected[url.path] = lines
        paths.append(url.path)
        _ = name
      }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script.path] + paths
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    var got: [String: [String]] = [:]
    var current = ""
    for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("== ") {
        current = String(line.dropFirst(3))
      } else if !line.isEmpty {
        got[current, default: []].append(String(line))
      }
    }
    for (index, path) in paths.enumerated() {
      let name = values[index / 2].0
      let ours = expected[path]!.sorted()
      let theirs = (got[path] ?? []).sorted()
      guard ours.count == theirs.count else {
        Issue.record(
          "\(name) (\(path)): plistlib read \(theirs.prefix(3)), expected \(ours.count) values")
        continue
      }
      for (a, b) in zip(ours, theirs) where a != b {
        // Dates: plistlib keeps microseconds; allow its rounding.
        let pa = a.split(separator: "\t")
        let pb = b.split(separator: "\t")
        if pa.count == 3, pb.count == 3, pa[0] == pb[0], pa[1] == "date", pb[1] == "date",
          let x = Int64(pa[2]), let y = Int64(pb[2]), abs(x - y) <= 1
        {
          continue
        }
        Issue.record("\(name) (\(path)): ours \(a) / plistlib \(b)")
        break
      }
    }
  }

  // MARK: The root read in parallel parts

  /// What reading a file gives: a value (with its root keys in order: equality
  /// ignores order) and its warnings, or an error.
  struct Reading: Equatable {
    var value: PrefValue?
    var rootKeys: [String] = []
    var warnings: [String] = []
    var error: String?
  }

  /// Reading `data` (binary or XML) with `parts` readers, whatever its size, and
  /// whether more than one reader read it. XML read-aheads are waited for unless
  /// they run on `queue`.
  static func readInParts(_ data: Data, parts: Int, queue: DispatchQueue? = nil) -> (Reading, inParts: Bool) {
    let warnings = Warnings()
    var inParts = false
    do {
      let value: PrefValue
      if PlistCodec.sniff(data) == .binary {
        var reader = BinaryPlistReader(data, maxDepth: 512, warnings: warnings)
        value = try reader.read(parts: parts, minimumPartsSize: 0)
        inParts = reader.partsRead > 1
      } else {
        var reader = XMLPlistReader(
          data, maxDepth: 512,
          readAhead: XMLReadAheadConfiguration(
            parts: parts, minimumPartsSize: 0, queue: queue ?? .global(), awaitingReadAheads: queue == nil))
        value = try reader.read()
        inParts = reader.runsTaken > 0
      }
      guard case .dictionary(let root) = value else { return (Reading(value: value), inParts) }
      return (Reading(value: value, rootKeys: root.keys, warnings: warnings.all.map { "\($0)" }), inParts)
    } catch {
      return (Reading(error: "\(error)"), inParts)
    }
  }

  @Test(
    "several readers read a root dictionary as one reader does",
    arguments: [(2, PlistVariant.binary), (3, .binary), (4, .binary), (2, .xml), (3, .xml), (4, .xml)])
  func partsReadAsOneReader(parts: Int, variant: PlistVariant) throws {
    var readInParts = 0
    for seed in UInt64(1)...40 {
      var g = SeededGenerator(state: seed)
      var root = PrefDictionary()
      for i in 0..<Int.random(in: 4...20, using: &g) {
        root.insertNew("key\(i)", Self.generate(&g, wholeDates: true))
      }
      let data = try PlistCodec(variant: variant).encode(.dictionary(root))
      let (one, _) = Self.readInParts(data, parts: 1)
      let (many, inParts) = Self.readInParts(data, parts: parts)
      #expect(many == one, "seed \(seed)")
      #expect(one.value != nil, "seed \(seed): \(one)")
      if inParts { readInParts += 1 }
    }
    // Unless the XML parsers' guesses all fall between the same two entries.
    #expect(readInParts >= 36, "\(readInParts) of 40 read in parts")
  }

  /// A read waits for no read-ahead that has not started: with their queue suspended,
  /// the main parser reads everything itself.
  @Test(.timeLimit(.minutes(1))) func xmlReadsFinishWhenNoReadAheadStarts() throws {
    var g = SeededGenerator(state: 11)
    var root = PrefDictionary()
    for i in 0..<32 { root.insertNew("key\(i)", Self.generate(&g, wholeDates: true)) }
    let data = try Self.xml.encode(.dictionary(root))
    let queue = DispatchQueue(label: "suspended")
    queue.suspend()
    defer { queue.resume() }
    let (many, inParts) = Self.readInParts(data, parts: 4, queue: queue)
    #expect(many == Self.readInParts(data, parts: 1).0)
    #expect(!inParts)
  }

  /// With a depth limit of 0 even the root is too deep, in parts as for one reader.
  @Test func partsKeepTheDepthLimitOfTheRoot() throws {
    let root = PrefValue.dictionary(PrefDictionary((0..<8).map { ("k\($0)", .integer(Int64($0))) }))
    for variant in [PlistVariant.xml, .binary] {
      let data = try PlistCodec(variant: variant).encode(root)
      var options = ReadOptions()
      options.maxDepth = 0
      #expect(throws: PrefsError.self, "\(variant)") {
        try PlistCodec(variant: variant).read(data, options: options, warnings: Warnings())
      }
      if variant == .binary {
        var reader = BinaryPlistReader(data, maxDepth: 0, warnings: Warnings())
        #expect(throws: PrefsError.self) { try reader.read(parts: 2, minimumPartsSize: 0) }
      } else {
        var reader = XMLPlistReader(
          data, maxDepth: 0, readAhead: XMLReadAheadConfiguration(parts: 2, minimumPartsSize: 0))
        #expect(throws: PrefsError.self) { try reader.read() }
      }
    }
  }

  /// Reads in parts from many threads at once (each waiting only for read-aheads that
  /// have started) all finish and agree.
  @Test func manyReadsInPartsAtOnceAgree() throws {
    var g = SeededGenerator(state: 7)
    var root = PrefDictionary()
    for i in 0..<64 { root.insertNew("key\(i)", Self.generate(&g, wholeDates: true)) }
    for variant in [PlistVariant.xml, .binary] {
      let data = try PlistCodec(variant: variant).encode(.dictionary(root))
      let (one, _) = Self.readInParts(data, parts: 1)
      let readings = Mutex([Reading?](repeating: nil, count: 32))
      DispatchQueue.concurrentPerform(iterations: 32) { k in
        let (reading, _) = Self.readInParts(data, parts: 2 + k % 3, queue: .global())
        readings.withLock { $0[k] = reading }
      }
      #expect(readings.withLock { $0 }.allSatisfy { $0 == one }, "\(variant)")
    }
  }

  /// The XML parsers start at guesses (a `<key>` after a line break and a tab); a
  /// guess that is not between two root entries is never taken, and an error is
  /// reported as one parser reports it.
  @Test func xmlPartsTakeOnlyTrueGuessesAndLeaveErrorsToOneParser() {
    func plist(_ body: String) -> Data {
      Data(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)</dict>\n</plist>\n".utf8)
    }
    let entries = (0..<8).map { "\t<key>k\($0)</key>\n\t<integer>\($0)</integer>\n" }
    let documents: [(String, Data)] = [
      ("canonical", plist(entries.joined())),
      // Root keys at the start of lines, nested ones after a tab: every guess is deeper.
      (
        "nested guesses",
        plist((0..<8).map { "<key>r\($0)</key>\n<dict>\n\t<key>n</key>\n\t<true/>\n</dict>\n" }.joined())
      ),
      // Guesses inside a comment and inside CDATA.
      (
        "comment",
        plist(entries[0..<4].joined() + "<!--\n\t<key>k0</key>\n\t<true/>\n-->\n" + entries[4...].joined())
      ),
      (
        "CDATA",
        plist(
          entries[0..<4].joined() + "\t<key>c</key>\n\t<string><![CDATA[\n\t<key>k1</key>\n\t<true/>\n]]></string>\n"
            + entries[4...].joined())
      ),
      ("duplicate across parts", plist(entries.joined() + "\t<key>k1</key>\n\t<integer>9</integer>\n")),
      ("error in a later part", plist(entries.joined() + "\t<key>x</key>\n\t<integer>x</integer>\n")),
      ("unclosed root", Data(plist(entries.joined()).dropLast(17))),
    ]
    for (name, data) in documents {
      let (one, _) = Self.readInParts(data, parts: 1)
      for parts in 2...4 {
        #expect(Self.readInParts(data, parts: parts).0 == one, "\(name), \(parts) parts")
      }
      #expect(
        (one.error != nil) == ["duplicate across parts", "error in a later part", "unclosed root"].contains(name),
        "\(name): \(one)")
    }
  }

  /// Each error a part meets is left to one reader, which reports it as it always does.
  @Test func partsLeaveErrorsToOneReader() {
    let key: (String) -> [UInt8] = { [0x50 | UInt8($0.utf8.count)] + Array($0.utf8) }
    let files: [(String, Data)] = [
      // Keys a, b, c, a (one key object twice): the duplicate is in the other part.
      ("duplicate key", Self.bplist([[0xD4, 1, 2, 3, 1, 4, 4, 4, 4], key("a"), key("b"), key("c"), [0x10, 1]])),
      // The last value is the root itself.
      ("cycle", Self.bplist([[0xD4, 1, 2, 3, 5, 4, 4, 4, 0], key("a"), key("b"), key("c"), [0x10, 1], key("d")])),
      // UTF-8 bytes in an ASCII-typed key, then a marker no plist has.
      (
        "bad object",
        Self.bplist([
          [0xD4, 1, 2, 3, 5, 4, 4, 4, 6], [0x52, 0xC3, 0xA9], key("b"), key("c"), [0x10, 1], key("d"), [0x70],
        ])
      ),
      ("UTF-8 in an ASCII string", Self.bplist([[0xD2, 1, 2, 3, 3], [0x52, 0xC3, 0xA9], key("b"), [0x10, 1]])),
    ]
    for (name, data) in files {
      let (one, _) = Self.readInParts(data, parts: 1)
      #expect(Self.readInParts(data, parts: 2).0 == one, "\(name)")
      #expect((one.error != nil) == (name != "UTF-8 in an ASCII string"), "\(name): \(one)")
    }
  }

  // MARK: Differential: generated values

  /// Texts that stress the writers: XML's special characters, `\r`, non-ASCII in and
  /// out of the BMP, combining marks, look-alikes of other types.
  static let sampleTexts = [
    "", "plain", "a<b & c>d", "line\nbreak", "cr\r\nlf", "tab\there", "café", "e\u{301}",
    "日本語", "emoji 🎉", "Ελληνικά", "0x10", "-0.0", "2023-11-14T22:13:20Z", "true", "]]>", "&amp;",
    String(repeating: "long ", count: 40),
  ]

  /// A random value of every kind the plist formats hold (no UIDs: they are a
  /// keyed-archive detail, tested on the corpus). `wholeDates` keeps dates XML can hold.
  static func generate(_ g: inout SeededGenerator, depth: Int = 0, wholeDates: Bool) -> PrefValue {
    let kind = Int.random(in: 0..<(depth < 4 ? 10 : 8), using: &g)
    switch kind {
    case 0: return .string(sampleTexts.randomElement(using: &g)!)
    case 1:
      let n: Int64 = [
        0, 1, -1, 255, 256, 65535, 65536, Int64(Int32.max), Int64(Int32.min), .max, .min,
        Int64.random(in: .min ... .max, using: &g), Int64.random(in: -1000...1000, using: &g),
      ].randomElement(using: &g)!
      return .integer(n)
    case 2: return .integer(exactly: UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &g))
    case 3:
      let r: Double = [
        0.0, -0.0, 0.1, 1.5, -2.25, 1e20, 1e-7, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
        Double.random(in: -1e6...1e6, using: &g), Double(bitPattern: g.next() & ~(0x7FF << 52)),
      ].randomElement(using: &g)!
      return .real(r)
    case 4: return .bool(Bool.random(using: &g))
    case 5:
      let seconds = Double(Int64.random(in: -3_000_000_000...3_000_000_000, using: &g))
      let fraction = wholeDates ? 0 : [0, 0.5, 0.123, 0.75].randomElement(using: &g)!
      return .date(Date(timeIntervalSinceReferenceDate: seconds + fraction))
    case 6, 7:
      let count = [0, 1, 2, 3, 57, 58, 200].randomElement(using: &g)!
      return .data(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &g) }))
    case 8:
      return .array(
        (0..<Int.random(in: 0...5, using: &g)).map { _ in
          generate(&g, depth: depth + 1, wholeDates: wholeDates)
        })
    default:
      var dict = PrefDictionary()
      for _ in 0..<Int.random(in: 0...6, using: &g) {
        // Keys unique even under Unicode equivalence, as Foundation's dictionaries need.
        let key = sampleTexts.randomElement(using: &g)! + String(Int.random(in: 0...3, using: &g))
        if !dict.keys.contains(key) {
          dict.insertNew(key, generate(&g, depth: depth + 1, wholeDates: wholeDates))
        }
      }
      return .dictionary(dict)
    }
  }

  /// The value as Foundation's property list objects, for its writer.
  static func foundationObject(_ value: PrefValue) -> Any {
    switch value {
    case .string(let s): s
    case .integer(let n): NSNumber(value: n)
    case .unsignedInteger(let n): NSNumber(value: n)
    case .real(let r): NSNumber(value: r)
    case .bool(let b): b
    case .date(let d): d
    case .data(let d): d
    case .uid(let n): NSNumber(value: n)
    case .array(let items): items.map(foundationObject)
    case .dictionary(let dict):
      [String: Any](uniqueKeysWithValues: dict.map { ($0.key, foundationObject($0.value)) })
    }
  }

  /// What Foundation's XML writer makes of `value`, by its two known breaks of the
  /// contract: `-0.0` loses its sign, and a date loses its fraction of a second.
  static func afterFoundationXMLWriter(_ value: PrefValue) -> PrefValue {
    switch value {
    case .real(let r) where r == 0: .real(0)
    case .date(let d):
      .date(Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate.rounded(.down)))
    case .array(let items): .array(items.map(afterFoundationXMLWriter))
    case .dictionary(let dict): .dictionary(dict.mapValues(afterFoundationXMLWriter))
    default: value
    }
  }

  @Test func generatedValuesAgreeWithFoundation() throws {
    var breaksSeen = (negativeZero: 0, dateFraction: 0)
    for seed in UInt64(1)...300 {
      var g = SeededGenerator(state: seed)
      // A dictionary at the root, as a domain has.
      var root = PrefDictionary()
      for k in 0..<4 { root.insertNew("k\(k)", Self.generate(&g, depth: 1, wholeDates: seed % 2 == 0)) }
      let value = PrefValue.dictionary(root)
      let object = Self.foundationObject(value)

      // Ours written, Foundation reading; and our reader on the same bytes.
      let ourBinary = try Self.binary.encode(value)
      #expect(try Self.foundationRead(ourBinary) == value, "seed \(seed): our binary, Foundation's reader")
      #expect(try Self.binary.decode(ourBinary) == value, "seed \(seed): our binary, our reader")
      let ourXML = try Self.xml.encode(value)
      #expect(
        try Self.foundationRead(ourXML) == Self.wholeSecondDates(value), "seed \(seed): our XML, Foundation's reader")
      #expect(try Self.xml.decode(ourXML) == Self.wholeSecondDates(value), "seed \(seed): our XML, our reader")

      // Foundation written, both readers on the same bytes.
      let theirBinary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
      let fromTheirBinary = try Self.binary.decode(theirBinary)
      #expect(fromTheirBinary == (try Self.foundationRead(theirBinary)), "seed \(seed): Foundation's binary")
      #expect(fromTheirBinary == value, "seed \(seed): Foundation's binary holds the value")
      let theirXML = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
      let fromTheirXML = try Self.xml.decode(theirXML)
      #expect(fromTheirXML == (try Self.foundationRead(theirXML)), "seed \(seed): Foundation's XML")
      // Named contract breaks of Foundation's XML writer, and only those.
      #expect(fromTheirXML == Self.afterFoundationXMLWriter(value), "seed \(seed): Foundation's XML")
      if fromTheirXML != value {
        if Self.contains(value, where: { if case .real(let r) = $0 { r == 0 && r.sign == .minus } else { false } }) {
          breaksSeen.negativeZero += 1
        }
        if Self.hasDateFraction(value) { breaksSeen.dateFraction += 1 }
      }
    }
    // The generator reaches both breaks, so the comparison above is not vacuous.
    #expect(breaksSeen.negativeZero > 0 && breaksSeen.dateFraction > 0, "\(breaksSeen)")
  }

  // MARK: Foundation's contract breaks

  @Test func foundationXMLWriterDropsTheSignOfNegativeZero() throws {
    let foundation = try PropertyListSerialization.data(
      fromPropertyList: [-0.0], format: .xml, options: 0)
    #expect(String(decoding: foundation, as: UTF8.self).contains("<real>0.0</real>"))
    let ours = try Self.xml.encode(.array([.real(-0.0)]))
    #expect(String(decoding: ours, as: UTF8.self).contains("<real>-0.0</real>"))
    let back = try Self.xml.decode(ours)
    #expect(back == .array([.real(-0.0)]))
  }

  @Test func foundationXMLWriterDropsDateFractionsSilently() throws {
    let date = Date(timeIntervalSinceReferenceDate: 721_692_800.75)
    let foundation = try PropertyListSerialization.data(
      fromPropertyList: [date], format: .xml, options: 0)
    #expect(
      String(decoding: foundation, as: UTF8.self).contains("<date>2023-11-14T22:13:20Z</date>"))
    // And its XML reader refuses a date with a fraction.
    let fractional = Data(#"<plist version="1.0"><date>2023-11-14T22:13:20.5Z</date></plist>"#.utf8)
    #expect(throws: (any Error).self) {
      try PropertyListSerialization.propertyList(from: fractional, format: nil)
    }
    // Ours drops it too, as Foundation and plistlib do, but says so, naming the key path.
    let warnings = Warnings()
    let ours = try Self.xml.encode(.dictionary(["when": .array([.date(date)])]), warnings: warnings)
    #expect(String(decoding: ours, as: UTF8.self).contains("<date>2023-11-14T22:13:20Z</date>"))
    #expect(warnings.all.count == 1)
    #expect(warnings.all.first?.message.contains("'when.0'") == true)
    #expect(warnings.all.first?.message.contains("2023-11-14T22:13:20.75Z") == true)
    // Binary keeps the fraction.
    #expect(try TestSupport.roundTrip(.date(date), through: .binary) == .date(date))
  }

  @Test(.needsCorpus("plist")) func foundationReadsUTF8InASCIIStringsAsMojibake() throws {
    let root = try #require(TestSupport.corpus("plist"))
    let data = try Data(
      contentsOf: root.appendingPathComponent("fixtures/node-bplist-parser__sample1.bplist"))
    let foundation = try Self.foundationRead(data)
    let warnings = Warnings()
    let ours = try Self.binary.decode(data, warnings: warnings)
    #expect(warnings.all.count == 1)
    #expect(warnings.all.first?.message.contains("read as UTF-8") == true)
    func strings(_ v: PrefValue) -> [String] {
      switch v {
      case .string(let s): [s]
      case .array(let a): a.flatMap(strings)
      case .dictionary(let d): d.values.flatMap(strings)
      default: []
      }
    }
    #expect(strings(foundation).contains { $0.contains("\u{C2}\u{A9}") })  // "Â©"
    #expect(strings(ours).contains { $0.contains("\u{A9}") && !$0.contains("\u{C2}") })
    // Bytes that are not UTF-8 are refused, never passed on.
    let latin1 = Self.bplist([[0x54, 0x63, 0x61, 0x66, 0xE9]])  // "caf\xE9"
    Self.expectByteOffsetError(latin1)
    #expect(
      try Self.binary.decode(Self.bplist([[0x55, 0x63, 0x61, 0x66, 0xC3, 0xA9]]))
        == .string("caf\u{E9}"))
  }

  @Test func foundationKeepsOnlyTheLow64BitsOfWideIntegers() throws {
    // 2^64 as a 16-byte integer.
    let wide = Self.bplist([[0x14, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]])
    #expect(try Self.foundationRead(wide) == .integer(0))
    Self.expectByteOffsetError(wide)
    let big = Self.bplist([
      [0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    ])
    #expect(try Self.binary.decode(big) == .unsignedInteger(.max))
  }

  @Test func foundationTruncatesWideUIDsInXML() throws {
    let xml = Data(
      #"<plist version="1.0"><dict><key>CF$UID</key><integer>4294967296</integer></dict></plist>"#
        .utf8)
    #expect(try Self.foundationRead(xml) == .uid(0))
    // We never write a UID CF cannot read back.
    #expect(throws: PrefsError.self) { try Self.xml.encode(.uid(1 << 32)) }
    #expect(throws: PrefsError.self) { try Self.binary.encode(.uid(1 << 32)) }
  }

  @Test func foundationErrorsForBinaryPlistsAreMisleading() throws {
    let broken = Self.bplist([[0xA2, 0x05, 0x06]])
    let foundationError = #expect(throws: (any Error).self) {
      try PropertyListSerialization.propertyList(from: broken, format: nil)
    }
    let text = (foundationError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
    #expect(text.contains("Unexpected character b"))
    Self.expectByteOffsetError(broken)
  }

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
      #expect(error?.message.contains("'outer.0'") == true)
      // Binary holds them.
      #expect(try TestSupport.roundTrip(.string(bad), through: .binary) == .string(bad))
    }
    let keyError = #expect(throws: PrefsError.self) {
      try Self.xml.encode(.dictionary(["k\u{7}": .bool(true)]))
    }
    #expect(keyError?.message.contains("key") == true)
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

  // MARK: Hostile binaries

  /// A small valid file with every kind of object.
  static let small: Data = {
    let value = PrefValue.dictionary([
      "s": .string("ab"), "u": .string("\u{E9}"), "i": .integer(-3), "r": .real(2.5),
      "b": .bool(true),
      "d": .date(Date(timeIntervalSinceReferenceDate: 1)), "x": .data(Data([1, 2])),
      "a": .array([.integer(300), .uid(7)]),
    ])
    return try! binary.encode(value)
  }()

  @Test func truncatedBinariesAreRefusedAtEveryLength() throws {
    #expect(try Self.binary.decode(Self.small).kind == .dictionary)
    for length in 0..<Self.small.count {
      let prefix = Self.small.prefix(length)
      // Shorter than the magic, the codec may not take it for binary; the reader must still refuse it.
      var reader = BinaryPlistReader(prefix, maxDepth: 512, warnings: Warnings())
      #expect(throws: PrefsError.self, "length \(length)") { try reader.read() }
      if length >= 6 { Self.expectByteOffsetError(prefix, "length \(length)") }
    }
    #expect(throws: PrefsError.self) { try Self.binary.decode(Data()) }
  }

  @Test func everySingleByteChangeIsReadOrRefusedWithoutCrashing() throws {
    for position in 0..<Self.small.count {
      for replacement: UInt8 in [0x00, 0x0F, 0x5F, 0x7F, 0xAF, 0xDF, 0xFF] {
        var data = Self.small
        data[position] = replacement
        do { _ = try Self.binary.decode(data) } catch let error as PrefsError {
          #expect(error.position != nil, "byte \(position) = \(replacement): \(error)")
        }
      }
    }
  }

  @Test func offsetsAndCountsOutOfRangeAreRefused() throws {
    // Offset table entry beyond the objects.
    var data = Self.bplist([[0x09]])
    data[data.count - 33] = 0xF0
    Self.expectByteOffsetError(data)
    // Reference to a missing object.
    Self.expectByteOffsetError(Self.bplist([[0xA1, 0x07]]))
    // An array claiming 2^62 elements.
    Self.expectByteOffsetError(Self.bplist([[0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x00]]))
    // A string claiming more bytes than the file holds.
    Self.expectByteOffsetError(Self.bplist([[0x5F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF, 0x41]]))
    Self.expectByteOffsetError(
      Self.bplist([[0x6F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]))
    // Trailer: huge object count, top object outside, table outside the file.
    for (field, width) in [(8, 8), (16, 8), (24, 8)] {
      var bad = Self.bplist([[0x09]])
      let at = bad.count - 32 + field
      bad.replaceSubrange(at..<(at + width), with: Self.bigEndian(UInt64.max - 1, width))
      Self.expectByteOffsetError(bad, "trailer field \(field)")
    }
    // Reference size 0, offset size 9.
    var refZero = Self.bplist([[0x09]])
    refZero[refZero.count - 25] = 0
    Self.expectByteOffsetError(refZero)
    // Non-string dictionary key, duplicate key, sets, null, unknown marker.
    Self.expectByteOffsetError(Self.bplist([[0xD1, 0x01, 0x01], [0x10, 0x01]]))
    Self.expectByteOffsetError(
      Self.bplist([[0xD2, 0x01, 0x01, 0x02, 0x02], [0x51, 0x61], [0x09]]))
    Self.expectByteOffsetError(Self.bplist([[0xC1, 0x01], [0x09]]))
    Self.expectByteOffsetError(Self.bplist([[0x00]]))
    Self.expectByteOffsetError(Self.bplist([[0x70]]))
    // UTF-16 with an unpaired surrogate.
    Self.expectByteOffsetError(Self.bplist([[0x61, 0xD8, 0x00]]))
  }

  @Test func deepNestingIsRefused() throws {
    // 10 000 arrays, each holding the next (2-byte references).
    let n = 10_000
    var objects: [[UInt8]] = (0..<(n - 1)).map { [0xA1] + Self.bigEndian(UInt64($0 + 1), 2) }
    objects.append([0xA0])
    let data = Self.bplist(objects, refSize: 2)
    let error = #expect(throws: PrefsError.self) { try Self.binary.decode(data) }
    #expect(error?.message.contains("nesting") == true)
    // A shallower limit applies too.
    var options = ReadOptions()
    options.maxDepth = 3
    let four = Self.bplist([[0xA1, 1], [0xA1, 2], [0xA1, 3], [0xA0]])
    #expect(throws: PrefsError.self) { try Self.binary.decode(four, options: options) }
    options.maxDepth = 4
    #expect(
      try Self.binary.decode(four, options: options) == .array([.array([.array([.array([])])])]))
    // The same limit when Foundation reads XML.
    let xml = Data(
      ("<plist version=\"1.0\">" + String(repeating: "<array>", count: 5)
        + String(repeating: "</array>", count: 5) + "</plist>").utf8)
    #expect(throws: PrefsError.self) { try Self.xml.decode(xml, options: options) }
  }

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
    #expect(error?.message.contains("nesting") == true)
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
    #expect(error?.message.contains("expand") == true)
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
