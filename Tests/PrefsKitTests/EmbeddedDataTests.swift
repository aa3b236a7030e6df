import Foundation
import PrefsKit
import PrefsTutorial
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// Data holding JSON or a binary plist, shown as structure and read back to the same bytes.
@Suite struct EmbeddedDataTests {
  static let items = [
    Item(id: UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!, name: "Café", description: "a / b \"c\"\n")
  ]

  func yaml(_ value: PrefValue, sortKeys: Bool = true) throws -> String {
    String(
      decoding: try Format.yaml.encode(value, options: WriteOptions(sortKeys: sortKeys, expandData: true)),
      as: UTF8.self)
  }

  @Test func itemStoreBytesExpandAndComeBackExactly() throws {
    let blob = try ItemStore<Item>.encoder.encode(Self.items)
    let (kind, value) = try #require(EmbeddedData.expand(blob))
    #expect(kind == .json)
    #expect(value.arrayValue?.first?.dictionaryValue?.keys == ["description", "id", "name"])
    #expect(try EmbeddedData.bytes(value, kind: .json) == blob)
  }

  @Test func aBinaryPlistBlobExpandsAsPlist() throws {
    let blob = try Format.binary.codec.encode(.dictionary(["b": .integer(1), "a": .data(Data([0]))]))
    let (kind, value) = try #require(EmbeddedData.expand(blob))
    #expect(kind == .plist)
    #expect(try EmbeddedData.bytes(value, kind: .plist) == blob)
  }

  @Test(arguments: [
    #"{"a": 1}"#, #"{"a":"x\/y"}"#, #"[1,2]  "#, #"{"a":1.00}"#, "42", #""text""#, "{not json", "[null ]",
  ])
  func blobsThatWouldNotComeBackExactlyStayData(text: String) {
    #expect(EmbeddedData.expand(Data(text.utf8)) == nil)
  }

  @Test(arguments: [#"{"a": 1}"#, #"{"a":"x\/y"}"#, #"[1,2]  "#, "  [\n  {\"b\" : true}\n]\n"])
  func jsonInAnySpacingOrEscapingInspectsAsStructureThatIsNotExact(text: String) throws {
    let structure = try #require(EmbeddedData.inspect(Data(text.utf8)).structure)
    #expect(structure.kind == .json && !structure.exact)
    #expect(structure.value.kind == .dictionary || structure.value.kind == .array)
  }

  @Test func slashesReadTheSameEscapedOrNot() throws {
    let escaped = try #require(EmbeddedData.inspect(Data(#"{"u":"a\/b"}"#.utf8)).structure)
    let plain = try #require(EmbeddedData.inspect(Data(#"{"u":"a/b"}"#.utf8)).structure)
    #expect(escaped.value == plain.value)
  }

  @Test(arguments: ["{not json", "[1,", #"{"a":1,"a":2}"#, "bplist00garbage", #"[1]x"#])
  func blobsThatStartAsJSONOrAPlistButAreNotAreLeftAsDataWithAReason(text: String) throws {
    let reason = try #require(EmbeddedData.inspect(Data(text.utf8)).leftAsDataReason)
    #expect(!reason.isEmpty)
  }

  @Test(arguments: ["42", #""text""#, "hello", "\u{89}PNG"])
  func otherDataIsOpaque(text: String) {
    #expect(EmbeddedData.inspect(Data(text.utf8)).isOpaque)
  }

  @Test func bytesThatAreNotUTF8AreOpaqueThoughTheyStartWithABrace() {
    // A 16-byte UUID whose first byte is `{`.
    #expect(EmbeddedData.inspect(Data([0x7B, 0xC3, 0x28, 0xFF] + Array(repeating: 0x01, count: 12))).isOpaque)
  }

  @Test func randomBytesAndForeignBinaryPlistsStayData() {
    #expect(EmbeddedData.expand(Data([0xFF, 0x00, 0x7B])) == nil)
    #expect(EmbeddedData.expand(Data("bplist00garbage".utf8)) == nil)
  }

  @Test func yamlShowsATaggedCollectionInItsOwnKeyOrder() throws {
    let blob = Data(#"{"z":1,"a":[true,"x"]}"#.utf8)
    let value = PrefValue.dictionary(["b": .data(blob), "a": .integer(1)])
    let text = try yaml(value)
    #expect(text == "a: 1\nb: !json\n  z: 1\n  a:\n  - true\n  - x\n")
    #expect(try Format.yaml.decode(Data(text.utf8)) == value)
    // Without the option the blob is base64, as before.
    #expect(try Format.yaml.codec.encode(value).starts(with: Array("b: !!binary".utf8)))
  }

  @Test func jsonShowsATypedObjectAndEscapesLookAlikes() throws {
    let blob = Data(#"{"z":1,"a":2}"#.utf8)
    let value = PrefValue.dictionary(["d": .data(blob), "look": .dictionary(["$json": .array([])])])
    let options = WriteOptions(sortKeys: true, compact: true, expandData: true)
    let text = String(decoding: try Format.json.encode(value, options: options), as: UTF8.self)
    #expect(text == #"{"d":{"$json":{"z":1,"a":2}},"look":{"$dict":{"$json":[]}}}"# + "\n")
    #expect(try Format.json.decode(Data(text.utf8)) == value)
    let plain = try Format.json.encode(
      value, options: WriteOptions(plainJSON: true, compact: true, expandData: true))
    #expect(String(decoding: plain, as: UTF8.self).contains(#""d":"eyJ6"#))
  }

  @Test func aPlistTagReadsBackToTheSameBinaryPlist() throws {
    let blob = try Format.binary.codec.encode(.array([.string("x"), .real(1.5)]))
    let text = try yaml(.dictionary(["p": .data(blob)]))
    #expect(text == "p: !plist\n- x\n- 1.5\n")
    #expect(try Format.yaml.decode(Data(text.utf8)) == .dictionary(["p": .data(blob)]))
  }

  @Test func aJSONTagHoldsNullsAndAPlistTagRefusesThem() throws {
    #expect(EmbeddedData.expand(Data("[null]".utf8))?.value == [.null])
    #expect(
      try Format.yaml.decode(Data("d: !json [~]\n".utf8)) == .dictionary(["d": .data(Data("[null]".utf8))]))
    #expect(throws: PrefsError.self) { try Format.yaml.decode(Data("d: !plist [~]\n".utf8)) }
  }

  @Test func thePassBeforeWritingFindsNestedBlobsOnce() throws {
    let inner = Data("[1,2]".utf8)
    let outer = try Format.binary.codec.encode(.dictionary(["j": .data(inner)]))
    let warnings = Warnings()
    let found = EmbeddedData.expansions(
      in: .array([.data(outer), .data(outer), .data(Data([0xFF]))]), mode: .readBack, warnings: warnings)
    #expect(found.count == 2)
    #expect(found[outer]?.kind == .plist)
    #expect(found[inner]?.value == .array([.integer(1), .integer(2)]))
    #expect(warnings.all.isEmpty, "opaque data has nothing to say")
  }

  @Test func aFileShowsOnlyExactBlobsAndAViewShowsEveryStructure() throws {
    let exact = Data(#"{"a":1}"#.utf8)
    let spaced = Data("{\n  \"url\" : \"a\\/b\"\n}".utf8)
    let value = PrefValue.dictionary(["exact": .data(exact), "spaced": .data(spaced)])
    let readBack = EmbeddedData.expansions(in: value, mode: .readBack, warnings: Warnings())
    #expect(readBack.keys.sorted { $0.count < $1.count } == [exact])
    let view = EmbeddedData.expansions(in: value, mode: .view, warnings: Warnings())
    #expect(view[spaced]?.value == .dictionary(["url": .string("a/b")]))
    #expect(view[exact]?.value == .dictionary(["a": .integer(1)]))
  }

  @Test func eachBlobLeftAsDataIsOneWarningAtEachKeyPathThatHoldsIt() throws {
    let broken = Data("{not json".utf8)
    let spaced = Data(#"{"a": 1}"#.utf8)
    let value = PrefValue.dictionary([
      "broken": .data(broken), "again": .array([.data(broken)]), "spaced": .data(spaced),
      "image": .data(Data([0x89, 0x50, 0x4E, 0x47])),
    ])
    let reason = try #require(EmbeddedData.inspect(broken).leftAsDataReason)
    let inFile = Warnings()
    _ = EmbeddedData.expansions(in: value, mode: .readBack, warnings: inFile)
    #expect(
      inFile.all == [
        EmbeddedData.leftAsDataWarning(at: PrefKeyPath([.key("broken")]), reason),
        EmbeddedData.leftAsDataWarning(at: PrefKeyPath([.key("again"), .index(0)]), reason),
        EmbeddedData.leftAsDataWarning(at: PrefKeyPath([.key("spaced")]), EmbeddedData.inexactReason(.json)),
      ])
    let inView = Warnings()
    _ = EmbeddedData.expansions(in: value, mode: .view, warnings: inView)
    #expect(inView.all.count == 2, "a view shows the spaced blob, and still names the broken one twice")
  }

  @Test func theStructuresThatDoNotGiveTheirBytesBackAreFoundByKeyPath() throws {
    let spaced = Data(#"{"a": [1]}"#.utf8)
    let outer = try Format.binary.codec.encode(.dictionary(["inner": .data(spaced)]))
    let value = PrefValue.dictionary([
      "exact": .data(Data(#"{"a":1}"#.utf8)), "outer": .data(outer), "again": .data(spaced),
      "broken": .data(Data("[1,".utf8)),
    ])
    let found = EmbeddedData.inexactStructures(in: value)
    #expect(found.map(\.path) == [PrefKeyPath([.key("outer"), .key("inner")])])
    #expect(found.map(\.data) == [spaced])
  }

  @Test func theWarningsOfAnEncodeNameBlobsInsideBlobs() throws {
    let inner = Data("[1,".utf8)
    let outer = try Format.binary.codec.encode(.dictionary(["icon": .data(inner)]))
    let warnings = Warnings()
    let yaml = try Format.yaml.encode(
      .dictionary(["items": .data(outer)]), options: WriteOptions(expandData: true), warnings: warnings)
    #expect(String(decoding: yaml, as: UTF8.self).hasPrefix("items: !plist\n  icon: !!binary"))
    #expect(warnings.all.count == 1)
    #expect(warnings.all.first?.message.hasPrefix(PrefKeyPath([.key("items"), .key("icon")]).nameInMessages) == true)
  }

  @Test func thePassAfterReadingReachesAliasesAndMerges() throws {
    let text = "a: &x !json [1]\nb: *x\nc: [*x]\nm: &m {k: !json {z: 2}}\nn: {<<: *m, o: 1}\n"
    let value = try Format.yaml.decode(Data(text.utf8))
    let one = PrefValue.data(Data("[1]".utf8))
    #expect(value.dictionaryValue?["a"] == one)
    #expect(value.dictionaryValue?["b"] == one)
    #expect(value.dictionaryValue?["c"] == .array([one]))
    #expect(value.dictionaryValue?["n"] == .dictionary(["k": .data(Data(#"{"z":2}"#.utf8)), "o": .integer(1)]))
  }

  @Test func readersLeavePlaceholdersThatOnlyThePassResolves() throws {
    let text = Data(#"{"d": {"$json": [true]}}"#.utf8)
    let collapsed = PrefValue.dictionary(["d": .data(Data("[true]".utf8))])
    try text.withUnsafeBytes { raw in
      var options = ReadOptions()
      options.embeddedData = EmbeddedData.Placeholders()
      var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self), options: options, warnings: Warnings())
      let read = try reader.readDocument()
      #expect(read != collapsed)
      #expect(try options.embeddedData?.collapse(read) == collapsed)
    }
    // Data that was read is never taken for a placeholder.
    let blob = Data((0..<24).map { UInt8($0) })
    let yaml = "d: !!binary \(blob.base64EncodedString())\ne: !json [1]\n"
    #expect(try Format.yaml.decode(Data(yaml.utf8)).dictionaryValue?["d"] == .data(blob))
  }

  /// Codecs read and write their own format only: the passes belong to the format
  /// table's entry points and to documents read for editing.
  @Test func codecsAloneLeaveEmbeddedDataToThePasses() throws {
    let blob = Data("[1,2]".utf8)
    let yaml = Data("a: !json [1, 2]\n".utf8)
    let json = Data(#"{"a": {"$json": [1, 2]}}"#.utf8)
    let structure = PrefValue.dictionary(["a": .array([.integer(1), .integer(2)])])
    #expect(try Format.yaml.codec.decode(yaml) == structure)
    #expect(try Format.json.codec.decode(json) == structure)
    for (format, text) in [(Format.yaml, yaml), (.json, json)] {
      #expect(try format.decode(text) == .dictionary(["a": .data(blob)]), "\(format)")
      #expect(try Format.read(text, declared: format).value == .dictionary(["a": .data(blob)]), "\(format)")
      let document = try #require(try TextDocument(text, format: format))
      #expect(document.value == .dictionary(["a": .data(blob)]), "\(format)")
    }
    let options = WriteOptions(expandData: true)
    let value = PrefValue.dictionary(["a": .data(blob)])
    #expect(try Format.yaml.codec.encode(value, options: options).starts(with: Array("a: !!binary".utf8)))
    #expect(try Format.yaml.encode(value, options: options) == Data("a: !json\n- 1\n- 2\n".utf8))
  }
}

extension EmbeddedData.Contents {
  /// The structure, when the blob holds one.
  var structure: (kind: EmbeddedData.Kind, value: PrefValue, exact: Bool)? {
    guard case .structure(let kind, let value, let exact) = self else { return nil }
    return (kind, value, exact)
  }

  /// Why the blob stays data, when it only looks like JSON or a plist.
  var leftAsDataReason: String? {
    guard case .leftAsData(_, let reason) = self else { return nil }
    return reason
  }

  var isOpaque: Bool {
    guard case .opaque = self else { return false }
    return true
  }
}
