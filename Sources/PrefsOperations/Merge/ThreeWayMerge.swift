import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// A structural three-way merge of ``PrefValue``s: the changes
/// from BASE to OTHER carried into CURRENT, as `git merge-file CURRENT BASE OTHER`
/// does with lines.
///
/// - Dictionaries merge key by key. A change both sides made alike is taken once; a
///   change of type is a change. Key order follows CURRENT; a key OTHER added goes
///   after the key before it in OTHER.
/// - Arrays merge by a three-way diff over the `ArrayAlignment` of BASE with each
///   side: items both sides kept stay, a run only one side changed takes that side's
///   items, items both sides inserted at one place are all kept (CURRENT's first), and
///   runs of equal length changed on both sides merge item by item. Arrays of
///   dictionaries that all have an identity field (``Options/arrayKeys``, else one of
///   ``Options/identityFields``) are keyed by it instead, as a dictionary's entries
///   are: CURRENT's order (OTHER's when only OTHER moved items), a new item after the
///   item before it on its side (items a side appended after all the others stay at
///   the end), and each item merged with its counterparts wherever they moved.
/// - What both sides changed differently is a ``MergeConflict``; the merged value keeps
///   CURRENT's value there.
public enum ThreeWayMerge {
  /// How arrays are matched.
  public struct Options: Sendable {
    /// Identity fields by array: an array whose key path matches the glob has its
    /// dictionary items matched by the value at the field's key path
    /// (`persistent-apps` = `tile-data.bundle-identifier`). Tried before
    /// ``ArrayIdentity/knownArrays`` (the Dock's), in order: the first field every item has.
    public var arrayKeys: [(array: KeyGlob, field: [String])]
    /// Fields tried, in order, on arrays of dictionaries no ``arrayKeys`` entry names:
    /// the first that every item of the three arrays has, with values unique in each.
    public var identityFields: [String]
    /// Whether data both sides changed, where each side that has it holds JSON or a
    /// binary plist of one kind (``EmbeddedDocument``), merges as the structures it
    /// holds, so that changes to different items merge cleanly. The merged structure
    /// is written as CURRENT's data changed where it changed (an unchanged blob keeps
    /// its bytes); a conflict inside is one conflict of the whole data value, with the
    /// inner conflicts in ``MergeConflict/embedded``.
    public var expandData: Bool

    /// Options with these identity fields (the built-in ones when `identityFields` is nil).
    public init(
      arrayKeys: [(array: KeyGlob, field: [String])] = [], identityFields: [String]? = nil, expandData: Bool = false
    ) {
      self.arrayKeys = arrayKeys
      self.identityFields = identityFields ?? ArrayIdentity.fields
      self.expandData = expandData
    }

    /// Parses `KEYPATH=FIELD` as `--array-key` takes it; nil when there is no `=`.
    public static func arrayKey(_ text: String) -> (array: KeyGlob, field: [String])? {
      guard let equals = text.lastIndex(of: "="), equals != text.startIndex,
        text.index(after: equals) != text.endIndex
      else { return nil }
      return (KeyGlob(String(text[..<equals])), PrefKeyPath.parse(String(text[text.index(after: equals)...])))
    }
  }

  /// What a merge gives: the merged value (CURRENT's at each conflict) and the conflicts.
  public struct Result: Sendable {
    /// The merged value, holding CURRENT's value at each conflict.
    public var value: PrefValue
    /// The conflicts, in the order the merge met them.
    public let conflicts: [MergeConflict]
  }

  /// Merges the changes from `base` to `other` into `current`.
  public static func merge(
    base: PrefValue, current: PrefValue, other: PrefValue, options: Options = Options()
  ) -> Result {
    var merger = Merger(options: options)
    let value = merger.merge(base, current, other, at: PrefKeyPath()) ?? current
    return Result(value: value, conflicts: merger.conflicts)
  }
}

private struct Merger {
  let options: ThreeWayMerge.Options
  var conflicts: [MergeConflict] = []

  init(options: ThreeWayMerge.Options) { self.options = options }

  /// The merge of one value; nil when the merged value has nothing there.
  mutating func merge(_ base: PrefValue?, _ current: PrefValue?, _ other: PrefValue?, at path: PrefKeyPath)
    -> PrefValue?
  {
    if current == other || base == other { return current }
    // Both dictionaries: merged key by key, so that the order stays CURRENT's.
    if base == current, current?.dictionaryValue == nil || other?.dictionaryValue == nil { return other }
    switch (base, current, other) {
    case (.dictionary(let b)?, .dictionary(let c)?, .dictionary(let o)?):
      return .dictionary(mergeDictionaries(b, c, o, at: path))
    case (nil, .dictionary(let c)?, .dictionary(let o)?):
      // Both added a dictionary: what they added alike merges.
      return .dictionary(mergeDictionaries(PrefDictionary(), c, o, at: path))
    case (.array(let b)?, .array(let c)?, .array(let o)?):
      return .array(mergeArrays(b, c, o, at: path))
    case (nil, .array(let c)?, .array(let o)?):
      return .array(mergeArrays([], c, o, at: path))
    case (_, .data(let c)?, .data(let o)?) where options.expandData && (base == nil || base?.kind == .data):
      guard case .data(let b)? = base else { return mergeData(nil, c, o, at: path) }
      return mergeData(b, c, o, at: path)
    default:
      conflicts.append(MergeConflict(path: path, base: base, current: current, other: other))
      return current
    }
  }

  // MARK: Data holding structure

  /// Data both sides changed, merged as the structures it holds when every side that
  /// has it holds one of the same kind; else a conflict of the whole value, whose
  /// reason says why the data stays data.
  mutating func mergeData(_ b: Data?, _ c: Data, _ o: Data, at path: PrefKeyPath) -> PrefValue {
    let sides = [("BASE", b), ("CURRENT", c), ("OTHER", o)]
    let documents = sides.map { $0.1.flatMap(EmbeddedDocument.init) }
    func conflict(_ reason: String) -> PrefValue {
      conflicts.append(
        MergeConflict(path: path, base: b.map(PrefValue.data), current: .data(c), other: .data(o), reason: reason))
      return .data(c)
    }
    for (index, (side, data)) in sides.enumerated() {
      guard let data, documents[index] == nil else { continue }
      // Opaque data on every side (an image, an archive) is a plain conflict.
      guard documents.contains(where: { $0 != nil }) else { break }
      var why = "it holds neither JSON nor a binary plist"
      if case .leftAsData(_, let reason) = EmbeddedData.inspect(data) { why = reason }
      return conflict("the data is merged whole, for \(side)'s stays data: \(why)")
    }
    guard let current = documents[1], let other = documents[2] else {
      conflicts.append(MergeConflict(path: path, base: b.map(PrefValue.data), current: .data(c), other: .data(o)))
      return .data(c)
    }
    let kinds = Set(documents.compactMap { $0?.kind })
    guard kinds.count == 1 else {
      return conflict("the data is merged whole, for the sides hold JSON and a binary plist")
    }
    // Merged at the data's own path, so that identity rules name arrays inside by their whole path.
    let first = conflicts.count
    let merged = merge(documents[0]?.value, current.value, other.value, at: path) ?? current.value
    let inner = Array(conflicts[first...])
    conflicts.removeSubrange(first...)
    do {
      let currentBytes = try current.bytes(for: merged)
      guard !inner.isEmpty else { return .data(currentBytes) }
      let otherBytes = try other.bytes(for: merged.resolving(inner.map { $0.relative(to: path) }, to: .other))
      conflicts.append(
        MergeConflict(
          path: path, base: b.map(PrefValue.data), current: .data(currentBytes), other: .data(otherBytes),
          embedded: inner))
      return .data(currentBytes)
    } catch {
      return conflict(
        "the data is merged whole, for the merged structure cannot be written in it: \(PrefsError.text(of: error))")
    }
  }

  // MARK: Dictionaries

  mutating func mergeDictionaries(_ b: PrefDictionary, _ c: PrefDictionary, _ o: PrefDictionary, at path: PrefKeyPath)
    -> PrefDictionary
  {
    var pairs: [PrefDictionary.Element] = []
    pairs.reserveCapacity(c.count)
    for (key, value) in c {
      if let merged = merge(b[key], value, o[key], at: path.appending(key: key)) { pairs.append((key, value: merged)) }
    }
    // Keys only OTHER has: added there, or removed here and changed there.
    var added: [(after: String?, key: String, value: PrefValue)] = []
    var previous: String?
    // Keys go by their scalars, as the model tells them apart.
    var kept = Set(pairs.map { ScalarKey($0.key) })
    for (key, value) in o {
      defer { if kept.contains(ScalarKey(key)) { previous = key } }
      guard !c.contains(key) else { continue }
      if let baseValue = b[key] {
        if baseValue != value {
          conflicts.append(
            MergeConflict(
              path: path.appending(key: key), base: baseValue, current: nil, other: value, precedingKey: previous))
        }
      } else {
        added.append((previous, key, value))
        kept.insert(ScalarKey(key))
      }
    }
    guard !added.isEmpty else { return PrefDictionary(pairs) }
    // Each added key goes after the key before it in OTHER (or first when none is).
    var after: [ScalarKey: [(String, PrefValue)]] = [:]
    var atStart: [(String, PrefValue)] = []
    for entry in added {
      if let anchor = entry.after {
        after[ScalarKey(anchor), default: []].append((entry.key, entry.value))
      } else {
        atStart.append((entry.key, entry.value))
      }
    }
    var result: [PrefDictionary.Element] = []
    result.reserveCapacity(pairs.count + added.count)
    func place(_ key: String, _ value: PrefValue) {
      result.append((key, value))
      for (k, v) in after[ScalarKey(key)] ?? [] { place(k, v) }
    }
    for (key, value) in atStart { place(key, value) }
    for (key, value) in pairs { place(key, value) }
    return PrefDictionary(result)
  }

  // MARK: Arrays

  mutating func mergeArrays(_ b: [PrefValue], _ c: [PrefValue], _ o: [PrefValue], at path: PrefKeyPath)
    -> [PrefValue]
  {
    if let field = identityField(b, c, o, at: path) {
      return mergeByIdentity(b, c, o, field: field, at: path)
    }
    var out: [PrefValue] = []
    for chunk in Self.chunks(b, c, o) {
      switch chunk {
      case .stable(_, let j, _):
        out.append(c[j])
      case .unstable(let bs, let cs, let os):
        mergeRun(Array(b[bs]), Array(c[cs]), Array(o[os]), into: &out, at: path)
      }
    }
    return out
  }

  /// One run between items both sides kept.
  mutating func mergeRun(
    _ b: [PrefValue], _ c: [PrefValue], _ o: [PrefValue], into out: inout [PrefValue], at path: PrefKeyPath
  ) {
    if c == o || b == o {
      out += c
    } else if b == c {
      out += o
    } else if b.isEmpty {
      // Both inserted here: all of it, CURRENT's first, once each.
      out += c
      out += o.filter { !c.contains($0) }
    } else if b.count == c.count, b.count == o.count {
      for index in b.indices {
        if let merged = merge(b[index], c[index], o[index], at: path.appending(index: out.count)) { out.append(merged) }
      }
    } else {
      conflicts.append(
        MergeConflict(
          path: path, items: out.count..<(out.count + c.count), base: .array(b), current: .array(c), other: .array(o)))
      out += c
    }
  }

  /// A step of a three-way alignment: an item of BASE both sides kept unchanged, or a
  /// run between such items (ranges of BASE, CURRENT and OTHER).
  enum Chunk {
    case stable(Int, Int, Int)
    case unstable(Range<Int>, Range<Int>, Range<Int>)
  }

  /// The diff3 chunks of three sequences: BASE items that both alignments keep, and the runs between them.
  static func chunks<T: Hashable>(_ b: [T], _ c: [T], _ o: [T]) -> [Chunk] {
    func kept(_ steps: [ArrayAlignment.Step], count: Int) -> [Int?] {
      var map = [Int?](repeating: nil, count: count)
      for case .same(let i, let j) in steps { map[i] = j }
      return map
    }
    let inCurrent = kept(ArrayAlignment.align(b, c), count: b.count)
    let inOther = kept(ArrayAlignment.align(b, o), count: b.count)
    var chunks: [Chunk] = []
    var (bi, ci, oi) = (0, 0, 0)
    for i in b.indices {
      guard let j = inCurrent[i], let k = inOther[i] else { continue }
      if bi < i || ci < j || oi < k { chunks.append(.unstable(bi..<i, ci..<j, oi..<k)) }
      chunks.append(.stable(i, j, k))
      (bi, ci, oi) = (i + 1, j + 1, k + 1)
    }
    if bi < b.count || ci < c.count || oi < o.count {
      chunks.append(.unstable(bi..<b.count, ci..<c.count, oi..<o.count))
    }
    return chunks
  }

  // MARK: Arrays matched by identity

  /// The identity field of three arrays of dictionaries: the one `--array-key` names
  /// for this path, else a built-in one (``ArrayIdentity``).
  func identityField(_ b: [PrefValue], _ c: [PrefValue], _ o: [PrefValue], at path: PrefKeyPath) -> [String]? {
    ArrayIdentity.field(in: [b, c, o], at: path, rules: options.arrayKeys, fields: options.identityFields)
  }

  /// `side` with each renamed item called by its BASE identity: where, between two
  /// items both keep, BASE has one item that `side` lacks and `side` one new item, that
  /// item is BASE's with its identity changed. Nothing is renamed when `side` moved
  /// the items both have.
  static func renamesUndone(_ side: [String], base: [String]) -> [String] {
    let inSide = Set(side)
    let inBase = Set(base)
    guard base.filter(inSide.contains) == side.filter(inBase.contains) else { return side }
    /// The runs between the items both have, each as the positions it holds.
    func gaps(_ ids: [String], common: Set<String>) -> [[Int]] {
      var gaps: [[Int]] = [[]]
      for (index, id) in ids.enumerated() {
        if common.contains(id) { gaps.append([]) } else { gaps[gaps.count - 1].append(index) }
      }
      return gaps
    }
    let common = inSide.intersection(inBase)
    var renamed = side
    for (baseGap, sideGap) in zip(gaps(base, common: common), gaps(side, common: common))
    where baseGap.count == 1 && sideGap.count == 1 {
      renamed[sideGap[0]] = base[baseGap[0]]
    }
    return renamed
  }

  mutating func mergeByIdentity(
    _ b: [PrefValue], _ c: [PrefValue], _ o: [PrefValue], field: [String], at path: PrefKeyPath
  ) -> [PrefValue] {
    let bi = ArrayIdentity.identities(b, field: field)!
    // An item whose identity a side changed in place is still that item there.
    let ci = Self.renamesUndone(ArrayIdentity.identities(c, field: field)!, base: bi)
    let oi = Self.renamesUndone(ArrayIdentity.identities(o, field: field)!, base: bi)
    let baseItems = Dictionary(uniqueKeysWithValues: zip(bi, b))
    let currentItems = Dictionary(uniqueKeysWithValues: zip(ci, c))
    let otherItems = Dictionary(uniqueKeysWithValues: zip(oi, o))
    // Items are keyed like a dictionary: the order is CURRENT's, unless only OTHER
    // reordered the items all three have; the other side's new items go after the
    // item before them there.
    let common = { (ids: [String]) in
      ids.filter { baseItems[$0] != nil && currentItems[$0] != nil && otherItems[$0] != nil }
    }
    let baseOrder = common(bi)
    let otherFrames = common(ci) == baseOrder && common(oi) != baseOrder
    let (frame, side) = otherFrames ? (oi, ci) : (ci, oi)
    let inFrame = Set(frame)
    var after: [String: [String]] = [:]
    var atStart: [String] = []
    // The side's items after the last one the frame has: appended there, they stay at the end.
    let tailStart = (side.lastIndex { inFrame.contains($0) }).map { $0 + 1 } ?? side.count
    var previous: String?
    for id in side[..<tailStart] {
      if !inFrame.contains(id) {
        if let previous { after[previous, default: []].append(id) } else { atStart.append(id) }
      }
      previous = id
    }
    var order: [String] = []
    order.reserveCapacity(frame.count + side.count)
    func place(_ id: String) {
      order.append(id)
      for next in after[id] ?? [] { place(next) }
    }
    for id in atStart { place(id) }
    for id in frame { place(id) }
    order += side[tailStart...]

    var out: [PrefValue] = []
    out.reserveCapacity(order.count)
    for id in order {
      let (base, current, other) = (baseItems[id], currentItems[id], otherItems[id])
      if current == nil, let base, let other {
        // Removed here: gone, unless changed there, which is a conflict shown where it was.
        if other != base {
          conflicts.append(
            MergeConflict(
              path: path, items: out.count..<out.count, base: .array([base]), current: .array([]),
              other: .array([other])))
        }
        continue
      }
      if let merged = merge(base, current, other, at: path.appending(index: out.count)) { out.append(merged) }
    }
    return out
  }
}
