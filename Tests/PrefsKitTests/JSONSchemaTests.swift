import Foundation
import PrefsKit
import Testing

@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations

/// JSON Schema written from schemas and read back as schemas.
@Suite struct JSONSchemaTests {
  /// A schema that uses every field a key can have.
  static let rich = Schema(
    description: "Everything a key can say.",
    keys: [
      SchemaKey(
        name: "volume", type: .real, defaultValue: .real(0.5), description: "Loudness.",
        range: SchemaRange(min: .real(0), max: .real(1)), isRequired: true),
      SchemaKey(
        name: "count", type: .integer, defaultValue: .integer(3), values: [.integer(1), .integer(3), .integer(5)],
        range: SchemaRange(min: .integer(1))),
      SchemaKey(name: "since", type: .date, defaultValue: .date(Date(timeIntervalSince1970: 1_700_000_000.25))),
      SchemaKey(name: "token", type: .data, defaultValue: .data(Data("hello".utf8))),
      SchemaKey(name: "limit", type: .real, defaultValue: .real(.infinity)),
      SchemaKey(name: "theme", type: .string, defaultValue: "light", values: ["light", "dark"]),
      SchemaKey(name: "private", type: .bool, defaultValue: .bool(true)),
      SchemaKey(
        name: "days", type: .date,
        values: [.date(Date(timeIntervalSince1970: 0)), .date(Date(timeIntervalSince1970: 86_400))]),
      SchemaKey(name: "recent", type: .array, items: SchemaKey(name: "items", type: .string)),
      SchemaKey(name: "extra", type: .string, description: "Anything.", allowsAnyType: true),
      SchemaKey(
        name: "window", type: .dict,
        keys: Schema(
          keys: [
            SchemaKey(name: "width", type: .integer, defaultValue: .integer(800)),
            SchemaKey(name: "frame", type: .dict, keys: Schema(keys: [SchemaKey(name: "x", type: .real)])),
          ], otherKey: SchemaKey(name: "ANY", type: .integer))),
      SchemaKey(name: "open", type: .dict, keys: Schema(keys: [], allowsOtherKeys: true)),
    ])

  func readBack(_ jsonSchema: PrefValue) throws -> Schema {
    try Schema.read(try Format.json.encode(jsonSchema, options: JSONSchema.writeOptions))
  }

  @Test func aDomainSchemaReadsBackAsTheSameSchema() throws {
    #expect(try readBack(JSONSchema.forDomain(Self.rich)) == Self.rich)
    // JSON Schema has no words for where the code reads a key or how its data is encoded.
    var tutorial = Schema.userSettings
    for index in tutorial.keys.indices {
      tutorial.keys[index].readAt = []
      tutorial.keys[index].writtenAt = []
      tutorial.keys[index].encoding = nil
      tutorial.keys[index].content = nil
      tutorial.keys[index].decodeFallback = nil
    }
    #expect(try readBack(JSONSchema.forDomain(.userSettings)) == tutorial)
  }

  @Test func aSettingsSchemaHoldsTheSameKeysUnderItsDomain() throws {
    let read = try readBack(JSONSchema.forSettings(Self.rich, domain: "com.example.app"))
    let entry = try #require(read.key("com.example.app"))
    #expect(entry.type == .dict)
    // Settings are partial: nothing is required in them.
    #expect(
      entry.keys?.keys
        == Self.rich.keys.map {
          var key = $0
          key.isRequired = false
          return key
        })
    #expect(Self.rich.keys.contains { $0.isRequired })
    #expect(entry.description == Self.rich.description)
  }

  @Test func theGlobalDomainIsDescribedUnderBothItsNames() throws {
    let read = try readBack(JSONSchema.forSettings(.userSettings, domain: "-g"))
    #expect(read.keys.map(\.name) == ["-g", "NSGlobalDomain"])
  }

  @Test func theDocumentDeclaresItsDialectAndDescribesTheTypedObjects() throws {
    let root = try #require(JSONSchema.forDomain(.userSettings).dictionaryValue)
    #expect(root["$schema"] == .string(JSONSchema.dialect))
    let defs = try #require(root["$defs"]?.dictionaryValue)
    for name in ["date", "data", "nonFiniteReal"] {
      #expect(defs[name]?.dictionaryValue?["properties"]?.dictionaryValue?.count == 1, "\(name)")
    }
    // Written as they are: the `$` objects it describes are not escaped.
    let text = String(
      decoding: try Format.json.encode(.dictionary(root), options: JSONSchema.writeOptions), as: UTF8.self)
    #expect(text.contains(#""$date": {"#))
    #expect(!text.contains(#""$dict": {"#))
  }

  @Test func aJSONSchemaIsToldApartFromTheSchemaFormat() {
    #expect(JSONSchema.isJSONSchema(["$schema": "https://json-schema.org/draft/2020-12/schema"]))
    #expect(JSONSchema.isJSONSchema(["type": "object", "properties": ["a": ["type": "string"]]]))
    #expect(!JSONSchema.isJSONSchema(["keys": ["a": ["type": "string"]]]))
    #expect(!JSONSchema.isJSONSchema(["type": "object"]))
  }

  @Test func anOrdinaryJSONSchemaReads() throws {
    let json = """
      {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "App",
       "properties": {
         "name": {"type": ["string", "null"], "title": "The name", "default": "ada"},
         "mode": {"enum": ["a", "b"]},
         "level": {"const": 3},
         "ratio": {"type": "number", "minimum": 0, "maximum": 2.5},
         "when": {"type": "string", "format": "date-time", "default": "2023-11-14T22:13:20Z"},
         "blob": {"type": "string", "contentEncoding": "base64", "default": "aGk="},
         "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}},
         "window": {"type": "object", "properties": {"width": {"type": "integer", "default": null}},
                    "required": ["width"]},
         "free": {"description": "Anything."},
         "open": {"type": "object", "additionalProperties": true},
         "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
         "any": {"type": "array"},
         "either": {"anyOf": [{"type": "integer"}, {"type": "number"}]}
       },
       "$defs": {"tag": {"type": "string", "enum": ["x", "y"]}}}
      """
    let schema = try Schema.read(Data(json.utf8), path: "app.schema.json")
    #expect(schema.description == "App")
    #expect(schema.key("name") == SchemaKey(name: "name", type: .string, defaultValue: "ada", description: "The name"))
    #expect(schema.key("mode") == SchemaKey(name: "mode", type: .string, values: ["a", "b"]))
    #expect(schema.key("level") == SchemaKey(name: "level", type: .integer, values: [.integer(3)]))
    #expect(
      schema.key("ratio") == SchemaKey(name: "ratio", type: .real, range: SchemaRange(min: .real(0), max: .real(2.5))))
    #expect(schema.key("when")?.defaultValue == .date(Date(timeIntervalSince1970: 1_700_000_000)))
    #expect(schema.key("blob")?.defaultValue == .data(Data("hi".utf8)))
    #expect(schema.key("tags")?.items == SchemaKey(name: "items", type: .string, values: ["x", "y"]))
    #expect(schema.key("window")?.keys == Schema(keys: [SchemaKey(name: "width", type: .integer, isRequired: true)]))
    #expect(schema.key("any")?.items == nil)
    #expect(schema.key("free") == SchemaKey(name: "free", type: .string, description: "Anything.", allowsAnyType: true))
    #expect(schema.key("window")?.keys?.key("width")?.isRequired == true)
    #expect(schema.key("open")?.keys?.allowsOtherKeys == true)
    #expect(schema.key("counts")?.keys?.otherKey?.type == .integer)
    // A number that may be an integer is a real.
    #expect(schema.key("either")?.type == .real)
  }

  @Test(arguments: [
    ##"{"$schema": "x", "properties": {"a": {"type": ["string", "integer"]}}}"##,
    ##"{"$schema": "x", "properties": {"a": {"type": "strng"}}}"##,
    ##"{"$schema": "x", "properties": {"a": {"$ref": "#/$defs/missing"}}}"##,
    ##"{"$schema": "x", "properties": {"a": {"$ref": "other.json#/a"}}}"##,
    ##"{"$schema": "x", "properties": {"a": {"type": "integer", "default": "many"}}}"##,
    ##"{"$schema": "x", "properties": {"a": {"type": "string", "format": "date-time", "default": "soon"}}}"##,
    ##"{"$schema": "x", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"$ref": "#/$defs/a"}}}"##,
    ##"{"$schema": "x", "properties": [1]}"##,
  ])
  func whatASchemaCannotHoldIsASchemaError(json: String) throws {
    let error = try #require(throws: PrefsError.self) { try Schema.read(Data(json.utf8), path: "s.json") }
    if case .schema = error.kind {} else { Issue.record("not a schema error: \(error.kind)") }
    // The field is found in the text.
    #expect(error.position != nil)
  }

  @Test func defaultsAndValuesAreWrittenAsAYAMLFileReadsThem() {
    #expect(JSONSchema.plain(.date(Date(timeIntervalSince1970: 0))) == "1970-01-01T00:00:00Z")
    #expect(JSONSchema.plain(.data(Data("hi".utf8))) == "aGk=")
    #expect(JSONSchema.plain(.real(-.infinity)) == ["$real": "-inf"])
    #expect(JSONSchema.plain(.array([.data(Data([0]))])) == ["AA=="])
    #expect(JSONSchema.typedSpelling(.date(Date(timeIntervalSince1970: 0))) == ["$date": "1970-01-01T00:00:00Z"])
    #expect(JSONSchema.typedSpelling("x") == nil)
  }
}
