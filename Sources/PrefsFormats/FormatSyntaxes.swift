#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

// The patcher's view of each text format: how it reads with a source map, and how
// a value or entry is written in the layout of the document it goes into. The
// writers themselves render the values, so a patched entry reads as the format's own.

/// JSON: entries separated by commas, no comments; values written by ``JSONWriter``
/// (typed objects for dates and data), pretty in the document's indentation, or on
/// one line inside a one-line container.
struct JSONSyntax: TextSyntax {
  func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap) {
    try text.withUnsafeBytes { raw in
      let builder = SourceMapBuilder()
      var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self), options: options, warnings: warnings)
      reader.map = builder
      let value = try reader.embedded.collapse(try reader.readDocument())
      return (value, builder.map)
    }
  }

  func separator(of container: SourceMap.Node, isDictionary: Bool, in text: [UInt8]) -> Separator? {
    Separator(byte: UInt8(ascii: ","), trailing: false)
  }

  func isCommentLine(_ line: ArraySlice<UInt8>) -> Bool { false }
  func commentLength(at position: Int, in text: [UInt8]) -> Int? { nil }

  func value(_ value: PrefValue, replacing node: SourceMap.Node, context: FragmentContext) throws -> [UInt8]? {
    try render(value, context: context)
  }

  func entry(key: String?, value: PrefValue, context: FragmentContext) throws -> [UInt8] {
    let rendered = try render(value, context: context)
    guard let key else { return rendered }
    let name = ByteWriter()
    try JSONWriter(out: name, options: WriteOptions()).writeString(key)
    let spaced = !context.inline || spacedOneLine(context.text)
    return Array(try name.data) + (spaced ? [0x3A, 0x20] : [0x3A]) + rendered
  }

  /// Whether a document written on one line puts spaces after `:` (`{"a": 1}`), or
  /// none, as compact JSON does.
  private func spacedOneLine(_ text: [UInt8]) -> Bool {
    text.firstRange(of: [0x22, 0x3A, 0x20]) != nil
  }

  /// `value` as JSON: on one line inside a one-line container, else pretty, each line
  /// after the first at the entry's indentation plus one unit a level.
  private func render(_ value: PrefValue, context: FragmentContext) throws -> [UInt8] {
    let out = ByteWriter()
    var writer = JSONWriter(out: out, options: WriteOptions(compact: context.inline))
    writer.path = context.path.components
    writer.spacedOneLine = spacedOneLine(context.text)
    try writer.write(value)
    let bytes = Array(try out.data)
    guard !context.inline, bytes.contains(0x0A) else { return bytes }
    // The writer indents two spaces a level; JSON text has no line break inside a string.
    var result: [UInt8] = []
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)[...]
    result += lines.removeFirst()
    for line in lines {
      result += context.layout.lineEnd + context.indent
      let spaces = line.prefix { $0 == 0x20 }.count
      for _ in 0..<(spaces / 2) { result += context.layout.indentUnit }
      result += line.dropFirst(spaces)
    }
    return result
  }
}

/// XML property lists: no separators, `<!-- -->` comments, values written by
/// ``XMLPlistWriter`` in the document's indentation.
struct XMLSyntax: RenderedSyntax {
  func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap) {
    let builder = SourceMapBuilder()
    var reader = XMLPlistReader(
      text, maxDepth: options.maxDepth, duplicates: DuplicateKeys(options, warnings: warnings))
    let value = try reader.read(map: builder)
    return (value, builder.map)
  }

  func separator(of container: SourceMap.Node, isDictionary: Bool, in text: [UInt8]) -> Separator? { nil }

  func isCommentLine(_ line: ArraySlice<UInt8>) -> Bool {
    oneLineComment(line, opening: Array("<!--".utf8), closing: Array("-->".utf8)) == line.count
  }

  func commentLength(at position: Int, in text: [UInt8]) -> Int? {
    oneLineComment(text[position...], opening: Array("<!--".utf8), closing: Array("-->".utf8))
  }

  func render(key: String?, _ value: PrefValue, context: FragmentContext) throws -> [UInt8] {
    let out = ByteWriter()
    var writer = XMLPlistWriter(to: out, sortKeys: false, warnings: context.warnings)
    writer.indentUnit = context.layout.indentUnit
    writer.linePrefix = context.inline ? [] : context.indent
    try writer.fragment(key: key, value: value, at: context.path)
    var bytes = Array(try out.data).dropFirst(writer.linePrefix.count)
    while bytes.last == 0x0A { bytes = bytes.dropLast() }
    if context.inline {
      // One line: the writer's line breaks and indentation go.
      return bytes.split(separator: 0x0A).flatMap { $0.drop { $0 == 0x09 || $0 == 0x20 } }
    }
    return context.layout.lineEnd == [0x0A]
      ? Array(bytes) : bytes.flatMap { $0 == 0x0A ? context.layout.lineEnd : [$0] }
  }
}

/// YAML: block collections (no separators) and flow ones (commas), `#` comments;
/// values written by ``YAMLEmitter`` with the document's indentation, in flow style
/// inside a flow collection. A string keeps the quotes of the text it replaces.
struct YAMLSyntax: TextSyntax {
  func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap) {
    try text.withUnsafeBytes { raw in
      let stream = try YAMLEventStream(raw)
      let builder = SourceMapBuilder()
      var parser = YAMLParser(options: options, warnings: warnings)
      parser.map = builder
      parser.offsets = YAMLOffsets(raw)
      let value = try parser.embedded.collapse(try parser.document(from: stream))
      return (value, builder.map)
    }
  }

  func separator(of container: SourceMap.Node, isDictionary: Bool, in text: [UInt8]) -> Separator? {
    guard isFlow(container, in: text) else { return nil }
    // A trailing comma before the closing bracket.
    var i = container.value.upperBound - 2
    while i > container.value.lowerBound, [0x20, 0x09, 0x0A, 0x0D].contains(text[i]) { i -= 1 }
    return Separator(byte: UInt8(ascii: ","), trailing: text[i] == UInt8(ascii: ","))
  }

  func isFlow(_ node: SourceMap.Node, in text: [UInt8]) -> Bool {
    let first = contentStart(node, in: text)
    return first < node.value.upperBound && (text[first] == UInt8(ascii: "[") || text[first] == UInt8(ascii: "{"))
  }

  /// The first byte after the node's anchor and tag.
  private func contentStart(_ node: SourceMap.Node, in text: [UInt8]) -> Int {
    var i = node.value.lowerBound
    while i < node.value.upperBound, text[i] == UInt8(ascii: "&") || text[i] == UInt8(ascii: "!") {
      while i < node.value.upperBound, ![0x20, 0x09, 0x0A, 0x0D].contains(text[i]) { i += 1 }
      while i < node.value.upperBound, [0x20, 0x09, 0x0A, 0x0D].contains(text[i]) { i += 1 }
    }
    return i
  }

  func isCommentLine(_ line: ArraySlice<UInt8>) -> Bool { line.first == UInt8(ascii: "#") }

  func isIndicatorPrefix(_ prefix: ArraySlice<UInt8>) -> Bool {
    // Blanks and `-` each followed by a blank: `  - `, `- - `.
    var sawDash = false
    var previous: UInt8 = 0x20
    for b in prefix {
      switch b {
      case 0x20, 0x09: break
      case UInt8(ascii: "-") where previous == 0x20 || previous == 0x09: sawDash = true
      default: return false
      }
      previous = b
    }
    return sawDash && (previous == 0x20 || previous == 0x09)
  }

  func commentLength(at position: Int, in text: [UInt8]) -> Int? {
    guard position < text.count, text[position] == UInt8(ascii: "#") else { return nil }
    var i = position
    while i < text.count, text[i] != 0x0A, text[i] != 0x0D { i += 1 }
    return i - position
  }

  func entryStart(of node: SourceMap.Node, in text: [UInt8]) -> Int {
    if let key = node.key { return key.lowerBound }
    // A block sequence item starts at its `-`, which may stand on the line above
    // (`-` alone, the item indented below it).
    var i = node.value.lowerBound
    while i > 0, [0x20, 0x09, 0x0A, 0x0D].contains(text[i - 1]) { i -= 1 }
    if i > 0, text[i - 1] == UInt8(ascii: "-"),
      i == 1 || [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "-")].contains(text[i - 2])
    {
      return i - 1
    }
    return node.value.lowerBound
  }

  func value(_ value: PrefValue, replacing node: SourceMap.Node, context: FragmentContext) throws -> [UInt8]? {
    let isCollection = value.arrayValue.map { !$0.isEmpty } ?? value.dictionaryValue.map { !$0.isEmpty } ?? false
    let wasBlock = node.hasChildren && !isFlow(node, in: context.text)
    // Block style needs its own lines: the entry is rewritten.
    if !context.inFlow, isCollection || wasBlock { return nil }
    let start = contentStart(node, in: context.text)
    let quote = context.text[start]
    var text = try emit(
      key: nil, value, context: context,
      quoted: quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") ? quote : nil, asValue: true)
    // Keep the anchor that aliases elsewhere refer to.
    if node.flags.contains(.anchored), context.text[node.value.lowerBound] == UInt8(ascii: "&") {
      let anchor = context.text[node.value.lowerBound..<node.value.upperBound].prefix {
        ![0x20, 0x09, 0x0A, 0x0D].contains($0)
      }
      text = Array(anchor) + [0x20] + text
    }
    return text
  }

  func entry(key: String?, value: PrefValue, context: FragmentContext) throws -> [UInt8] {
    try emit(key: key, value, context: context, quoted: nil)
  }

  /// The emitter's text for one entry, without the brackets of a flow collection;
  /// for a value alone (`asValue`), without the `- ` of the sequence item it is written as.
  private func emit(
    key: String?, _ value: PrefValue, context: FragmentContext, quoted: UInt8?, asValue: Bool = false
  ) throws -> [UInt8] {
    let out = ByteWriter()
    let unit = context.layout.indentUnit.first == 0x20 ? context.layout.indentUnit.count : 2
    let emitter = try YAMLEmitter(writer: out, sortKeys: false, indent: unit, flow: context.inFlow)
    try emitter.entry(key: key, value: value, quoted: quoted)
    var bytes = Array(try out.data)[...]
    while bytes.last == 0x0A { bytes = bytes.dropLast() }
    if context.inFlow {
      bytes = bytes.dropFirst().dropLast()
    } else if asValue {
      bytes = bytes.dropFirst(2)
    }
    return indented(Array(bytes), indent: context.indent, lineEnd: context.layout.lineEnd)
  }
}

/// OpenStep property lists (Xcode projects, `.strings`): `key = value;` with a `;`
/// after every entry, arrays with commas (Xcode also after the last item), `//` and
/// `/* */` comments; values written by ``OpenStepWriter`` in the document's
/// indentation, on one line inside a one-line dictionary (Xcode's build files).
struct OpenStepSyntax: RenderedSyntax {
  func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap) {
    let builder = SourceMapBuilder()
    let value = try OpenStepReader.read(text, options: options, sourceMap: builder)
    return (value, builder.map)
  }

  func separator(of container: SourceMap.Node, isDictionary: Bool, in text: [UInt8]) -> Separator? {
    if isDictionary { return Separator(byte: UInt8(ascii: ";"), trailing: true) }
    // A comma after the last item, as Xcode writes, or none.
    var i = container.value.upperBound - 2
    while i > container.value.lowerBound, [0x20, 0x09, 0x0A, 0x0D].contains(text[i]) { i -= 1 }
    return Separator(byte: UInt8(ascii: ","), trailing: text[i] == UInt8(ascii: ","))
  }

  func isCommentLine(_ line: ArraySlice<UInt8>) -> Bool {
    line.starts(with: [0x2F, 0x2F]) || (line.starts(with: [0x2F, 0x2A]) && commentLength(in: line) == line.count)
  }

  func commentLength(at position: Int, in text: [UInt8]) -> Int? {
    commentLength(in: text[position...])
  }

  /// The length of the `//` or one-line `/* */` comment `text` starts with.
  private func commentLength(in text: ArraySlice<UInt8>) -> Int? {
    let start = text.startIndex
    guard text.count >= 2, text[start] == 0x2F else { return nil }
    if text[start + 1] == 0x2F {
      return (text.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? text.endIndex) - start
    }
    return oneLineComment(text, opening: [0x2F, 0x2A], closing: [0x2A, 0x2F])
  }

  func render(key: String?, _ value: PrefValue, context: FragmentContext) throws -> [UInt8] {
    let out = ByteWriter()
    var writer = OpenStepWriter(to: out, sortKeys: false)
    try writer.fragment(key: key, value: value, oneLine: context.inline, at: context.path)
    // Strings never hold a raw line break or tab (they are escaped): every line after
    // the first is the writer's indentation, a tab a level.
    var lines = Array(try out.data).split(separator: 0x0A, omittingEmptySubsequences: false)[...]
    var result = Array(lines.removeFirst())
    for line in lines {
      result += context.layout.lineEnd + context.indent
      let tabs = line.prefix { $0 == 0x09 }.count
      for _ in 0..<tabs { result += context.layout.indentUnit }
      result += line.dropFirst(tabs)
    }
    return result
  }
}
