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
      var reader = XMLPlistReader(data, maxDepth: 512, parallelism: .automatic)
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
    ("<dict><key>a</key><true/><key>a</key><false/></dict>", "duplicateKey"),
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
    #expect((error?.kind.problem ?? error?.kind.name)?.contains(message) == true, "\(String(describing: error))")
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
      error?.kind.problem
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
    case .null: NSNull()
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
}
