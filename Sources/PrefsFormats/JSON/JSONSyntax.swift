import PrefsModel
import PrefsText

/// JSON: entries separated by commas, no comments; values written by ``JSONWriter``
/// (typed objects for dates and data), pretty in the document's indentation, or on
/// one line inside a one-line container.
package struct JSONSyntax: TextSyntax {
  /// Whether new and changed strings escape `/` as `\/`: the text being patched does
  /// (``writing(_:replacing:in:)`` looks), as `JSONEncoder` writes by default.
  var escapesSlashes = false

  package init() {}

  package func writing(_ newValue: PrefValue, replacing oldValue: PrefValue, in text: [UInt8]) -> any TextSyntax {
    var syntax = self
    syntax.escapesSlashes = Self.escapesSlashes(text)
    return syntax
  }

  /// Whether `text` escapes a slash (`\/`). A backslash stands only inside a string,
  /// and starts an escape of one character or of `u` and four hex digits.
  static func escapesSlashes(_ text: [UInt8]) -> Bool {
    var position = text.startIndex
    while let backslash = text[position...].firstIndex(of: 0x5C), backslash + 1 < text.endIndex {
      if text[backslash + 1] == 0x2F { return true }
      position = backslash + 2
    }
    return false
  }

  package func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap) {
    try text.withUnsafeBytes { raw in
      let builder = SourceMapBuilder()
      var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self), options: options, warnings: warnings)
      reader.map = builder
      let value = try reader.readDocument()
      return (value, builder.map)
    }
  }

  package func separator(of container: SourceMap.Node, isDictionary: Bool, in text: [UInt8]) -> Separator? {
    Separator(byte: UInt8(ascii: ","), trailing: false)
  }

  package func isCommentLine(_ line: ArraySlice<UInt8>) -> Bool { false }
  package func commentLength(at position: Int, in text: [UInt8]) -> Int? { nil }

  package func value(_ value: PrefValue, replacing node: SourceMap.Node, context: FragmentContext) throws -> [UInt8]? {
    try render(value, context: context)
  }

  package func entry(key: String?, value: PrefValue, context: FragmentContext) throws -> [UInt8] {
    let rendered = try render(value, context: context)
    guard let key else { return rendered }
    let name = ByteWriter()
    var keyWriter = JSONWriter(out: name, options: WriteOptions())
    keyWriter.escapesSlashes = escapesSlashes
    try keyWriter.writeString(key)
    let spaced = !context.inline || spacedOneLine(context.text)
    return Array(try name.data) + (spaced ? [0x3A, 0x20] : [0x3A]) + rendered
  }

  package func spacesEntriesOnALine(in text: [UInt8]) -> Bool { spacedOneLine(text) }

  package func showsEmbeddedData(_ node: SourceMap.Node, in text: [UInt8]) -> Bool {
    guard node.flags.contains(.tagged), let open = text[node.value].firstIndex(of: UInt8(ascii: "{")) else {
      return false
    }
    let start = text[(open + 1)..<node.value.upperBound].drop { JSONGrammar.isSpace($0) }
    return EmbeddedData.Kind.allCases.contains { start.starts(with: Array("\"\($0.jsonKey)\"".utf8)) }
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
    writer.escapesSlashes = escapesSlashes
    if context.showsEmbeddedData {
      writer.expansions = EmbeddedData.expansions(in: value, mode: .readBack, warnings: Warnings())
    }
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
