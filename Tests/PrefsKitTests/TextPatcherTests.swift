import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// The patcher: edits change only the bytes of what changed, in every text format.
@Suite struct TextPatcherTests {
  /// `text` read as `format`, changed by `change`, patched; the result must read back
  /// as the changed value, and must not have been rewritten whole.
  func patch(
    _ text: String, _ format: Format, file: String = #fileID, line: Int = #line,
    _ change: (inout PrefValue) throws -> Void
  ) throws -> String {
    let document = try #require(try TextDocument(Data(text.utf8), format: format))
    var value = document.value
    try change(&value)
    let result = try document.patched(to: value)
    #expect(result.rewrittenWhole == nil, "rewritten whole: \(result.rewrittenWhole ?? "")")
    #expect(try format.codec.read(result.data, options: ReadOptions(), warnings: Warnings()) == value)
    return String(decoding: result.data, as: UTF8.self)
  }

  func set(_ path: String, _ newValue: PrefValue) -> (inout PrefValue) throws -> Void {
    { value in value = try value.setting(newValue, at: PrefKeyPath.parse(path), createMissing: true) }
  }

  func remove(_ path: String) -> (inout PrefValue) throws -> Void {
    { value in value = try value.removing(at: PrefKeyPath.parse(path)) }
  }

  // MARK: YAML

  let yaml = """
    # Settings for the app
    username: ada   # who

    # Privacy
    isAccountPrivate: true
    window:
      width: 800
      height: 600
    tags:
      - one
      - "two"
    ringtone: 'Chimes'

    """

  @Test func yamlScalarChangeTouchesOnlyItsValue() throws {
    let out = try patch(yaml, .yaml, set("window.width", .integer(1024)))
    #expect(out == yaml.replacingOccurrences(of: "width: 800", with: "width: 1024"))
  }

  /// `é` and `e` with a combining acute are canonically equal but two keys to the
  /// model (as to CFPreferences): changing one patches its line alone.
  @Test func canonicallyEqualKeysArePatchedApart() throws {
    let text = "\u{E9}: 1\ne\u{301}: 2\n"
    let out = try patch(text, .yaml, set("e\u{301}", .integer(3)))
    #expect(Array(out.unicodeScalars) == Array("\u{E9}: 1\ne\u{301}: 3\n".unicodeScalars))
  }

  @Test func yamlStringKeepsItsQuotes() throws {
    let out = try patch(yaml, .yaml, set("ringtone", .string("Waves")))
    #expect(out == yaml.replacingOccurrences(of: "'Chimes'", with: "'Waves'"))
    let two = try patch(yaml, .yaml, set("tags.1", .string("three")))
    #expect(two == yaml.replacingOccurrences(of: "\"two\"", with: "\"three\""))
  }

  @Test func yamlTrailingCommentStays() throws {
    let out = try patch(yaml, .yaml, set("username", .string("grace")))
    #expect(out == yaml.replacingOccurrences(of: "username: ada", with: "username: grace"))
  }

  @Test func yamlRemovingAnEntryTakesItsOwnCommentOnly() throws {
    let out = try patch(yaml, .yaml, remove("isAccountPrivate"))
    #expect(out == yaml.replacingOccurrences(of: "# Privacy\nisAccountPrivate: true\n", with: ""))
  }

  @Test func yamlNewKeyGoesAfterItsSiblingsInTheirIndentation() throws {
    let out = try patch(yaml, .yaml, set("window.depth", .integer(3)))
    #expect(out == yaml.replacingOccurrences(of: "  height: 600\n", with: "  height: 600\n  depth: 3\n"))
    let top = try patch(yaml, .yaml, set("volume", .real(0.5)))
    #expect(top == yaml + "volume: 0.5\n")
  }

  @Test func yamlArrayAppendAndRemoveByAlignment() throws {
    let appended = try patch(yaml, .yaml) { value in
      value = try value.setting(.string("three"), at: ["tags", "2"])
    }
    #expect(appended == yaml.replacingOccurrences(of: "  - \"two\"\n", with: "  - \"two\"\n  - three\n"))
    let removed = try patch(yaml, .yaml, remove("tags.0"))
    #expect(removed == yaml.replacingOccurrences(of: "  - one\n", with: ""))
  }

  @Test func yamlScalarBecomingACollectionRewritesTheEntry() throws {
    let out = try patch(yaml, .yaml, set("username", .dictionary(["first": .string("Ada"), "last": .string("L")])))
    #expect(
      out
        == yaml.replacingOccurrences(
          of: "username: ada   # who", with: "username:\n  first: Ada\n  last: L   # who"))
  }

  @Test func yamlTypeChangeOfAScalarIsInPlace() throws {
    let out = try patch(yaml, .yaml, set("isAccountPrivate", .string("false")))
    #expect(out == yaml.replacingOccurrences(of: "isAccountPrivate: true", with: "isAccountPrivate: \"false\""))
  }

  @Test func yamlFlowCollections() throws {
    let text = "a: [1, 2, 3]\nb: {x: 1, y: 2}\n"
    #expect(try patch(text, .yaml, remove("a.1")) == "a: [1, 3]\nb: {x: 1, y: 2}\n")
    #expect(try patch(text, .yaml, remove("a.2")) == "a: [1, 2]\nb: {x: 1, y: 2}\n")
    #expect(try patch(text, .yaml, set("b.z", .string("a b"))) == "a: [1, 2, 3]\nb: {x: 1, y: 2, z: a b}\n")
    #expect(try patch(text, .yaml, set("a.3", .integer(4))) == "a: [1, 2, 3, 4]\nb: {x: 1, y: 2}\n")
  }

  @Test func yamlBlockScalarAfterADashKeepsItsItemsColumn() throws {
    let text = "list:\n- - !!binary |\n    AAEC\n  - false\n- name: |\n    one\n    two\n  id: 1\n"
    let long = Data(repeating: 7, count: 80)
    let data = try patch(text, .yaml) { value in
      value = try value.setting(.data(long), at: ["list", "0", "0"])
      value = try value.setting(.string("one\nthree\n"), at: ["list", "1", "name"])
    }
    let base64 = long.base64EncodedString()
    #expect(
      data
        == "list:\n- - !!binary |\n    \(base64.prefix(76))\n    \(base64.dropFirst(76))\n  - false\n- name: |\n    one\n    three\n  id: 1\n"
    )
  }

  @Test func yamlFourSpaceIndentationAndCRLF() throws {
    let text = "root:\r\n    a: 1\r\n    b:\r\n        c: 2\r\n"
    let out = try patch(text, .yaml, set("root.b.d", .array([.integer(1)])))
    #expect(out == "root:\r\n    a: 1\r\n    b:\r\n        c: 2\r\n        d:\r\n        - 1\r\n")
  }

  @Test func yamlAnchorIsKeptWhenItsValueChanges() throws {
    let text = "base: &b 1\nother: *b\n"
    let out = try patch(text, .yaml, set("other", .integer(2)))
    #expect(out == "base: &b 1\nother: 2\n")
  }

  @Test func yamlEmptyFlowCollectionFilledInFlowStyle() throws {
    // A flow collection stays one: the user wrote it so.
    #expect(try patch("a: {}\nb: 1\n", .yaml, set("a.k", .string("v"))) == "a: {k: v}\nb: 1\n")
    #expect(try patch("a: []\nb: 1\n", .yaml, set("a.0", .integer(1))) == "a: [1]\nb: 1\n")
  }

  @Test func yamlMergedKeyRemovedRewritesTheMapping() throws {
    let text = "base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  z: 3\n"
    let document = try #require(try TextDocument(Data(text.utf8), format: .yaml))
    let value = try document.value.removing(at: ["use", "x"])
    let result = try document.patched(to: value)
    #expect(try YAMLCodec().decode(result.data) == value)
    #expect(result.rewrittenEntries == [PrefKeyPath([.key("use")])])
    #expect(result.expandedAliases == [PrefKeyPath([.key("use")])])
    #expect(String(decoding: result.data, as: UTF8.self).hasPrefix("base: &b {x: 1, y: 2}\n"))
  }

  let anchored = "d: &d\n  k: 1\n  m: 2\nu:\n  <<: *d\n  n: 3\nz: *d\n"

  @Test func yamlAChangeInsideAnAnchorIsPatchedThereAndItsAliasesFollow() throws {
    let document = try #require(try TextDocument(Data(anchored.utf8), format: .yaml))
    var value = document.value
    for path in ["d.k", "u.k", "z.k"] {
      value = try value.setting(.integer(5), at: PrefKeyPath.parse(path))
    }
    let result = try document.patched(to: value)
    #expect(String(decoding: result.data, as: UTF8.self) == anchored.replacingOccurrences(of: "k: 1", with: "k: 5"))
    #expect(result.rewrittenEntries.isEmpty)
    #expect(result.expandedAliases.isEmpty)
  }

  @Test func yamlAKeySetUnderAMergeKeyOverridesItThereAlone() throws {
    let out = try patch(anchored, .yaml, set("u.k", .integer(7)))
    #expect(out == anchored.replacingOccurrences(of: "u:\n", with: "u:\n  k: 7\n"))
  }

  @Test func yamlAnAliasWhoseValueLeavesItsAnchorIsWrittenOutAndSaysSo() throws {
    let document = try #require(try TextDocument(Data(anchored.utf8), format: .yaml))
    let value = try document.value.setting(.integer(7), at: ["z", "k"])
    let result = try document.patched(to: value)
    #expect(try YAMLCodec().decode(result.data) == value)
    #expect(result.expandedAliases == [PrefKeyPath([.key("z")])])
    #expect(String(decoding: result.data, as: UTF8.self).hasPrefix("d: &d\n  k: 1\n  m: 2\nu:\n  <<: *d\n"))
  }

  // MARK: JSON

  let json = """
    {
        "name": "prefs",
        "port": 8080,
        "nested": {
            "a": true
        },
        "list": [1, 2]
    }

    """

  @Test func jsonScalarChange() throws {
    #expect(try patch(json, .json, set("port", .integer(9090))) == json.replacingOccurrences(of: "8080", with: "9090"))
  }

  @Test func jsonInsertAfterLastFixesCommas() throws {
    let out = try patch(json, .json, set("nested.b", .string("x")))
    #expect(
      out == json.replacingOccurrences(of: "\"a\": true\n", with: "\"a\": true,\n        \"b\": \"x\"\n"))
  }

  @Test func jsonRemoveLastFixesCommas() throws {
    let out = try patch(json, .json, remove("list"))
    #expect(out == json.replacingOccurrences(of: "    },\n    \"list\": [1, 2]\n", with: "    }\n"))
    let first = try patch(json, .json, remove("name"))
    #expect(first == json.replacingOccurrences(of: "    \"name\": \"prefs\",\n", with: ""))
  }

  @Test func jsonInlineArray() throws {
    #expect(try patch(json, .json, remove("list.0")) == json.replacingOccurrences(of: "[1, 2]", with: "[2]"))
    #expect(
      try patch(json, .json, set("list.2", .integer(3))) == json.replacingOccurrences(of: "[1, 2]", with: "[1, 2, 3]"))
  }

  @Test func jsonNewContainerInTheFilesIndentation() throws {
    let out = try patch(json, .json, set("extra", .dictionary(["k": .date(Date(timeIntervalSince1970: 0))])))
    #expect(
      out
        == json.replacingOccurrences(
          of: "    \"list\": [1, 2]\n",
          with: "    \"list\": [1, 2],\n    \"extra\": {\n        \"k\": {\"$date\": \"1970-01-01T00:00:00Z\"}\n    }\n"
        ))
  }

  // MARK: XML plist

  let plist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
        <!-- the version users see -->
        <key>CFBundleShortVersionString</key>
        <string>1.0</string>
        <key>CFBundleVersion</key>
        <string>1</string>
        <key>LSRequiresIPhoneOS</key>
        <true/>
    </dict>
    </plist>

    """

  @Test func xmlScalarChangeKeepsSpacesAndComments() throws {
    let out = try patch(plist, .xml, set("CFBundleVersion", .string("1.1")))
    #expect(out == plist.replacingOccurrences(of: "<string>1</string>", with: "<string>1.1</string>"))
  }

  @Test func xmlInsertInTheFilesIndentation() throws {
    let out = try patch(plist, .xml, set("UIArray", .array([.integer(1), .bool(false)])))
    #expect(
      out
        == plist.replacingOccurrences(
          of: "    <true/>\n",
          with:
            "    <true/>\n    <key>UIArray</key>\n    <array>\n        <integer>1</integer>\n        <false/>\n    </array>\n"
        ))
  }

  @Test func xmlRemoveTakesTheCommentAbove() throws {
    let out = try patch(plist, .xml, remove("CFBundleShortVersionString"))
    #expect(
      out
        == plist.replacingOccurrences(
          of:
            "    <!-- the version users see -->\n    <key>CFBundleShortVersionString</key>\n    <string>1.0</string>\n",
          with: ""))
  }

  @Test func xmlUTF16StaysUTF16() throws {
    var data = Data([0xFF, 0xFE])
    let text = plist.replacingOccurrences(of: "UTF-8", with: "UTF-16")
    for unit in text.utf16 { withUnsafeBytes(of: unit.littleEndian) { data.append(contentsOf: $0) } }
    let document = try #require(try TextDocument(data, format: .xml))
    let value = try document.value.setting(.string("2"), at: ["CFBundleVersion"])
    let result = try document.patched(to: value)
    #expect(result.rewrittenWhole == nil)
    #expect(result.data.starts(with: [0xFF, 0xFE]))
    let back = String(data: result.data, encoding: .utf16LittleEndian)!
    #expect(back.dropFirst() == text.replacingOccurrences(of: "<string>1</string>", with: "<string>2</string>"))
  }

  @Test func stringsUTF32StaysUTF32() throws {
    let text = "\"a\" = \"ü\";\n\"b\" = \"1\";\n"
    let data = Data([0x00, 0x00, 0xFE, 0xFF]) + text.data(using: .utf32BigEndian)!
    let document = try #require(try TextDocument(data, format: .openStep))
    let result = try document.patched(to: try document.value.setting(.string("2"), at: ["b"]))
    #expect(result.rewrittenWhole == nil)
    // The quoted value stays quoted.
    let expected = text.replacingOccurrences(of: "\"1\"", with: "\"2\"")
    #expect(result.data == Data([0x00, 0x00, 0xFE, 0xFF]) + expected.data(using: .utf32BigEndian)!)
  }

  @Test func unchangedValueGivesTheSameBytes() throws {
    for (text, format) in [(yaml, Format.yaml), (json, .json), (plist, .xml)] {
      let document = try #require(try TextDocument(Data(text.utf8), format: format))
      #expect(try document.patched(to: document.value).data == Data(text.utf8))
    }
  }

  @Test func xmlMapReadInPartsEqualsOneReadersMap() throws {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
    for i in 0..<400 {
      text += "\t<key>k\(i)</key>\n\t<dict>\n\t\t<key>n</key>\n\t\t<integer>\(i)</integer>\n"
      text += "\t\t<key>a</key>\n\t\t<array>\n\t\t\t<string>x</string>\n\t\t</array>\n\t</dict>\n"
    }
    text += "</dict>\n</plist>\n"
    let data = Data(text.utf8)
    let one = SourceMapBuilder()
    var serial = XMLPlistReader(data, maxDepth: 512, parallelism: .serial)
    let value = try serial.read(map: one)
    let parts = SourceMapBuilder()
    var parallel = XMLPlistReader(
      data, maxDepth: 512,
      parallelism: .forced(
        parts: 3, queue: DispatchQueue(label: "parts", attributes: .concurrent), awaitsReadAheads: true))
    #expect(try parallel.read(map: parts) == value)
    #expect(parallel.runsTaken == 2)
    #expect(parts.map == one.map)
    #expect(one.map.children(of: 0).count == 400)
  }

  @Test func positionsCountEveryLineBreakAndCharacters() throws {
    let text = Array("a\rb\r\nc\néé x".utf8)
    #expect(SourcePosition.of(offset: 2, in: text) == .lineColumn(line: 2, column: 1))
    #expect(SourcePosition.of(offset: 5, in: text) == .lineColumn(line: 3, column: 1))
    #expect(SourcePosition.of(offset: text.count - 1, in: text) == .lineColumn(line: 4, column: 4))
    // Every reader reports with it: a lone CR ends a line.
    let error = #expect(throws: PrefsError.self) { try JSONCodec().decode(Data("{\r\"a\":\r tru}".utf8)) }
    #expect(error?.position == .lineColumn(line: 3, column: 2))
  }

  @Test func documentPositionsNameTheKey() throws {
    let document = try #require(try TextDocument(Data(yaml.utf8), format: .yaml))
    #expect(document.position(of: PrefKeyPath([.key("window"), .key("height")])) == .lineColumn(line: 8, column: 3))
    #expect(document.position(of: PrefKeyPath([.key("tags"), .index(1)])) == .lineColumn(line: 11, column: 5))
    #expect(document.position(of: PrefKeyPath([.key("missing")])) == nil)
  }

  @Test func aFileWithoutAFinalLineBreakKeepsThatShape() throws {
    #expect(try patch("a: 1\nb: 2", .yaml, set("c", .integer(3))) == "a: 1\nb: 2\nc: 3")
    #expect(try patch("a: 1\nb: 2", .yaml, remove("b")) == "a: 1")
    #expect(try patch("{\n  \"a\": 1\n}", .json, set("b", .integer(2))) == "{\n  \"a\": 1,\n  \"b\": 2\n}")
  }

  // MARK: OpenStep

  let project = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tobjects = {

    /* Begin PBXBuildFile section */
    \t\tA1 /* a.swift in Sources */ = {isa = PBXBuildFile; fileRef = B1 /* a.swift */; };
    /* End PBXBuildFile section */
    \t};
    \tobjectVersion = 56;
    \tlist = (
    \t\tone,
    \t\t"two words",
    \t);
    }

    """

  @Test func openStepScalarAndTheCommentsAroundIt() throws {
    #expect(
      try patch(project, .openStep, set("objectVersion", .string("77")))
        == project.replacingOccurrences(of: "objectVersion = 56;", with: "objectVersion = 77;"))
    #expect(
      try patch(project, .openStep, set("objects.A1.fileRef", .string("B2")))
        == project.replacingOccurrences(of: "fileRef = B1 /* a.swift */;", with: "fileRef = B2 /* a.swift */;"))
  }

  @Test func openStepEntriesKeepXcodesLayout() throws {
    #expect(
      try patch(project, .openStep, set("list.2", .string("three")))
        == project.replacingOccurrences(of: "\t\t\"two words\",\n", with: "\t\t\"two words\",\n\t\tthree,\n"))
    #expect(
      try patch(project, .openStep, remove("list.0")) == project.replacingOccurrences(of: "\t\tone,\n", with: ""))
    #expect(
      try patch(project, .openStep, set("newKey", .string("a-b")))
        == project.replacingOccurrences(of: "\t);\n}", with: "\t);\n\tnewKey = \"a-b\";\n}"))
    // One-line objects stay on one line.
    #expect(
      try patch(project, .openStep, set("objects.A1.settings", .dictionary(["ATTRIBUTES": .array([.string("Weak")])])))
        == project.replacingOccurrences(
          of: "fileRef = B1 /* a.swift */; };",
          with: "fileRef = B1 /* a.swift */; settings = {ATTRIBUTES = (Weak, ); }; };"))
  }

  @Test func openStepRefusesWhatItCannotHoldAndWritesNothing() throws {
    let document = try #require(try TextDocument(Data(project.utf8), format: .openStep))
    let value = try document.value.setting(.integer(77), at: ["objectVersion"])
    #expect(throws: PrefsError.self) { try document.patched(to: value) }
  }

  @Test func yamlOffsetsCountBytesPastNonASCIITextAndAByteOrderMark() throws {
    #expect(try patch("café: 1\nnaïve: été\nz: 2\n", .yaml, set("z", .integer(3))) == "café: 1\nnaïve: été\nz: 3\n")
    #expect(try patch("\u{FEFF}a: 1\nb: ü\n", .yaml, set("b", .string("v"))) == "\u{FEFF}a: 1\nb: v\n")
  }

  @Test func aLargeDocumentIsCheckedInTheEntriesThatChanged() throws {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
    let filler = String(repeating: "x", count: 200)
    for i in 0..<25_000 {
      text += "\t<key>k\(i)</key>\n\t<dict>\n\t\t<key>s</key>\n\t\t<string>\(filler)</string>\n\t</dict>\n"
    }
    text += "</dict>\n</plist>\n"
    #expect(text.utf8.count > TextDocument.wholeCheckLimit)
    let out = try patch(text, .xml) { value in
      value = try value.setting(.integer(1), at: ["k7", "n"])
      value = try value.setting(.string("top"), at: ["added"])
      value = try value.removing(at: ["k9"])
    }
    #expect(
      out.contains(
        "\t\t<string>\(filler)</string>\n\t\t<key>n</key>\n\t\t<integer>1</integer>\n\t</dict>\n\t<key>k8</key>"))
    #expect(out.hasSuffix("\t<key>added</key>\n\t<string>top</string>\n</dict>\n</plist>\n"))
    #expect(!out.contains("<key>k9</key>"))
  }

  @Test func aLargeYAMLDocumentIsCheckedInTheEntriesThatChangedReadWithTheirKeys() throws {
    // A YAML value alone is indented as its entry was; read with its key, it is a
    // document of its own. Anchors tie entries together: such a document is read whole.
    let filler = String(repeating: "x", count: 200)
    var text = ""
    for i in 0..<25_000 { text += "k\(i):\n  s: \(filler)\n  list:\n  - 1\n" }
    #expect(text.utf8.count > TextDocument.wholeCheckLimit)
    for anchored in [false, true] {
      let document = anchored ? "a: &shared 1\nb: *shared\n" + text : text
      let out = try patch(document, .yaml) { value in
        value = try value.setting(.integer(1), at: ["k7", "m"])
        value = try value.setting(.integer(2), at: ["k9", "list", "1"], createMissing: true)
        value = try value.setting(.string("top"), at: ["added"])
        value = try value.removing(at: ["k8"])
      }
      #expect(out.contains("k7:\n  s: \(filler)\n  list:\n  - 1\n  m: 1\nk9:\n  s: \(filler)\n  list:\n  - 1\n  - 2\n"))
      #expect(out.hasSuffix("added: top\n"))
      #expect(!out.contains("k8:"))
    }
  }

  /// A document read under `allowDuplicateKeys` knows when a key is written twice (at
  /// any depth, keys compared by scalars), so that a change writes it anew.
  @Test func theMapTellsAKeyWrittenTwice() throws {
    var options = ReadOptions()
    options.allowDuplicateKeys = true
    let documents: [(Format, String, Bool)] = [
      (.yaml, "a: 1\nb: 2\na: 3\n", true),
      (.yaml, "a: 1\nb:\n  c: 1\n  c: 2\n", true),
      (.json, #"{"a": [{"x": 1, "x": 2}]}"#, true),
      (.xml, "<plist><dict><key>k</key><true/><key>k</key><false/></dict></plist>", true),
      (.yaml, "a: 1\nb:\n  a: 2\n", false),
      (.yaml, "caf\u{E9}: 1\ncafe\u{301}: 2\n", false),
    ]
    for (format, text, duplicated) in documents {
      let document = try #require(try TextDocument(Data(text.utf8), format: format, options: options))
      #expect(document.map.hasDuplicateKeys == duplicated, "\(text)")
    }
  }

  // MARK: .strings

  let strings = "/* Title */\n\"title\" = \"Hello\";\n\n/* Quit */\n\"quit\" = \"Quit\";\n"

  @Test func aStringsFileKeepsItsQuotesAndSetsNewEntriesApartAsItsOwnAre() throws {
    let text = try patch(strings, .openStep) { value in
      value = try value.setting(.string("World"), at: ["title"], createMissing: true)
      value = try value.setting(.string("Save"), at: ["save"], createMissing: true)
    }
    #expect(
      text == "/* Title */\n\"title\" = \"World\";\n\n/* Quit */\n\"quit\" = \"Quit\";\n\n\"save\" = \"Save\";\n")
  }

  @Test func aQuotedStringInAProjectStaysQuotedAndABareOneBare() throws {
    let project = "{\n\tname = \"App\";\n\tpath = App;\n}\n"
    let text = try patch(project, .openStep) { value in
      value = try value.setting(.string("Main"), at: ["name"], createMissing: true)
      value = try value.setting(.string("Main"), at: ["path"], createMissing: true)
    }
    #expect(text == "{\n\tname = \"Main\";\n\tpath = Main;\n}\n")
  }

  // MARK: The other side of a merge

  @Test func anEntryTheOtherSideAddsComesInItsLinesWithItsComment() throws {
    let current = try #require(try TextDocument(Data("a: 1\nb: 2\n".utf8), format: .yaml))
    let other = try #require(
      try TextDocument(Data("a: 1\n# why c\nc:   [x, y]\nb: 2\n".utf8), format: .yaml))
    let patch = try current.patched(to: ["a": 1, "c": ["x", "y"], "b": 2], other: other)
    #expect(String(decoding: patch.data, as: UTF8.self) == "a: 1\n# why c\nc:   [x, y]\nb: 2\n")
  }

  @Test func anEntryInAnotherIndentationIsWrittenInTheDocumentsOwn() throws {
    let current = try #require(try TextDocument(Data("{\n  \"a\": 1\n}\n".utf8), format: .json))
    let other = try #require(try TextDocument(Data("{\n    \"a\": 1,\n    \"b\": 2\n}\n".utf8), format: .json))
    let patch = try current.patched(to: ["a": 1, "b": 2], other: other)
    #expect(String(decoding: patch.data, as: UTF8.self) == "{\n  \"a\": 1,\n  \"b\": 2\n}\n")
  }

  // MARK: YAML recipes

  let recipe = """
    steps:
      - - a
        - b
      - name: x
        run: |
          echo hi
        # the shell
        shell: bash
    """ + "\n"

  @Test func removingABlockScalarLeavesTheCommentOfTheNextEntry() throws {
    let text = try patch(recipe, .yaml, remove("steps.1.run"))
    #expect(text == "steps:\n  - - a\n    - b\n  - name: x\n    # the shell\n    shell: bash\n")
  }

  @Test func anEntryAfterABlockScalarChangesAlone() throws {
    let text = try patch(recipe, .yaml, set("steps.1.shell", "zsh"))
    #expect(text == recipe.replacingOccurrences(of: "shell: bash", with: "shell: zsh"))
  }

  @Test func removingTheFirstEntryAfterADashMovesTheNextOntoItsLine() throws {
    #expect(
      try patch(recipe, .yaml, remove("steps.0.0")) == recipe.replacingOccurrences(of: "- - a\n    - b", with: "- - b"))
    #expect(
      try patch(recipe, .yaml, remove("steps.1.name"))
        == recipe.replacingOccurrences(of: "- name: x\n    run: |", with: "- run: |"))
  }
}

extension TextPatcherTests {
  /// Data keeps the base64 lines its text gives it (their prefix and length, the
  /// prefix of `</data>`), whatever wrote them; data without lines of its own is
  /// written as CF writes it, at its depth.
  @Test func xmlDataKeepsItsOwnBase64Lines() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
        <key>d</key>
        <data>
          AAEC
          AwQF
        </data>
        <key>e</key>
        <data>AAEC</data>
      </dict>
      </plist>

      """
    let patched = try patch(text, .xml, set("d", .data(Data([0, 1, 2, 3, 4, 5, 6, 7, 8]))))
    #expect(patched == text.replacingOccurrences(of: "    AwQF\n", with: "    AwQF\n    BgcI\n"))
    let tabs = "<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<string>x</string>\n</dict>\n</plist>\n"
    let added = try patch(tabs, .xml, set("d", .data(Data(repeating: 7, count: 60))))
    #expect(added.contains("\t<data>\n\tBwcH"))
  }
}

extension TextPatcherTests {
  /// Data a YAML or JSON text shows as the structure it holds (`!json`, `$json`) stays
  /// so when it changes, while the new data holds such a structure too.
  @Test func dataShownAsStructureStaysStructure() throws {
    func patched(_ text: String, _ format: Format, _ data: String) throws -> String {
      let document = try #require(try TextDocument(Data(text.utf8), format: format))
      let value = try document.value.setting(.data(Data(data.utf8)), at: ["items"])
      let patch = try document.patched(to: value)
      #expect(patch.rewrittenWhole == nil)
      #expect(try format.decode(patch.data) == value)
      return String(decoding: patch.data, as: UTF8.self)
    }
    let yaml = "a: 1\nitems: !json\n- id: a\n  count: 1\nz: 2\n"
    let json =
      "{\n  \"items\": {\"$json\": [\n    {\n      \"id\": \"a\",\n      \"count\": 1\n    }\n  ]},\n  \"z\": 2\n}\n"
    let changed = #"[{"id":"a","count":2}]"#
    #expect(try patched(yaml, .yaml, changed) == "a: 1\nitems: !json\n- id: a\n  count: 2\nz: 2\n")
    #expect(try patched(json, .json, changed) == json.replacingOccurrences(of: "1\n", with: "2\n"))
    // Data that would not come back as the same bytes from the structure is data.
    #expect(try patched(yaml, .yaml, #"[{"id": "a"}]"#).contains("items: !!binary "))
  }
}
