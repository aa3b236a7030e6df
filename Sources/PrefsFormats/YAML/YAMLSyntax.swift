import PrefsModel
import PrefsText

/// YAML: block collections (no separators) and flow ones (commas), `#` comments;
/// values written by ``YAMLEmitter`` with the document's indentation, in flow style
/// inside a flow collection. A string keeps the quotes of the text it replaces.
package struct YAMLSyntax: TextSyntax {
  package init() {}

  package func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap) {
    try text.withUnsafeBytes { raw in
      let stream = try YAMLEventStream(raw)
      let builder = SourceMapBuilder()
      var parser = YAMLParser(options: options, warnings: warnings)
      parser.map = builder
      parser.offsets = YAMLOffsets(raw)
      let value = try parser.document(from: stream)
      return (value, builder.map)
    }
  }

  package func separator(of container: SourceMap.Node, isDictionary: Bool, in text: [UInt8]) -> Separator? {
    guard isFlow(container, in: text) else { return nil }
    // A trailing comma before the closing bracket.
    var i = container.value.upperBound - 2
    while i > container.value.lowerBound, [0x20, 0x09, 0x0A, 0x0D].contains(text[i]) { i -= 1 }
    return Separator(byte: UInt8(ascii: ","), trailing: text[i] == UInt8(ascii: ","))
  }

  package func isFlow(_ node: SourceMap.Node, in text: [UInt8]) -> Bool {
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

  package func isCommentLine(_ line: ArraySlice<UInt8>) -> Bool { line.first == UInt8(ascii: "#") }

  package func isIndicatorPrefix(_ prefix: ArraySlice<UInt8>) -> Bool {
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

  package func commentLength(at position: Int, in text: [UInt8]) -> Int? {
    guard position < text.count, text[position] == UInt8(ascii: "#") else { return nil }
    var i = position
    while i < text.count, text[i] != 0x0A, text[i] != 0x0D { i += 1 }
    return i - position
  }

  package func showsEmbeddedData(_ node: SourceMap.Node, in text: [UInt8]) -> Bool {
    guard node.flags.contains(.tagged) else { return false }
    // The anchor and the tag before the content, in either order.
    let isBlank = { (byte: UInt8) in [0x20, 0x09, 0x0A, 0x0D].contains(byte) }
    var rest = text[node.value]
    while let first = rest.first, first == UInt8(ascii: "&") || first == UInt8(ascii: "!") {
      let token = rest.prefix { !isBlank($0) }
      if first == UInt8(ascii: "!") { return EmbeddedData.Kind(yamlTag: String(decoding: token, as: UTF8.self)) != nil }
      rest = rest.dropFirst(token.count).drop(while: isBlank)
    }
    return false
  }

  package func entryStart(of node: SourceMap.Node, in text: [UInt8]) -> Int {
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

  package func value(_ value: PrefValue, replacing node: SourceMap.Node, context: FragmentContext) throws -> [UInt8]? {
    let isCollection = value.arrayValue.map { !$0.isEmpty } ?? value.dictionaryValue.map { !$0.isEmpty } ?? false
    let wasBlock = node.hasChildren && !isFlow(node, in: context.text)
    // Block style needs its own lines: the entry is rewritten (data shown as structure too).
    if !context.inFlow, isCollection || wasBlock || context.showsEmbeddedData { return nil }
    let start = contentStart(node, in: context.text)
    // (A null written as nothing may end the text.)
    let quote = start < context.text.count ? context.text[start] : 0
    var text = try emit(
      key: nil, value, context: context,
      quoted: quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") ? quote : nil, asValue: true)
    // A null written as nothing (`key:`, `-`) stands right after its indicator: the
    // new value needs the blank that separates it.
    if node.value.isEmpty, node.value.lowerBound > 0,
      ![0x20, 0x09, 0x0A, 0x0D].contains(context.text[node.value.lowerBound - 1])
    {
      text = [0x20] + text
    }
    // Keep the anchor that aliases elsewhere refer to.
    if node.flags.contains(.anchored), context.text[node.value.lowerBound] == UInt8(ascii: "&") {
      let anchor = context.text[node.value.lowerBound..<node.value.upperBound].prefix {
        ![0x20, 0x09, 0x0A, 0x0D].contains($0)
      }
      text = Array(anchor) + [0x20] + text
    }
    return text
  }

  package func entry(key: String?, value: PrefValue, context: FragmentContext) throws -> [UInt8] {
    try emit(key: key, value, context: context, quoted: nil)
  }

  /// The emitter's text for one entry, without the brackets of a flow collection;
  /// for a value alone (`asValue`), without the `- ` of the sequence item it is written as.
  private func emit(
    key: String?, _ value: PrefValue, context: FragmentContext, quoted: UInt8?, asValue: Bool = false
  ) throws -> [UInt8] {
    let out = ByteWriter()
    let unit = context.layout.indentUnit.first == 0x20 ? context.layout.indentUnit.count : 2
    let emitter = try YAMLEmitter(
      writer: out, sortKeys: false,
      expansions: context.showsEmbeddedData
        ? EmbeddedData.expansions(in: value, mode: .readBack, warnings: Warnings()) : [:], indent: unit,
      flow: context.inFlow)
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
