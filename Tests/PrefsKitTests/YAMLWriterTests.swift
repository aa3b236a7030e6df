import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

extension YAMLCodecTests {
  @Suite("YAML writer")
  struct Writer {
    /// A value and its exact text as the value of key `k`.
    static let forms: [(PrefValue, String)] = [
      (.integer(42), "42"), (.integer(-1), "-1"), (.integer(.min), "-9223372036854775808"),
      (.unsignedInteger(.max), "18446744073709551615"),
      (.real(1), "1.0"), (.real(0.1), "0.1"), (.real(1e20), "1.0e+20"), (.real(1e-7), "1.0e-07"),
      (.real(-0.0), "-0.0"), (.real(123456.789), "123456.789"), (.real(.infinity), ".inf"),
      (.real(-.infinity), "-.inf"), (.real(.nan), ".nan"),
      (.bool(true), "true"), (.bool(false), "false"),
      (.date(Date(timeIntervalSinceReferenceDate: 721_692_800)), "!!timestamp 2023-11-14T22:13:20Z"),
      (
        .date(Date(timeIntervalSinceReferenceDate: 721_692_800.123)),
        "!!timestamp 2023-11-14T22:13:20.123Z"
      ),
      (.date(Date(timeIntervalSinceReferenceDate: -978_307_200)), "!!timestamp 1970-01-01T00:00:00Z"),
      (.data(Data([0, 1, 2, 255])), "!!binary AAEC/w=="), (.data(Data()), "!!binary \"\""),
      (.uid(5), "!uid 5"), (.array([]), "[]"), (.dictionary([:]), "{}"),
      (.string("Chimes"), "Chimes"), (.string("café 中"), "café 中"), (.string(""), "\"\""),
      (.string("yes"), "\"yes\""), (.string("no"), "\"no\""), (.string("on"), "\"on\""),
      (.string("off"), "\"off\""),
      (.string("y"), "\"y\""), (.string("n"), "\"n\""), (.string("true"), "\"true\""),
      (.string("~"), "\"~\""),
      (.string("null"), "\"null\""), (.string("1e3"), "\"1e3\""), (.string("0755"), "\"0755\""),
      (.string("1:20"), "\"1:20\""), (.string("2024-01-02"), "\"2024-01-02\""),
      (.string("<<"), "\"<<\""),
      (.string(".inf"), "\".inf\""), (.string("="), "\"=\""), (.string(" lead"), "\" lead\""),
      (.string("trail "), "\"trail \""), (.string("1.0"), "\"1.0\""), (.string("a: b"), "\"a: b\""),
      (.string("tab\there"), "\"tab\\there\""), (.string("say \"hi\""), "say \"hi\""),
      (.string("\"hi\""), "\"\\\"hi\\\"\""), (.string("back\\slash"), "back\\slash"),
      (.string("bell\u{7}"), "\"bell\\a\""),
      // Characters outside the BMP as themselves, in every style; the private use
      // characters the writer's stand-ins are made of stay themselves too.
      (.string("\u{1F600}"), "\u{1F600}"), (.string("party \u{1F389} time"), "party \u{1F389} time"),
      (.string("\u{1F389}: x"), "\"\u{1F389}: x\""), (.string("\"\u{1F389}\""), "\"\\\"\u{1F389}\\\"\""),
      (.string("a \u{1F389}\nb\n"), "|\n  a \u{1F389}\n  b"), (.string("\u{10FFFF}\u{10000}"), "\u{10FFFF}\u{10000}"),
      (.string("\u{E000}\u{E3FF}\u{E400}\u{E401}\u{1F389}"), "\u{E000}\u{E3FF}\u{E400}\u{E401}\u{1F389}"),
      (.string("\u{E400}\u{1F389}"), "\u{E400}\u{1F389}"),
      // Multi-line: literal blocks when they read back exactly.
      (.string("a\nb"), "|-\n  a\n  b"), (.string("a\nb\n"), "|\n  a\n  b"),
      (.string("a\nb\n\n"), "|+\n  a\n  b\n\n..."),
      (.string(" lead\nx"), "|2-\n   lead\n  x"), (.string("\nx"), "|2-\n\n  x"),
      (.string("  indented\n  code\n"), "|2\n    indented\n    code"),
      (.string("# not a comment\nx: y"), "|-\n  # not a comment\n  x: y"),
      // …else double-quoted with escapes.
      (.string("trail \nx"), "\"trail \\nx\""), (.string("a\r\nb"), "\"a\\r\\nb\""),
      (.string("a\n\tb"), "\"a\\n\\tb\""),
      (.string("a\u{2028}b"), "\"a\\Lb\""), (.string("a\u{85}b"), "\"a\\Nb\""),
      (.string("x\n "), "\"x\\n \""),
    ]

    @Test("each value is written in its exact text form", arguments: forms)
    func form(_ row: (PrefValue, String)) throws {
      #expect(try written(.dictionary(["k": row.0])) == "k: \(row.1)\n")
    }

    @Test("each written form reads back to the same value, in YAML 1.2 and 1.1", arguments: forms)
    func formReadsBack(_ row: (PrefValue, String)) throws {
      let value = PrefValue.dictionary(["k": row.0])
      let text = try written(value)
      #expect(try read(text, .v1_2) == value)
      #expect(try read(text, .v1_1) == value)
    }

    @Test func longDataIsALiteralBlockOf76CharacterLines() throws {
      let data = Data((0..<100).map { UInt8($0) })
      let text = try written(.dictionary(["k": .data(data)]))
      let b64 = data.base64EncodedString()
      let first = String(b64.prefix(76))
      let rest = String(b64.dropFirst(76))
      #expect(text == "k: !!binary |\n  \(first)\n  \(rest)\n")
      #expect(try read(text) == .dictionary(["k": .data(data)]))
    }

    @Test func layoutOfNestedCollections() throws {
      let value: PrefValue = .dictionary([
        "list": .array([
          .string("a"), .dictionary(["x": .integer(1), "y": .array([])]), .array([.integer(2)]),
        ]),
        "map": .dictionary(["inner": .dictionary(["deep": .bool(true)])]),
        "yes": .string("key is quoted too"),
      ])
      let expected = """
        list:
        - a
        - x: 1
          "y": []
        - - 2
        map:
          inner:
            deep: true
        "yes": key is quoted too

        """
      let text = try written(value)
      #expect(text == expected, "\(text)")
    }

    @Test func topLevelValuesOfEveryShape() throws {
      #expect(try written(.string("x")) == "x\n")
      #expect(try written(.integer(3)) == "3\n")
      #expect(try written(.array([])) == "[]\n")
      #expect(try written(.dictionary([:])) == "{}\n")
      #expect(try written(.array([.integer(1), .string("no")])) == "- 1\n- \"no\"\n")
      for value: PrefValue in [
        .string("x"), .integer(3), .array([]), .dictionary([:]), .string("a\nb\n\n"),
        .date(Date(timeIntervalSinceReferenceDate: TextForms.dateRange.lowerBound)),
      ] {
        #expect(try read(written(value)) == value)
      }
    }

    @Test func sortKeysSortsByCodePointAtEveryDepth() throws {
      let value: PrefValue = .dictionary([
        "b": .integer(1), "a": .dictionary(["é": .integer(1), "z": .integer(2), "Z": .integer(3)]),
      ])
      #expect(try written(value, sortKeys: true) == "a:\n  Z: 3\n  z: 2\n  é: 1\nb: 1\n")
      #expect(try written(value) == "b: 1\na:\n  é: 1\n  z: 2\n  Z: 3\n")
    }

    @Test func longKeysStillReadBack() throws {
      let key = String(repeating: "k", count: 200)
      let value: PrefValue = .dictionary([key: .string("v"), "multi\nline": .integer(1)])
      #expect(try read(written(value)) == value)
    }

    @Test func datesOutsideYearsZeroTo9999AreRefused() {
      #expect(throws: PrefsError.self) {
        try written(.date(Date(timeIntervalSinceReferenceDate: 1e12)))
      }
    }

    @Test func everyKindRoundTripsTypeStrict() throws {
      let back = try TestSupport.roundTrip(TestSupport.everyKind, through: .yaml)
      #expect(back == TestSupport.everyKind)
      // The writer keeps the order it was given.
      #expect(back.dictionaryValue?.keys == TestSupport.everyKind.dictionaryValue?.keys)
      let text = try written(TestSupport.everyKind)
      #expect(try read(text, .v1_1) == TestSupport.everyKind)
      let sorted = try TestSupport.roundTrip(
        TestSupport.everyKind, through: .yaml, options: WriteOptions(sortKeys: true))
      #expect(sorted == TestSupport.everyKind)
      #expect(
        sorted.dictionaryValue?.keys == TestSupport.everyKind.dictionaryValue?.sortedByKey().keys)
    }

    @Test func trickyValuesRoundTripInBothVersions() throws {
      let value = PrefValue.array(CrossCheck.tricky)
      let text = try written(value)
      #expect(try read(text, .v1_2) == value)
      #expect(try read(text, .v1_1) == value)
    }

    @Test func writesStreamToAFileDescriptor() throws {
      let folder = try TestSupport.temporaryFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let path = folder.appendingPathComponent("out.yaml").path
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      try #require(fd >= 0)
      let writer = ByteWriter(fileDescriptor: fd)
      let big = PrefValue.array((0..<20_000).map { .string("item \($0)") })
      try codec.write(big, to: writer, options: WriteOptions(), warnings: Warnings())
      try writer.flush()
      close(fd)
      #expect(try read(String(contentsOfFile: path, encoding: .utf8)) == big)
    }
  }

  @Suite("YAML writer in parallel parts")
  struct Parts {
    /// One emitter's bytes for `value`.
    static func serial(_ value: PrefValue, sortKeys: Bool) throws -> Data {
      let writer = ByteWriter()
      try YAMLEmitter(writer: writer, sortKeys: sortKeys).document(value)
      return try writer.data
    }

    /// The bytes of `parts` emitters, each on its own thread, for any size of document.
    static func parallel(_ value: PrefValue, sortKeys: Bool, parts: Int) throws -> Data {
      let writer = ByteWriter()
      try YAMLParts.write(value, to: writer, sortKeys: sortKeys, parallelism: .forced(parts: parts))
      return try writer.data
    }

    /// Root entries of every kind, with what is hard for the joins: blocks with and
    /// without a final break, long keys written as `? key`, empty collections, tags.
    static func generatedRoot(seed: UInt64) -> PrefDictionary {
      var g = SeededGenerator(state: seed)
      var root = PrefDictionary()
      let extras: [PrefValue] = [
        .string("block\nend\n"), .string("block\nno end"), .string("kept\n\n"), .string("\nx"), .array([]),
        .dictionary([:]),
        .data(Data(repeating: 7, count: 100)), .date(Date(timeIntervalSinceReferenceDate: 0.5)), .uid(3),
      ]
      for i in 0..<Int.random(in: 2...30, using: &g) {
        let key = i % 7 == 3 ? String(repeating: "long key ", count: 20) + "\(i)" : "key\(i)"
        let value =
          Bool.random(using: &g)
          ? extras.randomElement(using: &g)! : PlistCodecTests.generate(&g, wholeDates: false)
        root.insertNew(key, value)
      }
      return root
    }

    @Test("the joined parts are the bytes one emitter writes", arguments: [2, 3, 4])
    func partsJoinToTheSingleEmitterBytes(parts: Int) throws {
      var cut = 0
      for seed in UInt64(1)...60 {
        let root = Self.generatedRoot(seed: seed)
        if YAMLParts.split(root, sortKeys: false, parallelism: .forced(parts: parts)) != nil { cut += 1 }
        for sortKeys in [false, true] {
          let one = try Self.serial(.dictionary(root), sortKeys: sortKeys)
          let many = try Self.parallel(.dictionary(root), sortKeys: sortKeys, parts: parts)
          #expect(many == one, "seed \(seed), sortKeys \(sortKeys)")
        }
      }
      // Most documents are really cut (the others hold a `|+` block early on).
      #expect(cut >= 30, "\(cut) of 60 cut")
    }

    @Test func aDocumentIsCutIntoPartsOfAboutEqualSize() throws {
      let root = PrefDictionary((100..<200).map { ("key\($0)", .string(String(repeating: "x", count: 100))) })
      let slices = try #require(YAMLParts.split(root, sortKeys: false, parallelism: .forced(parts: 4)))
      #expect(slices.map(\.count) == [25, 25, 25, 25])
      #expect(YAMLParts.split(root, sortKeys: false, parallelism: .automatic) == nil)
    }

    /// After a block that keeps its final breaks, libyaml ends the stream with `...`:
    /// such a block outside the last part leaves the whole document to one emitter.
    @Test func aBlockKeepingItsBreaksOutsideTheLastPartMeansOneEmitter() throws {
      var root = PrefDictionary((0..<10).map { ("key\($0)", .integer($0)) })
      #expect(YAMLParts.split(root, sortKeys: false, parallelism: .forced(parts: 2)) != nil)
      root["key0"] = .string("kept\n\n")
      #expect(YAMLParts.split(root, sortKeys: false, parallelism: .forced(parts: 2)) == nil)
      let text = try Self.parallel(.dictionary(root), sortKeys: false, parts: 2)
      #expect(String(decoding: text, as: UTF8.self).hasSuffix("key9: 9\n...\n"))
      #expect(text == (try Self.serial(.dictionary(root), sortKeys: false)))
      // In the last part it changes nothing.
      root["key0"] = .integer(0)
      root["key9"] = .string("\n")
      #expect(YAMLParts.split(root, sortKeys: false, parallelism: .forced(parts: 2)) != nil)
      #expect(
        try Self.parallel(.dictionary(root), sortKeys: false, parts: 2)
          == (try Self.serial(.dictionary(root), sortKeys: false)))
    }
  }

  // MARK: - Reader

}
