import PrefsModel
import PrefsText

/// What the patcher needs to know of one text format: how it separates entries, what
/// a comment line looks like, and how a value or an entry is written in the layout of
/// the document it goes into. Each text format has one.
package protocol TextSyntax: Sendable {
  /// Reads `text` (UTF-8) into its value and source map.
  func readMapped(_ text: Data, options: ReadOptions, warnings: Warnings) throws -> (PrefValue, SourceMap)

  /// What stands between the entries of a container, if anything: `,` in JSON and
  /// flow YAML, `;` after every entry of an OpenStep dictionary. `trailing` says
  /// whether the last entry is followed by it too.
  func separator(of container: SourceMap.Node, isDictionary: Bool, in text: [UInt8]) -> Separator?

  /// Whether `line` (without its indentation) is a comment line, which belongs to the
  /// entry below it.
  func isCommentLine(_ line: ArraySlice<UInt8>) -> Bool

  /// The length of a comment starting at `position`, if one does (after a value on its line).
  func commentLength(at position: Int, in text: [UInt8]) -> Int?

  /// Whether `node` is a YAML flow collection, inside which block style cannot stand.
  func isFlow(_ node: SourceMap.Node, in text: [UInt8]) -> Bool

  /// Whether `prefix`, before an entry on its line, is made of indicators that belong to
  /// the enclosing entries (YAML's `- ` of a sequence item holding a mapping).
  func isIndicatorPrefix(_ prefix: ArraySlice<UInt8>) -> Bool

  /// Whether entries that share a line stand a space after their separator
  /// (`{"a": 1, "b": 2}`), as `text` writes them; compact JSON writes none.
  func spacesEntriesOnALine(in text: [UInt8]) -> Bool

  /// Whether `node`, which holds data, is written as the structure the data holds
  /// (YAML `!json`/`!plist`, JSON `{"$json": …}`/`{"$plist": …}`).
  func showsEmbeddedData(_ node: SourceMap.Node, in text: [UInt8]) -> Bool

  /// Where an entry's text starts: its key, or for an array item the item itself
  /// (YAML: the `-` before it).
  func entryStart(of node: SourceMap.Node, in text: [UInt8]) -> Int

  /// The text of `value` to stand in place of `node`'s value, or nil when it cannot
  /// stand there alone (the patcher then rewrites the whole entry).
  /// `context` says where the node stands.
  func value(_ value: PrefValue, replacing node: SourceMap.Node, context: FragmentContext) throws -> [UInt8]?

  /// The text of a whole entry (`key` and value, or an array item when `key` is nil):
  /// its first line without indentation, later lines each starting with `context.indent`.
  func entry(key: String?, value: PrefValue, context: FragmentContext) throws -> [UInt8]

  /// This syntax as it writes `newValue` into `text`, which holds `oldValue`: itself,
  /// or one that knows what the values hold (the names Xcode writes beside a
  /// project's object IDs).
  func writing(_ newValue: PrefValue, replacing oldValue: PrefValue, in text: [UInt8]) -> any TextSyntax

  /// What else changes in `text` when it comes to hold the new value ``writing(_:replacing:in:)``
  /// was given: in an Xcode project, the comments naming objects whose names changed.
  /// Each edit has the range it replaces and the span of text it depends on (the ID
  /// and its comment), which no other edit may touch.
  func followingEdits(map: SourceMap, text: [UInt8]) -> [(range: Range<Int>, span: Range<Int>, text: [UInt8])]

  /// Where a new entry of the dictionary at `path` (node `container`, holding `old`)
  /// goes when the format orders entries itself (an Xcode project's objects: in the
  /// section of their `isa`, by ID); nil when it goes after the entry before it in the
  /// new value.
  func placement(
    ofNew key: String, _ value: PrefValue, in container: Int, at path: PrefKeyPath, old: PrefDictionary,
    map: SourceMap, text: [UInt8]
  ) -> EntryPlacement?

  /// The text a new value of `node` replaces: its value, and in an Xcode project the
  /// comment after it naming the object it referred to.
  func replacedRange(of node: SourceMap.Node, in text: [UInt8]) -> Range<Int>
}

/// Where the format puts a new entry of a dictionary whose order it keeps itself.
package struct EntryPlacement: Equatable {
  /// The start of the line the entry goes on; entries placed at one position go in
  /// their keys' code point order.
  package var position: Int
  /// The group the entry opens when it is the first of its kind (an Xcode project's
  /// section of an `isa`); entries of one new group share it.
  package var group: Group?

  /// A group of entries between two comment lines, set off by a blank line before it.
  package struct Group: Equatable {
    /// What the group holds (an `isa`).
    package var name: String
    /// The line before its entries, without its line break.
    package var opening: [UInt8]
    /// The line after its entries, without its line break.
    package var closing: [UInt8]
  }

  package init(position: Int, group: Group? = nil) {
    self.position = position
    self.group = group
  }
}

extension TextSyntax {
  /// Whether `container`'s entries share one line with its brackets (`{"a": 1, "b": 2}`,
  /// a YAML flow collection, an Xcode build file). A YAML block collection of one
  /// entry stands on one line too, but it starts at that entry, on a line of its own.
  package func entriesShareALine(_ container: Int, in map: SourceMap, text: [UInt8]) -> Bool {
    let node = map.nodes[container]
    guard !text[node.value].contains(0x0A), !text[node.value].contains(0x0D) else { return false }
    return map.firstChild(of: container).map { entryStart(of: map.nodes[$0], in: text) != node.value.lowerBound }
      ?? true
  }

  package func writing(_ newValue: PrefValue, replacing oldValue: PrefValue, in text: [UInt8]) -> any TextSyntax {
    self
  }
  package func followingEdits(map: SourceMap, text: [UInt8]) -> [(range: Range<Int>, span: Range<Int>, text: [UInt8])] {
    []
  }
  package func placement(
    ofNew key: String, _ value: PrefValue, in container: Int, at path: PrefKeyPath, old: PrefDictionary,
    map: SourceMap, text: [UInt8]
  ) -> EntryPlacement? { nil }
  package func replacedRange(of node: SourceMap.Node, in text: [UInt8]) -> Range<Int> { node.value }
  package func isIndicatorPrefix(_ prefix: ArraySlice<UInt8>) -> Bool { false }
  package func spacesEntriesOnALine(in text: [UInt8]) -> Bool { true }
  package func showsEmbeddedData(_ node: SourceMap.Node, in text: [UInt8]) -> Bool { false }
  package func isFlow(_ node: SourceMap.Node, in text: [UInt8]) -> Bool { false }
  package func entryStart(of node: SourceMap.Node, in text: [UInt8]) -> Int {
    node.key?.lowerBound ?? node.value.lowerBound
  }
}

/// A syntax whose replacement values and new entries come from one renderer, which
/// writes the key too when there is one (XML and OpenStep property lists).
package protocol RenderedSyntax: TextSyntax {
  func render(key: String?, _ value: PrefValue, context: FragmentContext) throws -> [UInt8]
}

extension RenderedSyntax {
  package func value(_ value: PrefValue, replacing node: SourceMap.Node, context: FragmentContext) throws -> [UInt8]? {
    try render(key: nil, value, context: context)
  }

  package func entry(key: String?, value: PrefValue, context: FragmentContext) throws -> [UInt8] {
    try render(key: key, value, context: context)
  }
}

/// What separates entries of a container.
package struct Separator: Equatable {
  package var byte: UInt8
  /// Whether the last entry is followed by it too (`;` in OpenStep, or a trailing comma).
  package var trailing: Bool
}

/// Where a fragment goes: what the patcher knows of the place.
package struct FragmentContext {
  /// The document's layout: indentation unit and line ends.
  package var layout: TextLayout
  /// What starts each line of the fragment after its first: the indentation of the
  /// entry's first line.
  package var indent: [UInt8]
  /// Whether the fragment goes on one line among others (`{"a": 1, "b": 2}`, YAML flow).
  package var inline: Bool
  /// Whether the place is inside a YAML flow collection, where block style cannot stand.
  package var inFlow: Bool
  /// Where the value goes, for messages.
  package var path: PrefKeyPath
  /// The text of the whole document.
  package var text: [UInt8]
  /// Warnings of the writers (a date fraction XML cannot hold).
  package var warnings: Warnings
  /// Whether data that holds JSON or a binary plist is written as that structure
  /// (YAML `!json`, JSON `$json`): the value replaced was written so.
  package var showsEmbeddedData = false

  package init(
    layout: TextLayout, indent: [UInt8], inline: Bool, inFlow: Bool, path: PrefKeyPath, text: [UInt8],
    warnings: Warnings
  ) {
    self.layout = layout
    self.indent = indent
    self.inline = inline
    self.inFlow = inFlow
    self.path = path
    self.text = text
    self.warnings = warnings
  }
}

/// How a text document is laid out: what the patcher copies into what it writes.
package struct TextLayout: Equatable {
  /// One level of indentation: a tab or some spaces.
  package var indentUnit: [UInt8]
  /// `\n` or `\r\n`, as the document's first line ends.
  package var lineEnd: [UInt8]

  package init(indentUnit: [UInt8], lineEnd: [UInt8]) {
    self.indentUnit = indentUnit
    self.lineEnd = lineEnd
  }

  package static let standard = TextLayout(indentUnit: [0x20, 0x20], lineEnd: [0x0A])

  /// The layout of `text`: its first line end, and its indentation unit (a tab when
  /// most indented lines start with one, else the smallest indentation in spaces).
  package static func detect(_ text: [UInt8], defaultUnit: [UInt8] = [0x20, 0x20]) -> TextLayout {
    var layout = TextLayout(indentUnit: defaultUnit, lineEnd: [0x0A])
    if let newline = text.firstIndex(of: 0x0A), newline > 0, text[newline - 1] == 0x0D {
      layout.lineEnd = [0x0D, 0x0A]
    }
    var tabs = 0
    var spaced = 0
    var smallest = Int.max
    var i = 0
    var atLineStart = true
    // The first lines tell: a large document is not read twice for its layout.
    let end = min(text.count, 1 << 16)
    while i < end {
      if atLineStart {
        var spaces = 0
        while i < end, text[i] == 0x20 {
          spaces += 1
          i += 1
        }
        if i < end, text[i] == 0x09, spaces == 0 {
          tabs += 1
        } else if spaces > 0, i < end, text[i] != 0x0A, text[i] != 0x0D {
          spaced += 1
          smallest = min(smallest, spaces)
        }
        atLineStart = false
      }
      if i < end, text[i] == 0x0A { atLineStart = true }
      i += 1
    }
    if tabs > spaced {
      layout.indentUnit = [0x09]
    } else if smallest != Int.max {
      layout.indentUnit = [UInt8](repeating: 0x20, count: min(smallest, 8))
    }
    return layout
  }
}

// MARK: - Byte helpers

extension Array where Element == UInt8 {
  /// The start of the line holding `position`.
  package func lineStart(of position: Int) -> Int {
    var i = position
    while i > 0, self[i - 1] != 0x0A, self[i - 1] != 0x0D { i -= 1 }
    return i
  }

  /// After the spaces and tabs from `position`.
  package func skippingBlanks(from position: Int) -> Int {
    var i = position
    while i < count, self[i] == 0x20 || self[i] == 0x09 { i += 1 }
    return i
  }

  /// After the line break at `position`, if one is there (`\n`, `\r\n` or `\r`).
  package func afterLineBreak(at position: Int) -> Int? {
    guard position < count else { return nil }
    if self[position] == 0x0A { return position + 1 }
    if self[position] == 0x0D {
      return position + 1 < count && self[position + 1] == 0x0A ? position + 2 : position + 1
    }
    return nil
  }

  /// Whether only spaces and tabs lie in `range`.
  package func isBlank(_ range: Range<Int>) -> Bool {
    self[range].allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }
}

/// Prefixes every line after the first of `text` with `indent` (empty lines stay
/// empty), turns `\n` into the layout's line end and drops a final line break.
func indented(_ text: [UInt8], indent: [UInt8], lineEnd: [UInt8]) -> [UInt8] {
  var body = text[...]
  while body.last == 0x0A { body = body.dropLast() }
  var out: [UInt8] = []
  out.reserveCapacity(body.count + 16)
  var atLineStart = false
  for b in body {
    if b == 0x0A {
      out += lineEnd
      atLineStart = true
    } else {
      if atLineStart {
        out += indent
        atLineStart = false
      }
      out.append(b)
    }
  }
  return out
}

/// The length of a comment that opens with `opening` at the start of `text` and
/// closes with `closing` on the same line (`<!-- -->`, `/* */`); nil when there is none.
func oneLineComment(_ text: ArraySlice<UInt8>, opening: [UInt8], closing: [UInt8]) -> Int? {
  guard text.starts(with: opening) else { return nil }
  var i = text.startIndex + opening.count
  while i + closing.count <= text.endIndex, text[i] != 0x0A, text[i] != 0x0D {
    if text[i..<(i + closing.count)].elementsEqual(closing) { return i + closing.count - text.startIndex }
    i += 1
  }
  return nil
}
