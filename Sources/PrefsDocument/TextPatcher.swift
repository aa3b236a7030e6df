import PrefsFormats
import PrefsModel
import PrefsText

/// Changes the text of a document into the text of a new value by replacing only the
/// bytes of what changed.
///
/// It walks the old and new values beside the source map: a changed scalar has its
/// value's bytes replaced; a removed entry goes with its own lines and the comment
/// lines right above it; a new entry is inserted after its sibling, in the sibling's
/// indentation and the document's line ends; arrays line up by ``ArrayAlignment``.
/// What cannot change in place (a scalar becoming a collection in YAML, an empty
/// container filled, an alias, a mapping with merge keys losing a merged key) has
/// its smallest enclosing entry rewritten, and that is recorded in ``rewrites``.
/// Key order follows the text: keys that only moved stay where they are.
///
/// A YAML alias (`*x`) or merge key (`<<: *x`) whose new value is what its anchor
/// gives after the patch is left as written: a change inside the anchored node is
/// patched there alone. Where the new value differs, a merged key gets an entry of
/// its own in the mapping (which wins over the merge, as YAML says), and an alias is
/// written out as a copy of its value, recorded in ``expandedAliases``.
struct TextPatcher {
  package let text: [UInt8]
  let map: SourceMap
  let syntax: any TextSyntax
  package let layout: TextLayout
  let warnings: Warnings
  /// The other side of a merge: an entry it adds is written as it writes it (its
  /// comment lines with it), where that fits the document's layout.
  let other: TextDocument?
  /// The entries rewritten whole rather than patched, as key paths, for the user.
  private(set) var rewrites: [PrefKeyPath] = []
  /// The root's entries patched inside, by key, with where their values and whole
  /// entries (key included) stood: a large document is checked by reading these alone.
  private(set) var patchedRootEntries: [(key: String, value: Range<Int>, entry: Range<Int>)] = []
  /// The entries written out whole that held an alias or a merge key, as key paths: a
  /// copy of what the anchor gave, which no longer follows it.
  private(set) var expandedAliases: [PrefKeyPath] = []
  private var edits: [Edit] = []
  /// The new value of the whole document, which an alias's anchor is looked up in.
  private var newRoot = PrefValue.null
  /// The key path of each anchored node in the old value, found on the first alias.
  private var anchoredPaths: [Int: PrefKeyPath]?

  private struct Edit {
    var range: Range<Int>
    var text: [UInt8]
  }

  /// Thrown when the whole document must be written anew (the root changes kind).
  struct NeedsRewrite: Error {}

  init(
    text: [UInt8], map: SourceMap, syntax: any TextSyntax, layout: TextLayout, warnings: Warnings,
    other: TextDocument? = nil
  ) {
    self.text = text
    self.map = map
    self.syntax = syntax
    self.layout = layout
    self.warnings = warnings
    self.other = other
  }

  /// The text of `new`, patched from the text of `old` (the value the map was read
  /// with); nil when the two are equal.
  mutating func patch(from old: PrefValue, to new: PrefValue) throws -> [UInt8]? {
    // A dictionary or array compares its entries itself, once.
    let containers = old.kind == new.kind && (old.kind == .dictionary || old.kind == .array)
    if !containers, old == new { return nil }
    newRoot = new
    try patch(0, old, new, path: PrefKeyPath(), inline: false, inFlow: false)
    guard !edits.isEmpty else { return nil }
    let changed = edits.map(\.range)
    for edit in syntax.followingEdits(map: map, text: text)
    where !changed.contains(where: { $0.overlaps(edit.span) || ($0.isEmpty && edit.span.contains($0.lowerBound)) }) {
      add(edit.range, edit.text)
    }
    return applied()
  }

  // MARK: Walking the values

  /// Patches the node of two values that differ. (Each value is compared once, by
  /// the caller: comparing again here would cost a pass per level.)
  private mutating func patch(
    _ index: Int, _ old: PrefValue, _ new: PrefValue, path: PrefKeyPath, inline: Bool, inFlow: Bool
  ) throws {
    let node = map.nodes[index]
    if node.flags.contains(.alias), let repeated = anchorValue(ofAlias: index), repeated == new { return }
    if !node.flags.isDisjoint(with: [.alias, .tagged]) {
      return try replace(index, with: new, path: path, inline: inline, inFlow: inFlow)
    }
    let childrenInline = syntax.entriesShareALine(index, in: map, text: text)
    let flow = inFlow || syntax.isFlow(node, in: text)
    switch (old, new) {
    case (.dictionary(let a), .dictionary(let b)):
      try patchDictionary(index, a, b, path: path, inline: inline, childrenInline: childrenInline, inFlow: flow)
    case (.array(let a), .array(let b)):
      try patchArray(index, a, b, path: path, inline: inline, childrenInline: childrenInline, inFlow: flow)
    default:
      try replace(index, with: new, path: path, inline: inline, inFlow: inFlow)
    }
  }

  private mutating func patchDictionary(
    _ index: Int, _ a: PrefDictionary, _ b: PrefDictionary, path: PrefKeyPath, inline: Bool,
    childrenInline: Bool, inFlow: Bool
  ) throws {
    let node = map.nodes[index]
    // By scalars, as the model tells keys apart.
    var written: [ScalarKey: Int] = [:]
    for child in map.children(of: index) {
      if let name = map.nodes[child].name, !(name == "<<" && node.flags.contains(.merges)) {
        written[ScalarKey(name)] = child
      }
    }
    // What the merge keys give after the patch, when they are aliases: a merged key
    // that still gives its new value needs no entry here.
    let merged = node.flags.contains(.merges) ? mergedValue(of: index) : nil
    // A key read from a merge (`<<`) is not written here: it cannot go by itself. (A
    // changed one can: a key written in the mapping wins over a merged one.)
    let unwrittenGoes =
      a.contains { b[$0.key] == nil && written[ScalarKey($0.key)] == nil && merged?[$0.key] != nil }
      || (merged?.contains { b[$0.key] == nil && written[ScalarKey($0.key)] == nil } ?? false)
    if unwrittenGoes || (!node.flags.contains(.merges) && written.count != a.count) {
      return try replace(index, with: .dictionary(b), path: path, inline: inline, inFlow: inFlow)
    }
    var removed: [Int] = []
    for (key, oldValue) in a {
      guard let child = written[ScalarKey(key)] else { continue }
      if let newValue = b[key] {
        guard newValue != oldValue else { continue }
        if index == 0 {
          let node = map.nodes[child]
          patchedRootEntries.append(
            (key, node.value, (node.key?.lowerBound ?? node.value.lowerBound)..<node.value.upperBound))
        }
        try patch(
          child, oldValue, newValue, path: path.appending(key: key), inline: childrenInline, inFlow: inFlow)
      } else {
        removed.append(child)
      }
    }
    var insertions: [Insertion] = []
    var placed: [(placement: EntryPlacement, key: String, value: PrefValue)] = []
    var anchor: Int?
    for (key, newValue) in b {
      if let child = written[ScalarKey(key)] {
        anchor = child
      } else if (merged.map { $0[key] } ?? a[key]) != newValue {
        if !childrenInline, removed.count < written.count,
          let placement = syntax.placement(ofNew: key, newValue, in: index, at: path, old: a, map: map, text: text)
        {
          placed.append((placement, key, newValue))
        } else {
          insertions.append(Insertion(after: anchor, key: key, value: newValue, path: path.appending(key: key)))
        }
      }
    }
    try editContainer(
      index, newValue: .dictionary(b), removed: removed, insertions: insertions, isDictionary: true, path: path,
      inline: inline, childrenInline: childrenInline, inFlow: inFlow)
    if !placed.isEmpty { try insert(placed, in: index, path: path, inFlow: inFlow) }
  }

  /// New entries at the places the format gives them, as whole lines in the indentation
  /// of the container's first entry; a new group's entries between its opening and
  /// closing lines, after a blank line.
  private mutating func insert(
    _ placed: [(placement: EntryPlacement, key: String, value: PrefValue)], in index: Int, path: PrefKeyPath,
    inFlow: Bool
  ) throws {
    let separator = syntax.separator(of: map.nodes[index], isDictionary: true, in: text)
    var context = context(index, false, inFlow)
    context.indent = bounds(of: map.children(of: index)[0], separator: separator).indent
    let ordered = placed.sorted {
      $0.placement.position != $1.placement.position
        ? $0.placement.position < $1.placement.position : PrefDictionary.codePointOrder($0.key, $1.key)
    }
    var start = 0
    while start < ordered.count {
      let placement = ordered[start].placement
      var end = start
      var out: [UInt8] = []
      while end < ordered.count, ordered[end].placement == placement {
        context.path = path.appending(key: ordered[end].key)
        out += context.indent + (try syntax.entry(key: ordered[end].key, value: ordered[end].value, context: context))
        if let separator { out.append(separator.byte) }
        out += layout.lineEnd
        end += 1
      }
      if let group = placement.group {
        out = layout.lineEnd + group.opening + layout.lineEnd + out + group.closing + layout.lineEnd
      }
      add(placement.position..<placement.position, out)
      start = end
    }
  }

  private mutating func patchArray(
    _ index: Int, _ a: [PrefValue], _ b: [PrefValue], path: PrefKeyPath, inline: Bool, childrenInline: Bool,
    inFlow: Bool
  ) throws {
    let children = map.children(of: index)
    guard children.count == a.count else {
      return try replace(index, with: .array(b), path: path, inline: inline, inFlow: inFlow)
    }
    var removed: [Int] = []
    var insertions: [Insertion] = []
    var anchor: Int?
    for step in ArrayAlignment.align(a, b) {
      switch step {
      case .same(let i, _):
        anchor = children[i]
      case .changed(let i, let j):
        try patch(children[i], a[i], b[j], path: path.appending(index: j), inline: childrenInline, inFlow: inFlow)
        anchor = children[i]
      case .removed(let i):
        removed.append(children[i])
      case .inserted(let j):
        insertions.append(Insertion(after: anchor, key: nil, value: b[j], path: path.appending(index: j)))
      }
    }
    try editContainer(
      index, newValue: .array(b), removed: removed, insertions: insertions, isDictionary: false, path: path,
      inline: inline, childrenInline: childrenInline, inFlow: inFlow)
  }

  // MARK: Entries of a container

  /// A new entry and the written child it goes after (nil: before the first).
  private struct Insertion {
    var after: Int?
    var key: String?
    var value: PrefValue
    var path: PrefKeyPath
  }

  /// Where a child's entry lies.
  struct Bounds {
    /// Its first byte: the key, or the item (YAML: the `-`).
    var start: Int
    /// Its value's last byte.
    var valueEnd: Int
    /// Its separator, when one follows it.
    var separator: Int?
    /// Its whole lines, with the comment lines above it, when it has lines to itself.
    /// (After a YAML `- ` on its first line, its lines start at the entry and end
    /// before the last line break, so that the `-` stays.)
    var lines: Range<Int>?
    /// Where an entry inserted after it goes, when it has lines to itself.
    var lineAfter: Int?
    /// What stands before it on its line.
    var indent: [UInt8]
  }

  private func bounds(of child: Int, separator: Separator?) -> Bounds {
    Self.bounds(of: child, separator: separator, text: text, map: map, syntax: syntax)
  }

  /// Where the entry of `child` lies in `text`, and the lines it has to itself.
  static func bounds(of child: Int, separator: Separator?, text: [UInt8], map: SourceMap, syntax: any TextSyntax)
    -> Bounds
  {
    let node = map.nodes[child]
    let start = syntax.entryStart(of: node, in: text)
    let lineStart = text.lineStart(of: start)
    let leadingBlank = text.isBlank(lineStart..<start)
    let afterIndicator = !leadingBlank && syntax.isIndicatorPrefix(text[lineStart..<start])
    let valueEnd = node.value.upperBound
    // A YAML block scalar ends with its line break: the comment on the next line is not its own.
    let endsWithLineBreak = valueEnd > start && text[valueEnd - 1] == 0x0A
    var j = endsWithLineBreak ? valueEnd : text.skippingBlanks(from: valueEnd)
    // Xcode names a referenced object in a comment between the value and its `;`.
    if separator != nil, let length = syntax.commentLength(at: j, in: text) {
      let after = text.skippingBlanks(from: j + length)
      if after < text.count, text[after] == separator!.byte { j = after }
    }
    var separatorAt: Int?
    if let separator, j < text.count, text[j] == separator.byte {
      separatorAt = j
      j = text.skippingBlanks(from: j + 1)
    }
    if !endsWithLineBreak, let length = syntax.commentLength(at: j, in: text) {
      j = text.skippingBlanks(from: j + length)
    }
    var lineEnd = text.afterLineBreak(at: j) ?? (j == text.count ? j : nil)
    if endsWithLineBreak { lineEnd = valueEnd }
    var lines: Range<Int>?
    if afterIndicator, let lineEnd {
      var end = lineEnd
      while end > valueEnd, text[end - 1] == 0x0A || text[end - 1] == 0x0D { end -= 1 }
      lines = start..<end
    } else if leadingBlank, let lineEnd {
      var first = lineStart
      // The comment lines right above belong to the entry.
      while first > 0 {
        var previousEnd = first - 1
        if previousEnd > 0, text[previousEnd] == 0x0A, text[previousEnd - 1] == 0x0D { previousEnd -= 1 }
        let previousStart = text.lineStart(of: previousEnd)
        let content = text[text.skippingBlanks(from: previousStart)..<previousEnd]
        guard !content.isEmpty, syntax.isCommentLine(content) else { break }
        first = previousStart
      }
      lines = first..<lineEnd
    }
    let indent = leadingBlank ? Array(text[lineStart..<start]) : [UInt8](repeating: 0x20, count: start - lineStart)
    return Bounds(
      start: start, valueEnd: valueEnd, separator: separatorAt, lines: lines, lineAfter: lineEnd, indent: indent)
  }

  /// The lines the other side of a merge writes a new entry on, with its comment
  /// lines, when it writes the entry's value there in this document's indentation
  /// and line ends.
  private func otherLines(of item: Insertion, indent: [UInt8], separated: Bool) -> [UInt8]? {
    guard let other, other.layout.lineEnd == layout.lineEnd,
      let (container, child) = other.entry(at: item.path, holding: item.value),
      var lines = other.ownLines(of: child, in: container, separated: separated), lines.indent == indent
    else { return nil }
    if lines.text.last != 0x0A, lines.text.last != 0x0D { lines.text += layout.lineEnd }
    return lines.text
  }

  /// Where the entry after `child` starts, when `child` stands after a YAML `- ` on
  /// its line (`- - a`, `- key: v`) and that entry, kept, can take its place there:
  /// it starts in the same column, with no comment lines above it.
  private func nextOnIndicatorLine(after child: Int, _ children: [Int], _ all: [Int: Bounds], removed: [Int])
    -> Int?
  {
    let b = all[child]!
    let lineStart = text.lineStart(of: b.start)
    guard lineStart < b.start, !text.isBlank(lineStart..<b.start), let position = children.firstIndex(of: child),
      position + 1 < children.count, !removed.contains(children[position + 1]),
      let nextLines = all[children[position + 1]]!.lines
    else { return nil }
    let next = all[children[position + 1]]!.start
    let nextLineStart = text.lineStart(of: next)
    guard nextLines.lowerBound == nextLineStart, next - nextLineStart == b.start - lineStart,
      text.isBlank(nextLineStart..<next)
    else { return nil }
    return next
  }

  /// Whether a blank line stands right above an entry's lines (and its comments).
  private func blankLineBefore(_ b: Bounds) -> Bool {
    guard let lines = b.lines, lines.lowerBound > 0, text[lines.lowerBound - 1] == 0x0A else { return false }
    var previousEnd = lines.lowerBound - 1
    if previousEnd > 0, text[previousEnd - 1] == 0x0D { previousEnd -= 1 }
    return text.isBlank(text.lineStart(of: previousEnd)..<previousEnd)
  }

  private mutating func editContainer(
    _ index: Int, newValue: PrefValue, removed: [Int], insertions: [Insertion], isDictionary: Bool,
    path: PrefKeyPath, inline: Bool, childrenInline: Bool, inFlow: Bool
  ) throws {
    guard !removed.isEmpty || !insertions.isEmpty else { return }
    let node = map.nodes[index]
    let children = map.children(of: index)
    let gone = Set(removed)
    let survivors = children.filter { !gone.contains($0) }
    // An empty container filled, or a container emptied: its text changes shape.
    if children.isEmpty || survivors.isEmpty {
      return try replace(index, with: newValue, path: path, inline: inline, inFlow: inFlow)
    }
    let separator = syntax.separator(of: node, isDictionary: isDictionary, in: text)
    var all: [Int: Bounds] = [:]
    var place: [Int: Int] = [:]
    for (position, child) in children.enumerated() {
      all[child] = bounds(of: child, separator: separator)
      place[child] = position
    }
    let byLines = !childrenInline && children.allSatisfy { all[$0]!.lines != nil }
    // Entries set apart by blank lines (a `.strings` file, YAML sections): new ones are too.
    let spaced = byLines && children.count > 1 && children.dropFirst().allSatisfy { blankLineBefore(all[$0]!) }

    for child in removed {
      let b = all[child]!
      if byLines, let next = nextOnIndicatorLine(after: child, children, all, removed: removed) {
        // The first entry after a YAML `- ` goes, and the next one takes its place on that line.
        add(b.start..<next, [])
      } else if byLines {
        var lines = b.lines!
        // The last line of a file that ends without a line break takes the break before it.
        if lines.upperBound == text.count, text.last != 0x0A, text.last != 0x0D, lines.lowerBound > 0 {
          var start = lines.lowerBound - 1
          if text[start] == 0x0A, start > 0, text[start - 1] == 0x0D { start -= 1 }
          lines = start..<lines.upperBound
        }
        add(lines, [])
      } else if let position = place[child], position + 1 < children.count {
        add(b.start..<all[children[position + 1]]!.start, [])
      } else {
        add(b.start..<(b.separator.map { $0 + 1 } ?? b.valueEnd), [])
      }
    }

    // The last entry left takes no separator unless the format wants a trailing one.
    let lastSurvivor = survivors.last!
    let insertedAfterLast = insertions.contains { $0.after == lastSurvivor }
    if let separator, !separator.trailing {
      let b = all[lastSurvivor]!
      if lastSurvivor != children.last!, !insertedAfterLast || !byLines, let at = b.separator {
        // Its separator now ends the container.
        let next = children[place[lastSurvivor]! + 1]
        add(byLines ? at..<(at + 1) : b.valueEnd..<all[next]!.start, [])
      } else if lastSurvivor == children.last!, insertedAfterLast, byLines, b.separator == nil {
        add(b.valueEnd..<b.valueEnd, [separator.byte])
      }
    }

    // New entries, grouped by the child they follow, in order.
    var groups: [(after: Int?, items: [Insertion])] = []
    for insertion in insertions {
      if let last = groups.last, last.after == insertion.after {
        groups[groups.count - 1].items.append(insertion)
      } else {
        groups.append((insertion.after, [insertion]))
      }
    }
    // Between entries on one line: a space, unless the text writes none (compact JSON).
    let space: [UInt8] = byLines || syntax.spacesEntriesOnALine(in: text) ? [0x20] : []
    for (groupIndex, group) in groups.enumerated() {
      let sibling = all[group.after ?? children.first!]!
      var context = context(index, childrenInline, inFlow)
      context.indent = sibling.indent
      var out: [UInt8] = []
      let endsContainer = group.after == lastSurvivor && groupIndex == groups.count - 1
      for (k, item) in group.items.enumerated() {
        context.path = item.path
        let entry = try syntax.entry(key: item.key, value: item.value, context: context)
        let isLast = endsContainer && k == group.items.count - 1
        if byLines {
          if spaced, group.after != nil { out += layout.lineEnd }
          let separated = separator.map { $0.trailing || !isLast } ?? false
          if let lines = otherLines(of: item, indent: sibling.indent, separated: separated) {
            out += lines
          } else {
            out += sibling.indent + entry
            if let separator, separated { out.append(separator.byte) }
            out += layout.lineEnd
          }
          if spaced, group.after == nil { out += layout.lineEnd }
        } else if group.after != nil, let separator, separator.trailing, all[group.after!]!.separator != nil {
          // After the sibling's own `;`: the new entry brings its own.
          out += space + entry + [separator.byte]
        } else if group.after != nil {
          if let separator { out.append(separator.byte) }
          out += space
          out += entry
        } else {
          out += entry
          if let separator { out.append(separator.byte) }
          out += space
        }
      }
      let position: Int
      if let after = group.after {
        let b = all[after]!
        if byLines {
          position = b.lineAfter!
          if position == text.count, text.last != 0x0A, text.last != 0x0D {
            // After a last line without a line break: the break goes before, none after.
            out = layout.lineEnd + out.dropLast(layout.lineEnd.count)
          }
        } else {
          // After the value, the new entry taking the separator before it (the old one
          // then follows it); or after a separator every entry ends with.
          position = separator?.trailing == true ? b.separator.map { $0 + 1 } ?? b.valueEnd : b.valueEnd
        }
      } else {
        position = byLines ? sibling.lines!.lowerBound : sibling.start
      }
      add(position..<position, out)
    }
  }

  // MARK: Replacing

  private func context(_ index: Int, _ inline: Bool, _ inFlow: Bool) -> FragmentContext {
    Self.context(
      of: map.nodes[index], inline: inline, inFlow: inFlow, text: text, syntax: syntax, layout: layout,
      warnings: warnings)
  }

  /// Where a fragment replacing `node`, or going among its entries, stands: the
  /// indentation of the node's line, or for an entry after YAML's `- ` on its line
  /// (`- - !!binary |`), its own column, which its continuation lines must pass.
  static func context(
    of node: SourceMap.Node, inline: Bool, inFlow: Bool, text: [UInt8], syntax: any TextSyntax, layout: TextLayout,
    warnings: Warnings
  ) -> FragmentContext {
    let start = syntax.entryStart(of: node, in: text)
    let lineStart = text.lineStart(of: start)
    let blankEnd = text.skippingBlanks(from: lineStart)
    let indent =
      blankEnd < start && syntax.isIndicatorPrefix(text[lineStart..<start])
      ? [UInt8](repeating: 0x20, count: start - lineStart) : Array(text[lineStart..<min(blankEnd, start)])
    return FragmentContext(
      layout: layout, indent: indent, inline: inline, inFlow: inFlow, path: PrefKeyPath(), text: text,
      warnings: warnings)
  }

  /// Replaces the value of a node, or (when its text cannot change alone) its whole entry.
  private mutating func replace(
    _ index: Int, with value: PrefValue, path: PrefKeyPath, inline: Bool, inFlow: Bool
  ) throws {
    let node = map.nodes[index]
    var context = context(index, inline, inFlow)
    context.path = path
    // Data written as the structure it holds stays so, while the new data holds one too.
    if case .data(let data) = value, syntax.showsEmbeddedData(node, in: text), EmbeddedData.expand(data) != nil {
      context.showsEmbeddedData = true
    }
    // A YAML block scalar's text ends with its line break, which the new text must keep.
    let endsLine = !node.value.isEmpty && text[node.value.upperBound - 1] == 0x0A
    if let replacement = try syntax.value(value, replacing: node, context: context) {
      if holdsAlias(index) { expandedAliases.append(path) }
      return add(syntax.replacedRange(of: node, in: text), endsLine ? replacement + layout.lineEnd : replacement)
    }
    guard index != 0 else { throw NeedsRewrite() }
    let start = syntax.entryStart(of: node, in: text)
    if start != text.lineStart(of: start) {
      // Continuation lines stand at the entry's column.
      context.indent = [UInt8](repeating: 0x20, count: start - text.lineStart(of: start))
    }
    var entry = try syntax.entry(key: node.name, value: value, context: context)
    if endsLine { entry += layout.lineEnd }
    rewrites.append(path)
    if holdsAlias(index) { expandedAliases.append(path) }
    add(start..<node.value.upperBound, entry)
  }

  // MARK: Aliases

  /// The new value of the node the alias at `index` repeats (the last anchor of its
  /// name before it); nil when that anchor is gone from the new value or not found.
  private mutating func anchorValue(ofAlias index: Int) -> PrefValue? {
    let alias = map.nodes[index].value
    guard alias.count > 1, text[alias.lowerBound] == UInt8(ascii: "*") else { return nil }
    let name = text[(alias.lowerBound + 1)..<alias.upperBound]
    guard
      let anchored = stride(from: index - 1, through: 0, by: -1).first(where: {
        map.nodes[$0].flags.contains(.anchored) && anchorName(of: $0).elementsEqual(name)
      })
    else { return nil }
    if anchoredPaths == nil {
      var paths: [Int: PrefKeyPath] = [:]
      collectAnchoredPaths(0, PrefKeyPath(), into: &paths)
      anchoredPaths = paths
    }
    return anchoredPaths?[anchored].flatMap { newRoot.existingValue(at: $0) }
  }

  /// The name an anchored node is written with (`&name`), or nothing when its tag comes first.
  private func anchorName(of index: Int) -> ArraySlice<UInt8> {
    let start = map.nodes[index].value.lowerBound
    guard start < text.count, text[start] == UInt8(ascii: "&") else { return [] }
    // An anchor's name ends at a space, a line break or a flow indicator.
    let end = text[(start + 1)...].firstIndex { " \t\r\n,[]{}".utf8.contains($0) } ?? text.count
    return text[(start + 1)..<end]
  }

  /// Notes the key path of every anchored node below `index` (an alias holds no nodes).
  private func collectAnchoredPaths(_ index: Int, _ path: PrefKeyPath, into paths: inout [Int: PrefKeyPath]) {
    let node = map.nodes[index]
    if node.flags.contains(.anchored) { paths[index] = path }
    for (position, child) in map.children(of: index).enumerated() {
      switch map.nodes[child].name {
      case "<<" where node.flags.contains(.merges): continue
      case let name?: collectAnchoredPaths(child, path.appending(key: name), into: &paths)
      case nil: collectAnchoredPaths(child, path.appending(index: position), into: &paths)
      }
    }
  }

  /// What the merge keys of the mapping at `index` give after the patch, when each is
  /// an alias or a sequence of aliases (an earlier mapping's key wins, as YAML says);
  /// nil otherwise.
  private mutating func mergedValue(of index: Int) -> PrefDictionary? {
    var merged = PrefDictionary()
    for child in map.children(of: index) where map.nodes[child].name == "<<" {
      let sources = map.nodes[child].flags.contains(.alias) ? [child] : map.children(of: child)
      for source in sources {
        guard map.nodes[source].flags.contains(.alias),
          case .dictionary(let given)? = anchorValue(ofAlias: source)
        else { return nil }
        for (key, value) in given where merged[key] == nil { merged[key] = value }
      }
    }
    return merged
  }

  /// Whether the node at `index` is, or holds, an alias or a merge key: what writing
  /// its value out would copy.
  private func holdsAlias(_ index: Int) -> Bool {
    !map.nodes[index].flags.isDisjoint(with: [.alias, .merges]) || map.children(of: index).contains(where: holdsAlias)
  }

  // MARK: Edits

  /// Where the text at `range` of the old document stands in the patched one (edits
  /// inside it included).
  func newRange(of range: Range<Int>) -> Range<Int> {
    var start = range.lowerBound
    var end = range.upperBound
    for edit in edits {
      let delta = edit.text.count - edit.range.count
      if edit.range.upperBound <= range.lowerBound, edit.range.lowerBound < range.lowerBound { start += delta }
      if edit.range.lowerBound < range.upperBound { end += delta }
    }
    return start..<end
  }

  private mutating func add(_ range: Range<Int>, _ replacement: [UInt8]) {
    edits.append(Edit(range: range, text: replacement))
  }

  /// The text with every edit made. Edits never overlap; at one position a removal
  /// goes before an insertion, and insertions keep the order they were added in.
  private func applied() -> [UInt8] {
    let ordered = edits.enumerated().sorted { x, y in
      if x.element.range.lowerBound != y.element.range.lowerBound {
        return x.element.range.lowerBound < y.element.range.lowerBound
      }
      if x.element.range.isEmpty != y.element.range.isEmpty { return !x.element.range.isEmpty }
      return x.offset < y.offset
    }.map(\.element)
    var out: [UInt8] = []
    out.reserveCapacity(text.count + ordered.reduce(0) { $0 + $1.text.count })
    var position = 0
    for edit in ordered {
      let start = max(edit.range.lowerBound, position)
      out += text[position..<start]
      out += edit.text
      position = max(position, edit.range.upperBound)
    }
    out += text[position...]
    return out
  }
}
