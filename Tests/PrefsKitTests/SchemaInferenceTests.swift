import Foundation
import PrefsKit
import Testing

@testable import PrefsModel
@testable import PrefsOperations

/// `schema infer`: the types domains hold, values only where the inputs show a few.
@Suite struct SchemaInferenceTests {
  func infer(_ inputs: [(String, PrefDictionary)]) -> InferredSchema {
    SchemaInference.infer(inputs.map { (name: $0.0, contents: $0.1) })
  }

  @Test func eachKeyGetsItsTypeAndNoDefault() {
    let inferred = infer([
      (
        "a",
        [
          "name": "ada", "count": .integer(3), "ratio": .real(0.5), "on": .bool(true),
          "when": .date(Date(timeIntervalSince1970: 0)), "blob": .data(Data([1])),
        ]
      )
    ])
    #expect(
      inferred.schema.keys == [
        SchemaKey(name: "name", type: .string), SchemaKey(name: "count", type: .integer),
        SchemaKey(name: "ratio", type: .real), SchemaKey(name: "on", type: .bool),
        SchemaKey(name: "when", type: .date), SchemaKey(name: "blob", type: .data),
      ])
    #expect(inferred.conflicts.isEmpty)
    #expect(inferred.schema.description == "Inferred from one input: a.")
  }

  @Test func nestedDictionariesBecomeNestedKeysFromEveryInput() {
    let inferred = infer([
      ("a", ["window": ["width": .integer(800)]]),
      ("b", ["window": ["width": .integer(900), "height": .integer(600)]]),
    ])
    #expect(
      inferred.schema.key("window")?.keys
        == Schema(keys: [SchemaKey(name: "width", type: .integer), SchemaKey(name: "height", type: .integer)]))
  }

  @Test func anArraysItemsGetASchemaFromEveryItem() {
    let inferred = infer([
      (
        "a",
        [
          "servers": [
            ["name": "eu", "proto": "tcp"], ["name": "us", "proto": "tcp"], ["name": "ap", "proto": "udp"],
          ]
        ]
      ),
      ("b", ["empty": []]),
    ])
    let items = inferred.schema.key("servers")?.items
    #expect(items?.type == .dict)
    #expect(items?.keys?.key("name") == SchemaKey(name: "name", type: .string))
    // Repeated across the items of one input: a few values.
    #expect(items?.keys?.key("proto")?.values == ["tcp", "udp"])
    #expect(inferred.schema.key("empty") == SchemaKey(name: "empty", type: .array))
  }

  @Test func valuesAreListedOnlyForAFewThatRepeat() {
    let ringtones: [PrefValue] = ["Waves", "Chimes", "Chimes"]
    let inputs = ringtones.enumerated().map { ("\($0.offset)", ["ringtone": $0.element] as PrefDictionary) }
    #expect(infer(inputs).schema.key("ringtone")?.values == ["Chimes", "Waves"])
    // Every value different: nothing shows the key is a choice.
    #expect(infer([("a", ["user": "ada"]), ("b", ["user": "bob"])]).schema.key("user")?.values == nil)
    // One value everywhere: nothing shows what else it may be.
    #expect(infer([("a", ["mode": "x"]), ("b", ["mode": "x"])]).schema.key("mode")?.values == nil)
    // One input never lists values.
    #expect(infer([("a", ["level": .integer(1)])]).schema.key("level")?.values == nil)
    // More than a few distinct values.
    let many = (0..<10).map { ("\($0)", ["n": .integer(Int64($0 % 5))] as PrefDictionary) }
    #expect(infer(many).schema.key("n")?.values == nil)
    let few = (0..<10).map { ("\($0)", ["n": .integer(Int64(4 - $0 % 4))] as PrefDictionary) }
    #expect(infer(few).schema.key("n")?.values == [1, 2, 3, 4].map { .integer($0) })
    // Booleans and reals are not choices.
    let flags = (0..<4).map { ("\($0)", ["on": .bool($0 % 2 == 0), "r": .real(Double($0 % 2))] as PrefDictionary) }
    #expect(infer(flags).schema.key("on")?.values == nil)
    #expect(infer(flags).schema.key("r")?.values == nil)
  }

  @Test func aKeyOfSeveralTypesIsReportedAndTakesTheMostSeen() {
    let inferred = infer([
      ("a.plist", ["volume": .integer(3)]), ("b.plist", ["volume": .real(0.5)]), ("c.plist", ["volume": .integer(4)]),
      ("d.plist", ["window": ["x": "1"], "tie": "s"]), ("e.plist", ["window": ["x": .integer(1)], "tie": .integer(1)]),
    ])
    #expect(inferred.schema.key("volume")?.type == .integer)
    #expect(inferred.schema.key("tie")?.type == .string)
    #expect(
      inferred.conflicts.map(\.description) == [
        "volume: integer in a.plist, c.plist; real in b.plist; the schema says integer (seen most)",
        "window.x: string in d.plist; integer in e.plist; the schema says string (seen most)",
        "tie: string in d.plist; integer in e.plist; the schema says string (seen most)",
      ])
  }

  @Test func conflictsInsideArraysNameTheItems() {
    let inferred = infer([("a", ["list": [.integer(1), "two", .integer(3)]])])
    #expect(inferred.conflicts.map(\.path) == ["list[]"])
    #expect(inferred.schema.key("list")?.items?.type == .integer)
  }

  @Test func aUIDSaysNothingOfItsKey() {
    #expect(infer([("a", ["archive": .uid(1)])]).schema.keys.isEmpty)
  }

  @Test func theInferredSchemaReadsBack() throws {
    let inferred = infer([
      ("a", ["ringtone": "Chimes", "window": ["width": .integer(1)], "tags": ["x", "x", "y"]]),
      ("b", ["ringtone": "Waves"]), ("c", ["ringtone": "Chimes"]),
    ])
    let text = try Format.yaml.encode(inferred.schema.documentValue)
    #expect(try Schema.read(text, path: "inferred.yaml") == inferred.schema)
  }
}
