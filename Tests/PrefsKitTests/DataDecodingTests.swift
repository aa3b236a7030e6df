import Foundation
import PrefsKit
import Testing

/// Data checked against the shape of the app's `Codable` type, as its decoder reads it.
@Suite struct DataDecodingTests {
  let items = Schema.userSettings.key("items")!

  func json(_ text: String) -> Data { Data(text.utf8) }

  func failure(_ text: String, key: SchemaKey? = nil) -> DecodeFailure? {
    (key ?? items).decodeFailure(of: json(text))
  }

  @Test func itemsTheAppDecodesPass() {
    #expect(failure(#"[]"#) == nil)
    #expect(failure(#"[{"id": "1", "name": "Milk", "description": "2 l", "extra": 3}]"#) == nil)
  }

  @Test func aMissingFieldIsNamedByItemAndField() throws {
    let found = try #require(
      failure(#"[{"id":"1","name":"a","description":""},{"id":"2","name":"b"},{"id":"3","name":"c","description":""}]"#)
    )
    #expect(found == DecodeFailure(place: ["item 2 of 3"], reason: .missingField("description")))
    #expect(
      found.message(for: items)
        == "does not decode as [Item]: item 2 of 3 has no field 'description' (JSONDecoder fails; the app reads [] "
        + "instead, and its next save of items drops every stored item)")
  }

  @Test func aNullFieldFailsAsAMissingOneDoes() {
    #expect(
      failure(#"[{"id":"1","name":null,"description":""}]"#)
        == DecodeFailure(place: ["item 1 of 1"], reason: .missingField("name")))
  }

  @Test func aWrongTypeIsNamedByItemAndField() {
    #expect(
      failure(#"[{"id":7,"name":"a","description":""}]"#)
        == DecodeFailure(
          place: ["item 1 of 1", "field 'id'"], reason: .wrongType(expected: .string, found: .integer(7))))
    #expect(
      failure(#"{"id":"1"}"#)
        == DecodeFailure(place: [], reason: .wrongType(expected: .array, found: .dictionary(["id": "1"]))))
  }

  @Test func bytesThatAreNotJSONAreUnreadable() throws {
    let found = try #require(failure("[{\"id\": \"1\""))
    if case .unreadable = found.reason {
      #expect(found.message(for: items).hasPrefix("does not decode as [Item]: is not JSON: "))
    } else {
      Issue.record("not unreadable: \(found.reason)")
    }
  }

  @Test func optionalsNumbersAndNestedShapesFollowTheDecoder() {
    var key = SchemaKey(name: "state", type: .data)
    key.encoding = .json
    key.content = SchemaContent(
      type: .dict, swiftType: "State",
      fields: [
        SchemaField(name: "count", content: SchemaContent(type: .integer)),
        SchemaField(name: "scale", content: SchemaContent(type: .real)),
        SchemaField(name: "note", content: SchemaContent(type: .string, isOptional: true)),
        SchemaField(
          name: "tags", content: SchemaContent(type: .array, items: SchemaContent(type: .string))),
        SchemaField(name: "other", content: SchemaContent(type: nil)),
      ])
    #expect(failure(#"{"count": 2.0, "scale": 1, "tags": [], "other": {}}"#, key: key) == nil)
    #expect(
      failure(#"{"count": 2.5, "scale": 1, "tags": [], "other": 1}"#, key: key)
        == DecodeFailure(place: ["field 'count'"], reason: .wrongType(expected: .integer, found: .real(2.5))))
    #expect(
      failure(#"{"count": 1, "scale": 1, "tags": ["a", 2], "other": 1}"#, key: key)
        == DecodeFailure(
          place: ["field 'tags'", "item 2 of 2"], reason: .wrongType(expected: .string, found: .integer(2))))
    // Without a decode fallback the message stops at the decoder.
    #expect(
      failure(#"{"scale": 1, "tags": [], "other": 1}"#, key: key)?.message(for: key)
        == "does not decode as State: has no field 'count' (JSONDecoder fails)")
  }

  @Test func plistDataIsReadAsAPropertyList() throws {
    var key = items
    key.encoding = .plist
    let good = try Format.binary.encode(.array([["id": "1", "name": "a", "description": "b"]]))
    #expect(key.decodeFailure(of: good) == nil)
    let bad = try Format.binary.encode(.array([["id": "1", "name": "a"]]))
    #expect(key.decodeFailure(of: bad) == DecodeFailure(place: ["item 1 of 1"], reason: .missingField("description")))
  }

  @Test func lintAndImportRefuseDataTheAppCannotDecode() throws {
    let bad = PrefValue.data(json(#"[{"id":"1","name":"a"}]"#))
    let findings = Schema.userSettings.check(["items": bad])
    #expect(findings.count == 1)
    #expect(findings.first?.isError == true)
    let refused = DomainImport.fit(["items": bad], to: .userSettings, strict: false)
    #expect(refused.refusals.count == 1)
    let forced = DomainImport.fit(["items": bad], to: .userSettings, strict: false, acceptingUndecodableData: true)
    #expect(forced.refusals.isEmpty)
    #expect(forced.warnings.count == 1)
    #expect(forced.fitted["items"] == bad)
  }
}
