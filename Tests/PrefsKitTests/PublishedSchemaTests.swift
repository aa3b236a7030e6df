import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsOperations

/// Schemas published by others: Apple's device-management YAML, ProfileManifests'
/// manifests (fixtures written here, in that format), a folder of either; ranges,
/// range lists, presence and subkeys through lint, coercion and effective values.
@Suite struct PublishedSchemaTests {
  static let profiles = "device-management/mdm/profiles"

  func value(_ yaml: String) throws -> PrefDictionary {
    try #require(try Format.yaml.codec.decode(Data(yaml.utf8)).dictionaryValue)
  }

  /// A device-management schema in the corpus's shape, small enough to read.
  let deviceManagement = """
    title: Example
    payload:
      payloadtype: com.example.widget
    payloadkeys:
    - key: size
      type: <integer>
      presence: optional
      range: {min: 16, max: 128}
      default: 64
    - key: scale
      type: <real>
      range: {max: 2}
    - key: side
      type: <string>
      rangelist: [bottom, left, right]
    - key: name
      type: <string>
      presence: required
    - key: extra
      type: <any>
    - key: folders
      type: <array>
      subkeys:
      - key: FoldersItem
        type: <string>
        rangelist: [Documents, Shared]
    - key: tile
      type: <dictionary>
      subkeys:
      - key: label
        type: <string>
        presence: required
      - key: kind
        type: <integer>
        rangelist: [0, 1, 3]
    - key: names
      type: <dictionary>
      subkeys:
      - key: ANY
        type: <string>
    """

  // MARK: Reading device-management schemas

  @Test func aDeviceManagementSchemaReadsWithEveryField() throws {
    let schema = try Schema.read(Data(deviceManagement.utf8), path: "w.yaml")
    #expect(schema.domain == "com.example.widget")
    #expect(schema.description == "Example")
    let size = try #require(schema.key("size"))
    #expect(size.type == .integer)
    #expect(size.range == SchemaRange(min: .integer(16), max: .integer(128)))
    #expect(size.defaultValue == .integer(64))
    #expect(!size.isRequired)
    #expect(schema.key("scale")?.range == SchemaRange(max: .integer(2)))
    #expect(schema.key("side")?.values == ["bottom", "left", "right"].map(PrefValue.string))
    #expect(schema.key("name")?.isRequired == true)
    #expect(schema.key("extra")?.allowsAnyType == true)
    let folders = try #require(schema.key("folders")?.items)
    #expect(folders.type == .string)
    #expect(folders.values == ["Documents", "Shared"].map(PrefValue.string))
    let tile = try #require(schema.key("tile")?.keys)
    #expect(tile.key("label")?.isRequired == true)
    #expect(tile.key("kind")?.values == [.integer(0), .integer(1), .integer(3)])
    let names = try #require(schema.key("names")?.keys)
    #expect(names.allowsOtherKeys)
    #expect(names.otherKey?.type == .string)
    #expect(SchemaFormat.of(try Format.yaml.codec.decode(Data(deviceManagement.utf8))) == .deviceManagement)
  }

  @Test(arguments: [
    ("payloadkeys: [{key: a, type: <number>}]", "payloadkeys.0.type"),
    ("payloadkeys: [{key: a, type: <string>, range: {min: 1}}]", "payloadkeys.0.range.min"),
    ("payloadkeys: [{key: a, type: <integer>, range: {min: x}}]", "payloadkeys.0.range.min"),
    ("payloadkeys: [{key: a, type: <integer>, rangelist: [1, x]}]", "payloadkeys.0.rangelist.1"),
    ("payloadkeys: [{key: a, type: <integer>, presence: maybe}]", "payloadkeys.0.presence"),
    ("payloadkeys: [{key: a, type: <string>, subkeys: []}]", "payloadkeys.0.subkeys"),
    ("payloadkeys: [{type: <string>}]", "payloadkeys.0"),
    ("payload: {payloadtype: x}", "payloadkeys"),
  ])
  func brokenDeviceManagementSchemasAreRefusedNamingThePlace(text: String, path: String) throws {
    let error = #expect(throws: PrefsError.self) { try Schema.read(Data(text.utf8), path: "s.yaml") }
    if case .schema(let at, _)? = error?.kind {
      #expect(at.description == path)
    } else {
      Issue.record("\(String(describing: error))")
    }
    #expect(error?.file == "s.yaml")
  }

  @Test(.enabled(if: TestSupport.hasCorpus(profiles), "the device-management corpus is absent"))
  func everyCorpusSchemaReadsOrIsRefusedForItsRecursiveAlias() throws {
    let folder = try #require(TestSupport.corpus(Self.profiles))
    var read = 0
    for file in TestSupport.files(in: folder) where file.pathExtension == "yaml" {
      do {
        let schema = try Schema.read(Data(contentsOf: file), path: file.path)
        #expect(schema.domain != nil, "\(file.lastPathComponent)")
        read += 1
      } catch let error as PrefsError {
        // Two schemas describe items that hold items of their own kind through a YAML
        // alias inside its anchor, which no value can hold.
        guard case .syntax(format: "yaml", stage: .composer, _) = error.kind else {
          Issue.record("\(file.lastPathComponent): \(error)")
          continue
        }
      }
    }
    #expect(read >= 120)
    let dock = try #require(try SchemaDirectory(path: folder.path).schema(for: "com.apple.dock"))
    #expect(dock.key("tilesize")?.range == SchemaRange(min: .integer(16), max: .integer(128)))
    #expect(dock.key("orientation")?.values == ["bottom", "left", "right"].map(PrefValue.string))
    #expect(dock.key("persistent-apps")?.items?.keys?.key("tile-data")?.isRequired == true)
  }

  // MARK: Ranges, range lists, presence, subkeys

  @Test func rangesAreInclusiveAndExactForIntegers() {
    let range = SchemaRange(min: .integer(16), max: .integer(128))
    #expect(range.contains(.integer(16)) && range.contains(.integer(128)))
    #expect(!range.contains(.integer(15)) && !range.contains(.integer(129)))
    #expect(range.contains(.real(16.5)) && !range.contains(.real(128.5)))
    #expect(!SchemaRange(max: .integer(.max - 1)).contains(.integer(.max)))
    #expect(!SchemaRange(min: .integer(0)).contains(.integer(-1)))
    #expect(SchemaRange(min: .integer(0)).contains(.unsignedInteger(.max)))
    #expect(!SchemaRange(max: .integer(-1)).contains(.unsignedInteger(1)))
    // A value that is no number is the type check's to report.
    #expect(range.contains(.string("x")))
    #expect(range.description == "16...128")
    #expect(SchemaRange(min: .real(0.5)).description == "at least 0.5")
  }

  @Test func checkingFindsRangesRangeListsMissingKeysAndNestedOnes() throws {
    let schema = try Schema.read(Data(deviceManagement.utf8))
    let contents = try value(
      """
      size: 200
      scale: 2.5
      side: top
      folders: [Documents, Music]
      tile: {kind: 2}
      names: {en: hello, fr: 3}
      extra: [1, 2]
      other: 1
      """)
    let problems = schema.check(contents).map(\.description)
    #expect(
      problems == [
        "size: 200 is out of 16...128",
        "scale: 2.5 is above the maximum 2",
        #"side: "top" is not one of "bottom", "left", "right""#,
        "name: missing; the schema requires it",
        #"folders.1: "Music" is not one of "Documents", "Shared""#,
        "tile.label: missing; the schema requires it",
        "tile.kind: 2 is not one of 0, 1, 3",
        "names.fr: stored as integer 3; the app reads nil (the schema gives no fallback)",
        "other: not in the schema; the app does not read it",
      ])
    #expect(schema.check(contents).first?.message == "200 is out of 16...128")
    #expect(schema.check(contents)[1].message == "2.5 is above the maximum 2")
    #expect(schema.check(contents)[3].message == "missing; the schema requires it")
  }

  @Test func lintPutsAMissingKeyAtItsDictionary() throws {
    let schema = try Schema.read(Data(deviceManagement.utf8))
    let text = "name: a\ntile:\n  kind: 1\n"
    let findings = Lint.check(Data(text.utf8), file: "w.yaml", schema: schema)
    #expect(findings.map(\.description) == ["w.yaml:2:1: tile.label: missing; the schema requires it"])
  }

  @Test func coercionFollowsTheSchemasTypesAndAllowedValues() throws {
    let schema = try Schema.read(Data(deviceManagement.utf8))
    let (result, coercions, remaining) = schema.coerce(
      try value("size: '200'\nside: Left\nname: n\nfolders: [documents]\ntile: {label: x, kind: '3'}\n"))
    #expect(result["size"] == .integer(200))
    #expect(result["side"] == .string("left"))
    #expect(result["folders"] == .array([.string("Documents")]))
    #expect(result["tile"]?.dictionaryValue?["kind"] == .integer(3))
    #expect(
      coercions.map(\.rule) == [.integerString, .allowedValue, .allowedValue, .integerString])
    // A number out of range is not changed: it stays a finding.
    #expect(
      remaining.map(\.problem) == [
        .outOfRange(.integer(200), range: SchemaRange(min: .integer(16), max: .integer(128)))
      ])
  }

  @Test func effectiveValuesFillThePublishedDefaults() throws {
    let schema = try Schema.read(Data(deviceManagement.utf8))
    let filled = schema.effective(try value("name: n\nscale: 1.5\n"), on: .linux)
    #expect(filled["size"] == .integer(64))
    #expect(filled["scale"] == .real(1.5))
    // Dictionaries none of whose keys has a fallback are not invented.
    #expect(filled["tile"] == nil)
  }

  @Test func prefsOwnFormatTakesTheSameConstraints() throws {
    let text = """
      keys:
        width: {type: integer, min: 100, max: 4000, required: true}
        recent: {type: array, items: {type: string, values: [a, b]}}
      """
    let schema = try Schema.read(Data(text.utf8))
    #expect(schema.key("width")?.range == SchemaRange(min: .integer(100), max: .integer(4000)))
    #expect(schema.key("width")?.isRequired == true)
    #expect(schema.key("recent")?.items?.values == [.string("a"), .string("b")])
    let problems = schema.check(try value("recent: [a, c]\n")).map(\.problem)
    #expect(problems == [.missingRequired, .notAllowed(.string("c"), allowed: [.string("a"), .string("b")])])
    #expect(throws: PrefsError.self) { try Schema.read(Data("keys: {a: {type: string, items: {type: string}}}".utf8)) }
  }

  // MARK: ProfileManifests

  /// A manifest in ProfileManifests' format, written for these tests.
  static let manifest = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>pfm_domain</key>
      <string>com.example.editor</string>
      <key>pfm_format_version</key>
      <integer>1</integer>
      <key>pfm_title</key>
      <string>Editor</string>
      <key>pfm_subkeys</key>
      <array>
        <dict>
          <key>pfm_name</key>
          <string>PayloadType</string>
          <key>pfm_type</key>
          <string>string</string>
          <key>pfm_require</key>
          <string>always</string>
        </dict>
        <dict>
          <key>pfm_name</key>
          <string>FontSize</string>
          <key>pfm_type</key>
          <string>integer</string>
          <key>pfm_default</key>
          <integer>12</integer>
          <key>pfm_range_min</key>
          <integer>8</integer>
          <key>pfm_range_max</key>
          <integer>72</integer>
        </dict>
        <dict>
          <key>pfm_name</key>
          <string>Theme</string>
          <key>pfm_type</key>
          <string>string</string>
          <key>pfm_range_list</key>
          <array><string>light</string><string>dark</string></array>
          <key>pfm_require</key>
          <string>always</string>
        </dict>
        <dict>
          <key>pfm_name</key>
          <string>Homepage</string>
          <key>pfm_type</key>
          <string>url</string>
        </dict>
        <dict>
          <key>pfm_name</key>
          <string>Recent</string>
          <key>pfm_type</key>
          <string>array</string>
          <key>pfm_subkeys</key>
          <array>
            <dict>
              <key>pfm_type</key>
              <string>dictionary</string>
              <key>pfm_subkeys</key>
              <array>
                <dict>
                  <key>pfm_name</key>
                  <string>Path</string>
                  <key>pfm_type</key>
                  <string>string</string>
                  <key>pfm_require</key>
                  <string>always</string>
                </dict>
              </array>
            </dict>
          </array>
        </dict>
      </array>
    </dict>
    </plist>
    """

  @Test func aManifestReadsAsASchema() throws {
    let schema = try Schema.read(Data(Self.manifest.utf8), path: "com.example.editor.plist")
    #expect(schema.domain == "com.example.editor")
    #expect(schema.description == "Editor")
    // The payload keys describe the profile, not the domain.
    #expect(schema.keys.map(\.name) == ["FontSize", "Theme", "Homepage", "Recent"])
    let size = try #require(schema.key("FontSize"))
    #expect(size.defaultValue == .integer(12))
    #expect(size.range == SchemaRange(min: .integer(8), max: .integer(72)))
    #expect(schema.key("Theme")?.isRequired == true)
    #expect(schema.key("Theme")?.values == [.string("light"), .string("dark")])
    #expect(schema.key("Homepage")?.type == .string)
    #expect(schema.key("Recent")?.items?.keys?.key("Path")?.isRequired == true)
    let problems = schema.check(try value("FontSize: 100\nRecent: [{Path: a}, {}]\n")).map(\.description)
    #expect(
      problems == [
        "FontSize: 100 is out of 8...72", "Theme: missing; the schema requires it",
        "Recent.1.Path: missing; the schema requires it",
      ])
  }

  @Test(arguments: [
    (
      "<dict><key>pfm_subkeys</key><array><dict><key>pfm_name</key><string>a</string></dict></array></dict>",
      "pfm_subkeys.0"
    ),
    ("<dict><key>pfm_domain</key><string>d</string></dict>", "pfm_subkeys"),
    (
      "<dict><key>pfm_subkeys</key><array><dict><key>pfm_name</key><string>a</string><key>pfm_type</key><string>colour</string></dict></array></dict>",
      "pfm_subkeys.0.pfm_type"
    ),
    (
      "<dict><key>pfm_subkeys</key><array><dict><key>pfm_name</key><string>a</string><key>pfm_type</key><string>string</string><key>pfm_range_max</key><integer>1</integer></dict></array></dict>",
      "pfm_subkeys.0.pfm_range_max"
    ),
  ])
  func brokenManifestsAreRefusedNamingThePlace(body: String, path: String) throws {
    let text = "<?xml version=\"1.0\"?><plist version=\"1.0\">\(body)</plist>"
    let error = #expect(throws: PrefsError.self) { try Schema.read(Data(text.utf8), path: "m.plist") }
    if case .schema(let at, _)? = error?.kind {
      #expect(at.description == path)
    } else {
      Issue.record("\(String(describing: error))")
    }
  }

  // MARK: A folder of schemas

  @Test func aFolderFindsTheSchemaWhosePayloadTypeIsTheDomain() throws {
    let folder = try TestFolder()
    try folder.write("widget.yaml", deviceManagement)
    try folder.write("com.example.editor.plist", Self.manifest)
    try folder.write("notes.txt", "not a schema")
    try folder.write("broken.yaml", "a: [")
    let directory = SchemaDirectory(path: folder.url.path)
    #expect(try directory.schema(for: "com.example.widget")?.key("size") != nil)
    #expect(try directory.schema(for: "com.example.editor")?.key("FontSize") != nil)
    #expect(try directory.schema(for: "com.example.none") == nil)
    // A file's name finds its domain by the last part of the payload type.
    #expect(try directory.schema(forFile: "/tmp/widget.plist")?.domain == "com.example.widget")
    #expect(try directory.schema(forFile: "x/editor.json")?.domain == "com.example.editor")
    #expect(try directory.schema(for: "editor") == nil)
    #expect(try directory.schemas().map(\.domain) == ["com.example.editor", "com.example.widget"])
    let missing = #expect(throws: PrefsError.self) {
      try SchemaDirectory(path: folder.path("none")).schema(for: "x")
    }
    #expect(missing?.kind == .notFound(.folder))
  }
}
