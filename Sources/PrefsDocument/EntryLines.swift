import PrefsFormats
import PrefsModel
import PrefsText

// Whole lines of a document's entries, and new entries rendered as lines in the
// document's layout: what a merge needs to set another value's entries beside the
// lines of the document's own (conflict markers wrap whole lines).
extension TextDocument {
  /// The lines a run of entries stands on, as ``TextDocument/entryLines(_:of:)`` finds them.
  package struct EntryLines {
    /// From the start of the first entry's line through the line end of the last.
    package var range: Range<Int>
    /// Whether the container's separator follows the last entry.
    package var separated: Bool
    /// The indentation of the first entry.
    package var indent: [UInt8]
    /// Where the comment lines right above the first entry start (``range``'s start
    /// when there are none).
    package var commentsStart: Int
  }

  /// The layout of the text (indentation unit and line ends).
  package var layout: TextLayout { TextLayout.detect(text, defaultUnit: defaultIndent) }

  /// The node of the value at `path`, if the text writes it there.
  package func node(at path: PrefKeyPath) -> Int? {
    guard !map.nodes.isEmpty else { return nil }
    var node = 0
    var value = self.value
    for component in path.components {
      switch (component, value) {
      case (.key(let key), .dictionary(let dict)):
        guard let child = map.child(of: node, named: key), let next = dict[key] else { return nil }
        node = child
        value = next
      case (.index(let index), .array(let items)):
        let children = children(of: node)
        guard children.count == items.count, index < items.count else { return nil }
        node = children[index]
        value = items[index]
      default:
        return nil
      }
    }
    return node
  }

  /// Whether the text gives the value at `path` only through a YAML alias or merge
  /// key (`*x`, `<<: *x`): a node on the way is an alias, or a key on the way is
  /// merged into its mapping rather than written there.
  package func reachesThroughAlias(_ path: PrefKeyPath) -> Bool {
    guard !map.nodes.isEmpty else { return false }
    var node = 0
    for component in path.components {
      if map.nodes[node].flags.contains(.alias) { return true }
      switch component {
      case .key(let key):
        guard let child = map.child(of: node, named: key) else { return map.nodes[node].flags.contains(.merges) }
        node = child
      case .index(let index):
        let children = children(of: node)
        guard index < children.count else { return false }
        node = children[index]
      }
    }
    return map.nodes[node].flags.contains(.alias)
  }

  /// The container's separator, if its format has one.
  package func separator(of container: Int) -> Separator? {
    let node = map.nodes[container]
    let isDictionary = map.firstChild(of: container).map { map.nodes[$0].name != nil } ?? false
    return syntax.separator(of: node, isDictionary: isDictionary, in: text)
  }

  /// The whole lines of the children `run` of `container`; nil when they share a line
  /// with other entries or text.
  package func entryLines(_ run: ArraySlice<Int>, of container: Int) -> EntryLines? {
    guard !run.isEmpty, !syntax.entriesShareALine(container, in: map, text: text) else { return nil }
    let separator = separator(of: container)
    var bounds: [TextPatcher.Bounds] = []
    for child in run {
      let b = TextPatcher.bounds(of: child, separator: separator, text: text, map: map, syntax: syntax)
      guard let lines = b.lines, lines.lowerBound == text.lineStart(of: lines.lowerBound) else { return nil }
      bounds.append(b)
    }
    let start = text.lineStart(of: bounds[0].start)
    return EntryLines(
      range: start..<bounds.last!.lines!.upperBound, separated: bounds.last!.separator != nil, indent: bounds[0].indent,
      commentsStart: min(start, bounds[0].lines!.lowerBound))
  }

  /// Where entries inserted before the `index`th child of `container` (after the last
  /// when `index` is the count) would start: a line start, whether they need a
  /// separator after the last of them, and their indentation. Nil when there is no
  /// line to insert at (an empty or one-line container, or after a last entry that a
  /// separator would have to follow).
  package func insertionLine(in container: Int, before index: Int) -> (position: Int, separated: Bool, indent: [UInt8])?
  {
    let children = map.children(of: container)
    guard !children.isEmpty, !syntax.entriesShareALine(container, in: map, text: text) else { return nil }
    let separator = separator(of: container)
    if index < children.count {
      let b = TextPatcher.bounds(of: children[index], separator: separator, text: text, map: map, syntax: syntax)
      guard let lines = b.lines, lines.lowerBound == text.lineStart(of: lines.lowerBound) else { return nil }
      return (lines.lowerBound, separator != nil, b.indent)
    }
    guard separator == nil || separator!.trailing,
      let lines = entryLines(children[(children.count - 1)...], of: container)
    else { return nil }
    return (lines.range.upperBound, separator != nil, lines.indent)
  }

  /// `entries` written as whole lines among the children of `container`, each line
  /// starting with `indent`; a separator follows each entry but the last, and the
  /// last when `separated`.
  /// With `oneLine`, each entry's value is written on one line (JSON compact, YAML in
  /// flow style), as a collection that stood on one line was.
  package func lines(
    of entries: [(key: String?, value: PrefValue)], in container: Int, indent: [UInt8], separated: Bool,
    path: PrefKeyPath, layout: TextLayout, warnings: Warnings, oneLine: Bool = false
  ) throws -> [UInt8] {
    let separator = separator(of: container)
    var context = TextPatcher.context(
      of: map.nodes[container], inline: oneLine, inFlow: oneLine || syntax.isFlow(map.nodes[container], in: text),
      text: text, syntax: syntax, layout: layout, warnings: warnings)
    context.indent = indent
    var out: [UInt8] = []
    for (k, entry) in entries.enumerated() {
      context.path = entry.key.map { path.appending(key: $0) } ?? path
      out += indent + (try syntax.entry(key: entry.key, value: entry.value, context: context))
      if let separator, separated || k < entries.count - 1 { out.append(separator.byte) }
      out += layout.lineEnd
    }
    return out
  }

  /// The lines of the entry of `child`, as written, with the container's separator
  /// after its value when `separated` and without one otherwise; nil when it shares
  /// its lines with other entries.
  package func lines(of child: Int, in container: Int, separated: Bool) -> [UInt8]? {
    ownLines(of: child, in: container, separated: separated, withComments: false)?.text
  }

  /// The node of the entry at `path` when it holds `value`, and its container's: by
  /// key in a dictionary; in an array, the item at the path's index when it holds the
  /// value, else the first that does (the other side of a merge numbers items its own way).
  package func entry(at path: PrefKeyPath, holding value: PrefValue) -> (container: Int, child: Int)? {
    guard let last = path.components.last else { return nil }
    let parentPath = PrefKeyPath(path.components.dropLast())
    guard let container = node(at: parentPath), let parent = self.value.existingValue(at: parentPath) else {
      return nil
    }
    switch (last, parent) {
    case (.key(let key), .dictionary(let entries)):
      guard entries[key] == value, let child = map.child(of: container, named: key) else { return nil }
      return (container, child)
    case (.index(let index), .array(let items)):
      let children = children(of: container)
      guard children.count == items.count else { return nil }
      let at =
        index < items.count && items[index] == value ? index : firstIndex(of: value, in: items, at: container)
      return at.map { (container, children[$0]) }
    default:
      return nil
    }
  }

  /// The lines of the entry of `child` as written, from the comment lines right above
  /// it when `withComments`, with the container's separator after its value when
  /// `separated` and without one otherwise, and the indentation of its first line;
  /// nil when it shares its lines with other entries.
  package func ownLines(of child: Int, in container: Int, separated: Bool, withComments: Bool = true)
    -> (text: [UInt8], indent: [UInt8])?
  {
    let separator = separator(of: container)
    let b = TextPatcher.bounds(of: child, separator: separator, text: text, map: map, syntax: syntax)
    guard let lines = b.lines, lines.lowerBound == text.lineStart(of: lines.lowerBound) else { return nil }
    let start = withComments ? lines.lowerBound : text.lineStart(of: b.start)
    var out = Array(text[start..<b.valueEnd])
    // The separator where the entry had its own (after Xcode's `/* name */` of an ID),
    // else right after the value; then the rest of the line (a comment, the line end).
    var rest = b.valueEnd
    if let at = b.separator {
      out += text[b.valueEnd..<at]
      rest = at + 1
    }
    if separated, let separator { out.append(separator.byte) }
    out += text[rest..<lines.upperBound]
    return (out, b.indent)
  }

  /// Whether the entry of `node`, from its key to the end of its value, stands on one line.
  package func entryIsOneLine(_ node: Int) -> Bool {
    let range = syntax.entryStart(of: map.nodes[node], in: text)..<map.nodes[node].value.upperBound
    return !text[range].contains(0x0A) && !text[range].contains(0x0D)
  }

  /// Whether the value of `node` stands on one line.
  package func isOneLine(_ node: Int) -> Bool {
    let range = map.nodes[node].value
    return !text[range].contains(0x0A) && !text[range].contains(0x0D)
  }

  /// The document's text with `replacements` (non-overlapping, in any order) made,
  /// encoded as the document is.
  package func replacing(_ replacements: [(range: Range<Int>, text: [UInt8])]) -> Data {
    var out: [UInt8] = []
    out.reserveCapacity(text.count)
    var position = 0
    // At one position an insertion goes before a replaced range; otherwise the given order stands.
    let ordered = replacements.enumerated().sorted { x, y in
      if x.element.range.lowerBound != y.element.range.lowerBound {
        return x.element.range.lowerBound < y.element.range.lowerBound
      }
      if x.element.range.isEmpty != y.element.range.isEmpty { return x.element.range.isEmpty }
      return x.offset < y.offset
    }.map(\.element)
    for (range, replacement) in ordered {
      out += text[position..<range.lowerBound]
      out += replacement
      position = range.upperBound
    }
    out += text[position...]
    return encoded(out)
  }

  /// The text in `range`.
  package func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> { text[range] }

  /// The whole text's length, in UTF-8 bytes.
  package var textLength: Int { text.count }
}
