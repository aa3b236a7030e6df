import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// The library API a Swift program uses: Codable to and from the model, encoding and
/// decoding through the format table, the model's conformances, and the Foundation bridge.
@Suite struct LibraryAPITests {
  struct Item: Codable, Equatable {
    var id: String
    var name: String
    var added: Date
    var blob: Data
    var ratio: Double
    var count: Int
    var on: Bool
  }

  static let items = [
    Item(
      id: "1", name: "Groceries", added: Date(timeIntervalSince1970: 1_700_000_000), blob: Data([0, 1]), ratio: 1.0,
      count: 3, on: true)
  ]

  // MARK: The program a user writes

  @Test func itemsRoundTripThroughYAMLAndThePropertyList() throws {
    let items = Self.items
    let value = try PrefsEncoder().encode(items)
    let yaml = try Format.yaml.encode(value)
    let back = try PrefsDecoder().decode([Item].self, from: try Format.yaml.decode(yaml))
    #expect(back == items)
    let text = String(decoding: yaml, as: UTF8.self)
    #expect(text.contains("added: !!timestamp 2023-11-14T22:13:20Z"))
    #expect(text.contains("blob: !!binary AAE="))
    #expect(text.contains("ratio: 1.0\n"))
    #expect(text.contains("count: 3\n"))
    // The key is quoted: YAML 1.1 reads a plain `on` as a boolean.
    #expect(text.contains("\"on\": true\n"))
  }

  // MARK: Encoding

  @Test func eachTypeEncodesAsItsKind() throws {
    struct Every: Encodable {
      var string = "Chimes"
      var int = -3
      var int8: Int8 = -8
      var int16: Int16 = 16
      var int32: Int32 = 32
      var int64: Int64 = .min
      var uint: UInt = 7
      var uint8: UInt8 = 255
      var uint16: UInt16 = 16
      var uint32: UInt32 = 32
      var uint64Small: UInt64 = 64
      var uint64Big: UInt64 = .max
      var double = 2.0
      var float: Float = 0.5
      var bool = false
      var date = Date(timeIntervalSinceReferenceDate: 0.25)
      var data = Data([9])
      var url = URL(string: "https://example.com/a?b=c")!
      var value = PrefValue.uid(5)
    }
    let expected: PrefValue = .dictionary([
      "string": .string("Chimes"), "int": .integer(-3), "int8": .integer(-8), "int16": .integer(16),
      "int32": .integer(32), "int64": .integer(.min), "uint": .integer(7), "uint8": .integer(255),
      "uint16": .integer(16), "uint32": .integer(32), "uint64Small": .integer(64),
      "uint64Big": .unsignedInteger(.max), "double": .real(2.0), "float": .real(0.5), "bool": .bool(false),
      "date": .date(Date(timeIntervalSinceReferenceDate: 0.25)), "data": .data(Data([9])),
      "url": .string("https://example.com/a?b=c"), "value": .uid(5),
    ])
    let encoded = try PrefsEncoder().encode(Every())
    #expect(encoded == expected)
    // Encoding order is kept.
    #expect(encoded.dictionaryValue?.keys == expected.dictionaryValue?.keys)
  }

  @Test func topLevelScalarsAndTheModelItself() throws {
    let encoder = PrefsEncoder()
    #expect(try encoder.encode(1.0) == .real(1.0))
    #expect(try encoder.encode(Float(3)) == .real(3))
    #expect(try encoder.encode(true) == .bool(true))
    #expect(try encoder.encode(1) == .integer(1))
    #expect(try encoder.encode(Int128(UInt64.max)) == .unsignedInteger(.max))
    #expect(try encoder.encode(UInt128(5)) == .integer(5))
    #expect(try encoder.encode(Data([1, 2])) == .data(Data([1, 2])))
    let value: PrefValue = ["a": [1, 2.5, "x"], "b": .date(Date(timeIntervalSince1970: 0))]
    #expect(try encoder.encode(value) == value)
    #expect(try encoder.encode([value]) == .array([value]))
  }

  @Test func integersBeyondTheModelAndNullsThrow() {
    #expect {
      try PrefsEncoder().encode(["big": Int128(Int64.min) - 1])
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["big"]
    }
  }

  @Test func anExplicitNilIsNullWhichYAMLAndJSONKeepAndAPlistRefusesByPath() throws {
    let value = try PrefsEncoder().encode([1, nil, 3] as [Int?])
    #expect(value == [1, .null, 3])
    for format in [Format.yaml, .json] {
      let back = try PrefsDecoder().decode([Int?].self, from: try format.decode(try format.encode(value)))
      #expect(back == [1, nil, 3], "\(format)")
    }
    #expect(
      String(decoding: try Format.json.encode(value, options: WriteOptions(compact: true)), as: UTF8.self)
        == "[1,null,3]\n")
    #expect(throws: PrefsError(.null(path: PrefKeyPath([.index(1)])))) { try Format.xml.encode(value) }
    struct Keyed: Encodable {
      enum Keys: CodingKey { case main }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeNil(forKey: .main)
      }
    }
    #expect(try PrefsEncoder().encode(Keyed()) == ["main": .null])
    #expect(try PrefsEncoder().encode(nil as Int?) == .null)
    // decodeIfPresent reads a null as nil, and a null is no value of another type.
    struct Main: Decodable { var main: String? }
    #expect(try PrefsDecoder().decode(Main.self, from: ["main": .null]).main == nil)
    #expect(throws: DecodingError.self) { try PrefsDecoder().decode(String.self, from: .null) }
  }

  @Test func nilOptionalsAreLeftOut() throws {
    struct Optionals: Codable, Equatable {
      var present: String?
      var absent: Int?
      var date: Date?
    }
    let value = try PrefsEncoder().encode(Optionals(present: "here", absent: nil, date: nil))
    #expect(value == ["present": "here"])
    #expect(try PrefsDecoder().decode(Optionals.self, from: value) == Optionals(present: "here"))
    let full = Optionals(present: nil, absent: 4, date: Date(timeIntervalSinceReferenceDate: 1))
    #expect(try PrefsDecoder().decode(Optionals.self, from: PrefsEncoder().encode(full)) == full)
  }

  /// A class hierarchy that encodes its superclass under `super` and through nested containers.
  class Base: Codable {
    var tone: String
    init(tone: String) { self.tone = tone }
  }

  final class Derived: Base {
    var volume: Int
    var tags: [String]
    var position: (x: Double, y: Double)

    enum CodingKeys: String, CodingKey { case volume, tags, position, base }
    enum PositionKeys: String, CodingKey { case x, y }

    init(tone: String, volume: Int, tags: [String], position: (Double, Double)) {
      self.volume = volume
      self.tags = tags
      self.position = position
      super.init(tone: tone)
    }

    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      volume = try container.decode(Int.self, forKey: .volume)
      var tagsContainer = try container.nestedUnkeyedContainer(forKey: .tags)
      var tags: [String] = []
      while !tagsContainer.isAtEnd { tags.append(try tagsContainer.decode(String.self)) }
      self.tags = tags
      let positionContainer = try container.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
      position = (
        try positionContainer.decode(Double.self, forKey: .x), try positionContainer.decode(Double.self, forKey: .y)
      )
      try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(volume, forKey: .volume)
      var tagsContainer = container.nestedUnkeyedContainer(forKey: .tags)
      for tag in tags { try tagsContainer.encode(tag) }
      var positionContainer = container.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
      try positionContainer.encode(position.x, forKey: .x)
      try positionContainer.encode(position.y, forKey: .y)
      try super.encode(to: container.superEncoder())
    }
  }

  @Test func nestedContainersAndSuperEncodersWork() throws {
    let derived = Derived(tone: "Waves", volume: 7, tags: ["a", "b"], position: (1, 0.5))
    let value = try PrefsEncoder().encode(derived)
    let expected: PrefValue = [
      "volume": 7, "tags": ["a", "b"], "position": ["x": 1.0, "y": 0.5], "super": ["tone": "Waves"],
    ]
    #expect(value == expected)
    #expect(value.dictionaryValue?.keys == ["volume", "tags", "position", "super"])
    let back = try PrefsDecoder().decode(Derived.self, from: value)
    #expect(back.tone == "Waves" && back.volume == 7 && back.tags == ["a", "b"])
    #expect(back.position.x == 1 && back.position.y == 0.5)
  }

  @Test func unkeyedNestingAndSuperEncoderInAnArray() throws {
    struct Grid: Codable, Equatable {
      var rows: [[Int]]
      var labels: [String: Bool]
    }
    let grid = Grid(rows: [[1, 2], [], [3]], labels: ["on": true])
    let value = try PrefsEncoder().encode(grid)
    #expect(value == ["rows": [[1, 2], [], [3]], "labels": ["on": true]])
    #expect(try PrefsDecoder().decode(Grid.self, from: value) == grid)

    struct Pair: Codable, Equatable {
      var a: Int
      var b: String
      init(a: Int, b: String) {
        self.a = a
        self.b = b
      }
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        a = try container.decode(Int.self)
        b = try String(from: container.superDecoder())
      }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(a)
        try b.encode(to: container.superEncoder())
      }
    }
    let pair = try PrefsEncoder().encode(Pair(a: 1, b: "x"))
    #expect(pair == [1, "x"])
    #expect(try PrefsDecoder().decode(Pair.self, from: pair) == Pair(a: 1, b: "x"))
  }

  @Test func userInfoReachesTheTypes() throws {
    struct Reads: Codable {
      static let key = CodingUserInfoKey(rawValue: "unit")!
      var unit: String
      init() { unit = "" }
      init(from decoder: any Decoder) throws { unit = decoder.userInfo[Self.key] as? String ?? "none" }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(encoder.userInfo[Self.key] as? String ?? "none")
      }
    }
    var encoder = PrefsEncoder()
    encoder.userInfo[Reads.key] = "cm"
    #expect(try encoder.encode(Reads()) == "cm")
    var decoder = PrefsDecoder()
    decoder.userInfo[Reads.key] = "mm"
    #expect(try decoder.decode(Reads.self, from: 1).unit == "mm")
    #expect(try PrefsDecoder().decode(Reads.self, from: 1).unit == "none")
  }

  // MARK: Decoding

  /// The case and coding path of a decoding error.
  static func decodingFailure<T: Decodable>(_ type: T.Type, from value: PrefValue) -> (String, [String])? {
    do {
      _ = try PrefsDecoder().decode(type, from: value)
      return nil
    } catch let error as DecodingError {
      switch error {
      case .typeMismatch(_, let c): return ("typeMismatch", c.codingPath.map(\.stringValue))
      case .keyNotFound(let key, let c): return ("keyNotFound", (c.codingPath + [key]).map(\.stringValue))
      case .valueNotFound(_, let c): return ("valueNotFound", c.codingPath.map(\.stringValue))
      case .dataCorrupted(let c): return ("dataCorrupted", c.codingPath.map(\.stringValue))
      @unknown default: return ("unknown", [])
      }
    } catch {
      return ("not a DecodingError", [])
    }
  }

  @Test func decodingIsTypeStrict() throws {
    let mismatches: [(any Decodable.Type, PrefValue)] = [
      (Bool.self, .integer(1)), (Bool.self, .integer(0)), (Bool.self, .string("false")), (Double.self, .integer(1)),
      (Float.self, .integer(1)), (Int.self, .real(1.0)), (Int.self, .bool(true)), (String.self, .integer(1)),
      (Date.self, .real(0)), (Date.self, .string("2023-11-14T22:13:20Z")), (Data.self, .string("AAE=")),
      (Data.self, .array([0, 1])), (URL.self, .integer(1)), ([Int].self, .dictionary([:])),
      ([String: Int].self, .array([])), (UInt8.self, .uid(1)),
    ]
    for (type, value) in mismatches {
      #expect(Self.decodingFailure(type, from: value)?.0 == "typeMismatch", "\(type) from \(value)")
    }
    #expect(try PrefsDecoder().decode(Bool.self, from: false) == false)
    #expect(try PrefsDecoder().decode(Double.self, from: 1.0) == 1.0)
    #expect(try PrefsDecoder().decode(Float.self, from: 0.5) == 0.5)
    #expect(try PrefsDecoder().decode(URL.self, from: "https://example.com") == URL(string: "https://example.com"))
  }

  @Test func integersAreRangeCheckedNeverTruncated() throws {
    #expect(Self.decodingFailure(Int8.self, from: .integer(128))?.0 == "dataCorrupted")
    #expect(Self.decodingFailure(UInt.self, from: .integer(-1))?.0 == "dataCorrupted")
    #expect(Self.decodingFailure(Int64.self, from: .unsignedInteger(.max))?.0 == "dataCorrupted")
    #expect(Self.decodingFailure([String: Int16].self, from: ["n": 70_000])! == ("dataCorrupted", ["n"]))
    #expect(Self.decodingFailure(Float.self, from: .real(1e300))?.0 == "dataCorrupted")
    #expect(try PrefsDecoder().decode(UInt64.self, from: .unsignedInteger(.max)) == .max)
    #expect(try PrefsDecoder().decode(UInt128.self, from: .unsignedInteger(.max)) == UInt128(UInt64.max))
    #expect(try PrefsDecoder().decode(Int8.self, from: -128) == -128)
    #expect(try PrefsDecoder().decode([UInt8].self, from: [0, 255]) == [0, 255])
  }

  @Test func errorsCarryTheirCaseAndCodingPath() throws {
    let value: PrefValue = [
      ["id": "1", "name": "a", "added": 1.5, "blob": .data(Data()), "ratio": 1.0, "count": 1, "on": true]
    ]
    #expect(Self.decodingFailure([Item].self, from: value)! == ("typeMismatch", ["Index 0", "added"]))
    #expect(Self.decodingFailure([Item].self, from: [["id": "1"]])! == ("keyNotFound", ["Index 0", "name"]))
    struct TwoInts: Decodable {
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        _ = try container.decode(Int.self)
        #expect(try !container.decodeNil())
        _ = try container.decode(Int.self)
      }
    }
    #expect(Self.decodingFailure(TwoInts.self, from: [1])! == ("valueNotFound", ["Index 1"]))
    #expect(Self.decodingFailure(URL.self, from: "")! == ("dataCorrupted", []))
  }

  @Test func decodingThePrefValueGivesItAsItIs() throws {
    let value: PrefValue = ["tone": "Chimes", "when": .date(Date(timeIntervalSince1970: 5)), "id": .uid(3)]
    #expect(try PrefsDecoder().decode(PrefValue.self, from: value) == value)
    struct Wrapper: Codable { var extra: PrefValue }
    let wrapped: PrefValue = ["extra": value]
    #expect(try PrefsDecoder().decode(Wrapper.self, from: wrapped).extra == value)
    #expect(try PrefsEncoder().encode(Wrapper(extra: value)) == wrapped)
    // Through its own Codable conformance, as a type that wraps one calls it.
    struct Through: Codable {
      var value: PrefValue
      init(value: PrefValue) { self.value = value }
      init(from decoder: any Decoder) throws { value = try PrefValue(from: decoder) }
      func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }
    #expect(try PrefsEncoder().encode(Through(value: value)) == value)
    #expect(try PrefsDecoder().decode(Through.self, from: value).value == value)
  }

  @Test func aPrefValueThroughJSONEncoderTakesItsNearestForm() throws {
    let value: PrefValue = ["a": [1, 2.5, true, "x"]]
    let json = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(PrefValue.self, from: json) == value)
  }

  // MARK: Format

  @Test func everyFormatEncodesAndDecodes() throws {
    let value: PrefValue = ["tone": "Chimes", "volume": 3, "ratio": 0.5, "on": false, "list": [1, "two"]]
    // OpenStep holds only strings, data, arrays and dictionaries.
    let strings: PrefValue = ["tone": "Chimes", "list": ["one", "two"], "blob": .data(Data([1]))]
    for format in Format.all {
      let value = format == .openStep ? strings : value
      let data = try format.encode(value)
      #expect(try format.decode(data) == value, "\(format)")
      let detected = try Format.read(data)
      #expect(detected.value == value, "\(format)")
      #expect(detected.format == format, "\(format)")
    }
  }

  @Test func encodingReportsWhatAFormatDrops() throws {
    let warnings = Warnings()
    let data = try Format.xml.encode(.date(Date(timeIntervalSinceReferenceDate: 0.5)), warnings: warnings)
    #expect(warnings.all.count == 1)
    #expect(try Format.xml.decode(data) == .date(Date(timeIntervalSinceReferenceDate: 0)))
    #expect(throws: PrefsError.self) { try Format.json.decode(Data("{".utf8)) }
  }

  // MARK: Hashable, literals, description

  @Test func equalValuesHashAlike() {
    let pairs: [(PrefValue, PrefValue, Bool)] = [
      (.real(.nan), .real(-.nan), true),
      (.real(.nan), .real(Double(nan: 7, signaling: false)), true),
      (.real(0.0), .real(-0.0), false),
      (["a": 1, "b": 2], ["b": 2, "a": 1], true),
      (["a": 1, "b": 2], ["a": 2, "b": 1], false),
      (.string("caf\u{E9}"), .string("cafe\u{301}"), false),
      (.integer(1), .real(1.0), false),
      (.integer(1), .bool(true), false),
      (.date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: -0.0)), false),
      ([["x": [1, 2]], "y"], [["x": [1, 2]], "y"], true),
    ]
    for (a, b, equal) in pairs {
      #expect((a == b) == equal, "\(a) == \(b)")
      if equal { #expect(a.hashValue == b.hashValue, "\(a) hashes as \(b)") }
    }
    let set: Set<PrefValue> = [
      .real(0.0), .real(-0.0), .real(.nan), .real(-.nan), ["a": 1, "b": 2], ["b": 2, "a": 1],
    ]
    #expect(set.count == 4)
    let keys: Set<PrefDictionary> = [["é": 1], ["e\u{301}": 1], ["é": 1]]
    #expect(keys.count == 2)
  }

  @Test func literalsBuildEachKind() {
    let string: PrefValue = "Chimes"
    let integer: PrefValue = 1
    let real: PrefValue = 1.0
    let bool: PrefValue = true
    let array: PrefValue = [1, "a"]
    let dictionary: PrefValue = ["z": 1, "a": 2]
    #expect(string == .string("Chimes"))
    #expect(integer == .integer(1))
    #expect(real == .real(1.0))
    #expect(bool == .bool(true))
    #expect(array == .array([.integer(1), .string("a")]))
    #expect(dictionary.dictionaryValue?.keys == ["z", "a"])
    #expect(integer != real && integer != bool)
  }

  @Test func descriptionsTellTheKindsApart() {
    let date = PrefValue.date(Date(timeIntervalSince1970: 1_700_000_000))
    let table: [(PrefValue, String)] = [
      ("Chimes", #""Chimes""#), ("say \"hi\"\n", #""say \"hi\"\n""#), ("1", #""1""#), (1, "1"), (1.0, "1.0"),
      (1e20, "1.0e+20"), (.real(.infinity), ".inf"), (.real(.nan), ".nan"), (true, "true"),
      (.unsignedInteger(.max), "18446744073709551615"), (date, "2023-11-14T22:13:20Z"),
      (.data(Data([1, 2, 3])), "<data 3 bytes>"), (.data(Data([1])), "<data 1 byte>"), (.uid(5), "<uid 5>"),
      ([1, 2], "[1, 2]"), ([], "[]"), (["a": 1, "b": [true]], #"["a": 1, "b": [true]]"#), ([:], "[:]"),
    ]
    for (value, text) in table {
      #expect(value.description == text)
      #expect(String(describing: value) == text)
    }
    let debug: PrefValue = ["b": .data(Data([0, 255])), "n": 1.0, "s": "x"]
    #expect(debug.debugDescription == #".dictionary(["b": .data(<00 ff>), "n": .real(1.0), "s": .string("x")])"#)
  }
}

#if FullFoundation

  /// The Foundation bridge: property list objects, a real `UserDefaults` suite, and
  /// `PropertyListSerialization` as a codec.
  @Suite struct FoundationBridgeTests {
    /// The issue's program, with the property list bridge on top of the YAML round trip.
    @Test func theProgramInTheBriefRuns() throws {
      let items = LibraryAPITests.items
      let value = try PrefsEncoder().encode(items)
      let yaml = try Format.yaml.encode(value)
      let back = try PrefsDecoder().decode([LibraryAPITests.Item].self, from: try Format.yaml.decode(yaml))
      let object = value.propertyList
      #expect(back == items)
      // The failable initializer, compared with the value as it is (nil for what is not one).
      #expect(PrefValue(propertyList: object) == value)
      #expect(try PrefValue(validatingPropertyList: object) == value)
      // A null is NSNull both ways; an object of no model kind is none.
      #expect(PrefValue(propertyList: NSNull()) == .null)
      #expect(PrefValue.null.propertyList is NSNull)
      #expect(PrefValue(propertyList: [1: "a"] as [Int: String]) == nil)
    }

    @Test func boolsStayApartFromZeroAndOne() throws {
      let objects: [(Any, PrefValue)] = [
        (true, .bool(true)), (false, .bool(false)), (0, .integer(0)), (1, .integer(1)),
        (NSNumber(value: true), .bool(true)), (NSNumber(value: 1), .integer(1)), (NSNumber(value: 0), .integer(0)),
        (Int8(1), .integer(1)), (1.0, .real(1.0)), (NSNumber(value: 1.0), .real(1.0)), (Float(0.5), .real(0.5)),
        (UInt64.max, .unsignedInteger(.max)), ("1", .string("1")), (NSString(string: "x"), .string("x")),
      ]
      for (object, expected) in objects {
        #expect(try PrefValue(validatingPropertyList: object) == expected, "\(object)")
      }
      for value: PrefValue in [true, false, 0, 1, 1.0, 0.0, -0.0, .unsignedInteger(.max), .integer(.min)] {
        #expect(try PrefValue(validatingPropertyList: value.propertyList) == value, "\(value)")
      }
    }

    @Test func aBoolIsWrittenAsTrueAndReadBack() throws {
      let object = PrefValue.dictionary(["on": true, "one": 1, "ratio": 1.0]).propertyList
      let xml = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
      let text = String(decoding: xml, as: UTF8.self)
      #expect(text.contains("<key>on</key>\n\t<true/>"))
      #expect(text.contains("<key>one</key>\n\t<integer>1</integer>"))
      let back = try PropertyListSerialization.propertyList(from: xml, format: nil)
      #expect(try PrefValue(validatingPropertyList: back) == ["on": true, "one": 1, "ratio": 1.0])
    }

    @Test func datesDataAndNestingCrossBothWays() throws {
      let value: PrefValue = [
        "when": .date(Date(timeIntervalSinceReferenceDate: 721_692_800.25)), "blob": .data(Data([0, 1, 255])),
        "list": [["deep": [1, "x", 2.5]], [], [:]], "empty": "",
      ]
      let object = value.propertyList
      let dictionary = try #require(object as? [String: Any])
      #expect(dictionary["when"] as? Date == Date(timeIntervalSinceReferenceDate: 721_692_800.25))
      #expect(dictionary["blob"] as? Data == Data([0, 1, 255]))
      #expect(try PrefValue(validatingPropertyList: object) == value)
      let nsObject: [String: Any] = [
        "d": NSDate(timeIntervalSinceReferenceDate: 1), "b": NSData(bytes: [7] as [UInt8], length: 1),
        "a": NSArray(array: [NSNumber(value: true)]), "n": NSDictionary(dictionary: ["k": NSNumber(value: 2)]),
      ]
      #expect(
        try PrefValue(validatingPropertyList: nsObject)
          == ["d": .date(Date(timeIntervalSinceReferenceDate: 1)), "b": .data(Data([7])), "a": [true], "n": ["k": 2]])
    }

    @Test func aUIDBecomesItsCFUIDDictionaryAndUnknownTypesThrow() throws {
      #expect(try PrefValue(validatingPropertyList: PrefValue.uid(5).propertyList) == ["CF$UID": 5])
      #expect(try PrefValue(validatingPropertyList: ["k": NSNull()]) == ["k": .null])
      #expect(throws: PrefsError.self) { try PrefValue(validatingPropertyList: ["k": URL(string: "https://a")!]) }
      #expect(throws: PrefsError.self) { try PrefValue(validatingPropertyList: [1: "not a string key"]) }
    }

    @Test func aUserDefaultsSuiteReadsAsAValue() throws {
      // An absolute suite name is kept as `<name>.plist` (see SettingsTests).
      let folder = try TestSupport.temporaryFolder()
      let suite = folder.appendingPathComponent("com.example.library-\(UUID().uuidString)").path
      defer {
        UserDefaults(suiteName: suite)?.synchronize()
        try? FileManager.default.removeItem(at: folder)
      }
      #expect(try UserDefaults.prefValue(forSuite: suite) == nil)
      let defaults = try #require(UserDefaults(suiteName: suite))
      defaults.set(true, forKey: "isAccountPrivate")
      defaults.set(1, forKey: "launches")
      defaults.set(1.0, forKey: "scale")
      defaults.set("Chimes", forKey: "ringtone")
      defaults.set(Data([1, 2]), forKey: "items")
      defaults.set(["a", "b"], forKey: "recent")
      #expect(defaults.synchronize())
      #expect(FileManager.default.fileExists(atPath: suite + ".plist"))
      #expect(
        try UserDefaults.prefValue(forSuite: suite)
          == [
            "isAccountPrivate": true, "launches": 1, "scale": 1.0, "ringtone": "Chimes", "items": .data(Data([1, 2])),
            "recent": ["a", "b"],
          ])
    }

    @Test func foundationCodecRoundTrips() throws {
      let value: PrefValue = [
        "on": true, "one": 1, "ratio": 1.0, "big": .unsignedInteger(.max),
        "when": .date(Date(timeIntervalSince1970: 0)),
        "blob": .data(Data([1])), "list": [1, [2]], "nested": ["z": "y"],
      ]
      for variant in [FoundationPlistCodec.Variant.xml, .binary] {
        let codec = FoundationPlistCodec(format: variant)
        let data = try codec.encode(value)
        #expect(try codec.decode(data) == value)
        // What Foundation writes, the native readers read alike.
        #expect(try Format.read(data).value == value)
        #expect(data.starts(with: Array((variant == .xml ? "<?xml" : "bplist").utf8)))
      }
      let native = try Format.xml.encode(value)
      #expect(try FoundationPlistCodec(format: .xml).decode(native) == value)
      let warnings = Warnings()
      _ = try FoundationPlistCodec(format: .xml).encode(
        .date(Date(timeIntervalSinceReferenceDate: 0.5)), warnings: warnings)
      #expect(warnings.all.count == 1)
    }
  }

#endif
