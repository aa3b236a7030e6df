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
