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
          #expect(!(error.kind.problem ?? "").contains("Unexpected character b"), "\(name): \(error)")
          switch (expected, error.position) {
          case (.positioned, .lineColumn(let line, let column)?):
            #expect(line >= 1 && column >= 1)
          case (.byteOffset, .byteOffset?):
            #expect(!(error.kind.problem ?? "").contains("cycle"), "\(name): \(error)")
          case (.cycle, .byteOffset?):
            #expect(error.kind.problem?.contains("cycle") == true, "\(name): \(error)")
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
    #expect(entity.kind.problem?.contains("entity declarations") == true)
    #expect(entity.position == .lineColumn(line: 2, column: 103))
    let truncated = try #require(try error("rust-plist__xml_error.plist"))
    #expect(truncated.position == .lineColumn(line: 16, column: 11))
    #expect(truncated.kind.problem?.contains("</ke>") == true)
    let amp = try #require(try error("libplist__amp.plist"))
    #expect(amp.kind.problem?.contains("&amp;") == true)
    #expect(amp.position == .lineColumn(line: 3, column: 14))
    let zeroOffsetSize = try #require(try error("rust-plist__binary_zero_offset_size.plist"))
    #expect(zeroOffsetSize.kind.problem?.contains("offset size 0") == true)
    let cycle = try #require(try error("libplist__recursion.bplist"))
    #expect(cycle.kind.problem?.contains("cycle") == true)
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
}
