import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// JSON's typed objects and their `$dict` escape, base64 shared by every reader, and
/// sniffing that keeps the JSON reader's error for text that is JSON.
@Suite struct JSONEscapeTests {
  let codec = JSONCodec()

  @Test func anEscapeBesideOtherKeysReadsAsWritten() throws {
    let value = PrefValue.dictionary([
      "$dict": .dictionary(["$date": .string("2020-01-01T00:00:00Z")]), "other": .integer(1),
    ])
    let text = String(decoding: try codec.encode(value, options: WriteOptions(compact: true)), as: UTF8.self)
    #expect(text == #"{"$dict":{"$dict":{"$date":"2020-01-01T00:00:00Z"}},"other":1}"# + "\n")
    #expect(try codec.decode(Data(text.utf8)) == value)
  }

  /// A small deterministic generator (SplitMix64).
  struct Generator {
    var state: UInt64
    mutating func next(_ n: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(n))
    }
  }

  static let words = ["$date", "$data", "$real", "$uid", "$json", "$plist", "$dict", "a"]

  static func tree(_ g: inout Generator, depth: Int) -> PrefValue {
    switch depth == 0 ? g.next(6) : g.next(9) {
    case 0: return .string(["2020-01-01T00:00:00Z", "AA==", "inf", "x"][g.next(4)])
    case 1: return .integer(Int64(g.next(5)))
    case 2: return .date(Date(timeIntervalSinceReferenceDate: Double(g.next(1000))))
    case 3: return .data(Data([UInt8(g.next(256))]))
    case 4: return .real([1.5, .infinity][g.next(2)])
    case 5: return .uid(UInt64(g.next(9)))
    case 6: return .array((0..<g.next(3)).map { _ in tree(&g, depth: depth - 1) })
    default:
      var dict = PrefDictionary()
      for _ in 0..<(1 + g.next(3)) { dict[words[g.next(words.count)]] = tree(&g, depth: depth - 1) }
      return .dictionary(dict)
    }
  }

  @Test func dollarWordKeysAtEveryDepthAndPositionRoundTrip() throws {
    var g = Generator(state: 7)
    for _ in 0..<3000 {
      var dict = PrefDictionary()
      for _ in 0..<(1 + g.next(3)) { dict[Self.words[g.next(Self.words.count)]] = Self.tree(&g, depth: 4) }
      let value = PrefValue.dictionary(dict)
      let text = try codec.encode(value)
      let back = try codec.decode(text)
      try #require(back == value, "\(String(decoding: text, as: UTF8.self))")
    }
  }

  @Test func textThatIsJSONKeepsTheJSONError() throws {
    let text = Data(#"{"t":{"$date":"2023-02-30T00:00:00Z"}}"#.utf8)
    let sniffed = #expect(throws: PrefsError.self) { try Format.read(text) }
    let named = #expect(throws: PrefsError.self) { try Format.read(text, path: "x.json") }
    #expect(sniffed?.kind == named?.kind)
    #expect(sniffed?.kind.syntax?.format == "json")
    #expect(sniffed?.kind.problem?.contains("$date") == true)
    // A YAML flow mapping that is not JSON still reads as YAML.
    #expect(try Format.read(Data("{a: 1}".utf8)).format == .yaml)
    #expect(JSONGrammar.isJSON(Data(#" {"a": [1, -2.5e3, "\u00e9", true, null, {}]} "#.utf8)))
    for notJSON in ["{a: 1}", "[1,]", "{\"a\" 1}", "01", "[1] x", "\"\\x\"", "{\"a\":1,}", "[", ""] {
      #expect(!JSONGrammar.isJSON(Data(notJSON.utf8)), "\(notJSON)")
    }
  }

  /// Base64 texts, and whether they are base64.
  static let base64: [(String, Bool)] = [
    ("AA==", true), ("AAE=", true), ("AAEC", true), ("AA\n==", true), (" AAEC AAEC ", true), ("", true),
    ("AA==AAAA", false), ("AA", false), ("AAE", false), ("AA=", false), ("AA===", false), ("A===", false),
    ("AA=A", false), ("@@@@", false), ("AA-_", false), ("AAEC=", false),
  ]

  @Test(arguments: 0..<base64.count)
  func everyReaderTakesTheSameBase64(index: Int) throws {
    let (text, isBase64) = Self.base64[index]
    let quoted = text.replacingOccurrences(of: "\n", with: "\\n")
    let documents: [(Format, String)] = [
      (.json, "{\"$data\": \"\(quoted)\"}"),
      (.yaml, "!!binary \"\(quoted)\""),
      (.xml, "<plist><data>\(text)</data></plist>"),
    ]
    for (format, document) in documents {
      let value = try? format.codec.decode(Data(document.utf8))
      #expect((value != nil) == isBase64, "\(format) \(document)")
      if isBase64 { #expect(value == .data(Data(base64Encoded: text, options: .ignoreUnknownCharacters)!)) }
    }
    // The command line's `--type data` too, which refuses text that reads as hex as well
    // (`-data` takes hex): it would store other bytes than a user of `defaults` meant.
    let typed = try? ValueText.parse(text, as: .data)
    let alsoHex = !text.isEmpty && ValueText.hexDecoded(text) != nil
    #expect((typed != nil) == (isBase64 && !alsoHex), "--type data \(quoted)")
  }
}
