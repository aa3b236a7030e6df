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
        var reader = BinaryPlistReader(
          data, maxDepth: 512, warnings: warnings, parallelism: .forced(parts: parts))
        value = try reader.read()
        inParts = reader.partsRead > 1
      } else {
        var reader = XMLPlistReader(
          data, maxDepth: 512,
          parallelism: .forced(parts: parts, queue: queue ?? .global(), awaitsReadAheads: queue == nil))
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
  @Test(.timeLimit(.minutes(5))) func xmlReadsFinishWhenNoReadAheadStarts() throws {
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
        var reader = BinaryPlistReader(data, maxDepth: 0, warnings: Warnings(), parallelism: .forced(parts: 2))
        #expect(throws: PrefsError.self) { try reader.read() }
      } else {
        var reader = XMLPlistReader(data, maxDepth: 0, parallelism: .forced(parts: 2))
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
}
