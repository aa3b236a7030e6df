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

/// The native OpenStep reader and writer: Foundation's `PropertyListSerialization` is
/// the reference for what a document means, Xcode's files for how one is laid out.
@Suite struct OpenStepTests {
  // MARK: Helpers

  static let codec = PlistCodec(variant: .openStep)
  static let xcodeCorpus = TestSupport.corpus("xcode")
  static let plistCorpus = TestSupport.corpus("plist")

  /// The OpenStep files of the corpora (pbxproj files and any other file whose
  /// content is OpenStep), by name.
  static func corpusFiles() -> [(name: String, url: URL)] {
    var files: [(String, URL)] = []
    var folders: [URL] = []
    if let xcode = xcodeCorpus { folders.append(xcode) }
    if let plist = plistCorpus {
      folders += [plist.appendingPathComponent("fixtures"), plist.appendingPathComponent("real-world")]
    }
    for folder in folders {
      for url in TestSupport.files(in: folder) where ["pbxproj", "plist", "strings"].contains(url.pathExtension) {
        guard let data = try? Data(contentsOf: url), !data.isEmpty, PlistCodec.sniff(data) == .openStep else {
          continue
        }
        files.append(("\(folder.lastPathComponent)/\(url.lastPathComponent)", url))
      }
    }
    return files
  }

  /// The pbxproj files of the Xcode corpus.
  static func projects() -> [URL] {
    xcodeCorpus.map { TestSupport.files(in: $0).filter { $0.pathExtension == "pbxproj" } } ?? []
  }

  static func read(_ text: String, options: ReadOptions = ReadOptions()) throws -> PrefValue {
    try OpenStepReader.read(Data(text.utf8), options: options)
  }

  /// Foundation's reading of `data`, converted exactly (keys come back sorted).
  static func foundationRead(_ data: Data) throws -> PrefValue {
    let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    return try FoundationPlistReader.convert(object, maxDepth: 512)
  }

  static func write(_ value: PrefValue) throws -> String {
    String(decoding: try codec.encode(value), as: UTF8.self)
  }

  /// The keys of a dictionary value, in order.
  static func keys(_ value: PrefValue?) -> [String] { value?.dictionaryValue?.keys ?? [] }

  // MARK: Reading, against Foundation

  @Test(.enabled(if: xcodeCorpus != nil, "the corpus folder ../shared/corpus/xcode is absent"))
  func corpusHasOpenStepFiles() {
    #expect(Self.corpusFiles().count >= 8)
  }

  @Test(.enabled(if: xcodeCorpus != nil, "the corpus folder ../shared/corpus/xcode is absent"))
  func everyCorpusOpenStepFileReadsAsFoundationReadsIt() throws {
    for (name, url) in Self.corpusFiles() {
      let data = try Data(contentsOf: url)
      let ours = try OpenStepReader.read(data)
      #expect(ours == (try Self.foundationRead(data)), "\(name)")
      // Through the format table as well, by extension and by content.
      #expect(try Format.read(data, path: url.path).value == ours, "\(name)")
      #expect(try Format.read(data).format == .openStep, "\(name)")
    }
  }

  @Test func valuesReadAsFoundationReadsThem() throws {
    let texts = [
      #"{ a = 12; b = 1.5; c = YES; d = -3; e = 0x1F; f = 2023-11-14; }"#,
      #"{ a = "\n\t\\\"\a\b\f\r\v\012\U00e9\q\'\?"; b = 'single "quoted"'; }"#,
      #"{ a = "\200\351\375\101\0"; b = "\U41x"; c = "\UD83D\UDE00"; d = "x\"#
        + "\n" + #"y"; }"#,
      "{ a = /foo; b = a//b; c = x.y:z-w$_/; d = \"\"; e = (); f = {}; g = <>; }",
      "{a=(1,2,);b=(x);c=((),{});}",
      "{ a = <0fbd 7712\n 00>; b = <ABCDEF>; }",
      "( a, \"b c\", <01>, { k = v; }, )",
      "\"just a string\"",
      "bare-word",
      "<0fbd7712>",
      "  // only a comment\n /* and another */ ",
      "{ a = x;\u{2028}b = y;\u{2029}}",
      "\"k\" = \"v\";\n\"j\";\nbare = word;",
      "{ k; }",
    ]
    for text in texts {
      let data = Data(text.utf8)
      #expect(try OpenStepReader.read(data) == (try Self.foundationRead(data)), "\(text)")
    }
  }

  @Test func numberLookingWordsStayStrings() throws {
    let value = try Self.read("{ int = 12; real = 1.5; bool = YES; negative = -3; date = 2023-11-14; }")
    for (_, item) in try #require(value.dictionaryValue) { #expect(item.kind == .string) }
    #expect(value.dictionaryValue?["int"] == .string("12"))
  }

  @Test func fileOrderIsKept() throws {
    let value = try Self.read("{ zebra = 1; apple = { z = 1; y = 2; x = 3; }; mango = 3; \"Ä\" = 4; }")
    #expect(Self.keys(value) == ["zebra", "apple", "mango", "Ä"])
    #expect(Self.keys(value.dictionaryValue?["apple"]) == ["z", "y", "x"])
  }

  @Test(.enabled(if: xcodeCorpus != nil, "the corpus folder ../shared/corpus/xcode is absent"))
  func projectObjectsKeepTheirFileOrder() throws {
    for url in Self.projects() {
      let text = try String(contentsOf: url, encoding: .utf8)
      let value = try OpenStepReader.read(Data(text.utf8))
      let objects = value.dictionaryValue?["objects"]?.dictionaryValue
      // The object identifiers as they stand at the start of their lines.
      let ids = text.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("\t\t"), !line.hasPrefix("\t\t\t") else { return nil }
        let word = line.dropFirst(2).prefix(while: { $0.isHexDigit })
        return word.count == 24 ? String(word) : nil
      }
      #expect(objects?.keys == ids, "\(url.lastPathComponent)")
      #expect(Self.keys(value) == ["archiveVersion", "classes", "objectVersion", "objects", "rootObject"])
    }
  }

  @Test func stringsFilesWithoutBraces() throws {
    let text = """
      /* Title of the main window */
      "window.title" = "Réglages";
      // A key that is its own value
      "OK";
      greeting = "Hello, \\"world\\"";
      'single' = 'quotes';
      """
    let value = try Self.read(text)
    #expect(Self.keys(value) == ["window.title", "OK", "greeting", "single"])
    #expect(value.dictionaryValue?["OK"] == .string("OK"))
    #expect(value == (try Self.foundationRead(Data(text.utf8))))
    // Text after the list is refused (CF stops reading at it).
    let error = #expect(throws: PrefsError.self) { try Self.read("\"a\" = \"b\";\n}") }
    #expect(error?.position == .lineColumn(line: 2, column: 1))
  }

  @Test func utf32StringsFilesWithAByteOrderMark() throws {
    let text = "\"greeting\" = \"Grüß dich 👋\";\n"
    for (bom, encoding) in [
      ([UInt8(0xFF), 0xFE, 0x00, 0x00], String.Encoding.utf32LittleEndian),
      ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian),
    ] {
      let value = try OpenStepReader.read(Data(bom) + text.data(using: encoding)!)
      #expect(value == .dictionary(["greeting": .string("Grüß dich 👋")]))
    }
  }

  @Test func utf16StringsFilesWithAByteOrderMark() throws {
    let text = "/* UTF-16 */\n\"greeting\" = \"Grüß dich 👋\";\n\"zzz\" = \"last\";\n\"aaa\";\n"
    for (bom, encoding) in [
      ([UInt8(0xFF), 0xFE], String.Encoding.utf16LittleEndian), ([0xFE, 0xFF], .utf16BigEndian),
    ] {
      let data = Data(bom) + text.data(using: encoding)!
      let value = try OpenStepReader.read(data)
      #expect(Self.keys(value) == ["greeting", "zzz", "aaa"])
      #expect(value.dictionaryValue?["greeting"] == .string("Grüß dich 👋"))
      #expect(value == (try Self.foundationRead(data)))
      // Through the format table, by extension and by content.
      #expect(try Format.read(data, path: "Localizable.strings").value == value)
      #expect(try Format.read(data).format == .openStep)
      // The text the source map counts in is the UTF-8 transcoding.
      let (utf8, found) = try OpenStepReader.text(of: data)
      #expect(String(decoding: utf8, as: UTF8.self) == text)
      #expect(found == .utf16(bigEndian: bom[0] == 0xFE, marked: true))
    }
    // A UTF-8 byte order mark is skipped, and columns count from after it.
    let bom = Data([0xEF, 0xBB, 0xBF]) + Data("{ a = ; }".utf8)
    let error = #expect(throws: PrefsError.self) { try OpenStepReader.read(bom) }
    #expect(error?.position == .lineColumn(line: 1, column: 7))
  }

  @Test func commentsEverywhere() throws {
    let text = """
      // !$*UTF8*$!
      /* before */ { /* after the brace */
      \t// a line comment
      \tkey /* between key and = */ = /* before the value */ value /* before ; */ ; // after
      \tlist = ( /* first */ a /* x */ , // y
      \t\tb, /* trailing */ );
      \tdata = <01 02> /* c */;
      \tslash = a//b;
      \t/* multi
      \t   line */ last = "/* not a comment */";
      } /* the end */ // really
      """
    let value = try Self.read(text)
    #expect(
      value
        == .dictionary([
          "key": .string("value"), "list": .array([.string("a"), .string("b")]), "data": .data(Data([1, 2])),
          "slash": .string("a//b"), "last": .string("/* not a comment */"),
        ]))
    #expect(value == (try Self.foundationRead(Data(text.utf8))))
  }

  // MARK: Errors

  /// Reading `text` fails at this line and column with a message containing `message`.
  static func expectError(
    _ text: String, line: Int, column: Int, _ message: String, options: ReadOptions = ReadOptions(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let value = try read(text, options: options)
      Issue.record("read \(value) instead of failing", sourceLocation: sourceLocation)
    } catch let error as PrefsError {
      #expect(error.category == .badInput, sourceLocation: sourceLocation)
      #expect(
        error.position == .lineColumn(line: line, column: column), "\(error)", sourceLocation: sourceLocation)
      #expect(
        error.kind.problem?.contains(message) ?? (error.kind.name == message), "\(error)",
        sourceLocation: sourceLocation)
      #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
  }

  @Test func errorsPointAtTheirLineAndColumn() {
    Self.expectError("{\n  a = \"abc;\n}", line: 2, column: 7, "unterminated string")
    Self.expectError("{\n  a = b\n  c = d;\n}", line: 2, column: 8, "missing ';' after the value of 'a'")
    Self.expectError("{\n  a = (1, 2)\n}", line: 2, column: 13, "missing ';'")
    Self.expectError("{ a b; }", line: 1, column: 5, "expected '=' after key 'a'")
    Self.expectError("{ a = ; }", line: 1, column: 7, "expected a value")
    Self.expectError("{ a = \"x\\U\"; }", line: 1, column: 9, "bad escape '\\U'")
    Self.expectError("{ a = \"x\\UD800\"; }", line: 1, column: 9, "lone UTF-16 surrogate")
    Self.expectError("{ a = \"\\UDC00\\UD800\"; }", line: 1, column: 8, "lone UTF-16 surrogate")
    Self.expectError("{\n a = \"\\377\"; }", line: 2, column: 7, "bad escape '\\377'")
    Self.expectError("{ a = {\n b = c; };\n", line: 1, column: 1, "'{' is never closed")
    Self.expectError("{ a = (b,\n c", line: 1, column: 7, "'(' is never closed")
    Self.expectError("{ a = <0f", line: 1, column: 7, "'<' is never closed")
    Self.expectError("{ a = <0f 1>; }", line: 1, column: 12, "odd number of hex digits")
    Self.expectError("{ a = <zz>; }", line: 1, column: 8, "expected hex digits")
    Self.expectError("{ a = (b c); }", line: 1, column: 10, "expected ',' or ')'")
    Self.expectError("{ a = (,); }", line: 1, column: 8, "expected a value")
    Self.expectError("{\n  a = 1;\n  b = 2;\n  a = 3;\n}", line: 4, column: 3, "duplicateKey")
    Self.expectError("{ a = b; } }", line: 1, column: 12, "after the property list")
    Self.expectError("{ a = b; } /* open", line: 1, column: 12, "unterminated comment")
    Self.expectError("{ a = +1; }", line: 1, column: 7, "unexpected '+'")
    Self.expectError("{ é = x; }", line: 1, column: 3, "unexpected 'é'")
    Self.expectError("{ \"é\" = x y; }", line: 1, column: 10, "missing ';'")
    // A lone CR, a CRLF and an LF each end one line.
    Self.expectError("{ a = b;\r c = d;\r\n e = ;\n}", line: 3, column: 6, "expected a value")
    Self.expectError("{ a = b;\r\r c = ;}", line: 3, column: 6, "expected a value")
  }

  @Test func nulBytesAndInvalidUTF8AreRefusedWithAPosition() throws {
    let nul = #expect(throws: PrefsError.self) {
      try OpenStepReader.read(Data("{ a = \"x".utf8) + Data([0]) + Data("\"; }".utf8))
    }
    #expect(nul?.position == .lineColumn(line: 1, column: 9))
    let invalid = #expect(throws: PrefsError.self) {
      try OpenStepReader.read(Data("{\n a = \"x".utf8) + Data([0xC3, 0x28]) + Data("\"; }".utf8))
    }
    #expect(invalid?.position == .lineColumn(line: 2, column: 8))
    #expect(invalid?.kind.problem == "invalid UTF-8")
    let empty = #expect(throws: PrefsError.self) { try OpenStepReader.read(Data()) }
    #expect(empty?.position == .lineColumn(line: 1, column: 1))
    let utf16 = #expect(throws: PrefsError.self) {
      try OpenStepReader.read(Data([0xFF, 0xFE]) + "{\na = \"".data(using: .utf16LittleEndian)! + Data([0x00, 0xD8]))
    }
    #expect(utf16?.position == .lineColumn(line: 2, column: 6))
  }

  @Test func limitsAreHonoured() throws {
    let deep = String(repeating: "(", count: 600) + String(repeating: ")", count: 600)
    Self.expectError(deep, line: 1, column: 513, "tooDeep")
    var shallow = ReadOptions()
    shallow.maxDepth = 2
    Self.expectError("{ a = { b = { c = d; }; }; }", line: 1, column: 13, "tooDeep", options: shallow)
    #expect(try Self.read("{ a = { b = c; }; }", options: shallow).kind == .dictionary)
    // A brace-less .strings list counts as one level, as its braced form does.
    Self.expectError("a = { b = { c = d; }; };", line: 1, column: 11, "tooDeep", options: shallow)
    #expect(try Self.read("a = { b = c; };", options: shallow).kind == .dictionary)
    var small = ReadOptions()
    small.maxInputBytes = 8
    let error = #expect(throws: PrefsError.self) { try Self.read("{ a = bcdefgh; }", options: small) }
    #expect(error?.kind == .inputTooLarge(size: 16, limit: 8))
  }

  // MARK: Source maps

  /// The text of each node: its name, its key's bytes and its value's bytes.
  static func mapped(_ text: String) throws -> [(name: String?, key: String?, value: String, children: [Int])] {
    let builder = SourceMapBuilder()
    let data = Data(text.utf8)
    let value = try OpenStepReader.read(data, sourceMap: builder)
    #expect(value == (try OpenStepReader.read(data)))
    let bytes = Array(data)
    func slice(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    return builder.map.nodes.indices.map { index in
      let node = builder.map.nodes[index]
      return (node.name, node.key.map(slice), slice(node.value), builder.map.children(of: index))
    }
  }

  @Test func sourceMapRecordsKeysAndValues() throws {
    let text = "// head\n{\n\ta = \"x\";\n\t\"b c\" = (1, <01 02>, );\n\td = {e = f;};\n\tg;\n} // tail\n"
    let nodes = try Self.mapped(text)
    #expect(nodes.count == 8)
    #expect(nodes[0].name == nil && nodes[0].key == nil)
    #expect(nodes[0].value == "{\n\ta = \"x\";\n\t\"b c\" = (1, <01 02>, );\n\td = {e = f;};\n\tg;\n}")
    #expect(nodes[0].children == [1, 2, 5, 7])
    #expect(nodes[1].name == "a" && nodes[1].key == "a" && nodes[1].value == "\"x\"")
    #expect(nodes[2].name == "b c" && nodes[2].key == "\"b c\"" && nodes[2].value == "(1, <01 02>, )")
    #expect(nodes[2].children == [3, 4])
    #expect(nodes[3].name == nil && nodes[3].value == "1")
    #expect(nodes[4].value == "<01 02>")
    #expect(nodes[5].name == "d" && nodes[5].value == "{e = f;}" && nodes[5].children == [6])
    #expect(nodes[6].name == "e" && nodes[6].key == "e" && nodes[6].value == "f")
    // `g;` is short for `g = g;`: the key is its own value.
    #expect(nodes[7].name == "g" && nodes[7].key == "g" && nodes[7].value == "g")
  }

  @Test func sourceMapOfAStringsFileAndOfAScalarRoot() throws {
    let nodes = try Self.mapped("/* c */\n\"k\" = \"v\";\n'j';  // end\n")
    #expect(nodes.count == 3)
    #expect(nodes[0].value == "\"k\" = \"v\";\n'j';")
    #expect(nodes[1].key == "\"k\"" && nodes[1].value == "\"v\"")
    #expect(nodes[2].key == "'j'" && nodes[2].value == "'j'")
    let scalar = try Self.mapped("  \"only\"  ")
    #expect(scalar.count == 1 && scalar[0].value == "\"only\"")
    let empty = try Self.mapped(" // nothing\n")
    #expect(empty.count == 1 && empty[0].children.isEmpty)
  }

  @Test func sourceMapOffsetsOfUTF16TextCountTheTranscoding() throws {
    let text = "\"é\" = \"ü\";\n"
    let data = Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!
    let builder = SourceMapBuilder()
    _ = try OpenStepReader.read(data, sourceMap: builder)
    let (utf8, _) = try OpenStepReader.text(of: data)
    let node = builder.map.nodes[1]
    #expect(String(decoding: utf8[node.value], as: UTF8.self) == "\"ü\"")
    #expect(String(decoding: utf8[node.key!], as: UTF8.self) == "\"é\"")
  }

  @Test(.enabled(if: xcodeCorpus != nil, "the corpus folder ../shared/corpus/xcode is absent"))
  func sourceMapCoversEveryValueOfAProject() throws {
    let url = try #require(Self.projects().first)
    let data = try Data(contentsOf: url)
    let builder = SourceMapBuilder()
    let value = try OpenStepReader.read(data, sourceMap: builder)
    func count(_ value: PrefValue) -> Int {
      switch value {
      case .array(let items): 1 + items.map(count).reduce(0, +)
      case .dictionary(let dictionary): 1 + dictionary.values.map(count).reduce(0, +)
      default: 1
      }
    }
    #expect(builder.map.nodes.count == count(value))
    // Each value's bytes read back alone as that value.
    let objects = try #require(builder.map.child(of: 0, named: "objects"))
    for child in builder.map.children(of: objects).prefix(50) {
      let node = builder.map.nodes[child]
      let alone = try OpenStepReader.read(Data(data[node.value]))
      #expect(alone == value.dictionaryValue?["objects"]?.dictionaryValue?[node.name!])
    }
  }

  /// Small documents with every construct, for mutation.
  static let seeds = [
    "// !$*UTF8*$!\n{\n\ta = \"x\\ny\\U00e9\\101\";\n\tb = (1, 'two', <0f bd>, );\n\tc = {d = e; f;};\n}\n",
    "/* c */ \"k\" = \"v\";\n\"j\";\nbare = word; // end\n",
    "( a, \"b c\", <01>, { k = v; }, (), {} )",
    "{ \"é\" = \"ü 👋\"; s = a//b; t = /x; u = \"\\UD83D\\UDE00\"; }",
  ]

  @Test func mutatedDocumentsAreReadAsFoundationReadsThemOrRefusedWithAPosition() throws {
    var generator = Generator(state: 7)
    let interesting = Array("{}();=,<>\"'\\/* \n\r\tax09U".utf8) + [0x00, 0xC3, 0xA9, 0x80, 0xE2]
    var accepted = 0
    for round in 0..<3000 {
      var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes[at] = interesting.randomElement(using: &generator)!
        case 1: bytes.insert(interesting.randomElement(using: &generator)!, at: at)
        case 2: if bytes.count > 1 { bytes.remove(at: at) }
        default: bytes.removeSubrange(at...)
        }
        if bytes.isEmpty { bytes = [UInt8(ascii: " ")] }
      }
      let data = Data(bytes)
      do {
        let value = try OpenStepReader.read(data)
        accepted += 1
        // What this reader accepts, CF reads to the same value, and the writer holds.
        #expect(try Self.foundationRead(data) == value, "\(String(decoding: data, as: UTF8.self))")
        #expect(try OpenStepReader.read(Self.codec.encode(value)) == value)
      } catch let error as PrefsError {
        guard case .lineColumn(let line, let column)? = error.position, line >= 1, column >= 1 else {
          Issue.record("no position: \(error) for \(String(decoding: data, as: UTF8.self))")
          continue
        }
      }
    }
    #expect(accepted > 300, "too few mutations were valid documents to compare: \(accepted)")
  }

  // MARK: Writing

  /// Strings that stress quoting and escaping.
  static let awkward: [String] = [
    "", " ", "plain", "with space", "quote\"inside", "back\\slash", "single'quote", "tab\there", "line\nbreak",
    "cr\rlf\r\n", "nul\u{0}byte", "bell\u{7}", "del\u{7F}", "esc\u{1B}", "//comment", "a//b", "/*x*/", "___",
    "a___b", "-leading-dash", "colon:", "semi;", "eq=", "{brace}", "(paren)", "<angle>", "0755", "1.5", "YES",
    "$(inherited)", "@executable_path", "é", "Grüß 👋", "\u{2028}", "\u{FEFF}bom", "\u{FFFD}", "😀x", "NO",
    "$", "_", ".", "/", "..", "\\", "\"", "\\U0041", "\\012",
  ]

  /// A small seeded generator, so that failures repeat.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state
    }
  }

  static func generated(count: Int) -> [String] {
    var generator = Generator(state: 42)
    let pieces = awkward + ["a", "Z", "9", "\u{1}", "\u{1F}", "ß", "中文", "\u{0301}"]
    return (0..<count).map { _ in
      (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }
  }

  @Test func writtenStringsReadBackExactlyHereAndInFoundation() throws {
    let strings = Self.awkward + Self.generated(count: 300)
    var dictionary = PrefDictionary()
    for (n, string) in strings.enumerated() {
      dictionary["\(n)"] = .string(string)
      dictionary.insertNew(string, .string("key"))
    }
    let value = PrefValue.dictionary([
      "dictionary": .dictionary(dictionary), "array": .array(strings.map(PrefValue.string)),
      "data": .array([.data(Data()), .data(Data([0])), .data(Data((0..<255).map { UInt8($0) }))]),
      "nested": .array([.array([]), .dictionary([:]), .array([.dictionary(["a": .array([.string("")])])])]),
    ])
    let text = try Self.write(value)
    #expect(try OpenStepReader.read(Data(text.utf8)) == value)
    #expect(try Self.foundationRead(Data(text.utf8)) == value)
    // File order comes back too.
    #expect(Self.keys(try OpenStepReader.read(Data(text.utf8)).dictionaryValue?["dictionary"]) == dictionary.keys)
    // Every root kind OpenStep holds, alone.
    for root in [PrefValue.string("x y"), .string(""), .data(Data([1, 2, 3, 4, 5])), .array([]), .dictionary([:])] {
      let written = try Self.write(root)
      #expect(try OpenStepReader.read(Data(written.utf8)) == root, "\(written)")
      #expect(try Self.foundationRead(Data(written.utf8)) == root, "\(written)")
    }
  }

  @Test func layoutIsXcodes() throws {
    let value = PrefValue.dictionary([
      "name": .string("Chimes"), "empty": .string(""), "dashed": .string("a-b"), "list": .array([.string("a")]),
      "none": .array([]), "map": .dictionary([:]), "blob": .data(Data([0x0F, 0xBD, 0x77, 0x12, 0x01])),
    ])
    #expect(
      try Self.write(value) == """
        {
        \tname = Chimes;
        \tempty = "";
        \tdashed = "a-b";
        \tlist = (
        \t\ta,
        \t);
        \tnone = (
        \t);
        \tmap = {
        \t};
        \tblob = <0fbd7712 01>;
        }

        """)
    #expect(OpenStepWriter.isBare("$PROJECT_DIR/a.b_c"))
    for quoted in ["", "a-b", "a:b", "a//b", "a___b", "é", "a b"] { #expect(!OpenStepWriter.isBare(quoted)) }
  }

  @Test func valuesOpenStepCannotHoldAreRefusedWithTheirPath() throws {
    let cases: [(PrefValue, PrefValue.Kind, PrefKeyPath)] = [
      (.dictionary(["a": .dictionary(["b": .integer(1)])]), .integer, PrefKeyPath([.key("a"), .key("b")])),
      (.array([.string("x"), .real(1.5)]), .real, PrefKeyPath([.index(1)])),
      (.dictionary(["flag": .bool(true)]), .bool, PrefKeyPath([.key("flag")])),
      (.date(Date(timeIntervalSinceReferenceDate: 0)), .date, PrefKeyPath()),
      (.dictionary(["u": .uid(1)]), .uid, PrefKeyPath([.key("u")])),
    ]
    for (value, kind, path) in cases {
      let writer = ByteWriter()
      let error = #expect(throws: PrefsError.self) {
        try Self.codec.write(value, to: writer, options: WriteOptions(), warnings: Warnings())
      }
      guard case .unrepresentable("openstep", kind, path, _)? = error?.kind else {
        Issue.record("\(String(describing: error))")
        continue
      }
      #expect(try writer.data.isEmpty, "nothing is written before the refusal")
    }
  }

  @Test func sortKeysSortsEveryDictionary() throws {
    let value = PrefValue.dictionary(["b": .dictionary(["z": .string("1"), "a": .string("2")]), "a": .string("3")])
    let text = try String(decoding: Self.codec.encode(value, options: WriteOptions(sortKeys: true)), as: UTF8.self)
    #expect(text == "{\n\ta = 3;\n\tb = {\n\t\ta = 2;\n\t\tz = 1;\n\t};\n}\n")
  }

  @Test(.enabled(if: xcodeCorpus != nil, "the corpus folder ../shared/corpus/xcode is absent"))
  func corpusProjectsAreWrittenBackByteForByte() throws {
    for url in Self.projects() {
      let data = try Data(contentsOf: url)
      let value = try OpenStepReader.read(data)
      let written = try Self.codec.encode(value)
      #expect(try OpenStepReader.read(written) == value, "\(url.lastPathComponent)")
      #expect(try Self.foundationRead(written) == value, "\(url.lastPathComponent)")
      let ours = String(decoding: written, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      let xcode = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      let differing = zip(ours, xcode).filter { $0.0 != $0.1 }.count + abs(ours.count - xcode.count)
      #expect(differing == 0, "\(url.lastPathComponent): \(differing) lines differ from Xcode's")
      #expect(written == data, "\(url.lastPathComponent)")
    }
  }

  @Test func aProjectConvertedThroughYAMLComesBackAsXcodeWroteIt() throws {
    let project = """
      // !$*UTF8*$!
      {
      \tarchiveVersion = 1;
      \tclasses = {
      \t};
      \tobjectVersion = 56;
      \tobjects = {

      /* Begin PBXBuildFile section */
      \t\tB1 /* main.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* main.swift */; settings = {ATTRIBUTES = (Public, ); }; };
      /* End PBXBuildFile section */

      /* Begin PBXFileReference section */
      \t\tF1 /* main.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = main.swift; sourceTree = "<group>"; };
      /* End PBXFileReference section */

      /* Begin PBXProject section */
      \t\tP1 /* Project object */ = {
      \t\t\tisa = PBXProject;
      \t\t\tbuildConfigurationList = L1 /* Build configuration list for PBXProject "Tool" */;
      \t\t\ttargets = (
      \t\t\t\tT1 /* Tool */,
      \t\t\t);
      \t\t};
      /* End PBXProject section */

      /* Begin PBXSourcesBuildPhase section */
      \t\tS1 /* Sources */ = {
      \t\t\tisa = PBXSourcesBuildPhase;
      \t\t\tfiles = (
      \t\t\t\tB1 /* main.swift in Sources */,
      \t\t\t);
      \t\t};
      /* End PBXSourcesBuildPhase section */

      /* Begin XCConfigurationList section */
      \t\tL1 /* Build configuration list for PBXProject "Tool" */ = {
      \t\t\tisa = XCConfigurationList;
      \t\t\tbuildConfigurations = (
      \t\t\t);
      \t\t};
      /* End XCConfigurationList section */
      \t};
      \trootObject = P1 /* Project object */;
      }

      """
    let value = try OpenStepReader.read(Data(project.utf8))
    // The target T1 is not in the objects: no comment names it, and the project's
    // name comes from no target at all.
    let yaml = try Format.yaml.codec.encode(value)
    let back = try Format.yaml.codec.decode(yaml)
    #expect(back == value)
    let written = String(decoding: try Self.codec.encode(back), as: UTF8.self)
    let expected = project.replacingOccurrences(of: "T1 /* Tool */", with: "T1").replacingOccurrences(
      of: "PBXProject \"Tool\"", with: "PBXProject \"\"")
    #expect(written == expected)
  }

  /// `project` with a new Swift file: its file reference, its build file in the first
  /// sources phase and the reference among the main group's children.
  static func addingAFile(to project: PrefValue, name: String, fileID: String, buildID: String) throws -> PrefValue {
    var root = try #require(project.dictionaryValue)
    var objects = try #require(root["objects"]?.dictionaryValue)
    objects[fileID] = .dictionary([
      "isa": "PBXFileReference", "lastKnownFileType": "sourcecode.swift", "path": .string(name),
      "sourceTree": "<group>",
    ])
    objects[buildID] = .dictionary(["isa": "PBXBuildFile", "fileRef": .string(fileID)])
    let phase = try #require(objects.first { $0.value.dictionaryValue?["isa"] == "PBXSourcesBuildPhase" }?.key)
    var phaseFields = try #require(objects[phase]?.dictionaryValue)
    phaseFields["files"] = .array((phaseFields["files"]?.arrayValue ?? []) + [.string(buildID)])
    objects[phase] = .dictionary(phaseFields)
    let projectID = try #require(root["rootObject"]?.stringValue)
    let group = try #require(objects[projectID]?.dictionaryValue?["mainGroup"]?.stringValue)
    var groupFields = try #require(objects[group]?.dictionaryValue)
    groupFields["children"] = .array((groupFields["children"]?.arrayValue ?? []) + [.string(fileID)])
    objects[group] = .dictionary(groupFields)
    root["objects"] = .dictionary(objects)
    return .dictionary(root)
  }

  @Test(.enabled(if: xcodeCorpus != nil, "the corpus folder ../shared/corpus/xcode is absent"))
  func aFileAddedByAPatchIsWhereXcodeWritesIt() throws {
    for url in Self.projects() {
      let document = try #require(try TextDocument(Data(contentsOf: url), format: .openStep))
      // IDs that sort first and last, so that both ends of a section are tried.
      for (fileID, buildID) in [
        ("000000000000000000000001", "000000000000000000000002"),
        ("FFFFFFFFFFFFFFFFFFFFFFF1", "FFFFFFFFFFFFFFFFFFFFFFF2"),
      ] {
        let changed = try Self.addingAFile(to: document.value, name: "Added.swift", fileID: fileID, buildID: buildID)
        let patch = try document.patched(to: changed)
        #expect(patch.rewrittenWhole == nil, "\(url.lastPathComponent)")
        #expect(patch.rewrittenEntries.isEmpty, "\(url.lastPathComponent)")
        // Writing the project anew in Xcode's layout changes nothing.
        #expect(try Self.codec.encode(OpenStepReader.read(patch.data)) == patch.data, "\(url.lastPathComponent)")
        let text = String(decoding: patch.data, as: UTF8.self)
        #expect(
          text.contains(
            "\t\t\(buildID) /* Added.swift in Sources */ = {isa = PBXBuildFile; fileRef = \(fileID) /* Added.swift */; };\n"
          ), "\(url.lastPathComponent)")
        #expect(text.contains("\t\t\t\t\(fileID) /* Added.swift */,\n"), "\(url.lastPathComponent)")
        #expect(text.contains("\t\t\t\t\(buildID) /* Added.swift in Sources */,\n"), "\(url.lastPathComponent)")
      }
    }
  }

  @Test func theFirstObjectOfAnIsaOpensItsSectionWhereXcodeWritesIt() throws {
    let text = """
      // !$*UTF8*$!
      {
      \tarchiveVersion = 1;
      \tclasses = {
      \t};
      \tobjectVersion = 56;
      \tobjects = {

      /* Begin PBXFileReference section */
      \t\tF1 /* main.swift */ = {isa = PBXFileReference; path = main.swift; sourceTree = "<group>"; };
      /* End PBXFileReference section */

      /* Begin PBXSourcesBuildPhase section */
      \t\tS1 /* Sources */ = {
      \t\t\tisa = PBXSourcesBuildPhase;
      \t\t\tfiles = (
      \t\t\t);
      \t\t};
      /* End PBXSourcesBuildPhase section */
      \t};
      \trootObject = S1 /* Sources */;
      }

      """
    let document = try #require(try TextDocument(Data(text.utf8), format: .openStep))
    var root = try #require(document.value.dictionaryValue)
    var objects = try #require(root["objects"]?.dictionaryValue)
    // A section before the first, one between two, one after the last; a build file
    // that names its file and phase, and the phase that now lists it.
    objects["B1"] = .dictionary(["isa": "PBXBuildFile", "fileRef": "F1"])
    objects["G1"] = .dictionary(["isa": "PBXGroup", "children": ["F1"], "sourceTree": "<group>"])
    objects["L1"] = .dictionary(["isa": "XCConfigurationList", "buildConfigurations": []])
    objects["S1"] = .dictionary(["isa": "PBXSourcesBuildPhase", "files": ["B1"]])
    root["objects"] = .dictionary(objects)
    let patch = try document.patched(to: .dictionary(root))
    #expect(patch.rewrittenWhole == nil)
    #expect(
      String(decoding: patch.data, as: UTF8.self) == """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tclasses = {
        \t};
        \tobjectVersion = 56;
        \tobjects = {

        /* Begin PBXBuildFile section */
        \t\tB1 /* main.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* main.swift */; };
        /* End PBXBuildFile section */

        /* Begin PBXFileReference section */
        \t\tF1 /* main.swift */ = {isa = PBXFileReference; path = main.swift; sourceTree = "<group>"; };
        /* End PBXFileReference section */

        /* Begin PBXGroup section */
        \t\tG1 = {
        \t\t\tisa = PBXGroup;
        \t\t\tchildren = (
        \t\t\t\tF1 /* main.swift */,
        \t\t\t);
        \t\t\tsourceTree = "<group>";
        \t\t};
        /* End PBXGroup section */

        /* Begin PBXSourcesBuildPhase section */
        \t\tS1 /* Sources */ = {
        \t\t\tisa = PBXSourcesBuildPhase;
        \t\t\tfiles = (
        \t\t\t\tB1 /* main.swift in Sources */,
        \t\t\t);
        \t\t};
        /* End PBXSourcesBuildPhase section */

        /* Begin XCConfigurationList section */
        \t\tL1 = {
        \t\t\tisa = XCConfigurationList;
        \t\t\tbuildConfigurations = (
        \t\t\t);
        \t\t};
        /* End XCConfigurationList section */
        \t};
        \trootObject = S1 /* Sources */;
        }

        """)
    #expect(try Self.codec.encode(OpenStepReader.read(patch.data)) == patch.data)
  }

  @Test func aReferenceThatChangesTakesTheNameOfItsNewObject() throws {
    let text = """
      // !$*UTF8*$!
      {
      \tarchiveVersion = 1;
      \tobjects = {

      /* Begin PBXBuildFile section */
      \t\tB1 = {isa = PBXBuildFile; fileRef = F1 /* a.swift */; };
      /* End PBXBuildFile section */

      /* Begin PBXFileReference section */
      \t\tF1 /* a.swift */ = {isa = PBXFileReference; path = a.swift; sourceTree = "<group>"; };
      \t\tF2 /* b.swift */ = {isa = PBXFileReference; path = b.swift; sourceTree = "<group>"; };
      /* End PBXFileReference section */
      \t};
      }

      """
    let document = try #require(try TextDocument(Data(text.utf8), format: .openStep))
    let changed = try document.value.setting(.string("F2"), at: ["objects", "B1", "fileRef"])
    let patched = String(decoding: try document.patched(to: changed).data, as: UTF8.self)
    #expect(patched == text.replacingOccurrences(of: "fileRef = F1 /* a.swift */", with: "fileRef = F2 /* b.swift */"))
  }

  @Test func projectNamesAreGuessedFromTargetNames() {
    #expect(XcodeComments.guessedProjectName(["Alamofire iOS", "Alamofire macOS Tests"]) == "Alamofire")
    #expect(XcodeComments.guessedProjectName(["SnapKit", "SnapKit Tests"]) == "SnapKit")
    #expect(XcodeComments.guessedProjectName(["iOS Example"]) == "iOS Example")
    #expect(XcodeComments.guessedProjectName([]) == "")
  }

  // MARK: The format table

  @Test func openStepIsAWritableFormatWithItsExtensions() throws {
    #expect(Format.openStep.isWritable)
    #expect(Format.forPath("App.xcodeproj/project.pbxproj") == .openStep)
    #expect(Format.forPath("en.lproj/Localizable.strings") == .openStep)
    #expect(Format.named("ascii") == .openStep)
    // A .strings file that is really an XML plist is still read as XML.
    let xml = try Format.xml.codec.encode(.dictionary(["a": .string("b")]))
    #expect(try Format.read(xml, path: "Localizable.strings").format == .xml)
    // Binary plists never reach the OpenStep reader, whatever is declared.
    let binary = try Format.binary.codec.encode(.dictionary(["a": .integer(1)]))
    #expect(try Format.read(binary, declared: .openStep).value == .dictionary(["a": .integer(1)]))
    // An OpenStep data value starts with `<` but is not XML.
    #expect(try Format.read(Data("<0fbd>".utf8), declared: .openStep).value == .data(Data([0x0F, 0xBD])))
    for tag in ["<dict/>", "<date>x</date>", "<data>AA==</data>", "<false/>", "<?xml", "<plist>"] {
      #expect(PlistCodec.sniff(Data(tag.utf8)) == .xml, "\(tag)")
    }
    for data in ["<>", "<0f bd>", "  <ABCDEF", "<" + String(repeating: "ab", count: 100) + ">"] {
      #expect(PlistCodec.sniff(Data(data.utf8)) == .openStep, "\(data)")
    }
    // UTF-16 XML still goes to the XML path.
    let utf16XML = Data([0xFF, 0xFE]) + String(decoding: xml, as: UTF8.self).data(using: .utf16LittleEndian)!
    #expect(PlistCodec.sniff(utf16XML) == .xml)
  }

  @Test func aStringsFileIsWrittenAsGenstringsWritesOne() throws {
    var options = WriteOptions()
    options.stringsFile = true
    let value: PrefValue = ["title": "Say \"hi\"\n", "quit": "Beenden…"]
    let data = try Format.openStep.encode(value, options: options)
    #expect(
      String(decoding: data, as: UTF8.self)
        == "/* No comment provided by engineer. */\n\"title\" = \"Say \\\"hi\\\"\\n\";\n\n"
        + "/* No comment provided by engineer. */\n\"quit\" = \"Beenden…\";\n")
    #expect(try Format.read(data, path: "Localizable.strings").value == value)
    // What a .strings file cannot hold keeps the braces.
    #expect(try Format.openStep.encode(["list": ["a"]], options: options).starts(with: Array("{".utf8)))
  }
}
