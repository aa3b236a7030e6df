import PrefsModel
import PrefsText

/// OpenStep property lists (Xcode projects, `.strings`): `key = value;` with a `;`
/// after every entry, arrays with commas (Xcode also after the last item), `//` and
/// `/* */` comments; values written by ``OpenStepWriter`` in the document's
/// indentation, on one line inside a one-line dictionary (Xcode's build files).
///
/// In an Xcode project, what is written is Xcode's layout: a new object goes in the
/// section of its `isa`, by ID (a section of its own when it is the first of its
/// `isa`), on one line or as a block as Xcode writes that `isa`, and every object ID
/// written is followed by the comment naming its object.
package struct OpenStepSyntax: RenderedSyntax {
  /// The names Xcode writes beside the object IDs of the project being written, by
  /// ID; empty outside a project.
  private var objectNames: [String: String] = [:]
  /// The names of the objects the text holds now, as Xcode derives them.
  private var oldObjectNames: [String: String] = [:]

  package init() {}

  package func writing(_ newValue: PrefValue, replacing oldValue: PrefValue, in text: [UInt8]) -> any TextSyntax {
    guard case .dictionary(let root) = newValue, let objects = XcodeComments.projectObjects(root) else { return self }
    var syntax = self
    let projectName = XcodeComments.projectName(in: text, root: root, objects: objects)
    syntax.objectNames = XcodeComments.comments(for: objects, root: root, projectName: projectName)
    if case .dictionary(let oldRoot) = oldValue, let oldObjects = XcodeComments.projectObjects(oldRoot) {
      syntax.oldObjectNames = XcodeComments.comments(for: oldObjects, root: oldRoot, projectName: projectName)
    }
    return syntax
  }

  package func followingEdits(map: SourceMap, text: [UInt8]) -> [(range: Range<Int>, span: Range<Int>, text: [UInt8])] {
    guard !objectNames.isEmpty else { return [] }
    // The new name of each object whose name changed (nil: it has none now).
    var renamed: [String: String?] = [:]
    for (id, name) in objectNames where oldObjectNames[id] != name { renamed[id] = name }
    for (id, _) in oldObjectNames where objectNames[id] == nil { renamed[id] = .some(nil) }
    guard !renamed.isEmpty else { return [] }
    let idLengths = Set(renamed.keys.map(\.utf8.count))
    var edits: [(range: Range<Int>, span: Range<Int>, text: [UInt8])] = []
    for node in map.nodes {
      // An object's own ID, or a reference to one (a proxy's remote ID names nothing).
      let id: Range<Int>
      if let key = node.key, let name = node.name, renamed[name] != nil, text[key].elementsEqual(name.utf8) {
        id = key
      } else if !node.hasChildren, node.name != "remoteGlobalIDString", idLengths.contains(node.value.count) {
        id = node.value
      } else {
        continue
      }
      guard let name = String(validating: text[id], as: UTF8.self), let newName = renamed[name] else { continue }
      let replaced = replacedRange(of: SourceMap.Node(value: id), in: text)
      let range = id.upperBound..<replaced.upperBound
      let comment = newName.map { Array(" /* \($0) */".utf8) } ?? []
      if !text[range].elementsEqual(comment) { edits.append((range, id.lowerBound..<range.upperBound, comment)) }
    }
    return edits
  }

  /// Whether `path` is that of an object of the project being written.
  private func isObject(_ path: PrefKeyPath) -> Bool {
    !objectNames.isEmpty && path.components.count == 2 && path.components[0] == .key("objects")
  }

  package func replacedRange(of node: SourceMap.Node, in text: [UInt8]) -> Range<Int> {
    // The comment after an object ID names what the ID referred to: it goes with the ID.
    guard !objectNames.isEmpty, !node.hasChildren, let first = node.value.first.map({ text[$0] }),
      first != UInt8(ascii: "{"), first != UInt8(ascii: "(")
    else { return node.value }
    let comment = text.skippingBlanks(from: node.value.upperBound)
    guard comment + 1 < text.count, text[comment] == UInt8(ascii: "/"), text[comment + 1] == UInt8(ascii: "*"),
      let length = commentLength(at: comment, in: text)
    else { return node.value }
    return node.value.lowerBound..<(comment + length)
  }

  package func placement(
    ofNew key: String, _ value: PrefValue, in container: Int, at path: PrefKeyPath, old: PrefDictionary,
    map: SourceMap, text: [UInt8]
  ) -> EntryPlacement? {
    guard !objectNames.isEmpty, path.components == [.key("objects")],
      let isa = value.dictionaryValue?["isa"]?.stringValue
    else { return nil }
    let children = map.children(of: container)
    guard let first = children.first, let sectionsStart = sectionsStart(before: map.nodes[first], in: text) else {
      return nil
    }
    var lastBefore: SourceMap.Node?
    var firstOfIsa: SourceMap.Node?
    var lastOfEarlierSection: SourceMap.Node?
    for child in children {
      let node = map.nodes[child]
      guard let id = node.name, let childIsa = old[id]?.dictionaryValue?["isa"]?.stringValue else { continue }
      if childIsa == isa {
        if firstOfIsa == nil { firstOfIsa = node }
        if PrefDictionary.codePointOrder(id, key) { lastBefore = node }
      } else if PrefDictionary.codePointOrder(childIsa, isa) {
        lastOfEarlierSection = node
      }
    }
    if let lastBefore {
      return lineAfter(lastBefore, in: text).map { EntryPlacement(position: $0) }
    }
    if let firstOfIsa, let key = firstOfIsa.key {
      let lineStart = text.lineStart(of: key.lowerBound)
      return text.isBlank(lineStart..<key.lowerBound) ? EntryPlacement(position: lineStart) : nil
    }
    // The first object of its `isa`: a section of its own, after the one before it by name.
    let section = EntryPlacement.Group(
      name: isa, opening: Array("/* Begin \(isa) section */".utf8), closing: Array("/* End \(isa) section */".utf8))
    guard let last = lastOfEarlierSection else { return EntryPlacement(position: sectionsStart, group: section) }
    guard let end = lineAfter(last, in: text), Self.line(at: end, in: text).starts(with: Array("/* End ".utf8)),
      let afterEnd = text.afterLineBreak(at: end + Self.line(at: end, in: text).count)
    else { return nil }
    return EntryPlacement(position: afterEnd, group: section)
  }

  /// The start of the blank line before the first section (`/* Begin X section */`),
  /// whose first object is `node`; nil when the objects are not in sections.
  private func sectionsStart(before node: SourceMap.Node, in text: [UInt8]) -> Int? {
    guard let key = node.key else { return nil }
    let objectLine = text.lineStart(of: key.lowerBound)
    guard objectLine > 0 else { return nil }
    let beginLine = text.lineStart(of: objectLine - 1)
    guard Self.line(at: beginLine, in: text).starts(with: Array("/* Begin ".utf8)), beginLine > 0 else { return nil }
    let blankLine = text.lineStart(of: beginLine - 1)
    return Self.line(at: blankLine, in: text).isEmpty ? blankLine : nil
  }

  /// Where the line after an entry's last line starts.
  private func lineAfter(_ node: SourceMap.Node, in text: [UInt8]) -> Int? {
    var i = text.skippingBlanks(from: node.value.upperBound)
    if i < text.count, text[i] == UInt8(ascii: ";") { i = text.skippingBlanks(from: i + 1) }
    return text.afterLineBreak(at: i)
  }

  /// The line starting at `start`, without its line break.
  private static func line(at start: Int, in text: [UInt8]) -> ArraySlice<UInt8> {
    text[start..<(text[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? text.count)]
  }

  package func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap) {
    let builder = SourceMapBuilder()
    let value = try OpenStepReader.read(text, options: options, warnings: warnings, sourceMap: builder)
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
    var writer = OpenStepWriter(to: out, sortKeys: false, comments: objectNames)
    let object = isObject(context.path)
    let oneLine =
      object
      ? OpenStepWriter.oneLineObjects.contains(value.dictionaryValue?["isa"]?.stringValue ?? "") : context.inline
    try writer.fragment(key: key, value: value, oneLine: oneLine, namedKey: object, at: context.path)
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
