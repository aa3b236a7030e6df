import Foundation
import PrefsKit
import PrefsTutorial
import Testing

/// Data holding JSON or a binary plist opened as a document: an unchanged structure
/// gives the same bytes, a changed one the blob's bytes changed only where it changed.
@Suite struct EmbeddedDocumentTests {
  static let items = [
    Item(id: UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!, name: "Milk", description: "a / b"),
    Item(id: UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!, name: "Bread", description: "c"),
  ]

  /// `value` with `newValue` at `path`.
  func changed(_ value: PrefValue, _ path: String, to newValue: PrefValue) throws -> PrefValue {
    try value.setting(newValue, at: PrefKeyPath.parse(path))
  }

  func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

  @Test(arguments: [
    #"[{"a":1}]"#, "{\n  \"a\" : [\n    1,\n    2\n  ]\n}\n", #"{"u":"x\/y"}"#, #"  {"b": true, "a": null}  "#,
  ])
  func anUnchangedStructureGivesTheSameBytes(json: String) throws {
    let blob = Data(json.utf8)
    let document = try #require(EmbeddedDocument(blob))
    #expect(document.kind == .json)
    #expect(try document.bytes(for: document.value) == blob)
  }

  @Test func theTutorialsBlobChangesOnlyWhereItChanged() throws {
    let blob = try ItemStore<Item>.encoder.encode(Self.items)
    let document = try #require(EmbeddedDocument(blob))
    let renamed = try document.bytes(for: changed(document.value, "1.name", to: "Rye bread"))
    #expect(text(renamed) == text(blob).replacingOccurrences(of: #""name":"Bread""#, with: #""name":"Rye bread""#))
    // Still what the tutorial's encoder writes for the renamed items.
    var items = Self.items
    items[1].name = "Rye bread"
    #expect(try renamed == ItemStore<Item>.encoder.encode(items))
    // An item added comes out as the encoder writes it too: no space after the comma.
    let eggs = Item(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, name: "Eggs", description: "")
    let added = try changed(
      document.value, "2", to: ["description": "", "id": .string(eggs.id.uuidString), "name": "Eggs"])
    #expect(try document.bytes(for: added) == ItemStore<Item>.encoder.encode(Self.items + [eggs]))
  }

  @Test func prettyPrintedJSONKeepsItsLayoutWhenOneFieldChanges() throws {
    let blob = Data("[\n    {\n        \"name\" : \"Milk\",\n        \"count\" : 2\n    }\n]".utf8)
    let document = try #require(EmbeddedDocument(blob))
    let patched = try document.bytes(for: changed(document.value, "0.count", to: .integer(3)))
    #expect(text(patched) == "[\n    {\n        \"name\" : \"Milk\",\n        \"count\" : 3\n    }\n]")
    let added = try document.bytes(for: changed(document.value, "0.unit", to: "l"))
    #expect(
      text(added) == "[\n    {\n        \"name\" : \"Milk\",\n        \"count\" : 2,\n        \"unit\": \"l\"\n    }\n]"
    )
  }

  @Test func escapedSlashesStayEscapedAsJSONEncoderWritesThem() throws {
    // A plain JSONEncoder escapes `/` as `\/`.
    let blob = try JSONEncoder().encode(Self.items)
    #expect(text(blob).contains(#"a \/ b"#))
    let document = try #require(EmbeddedDocument(blob))
    let patched = try document.bytes(for: changed(document.value, "1.name", to: "Bread / butter"))
    #expect(
      text(patched) == text(blob).replacingOccurrences(of: #""Bread""#, with: #""Bread \/ butter""#))
    // A text that escapes none writes a new slash as itself.
    let plain = try #require(EmbeddedDocument(Data(#"{"a": "x"}"#.utf8)))
    #expect(text(try plain.bytes(for: ["a": "x/y"])) == #"{"a": "x/y"}"#)
  }

  @Test func keysKeepTheirOrderAndANewKeyGoesLast() throws {
    let document = try #require(EmbeddedDocument(Data(#"{"z":1,"a":2}"#.utf8)))
    let newValue: PrefValue = ["z": .integer(3), "a": .integer(2), "m": .bool(true)]
    let patched = try document.bytes(for: newValue)
    #expect(text(patched) == #"{"z":3,"a":2,"m":true}"#)
    // Keys in another order are the same structure: the bytes stay.
    #expect(text(try document.bytes(for: ["a": .integer(2), "z": .integer(1)])) == #"{"z":1,"a":2}"#)
  }

  @Test func aBinaryPlistIsWrittenAnew() throws {
    let blob = try Format.binary.codec.encode(["name": "Milk", "when": .date(Date(timeIntervalSince1970: 0))])
    let document = try #require(EmbeddedDocument(blob))
    #expect(document.kind == .plist)
    #expect(try document.bytes(for: document.value) == blob)
    let newValue = try changed(document.value, "name", to: "Eggs")
    let patched = try document.bytes(for: newValue)
    #expect(patched.starts(with: Array("bplist00".utf8)))
    #expect(EmbeddedDocument(patched)?.value == newValue)
  }

  @Test func aBlobInsideABlobOpensAsADocumentOfItsOwn() throws {
    let inner = Data(#"{"n":1}"#.utf8)
    let outerBlob = try Format.binary.codec.encode(["json": .data(inner)])
    let outer = try #require(EmbeddedDocument(outerBlob))
    #expect(outer.value == ["json": .data(inner)])
    let document = try #require(EmbeddedDocument(inner))
    let innerBytes = try document.bytes(for: ["n": .integer(2)])
    let outerBytes = try outer.bytes(for: ["json": .data(innerBytes)])
    #expect(EmbeddedDocument(outerBytes)?.value == ["json": .data(Data(#"{"n":2}"#.utf8))])
  }

  @Test func plainJSONRefusesWhatItCannotHold() throws {
    let document = try #require(EmbeddedDocument(Data(#"{"a": 1}"#.utf8)))
    #expect {
      try document.bytes(for: ["a": .date(Date(timeIntervalSince1970: 0))])
    } throws: { error in
      guard case .unrepresentable(format: "json", _, _, _)? = (error as? PrefsError)?.kind else { return false }
      return true
    }
    #expect(throws: PrefsError.self) { try document.bytes(for: "a string") }
  }

  @Test(arguments: ["{not json", "42", "hello", "bplist00garbage"])
  func dataWithoutStructureDoesNotOpen(text: String) {
    #expect(EmbeddedDocument(Data(text.utf8)) == nil)
  }
}
