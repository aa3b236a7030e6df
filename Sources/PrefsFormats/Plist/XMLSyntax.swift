import PrefsModel
import PrefsText

/// XML property lists: no separators, `<!-- -->` comments, values written by
/// ``XMLPlistWriter`` in the document's indentation.
package struct XMLSyntax: RenderedSyntax {
  package init() {}

  package func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap) {
    let builder = SourceMapBuilder()
    var reader = XMLPlistReader(
      text, maxDepth: options.maxDepth, duplicates: DuplicateKeys(options, warnings: warnings),
      parallelism: options.parallelism)
    let value = try reader.read(map: builder)
    return (value, builder.map)
  }

  package func separator(of container: SourceMap.Node, isDictionary: Bool, in text: [UInt8]) -> Separator? { nil }

  package func isCommentLine(_ line: ArraySlice<UInt8>) -> Bool {
    oneLineComment(line, opening: Array("<!--".utf8), closing: Array("-->".utf8)) == line.count
  }

  package func commentLength(at position: Int, in text: [UInt8]) -> Int? {
    oneLineComment(text[position...], opening: Array("<!--".utf8), closing: Array("-->".utf8))
  }

  package func value(_ value: PrefValue, replacing node: SourceMap.Node, context: FragmentContext) throws -> [UInt8]? {
    if case .data(let data) = value, let lines = Self.base64Lines(of: node, in: context.text) {
      return lines.text(of: data, lineEnd: context.layout.lineEnd)
    }
    return try render(key: nil, value, context: context)
  }

  /// How the `<data>` element at `node` lays out its base64, when it has lines of
  /// its own: data written in its place keeps them, whatever wrote them.
  struct Base64Lines {
    /// What stands before each line of base64, and before `</data>`.
    var prefix: [UInt8]
    var closingPrefix: [UInt8]
    /// The characters of each full line.
    var length: Int

    func text(of data: Data, lineEnd: [UInt8]) -> [UInt8] {
      var out = Array("<data>".utf8) + lineEnd
      Base64.encode(data, lineLength: length) { characters in
        out += prefix
        out += characters
        out += lineEnd
      }
      return out + closingPrefix + Array("</data>".utf8)
    }
  }

  /// The base64 layout of `<data>`, its lines, `</data>`, where its first line is full
  /// (of a length that holds whole groups of four) and all share one prefix.
  static func base64Lines(of node: SourceMap.Node, in text: [UInt8]) -> Base64Lines? {
    let element = text[node.value]
    guard element.starts(with: Array("<data>".utf8)), element.reversed().starts(with: Array("</data>".utf8).reversed())
    else { return nil }
    var lines = element.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
      line.last == 0x0D ? line.dropLast() : line
    }
    guard lines.count >= 4, lines.removeFirst().elementsEqual("<data>".utf8) else { return nil }
    let closing = lines.removeLast()
    let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    let prefix = Array(lines[0].prefix(while: isBlank))
    let length = lines[0].count - prefix.count
    let closingPrefix = closing.dropLast("</data>".utf8.count)
    guard length > 0, length % 4 == 0, closingPrefix.allSatisfy(isBlank),
      lines.allSatisfy({ line in
        line.starts(with: prefix) && line.count > prefix.count && line.count - prefix.count <= length
          && !isBlank(line[line.startIndex + prefix.count])
      })
    else { return nil }
    return Base64Lines(prefix: prefix, closingPrefix: Array(closingPrefix), length: length)
  }

  package func render(key: String?, _ value: PrefValue, context: FragmentContext) throws -> [UInt8] {
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
