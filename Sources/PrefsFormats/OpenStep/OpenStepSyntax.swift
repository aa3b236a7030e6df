import PrefsModel
import PrefsText

/// OpenStep property lists (Xcode projects, `.strings`): `key = value;` with a `;`
/// after every entry, arrays with commas (Xcode also after the last item), `//` and
/// `/* */` comments; values written by ``OpenStepWriter`` in the document's
/// indentation, on one line inside a one-line dictionary (Xcode's build files).
package struct OpenStepSyntax: RenderedSyntax {
  package init() {}

  package func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap) {
    let builder = SourceMapBuilder()
    let value = try OpenStepReader.read(text, options: options, sourceMap: builder)
    return (value, builder.map)
  }

  package func separator(of container: SourceMap.Node, isDictionary: Bool, in text: [UInt8]) -> Separator? {
    if isDictionary { return Separator(byte: UInt8(ascii: ";"), trailing: true) }
    // A comma after the last item, as Xcode writes, or none.
    var i = container.value.upperBound - 2
    while i > container.value.lowerBound, [0x20, 0x09, 0x0A, 0x0D].contains(text[i]) { i -= 1 }
    return Separator(byte: UInt8(ascii: ","), trailing: text[i] == UInt8(ascii: ","))
  }

  package func isCommentLine(_ line: ArraySlice<UInt8>) -> Bool {
    line.starts(with: [0x2F, 0x2F]) || (line.starts(with: [0x2F, 0x2A]) && commentLength(in: line) == line.count)
  }

  package func commentLength(at position: Int, in text: [UInt8]) -> Int? {
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

  /// A quoted string stays quoted, though the writer would write it bare.
  package func value(_ value: PrefValue, replacing node: SourceMap.Node, context: FragmentContext) throws -> [UInt8]? {
    if case .string(let string) = value, node.value.lowerBound < context.text.count,
      context.text[node.value.lowerBound] == UInt8(ascii: "\"")
    {
      return OpenStepWriter.quoted(string)
    }
    return try render(key: nil, value, context: context)
  }

  package func render(key: String?, _ value: PrefValue, context: FragmentContext) throws -> [UInt8] {
    // A `.strings` list quotes every key and string, as genstrings writes them.
    if case .string(let string) = value, StringsFile.isList(context.text) {
      return key.map { StringsFile.entry(key: $0, value: string) } ?? OpenStepWriter.quoted(string)
    }
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
