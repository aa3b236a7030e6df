import Foundation
import PrefsKit
import Testing

/// The fields a scan adds to a schema, written as its document and read back.
@Suite struct SchemaScanFieldsTests {
  /// A schema with every field a scan writes.
  static let scanned: Schema = {
    var schema = Schema(keys: [])
    var volume = SchemaKey(name: "volume", type: .real, defaultValue: .real(0.5))
    volume.suite = "group.com.example"
    volume.readAt = ["Player.swift:3:9", "Mixer.swift:8:5"]
    volume.writtenAt = ["Player.swift:9:9"]
    var items = SchemaKey(name: "items", type: .data)
    items.encoding = .plist
    items.content = SchemaContent(
      type: .array, swiftType: "[Item]",
      items: SchemaContent(
        type: .dict, swiftType: "Item",
        fields: [
          SchemaField(name: "id", content: SchemaContent(type: .string)),
          SchemaField(name: "note", content: SchemaContent(type: .string, isOptional: true)),
          SchemaField(name: "owner", content: SchemaContent(type: nil, swiftType: "Owner")),
        ]))
    items.decodeFallback = .array([])
    schema.keys = [volume, items, SchemaKey(name: "theme", type: .string, values: ["light", "dark"])]
    schema.dynamicKeys = [DynamicKeyRead(expression: #""row-\(index)""#, pattern: "row-*", readAt: ["Rows.swift:4:7"])]
    schema.conflicts = [
      ReadConflict(
        key: "volume",
        reads: [
          KeyRead(type: .real, defaultValue: .real(0.5), readAt: "Player.swift:3:9"),
          KeyRead(type: .integer, defaultValue: nil, readAt: "Mixer.swift:8:5"),
        ])
    ]
    return schema
  }()

  @Test(arguments: [Format.yaml, Format.json, Format.xml])
  func aSchemaReadsBackFromItsDocumentInEveryFormat(format: Format) throws {
    let data = try Self.scanned.encoded(as: format)
    #expect(try Schema.read(data) == Self.scanned)
  }

  @Test func rangesRequiredKeysAndArrayItemsAreWrittenToo() throws {
    let schema = Schema(keys: [
      SchemaKey(name: "size", type: .integer, range: SchemaRange(min: .integer(1), max: .integer(9)), isRequired: true),
      SchemaKey(name: "recent", type: .array, items: SchemaKey(name: "items", type: .string)),
    ])
    #expect(try Schema.read(schema.encoded(as: .yaml)) == schema)
  }

  @Test func theDocumentListsOnlyWhatIsSaidInTheFormatsOrder() throws {
    let yaml = String(decoding: try Schema.userSettings.encoded(as: .yaml), as: UTF8.self)
    #expect(yaml.hasPrefix("keys:\n  username:\n    type: string\n    default: \"\"\n    read-at:\n"))
    #expect(!yaml.contains("suite"))
    #expect(!yaml.contains("optional"))
    #expect(yaml.contains("    encoding: json\n    content:\n      type: array\n      swift-type: \"[Item]\"\n"))
  }

  @Test func aSingleLocationMayBeWrittenWithoutAList() throws {
    let schema = try Schema.read(Data(#"{"keys": {"k": {"type": "bool", "read-at": "A.swift:1:2"}}}"#.utf8))
    #expect(schema.key("k")?.readAt == ["A.swift:1:2"])
  }

  @Test(arguments: [
    (#"{"keys": {"k": {"type": "string", "encoding": "json"}}}"#, "keys.k.encoding"),
    (#"{"keys": {"k": {"type": "data", "encoding": "xml"}}}"#, "keys.k.encoding"),
    (#"{"keys": {"k": {"type": "data", "content": {"type": "array"}}}}"#, "keys.k.content"),
    (
      #"{"keys": {"k": {"type": "data", "encoding": "json", "content": {"type": "string", "items": {}}}}}"#,
      "keys.k.content.items"
    ),
    (
      #"{"keys": {"k": {"type": "data", "encoding": "json", "content": {"type": "array", "fields": {}}}}}"#,
      "keys.k.content.fields"
    ),
    (#"{"keys": {"k": {"type": "data", "decode-fallback": []}}}"#, "keys.k.decode-fallback"),
    (#"{"keys": {"k": {"type": "bool", "read-at": [1]}}}"#, "keys.k.read-at.0"),
    (#"{"keys": {}, "dynamic-keys": [{"pattern": "a*"}]}"#, "dynamic-keys.0"),
    (#"{"keys": {}, "conflicts": {"k": [{"type": "bool"}]}}"#, "conflicts.k.0"),
    (
      #"{"keys": {}, "conflicts": {"k": [{"type": "bool", "default": 1, "read-at": "A:1:1"}]}}"#,
      "conflicts.k.0.default"
    ),
  ])
  func aWrongScanFieldIsASchemaErrorAtItsPath(json: String, path: String) throws {
    let error = try #require(throws: PrefsError.self) { try Schema.read(Data(json.utf8)) }
    if case .schema(let at, _) = error.kind {
      #expect(at.plainText == path)
    } else {
      Issue.record("not a schema error: \(error.kind)")
    }
  }

  @Test func aDynamicKeyPatternMatchesTheKeysItCanGive() {
    let read = DynamicKeyRead(expression: #""row-\(i)""#, pattern: "row-*", readAt: [])
    #expect(read.matches("row-12"))
    #expect(!read.matches("rows"))
    #expect(!DynamicKeyRead(expression: "key", readAt: []).matches("key"))
  }

  @Test func lintTakesAKeyADynamicReadCanGiveAsRead() throws {
    var schema = Schema(keys: [SchemaKey(name: "volume", type: .integer)])
    schema.dynamicKeys = [DynamicKeyRead(expression: #""row-\(i)""#, pattern: "row-*", readAt: [])]
    let findings = schema.check(["row-1": .bool(true), "rwo": .bool(true)])
    #expect(findings.map(\.path.plainText) == ["rwo"])
  }

  @Test func aConflictingReadIsAWarningOnTheKeyTheDomainHolds() throws {
    let findings = Self.scanned.check(["volume": .real(0.3)])
    #expect(findings.count == 1)
    let finding = try #require(findings.first)
    #expect(!finding.isError)
    if case .conflictingReads(let conflict) = finding.problem {
      #expect(conflict.reads.map(\.readAt) == ["Player.swift:3:9", "Mixer.swift:8:5"])
    } else {
      Issue.record("not a conflict: \(finding.problem)")
    }
    #expect(Self.scanned.check([:]).isEmpty)
  }
}
