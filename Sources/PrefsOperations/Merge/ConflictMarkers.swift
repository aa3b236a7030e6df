import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// The conflicts of a merge set in the text of CURRENT's document, as git sets them:
/// the merged value is written through ``TextDocument/patched(to:warnings:other:)`` (CURRENT's
/// value kept at each conflict), then the smallest region of whole lines holding each
/// conflicting entry is wrapped in `<<<<<<<`, `=======` and `>>>>>>>` around OTHER's
/// entry written in the same layout. Everything else stays byte for byte.
///
/// A region is first the conflicting entries themselves (or, where CURRENT removed
/// them, the line where OTHER's would go); when they share lines with other text (a
/// one-line JSON object, a YAML mapping after a `- `), or OTHER's side would not read
/// back as OTHER's value, the region grows to the enclosing entry, up to the whole
/// document.
public enum ConflictMarkers {
  /// The words after `<<<<<<<` and `>>>>>>>`.
  public struct Labels: Sendable {
    /// After `<<<<<<<`: CURRENT's name.
    public var current: String
    /// After `>>>>>>>`: OTHER's name.
    public var other: String
    /// How many `<`, `=` and `>` each marker has (git's `conflict-marker-size`, 7 unless set).
    public var markerSize: Int
    /// Labels with these names.
    public init(current: String = "CURRENT", other: String = "OTHER", markerSize: Int = 7) {
      self.current = current
      self.other = other
      self.markerSize = max(1, markerSize)
    }
  }

  /// CURRENT's text holding a merge.
  public struct Marked: Sendable {
    /// The document's new bytes.
    public let data: Data
    /// The patch of the merged value, before markers (what was rewritten whole, and why).
    public let patch: TextDocument.Patch
    /// The regions wrapped in markers.
    public let regions: Int
  }

  /// CURRENT's document (`document`) changed to hold `result`, with its conflicts marked.
  /// With OTHER's document (`other`), what OTHER adds, and OTHER's side of a conflict,
  /// is written as OTHER writes it, its comment lines with it, where it fits CURRENT's
  /// indentation.
  public static func text(
    of document: TextDocument, merged result: ThreeWayMerge.Result, labels: Labels = Labels(),
    warnings: Warnings = Warnings(), other: TextDocument? = nil
  ) throws -> Marked {
    let patch = try document.patched(to: result.value, warnings: warnings, other: other)
    guard !result.conflicts.isEmpty else { return Marked(data: patch.data, patch: patch, regions: 0) }
    guard let merged = try TextDocument(patch.data, format: document.format, options: document.options) else {
      throw PrefsError(.conflictMarkers(format: document.format.name))
    }
    var placer = Placer(
      document: merged, merged: result.value, conflicts: result.conflicts, warnings: warnings,
      other: other?.format == document.format ? other : nil)
    let regions = try placer.regions()
    let lineEnd = placer.layout.lineEnd
    func marker(_ character: String) -> String { String(repeating: character, count: labels.markerSize) }
    let open = Array("\(marker("<")) \(labels.current)".utf8) + lineEnd
    let middle = Array(marker("=").utf8) + lineEnd
    let close = Array("\(marker(">")) \(labels.other)".utf8) + lineEnd
    func ended(_ bytes: [UInt8]) -> [UInt8] {
      bytes.isEmpty || bytes.last == 0x0A || bytes.last == 0x0D ? bytes : bytes + lineEnd
    }
    let data = merged.replacing(
      regions.map { region in
        (region.range, open + ended(Array(merged.bytes(region.range))) + middle + ended(region.other) + close)
      })
    return Marked(data: data, patch: patch, regions: regions.count)
  }
}

/// Finds the regions of the conflicts in the merged text.
private struct Placer {
  let document: TextDocument
  let merged: PrefValue
  let conflicts: [MergeConflict]
  let warnings: Warnings
  let layout: TextLayout
  /// OTHER's document, whose lines (comments included) show OTHER's side where they fit.
  let other: TextDocument?
  private let childLists = ChildLists()

  init(document: TextDocument, merged: PrefValue, conflicts: [MergeConflict], warnings: Warnings, other: TextDocument?)
  {
    self.document = document
    self.merged = merged
    self.conflicts = conflicts
    self.warnings = warnings
    self.layout = document.layout
    self.other = other
  }

  /// OTHER's side of a run as OTHER writes it, each entry from its comment lines, when
  /// every entry stands on lines of its own there in `indent` and CURRENT's line ends.
  /// With `oneLine` (whether CURRENT's entry stands on one line), an entry OTHER lays
  /// out otherwise is written in CURRENT's layout below OTHER's comment lines.
  func otherLines(
    _ entries: [(key: String?, value: PrefValue)], of conflict: MergeConflict, path: PrefKeyPath,
    container: Int, indent: [UInt8], separated: Bool, oneLine: Bool? = nil
  ) throws -> [UInt8]? {
    guard let other, !entries.isEmpty, other.layout.lineEnd == layout.lineEnd else { return nil }
    var out: [UInt8] = []
    for (k, entry) in entries.enumerated() {
      let at: PrefKeyPath
      if let key = entry.key {
        at = path.appending(key: key)
      } else if let items = conflict.items {
        at = path.appending(index: items.lowerBound + k)
      } else {
        at = conflict.path
      }
      let entrySeparated = separated || k < entries.count - 1
      guard let (otherContainer, child) = other.entry(at: at, holding: entry.value),
        let lines = other.ownLines(of: child, in: otherContainer, separated: entrySeparated),
        let bare = other.ownLines(of: child, in: otherContainer, separated: entrySeparated, withComments: false),
        lines.indent == indent
      else { return nil }
      if let oneLine, other.entryIsOneLine(child) != oneLine {
        out += lines.text.prefix(lines.text.count - bare.text.count)
        out += try document.lines(
          of: [entry], in: container, indent: indent, separated: entrySeparated, path: path, layout: layout,
          warnings: warnings, oneLine: oneLine)
      } else {
        out += lines.text
      }
      if out.last != 0x0A, out.last != 0x0D { out += layout.lineEnd }
    }
    return out
  }

  /// The children of each container a region looked in, listed once: a long array's
  /// would otherwise be listed again for each of its conflicts.
  private final class ChildLists {
    var lists: [Int: [Int]] = [:]
  }

  func childList(of container: Int) -> [Int] {
    if let known = childLists.lists[container] { return known }
    let children = document.map.children(of: container)
    childLists.lists[container] = children
    return children
  }

  /// Where a region stands.
  enum Place: Equatable {
    /// `count` children of the container at the path, from `position` (none: where
    /// OTHER's entries would be inserted), and with the child before them when
    /// `withPrevious` (whose separator OTHER's side may need changed: a JSON entry
    /// that comes to end or stops ending its object).
    case run(PrefKeyPath, position: Int, count: Int, withPrevious: Bool = false)
    /// The whole entry of the value at the path.
    case entry(PrefKeyPath)
    case document

    /// The next larger place.
    var widened: Place {
      switch self {
      case .run(let path, let position, let count, false) where position > 0:
        .run(path, position: position, count: count, withPrevious: true)
      case .run(let path, _, _, _): path.components.isEmpty ? .document : .entry(path)
      case .entry(let path): path.components.count <= 1 ? .document : .entry(PrefKeyPath(path.components.dropLast()))
      case .document: .document
      }
    }

    /// The path whose conflicts the region shows (all under it).
    var path: PrefKeyPath? {
      switch self {
      case .run: nil
      case .entry(let path): path
      case .document: PrefKeyPath()
      }
    }
  }

  struct Region {
    var place: Place
    var conflicts: [Int]
    var range: Range<Int> = 0..<0
    var other: [UInt8] = []
  }

  /// The regions, in document order, each with OTHER's text.
  mutating func regions() throws -> [Region] {
    var regions = conflicts.indices.map { Region(place: initialPlace(conflicts[$0]), conflicts: [$0]) }
    // Each round either settles or widens a region; a document has few levels.
    for _ in 0..<256 {
      for k in regions.indices { try locate(&regions[k]) }
      if try absorbOverlaps(&regions) { continue }
      let all = regions.flatMap(\.conflicts).map { conflicts[$0] }
      let data = document.replacing(regions.map { ($0.range, $0.other) })
      if try document.readsBack(data, as: merged.resolving(all, to: .other)) { return regions }
      // Find the regions whose OTHER side does not read back, halving the set (one
      // parse of a large document per half, not per region), and widen them.
      var widenedAny = false
      for k in try failing(Array(regions.indices), of: regions) where regions[k].place != .document {
        regions[k].place = regions[k].place.widened
        widenedAny = true
      }
      if !widenedAny {
        // Each reads back alone but not together: show the whole document once.
        return [try located(Region(place: .document, conflicts: Array(conflicts.indices)))]
      }
    }
    return [try located(Region(place: .document, conflicts: Array(conflicts.indices)))]
  }

  /// The regions of `subset` whose OTHER side does not read back as OTHER's value;
  /// none when each half reads back alone though the whole does not.
  private func failing(_ subset: [Int], of regions: [Region]) throws -> [Int] {
    let data = document.replacing(subset.map { (regions[$0].range, regions[$0].other) })
    let expected = merged.resolving(subset.flatMap { regions[$0].conflicts }.map { conflicts[$0] }, to: .other)
    if try document.readsBack(data, as: expected) { return [] }
    if subset.count == 1 { return subset }
    let half = subset.count / 2
    return try failing(Array(subset[..<half]), of: regions) + failing(Array(subset[half...]), of: regions)
  }

  private func located(_ region: Region) throws -> Region {
    var copy = region
    try locate(&copy)
    return copy
  }

  /// Where a conflict stands first: its own entries.
  func initialPlace(_ conflict: MergeConflict) -> Place {
    if let items = conflict.items { return .run(conflict.path, position: items.lowerBound, count: items.count) }
    guard let last = conflict.path.components.last else { return .document }
    let parent = PrefKeyPath(conflict.path.components.dropLast())
    switch last {
    case .index(let index):
      return .run(parent, position: index, count: conflict.current == nil ? 0 : 1)
    case .key(let key):
      guard let container = document.node(at: parent) else {
        return parent.components.isEmpty ? .document : .entry(parent)
      }
      let children = childList(of: container)
      let named = { (name: String) in children.firstIndex { document.map.nodes[$0].name == name } }
      if conflict.current != nil {
        guard let index = named(key) else { return parent.components.isEmpty ? .document : .entry(parent) }
        return .run(parent, position: index, count: 1)
      }
      let position = conflict.precedingKey.flatMap(named).map { $0 + 1 } ?? 0
      return .run(parent, position: position, count: 0)
    }
  }

  /// Sets the region's range and OTHER's text, widening its place until it has lines.
  func locate(_ region: inout Region) throws {
    while true {
      if let (range, other) = try text(for: region) {
        region.range = range
        region.other = other
        return
      }
      region.place = region.place.widened
    }
  }

  /// The lines of a place and OTHER's text for them; nil when the place has no lines of its own.
  private func text(for region: Region) throws -> (Range<Int>, [UInt8])? {
    switch region.place {
    case .document:
      let all = region.conflicts.map { conflicts[$0] }
      let bytes = try document.format.codec.encode(merged.resolving(all, to: .other))
      return (0..<document.textLength, Array(bytes))
    case .run(let path, let position, let count, let withPrevious):
      guard let container = document.node(at: path) else { return nil }
      let children = childList(of: container)
      guard position + count <= children.count else { return nil }
      let entries = otherEntries(conflicts[region.conflicts[0]])
      if withPrevious {
        return try textWithPrevious(
          container: container, path: path, position: position, count: count, entries: entries)
      }
      if count == 0 {
        guard let at = document.insertionLine(in: container, before: position) else { return nil }
        let text =
          try otherLines(
            entries, of: conflicts[region.conflicts[0]], path: path, container: container, indent: at.indent,
            separated: at.separated)
          ?? document.lines(
            of: entries, in: container, indent: at.indent, separated: at.separated, path: path, layout: layout,
            warnings: warnings)
        return (at.position..<at.position, text)
      }
      guard let lines = document.entryLines(children[position..<(position + count)], of: container) else {
        return nil
      }
      if let text = try otherLines(
        entries, of: conflicts[region.conflicts[0]], path: path, container: container, indent: lines.indent,
        separated: lines.separated, oneLine: document.entryIsOneLine(children[position]))
      {
        // Each side's entries with their comments: a comment belongs to its entry.
        return (lines.commentsStart..<lines.range.upperBound, text)
      }
      let text = try document.lines(
        of: entries, in: container, indent: lines.indent, separated: lines.separated, path: path, layout: layout,
        warnings: warnings)
      return (lines.range, text)
    case .entry(let path):
      let parentPath = PrefKeyPath(path.components.dropLast())
      guard let node = document.node(at: path), let parent = document.node(at: parentPath),
        let lines = document.entryLines([node][...], of: parent)
      else { return nil }
      let under = region.conflicts.map { conflicts[$0] }
      guard let value = merged.resolving(under, to: .other).existingValue(at: path) else { return nil }
      var key: String?
      if case .key(let name) = path.components.last { key = name }
      // A collection written on one line (`[1, 2]`, `{a: 1}`) is shown on one line.
      let text = try document.lines(
        of: [(key, value)], in: parent, indent: lines.indent, separated: lines.separated, path: parentPath,
        layout: layout, warnings: warnings, oneLine: document.isOneLine(node))
      return (lines.range, text)
    }
  }

  /// A run with the entry before it: on OTHER's side that entry keeps its text, with
  /// the container's separator after it exactly when an entry follows it there.
  private func textWithPrevious(
    container: Int, path: PrefKeyPath, position: Int, count: Int, entries: [(key: String?, value: PrefValue)]
  ) throws -> (Range<Int>, [UInt8])? {
    let children = childList(of: container)
    let previous = children[position - 1]
    guard let before = document.entryLines([previous][...], of: container) else { return nil }
    var end = before.range.upperBound
    if count > 0 {
      guard let run = document.entryLines(children[position..<(position + count)], of: container) else {
        return nil
      }
      end = run.range.upperBound
    }
    let trailing = document.separator(of: container)?.trailing ?? false
    let atEnd = position + count == children.count
    guard
      let previousText = document.lines(
        of: previous, in: container, separated: !entries.isEmpty || !atEnd || trailing)
    else { return nil }
    let text = try document.lines(
      of: entries, in: container, indent: before.indent, separated: !atEnd || trailing, path: path, layout: layout,
      warnings: warnings)
    return (before.range.lowerBound..<end, previousText + text)
  }

  /// The entries OTHER has in place of a conflict's.
  func otherEntries(_ conflict: MergeConflict) -> [(key: String?, value: PrefValue)] {
    if conflict.items != nil { return (conflict.other?.arrayValue ?? []).map { (nil, $0) } }
    guard let other = conflict.other else { return [] }
    if case .key(let key) = conflict.path.components.last { return [(key, other)] }
    return [(nil, other)]
  }

  /// Joins regions that overlap: one inside an entry's region goes into it; others
  /// grow until they do. Returns whether anything changed.
  func absorbOverlaps(_ regions: inout [Region]) throws -> Bool {
    regions.sort { ($0.range.lowerBound, $0.range.isEmpty ? 0 : 1) < ($1.range.lowerBound, $1.range.isEmpty ? 0 : 1) }
    var changed = false
    var k = 0
    while k + 1 < regions.count {
      let a = regions[k]
      let b = regions[k + 1]
      // Sorted by start, an insertion before a region at the same place: an insertion
      // overlaps only strictly inside another region.
      let overlaps =
        b.range.isEmpty
        ? b.range.lowerBound > a.range.lowerBound && b.range.lowerBound < a.range.upperBound
        : !a.range.isEmpty && b.range.lowerBound < a.range.upperBound
      guard overlaps else {
        k += 1
        continue
      }
      changed = true
      if let path = a.place.path, b.range.upperBound <= a.range.upperBound,
        b.conflicts.allSatisfy({ conflicts[$0].position.starts(with: path.components) })
      {
        regions[k].conflicts += b.conflicts
        regions.remove(at: k + 1)
      } else {
        regions[k].place = a.place.widened
        regions[k + 1].place = b.place.widened
        k += 1
      }
    }
    return changed
  }
}
