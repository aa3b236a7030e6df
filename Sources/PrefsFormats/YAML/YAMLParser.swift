internal import CYaml
import PrefsModel
import PrefsText

/// Builds one ``PrefValue`` from libyaml's events: tags, anchors and aliases, merge
/// keys, duplicate keys, and the limits on depth and alias expansion. A null (`key:`,
/// `~`, `null`, `!!null`) is the value ``PrefValue/null``.
///
/// Nesting is kept on an explicit stack, so a hostile depth costs an error, never
/// the call stack.
struct YAMLParser {
  package let options: ReadOptions
  let warnings: Warnings

  init(options: ReadOptions, warnings: Warnings) {
    self.options = options
    self.warnings = warnings
  }

  private struct Anchored {
    var node: PrefValue
    /// How many nodes the anchored node holds, counted against the alias limit.
    var count: Int
    /// How many levels of collections it holds (0 for a scalar), counted against the
    /// depth limit wherever an alias repeats it.
    var height: Int
    /// The settings directives in it, by their path below it: an alias repeats them
    /// where it stands.
    var directives: [Directive] = []
  }

  /// A settings directive in a node being read, by its path below that node.
  private typealias Directive = (directive: SettingsDirective, path: [PrefKeyPath.Component], position: SourcePosition?)

  private struct Frame {
    var isMapping: Bool
    /// Written in flow style (`[…]`, `{…}`), not block style.
    var isFlow = false
    var start: YAMLMark
    var anchor: String?
    var count = 1
    /// Levels of collections in this one, itself included.
    var height = 1
    var items: [PrefValue] = []
    var dict = PrefDictionary()
    var merges: [PrefDictionary] = []
    /// Whether a merge key (`<<`) was given: a second one is a duplicate key.
    var hasMergeKey = false
    /// A sequence that is the value of a merge key: its items must be mappings.
    var isMergeSources = false
    var key: PendingKey? = nil
    /// `!json`/`!plist`: the collection stands for the data it encodes to.
    var embedded: EmbeddedData.Kind? = nil

    /// Whether the next node is the value of a merge key (`<<`).
    var isMergeValuePending: Bool {
      if case .merge? = key { return true }
      return false
    }
    /// The settings directives in the collection read so far; nil until there is one,
    /// so that other reads pay nothing for them.
    var directives: FrameDirectives? = nil
  }

  /// The settings directives in a collection being read.
  private struct FrameDirectives {
    /// By their path below the collection.
    var own: [Directive] = []
    /// In what its merge keys (`<<`) give, with the index in ``Frame/merges`` their
    /// value starts at: only those of keys the merges decide stay.
    var merged: [(first: Int, directive: Directive)] = []
  }

  private enum PendingKey {
    case key(String, YAMLMark)
    case merge(YAMLMark)
  }

  private var anchors: [String: Anchored] = [:]
  /// Anchors of collections still being read: an alias to one would repeat a node
  /// that is not finished (the old node of that name is already replaced).
  private var openAnchors: [String: Int] = [:]
  private var expansion = 0
  /// The settings directives in the node just read, by their path below it, until it
  /// is added where it goes. A member, not a local of the loop: a read without
  /// directives then pays no more than a test of it per node.
  private var nodeDirectives: [Directive]? = nil
  /// Records where each value stands, when a source map is wanted.
  var map: SourceMapBuilder?
  /// Byte offsets of libyaml's marks (which count characters), for the map.
  var offsets = YAMLOffsets(nil)
  /// Where the last value recorded in the map ends: a block collection ends there.
  private var lastEnd = 0

  /// Records a scalar or alias event in the map: a key for the entry to come, or a value.
  private mutating func record(
    _ event: UnsafePointer<yaml_event_t>, in map: SourceMapBuilder, keyPosition: Bool, node: PrefValue,
    isMergeKey: Bool, flags: SourceMap.Flags
  ) {
    let range = offsets.byteOffset(event.pointee.start_mark)..<offsets.byteOffset(event.pointee.end_mark)
    lastEnd = range.upperBound
    if keyPosition {
      if isMergeKey {
        map.key("<<", range)
      } else if case .string(let key) = node {
        map.key(key, range)
      }
      return
    }
    map.scalar(range, flags: flags)
  }

  // MARK: Documents

  /// Reads exactly one document from the stream; `!json`/`!plist` structures are left
  /// as placeholders for the pass after reading when ``ReadOptions/embeddedData`` is given.
  /// A stream of several documents is refused, naming them.
  mutating func document(from stream: YAMLEventStream) throws -> PrefValue {
    let documents = try self.documents(from: stream)
    guard documents.count == 1 else {
      throw documents[1].mark.error(.severalDocuments(names: documents.map { YAMLStream.name(of: $0.value) }))
    }
    return documents[0].value
  }

  /// Every document of the stream, in order, with the byte offset of its start (its
  /// directives, or its `---`; the first document's content for an implicit one).
  /// An empty stream is refused: it holds no value to read.
  mutating func documents(from stream: YAMLEventStream) throws -> [(value: PrefValue, start: Int, mark: YAMLMark)] {
    var event = try stream.next()
    guard event.pointee.type == YAML_STREAM_START_EVENT else {
      throw mark(event).error("expected the start of a YAML stream")
    }
    event = try stream.next()
    if event.pointee.type == YAML_STREAM_END_EVENT {
      throw mark(event).error("empty document: no value to read")
    }
    var documents: [(value: PrefValue, start: Int, mark: YAMLMark)] = []
    while event.pointee.type != YAML_STREAM_END_EVENT {
      guard event.pointee.type == YAML_DOCUMENT_START_EVENT else {
        throw mark(event).error("expected a YAML document")
      }
      let start = offsets.byteOffset(event.pointee.start_mark)
      let at = mark(event)
      // Anchors belong to their document.
      anchors = [:]
      let (root, _) = try node(from: stream)
      event = try stream.next()
      guard event.pointee.type == YAML_DOCUMENT_END_EVENT else {
        throw mark(event).error("expected the end of the document")
      }
      documents.append((root, start, at))
      event = try stream.next()
    }
    return documents
  }

  // MARK: Nodes

  /// Reads one whole node (with everything nested in it) from the stream.
  private mutating func node(from stream: YAMLEventStream) throws -> (PrefValue, YAMLMark) {
    var stack: [Frame] = []
    while true {
      let event = try stream.next()
      let at = mark(event)
      var done: PrefValue
      var count = 1
      var height = 0
      var isMergeKey = false
      switch event.pointee.type {
      case YAML_SCALAR_EVENT:
        // Index, not `stack.last`: that would copy the whole frame for every scalar.
        let keyPosition = !stack.isEmpty && stack[stack.count - 1].isMapping && stack[stack.count - 1].key == nil
        (done, isMergeKey) = try scalar(event, at: at, keyPosition: keyPosition)
        if let anchor = event.pointee.data.scalar.anchor {
          anchors[string(anchor)] = Anchored(node: done, count: 1, height: 0, directives: nodeDirectives ?? [])
        }
        if let map {
          let s = event.pointee.data.scalar
          var flags: SourceMap.Flags = s.anchor == nil ? [] : .anchored
          if s.tag != nil { flags.insert(.tagged) }
          record(event, in: map, keyPosition: keyPosition, node: done, isMergeKey: isMergeKey, flags: flags)
        }

      case YAML_ALIAS_EVENT:
        let name = string(event.pointee.data.alias.anchor)
        guard let anchored = anchors[name] else {
          if openAnchors[name, default: 0] > 0 {
            throw at.error("alias *\(name) inside the node that anchor &\(name) is defining (a recursive alias)")
          }
          throw at.error("unknown alias *\(name)")
        }
        expansion = expansion.addingSaturating(anchored.count)
        guard expansion <= options.maxAliasExpansion else {
          throw at.error(.aliasBudget(limit: options.maxAliasExpansion))
        }
        // An alias repeats its whole node here: its levels nest below the open ones,
        // except a merged (`<<`) mapping's own level, whose entries join the open one.
        let merging = !stack.isEmpty && stack[stack.count - 1].isMergeValuePending
        guard stack.count + anchored.height - (merging ? 1 : 0) <= options.maxDepth else {
          throw at.error(.tooDeep(limit: options.maxDepth, detail: "alias *\(name) holds \(anchored.height) levels"))
        }
        done = anchored.node
        count = anchored.count
        height = anchored.height
        // The alias repeats the directives with the node: here too is where they stand.
        if !anchored.directives.isEmpty { nodeDirectives = anchored.directives }
        if let map {
          let keyPosition = !stack.isEmpty && stack[stack.count - 1].isMapping && stack[stack.count - 1].key == nil
          record(event, in: map, keyPosition: keyPosition, node: done, isMergeKey: false, flags: .alias)
        }

      case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
        let isMapping = event.pointee.type == YAML_MAPPING_START_EVENT
        if !stack.isEmpty, stack[stack.count - 1].isMapping, stack[stack.count - 1].key == nil {
          throw at.error(
            "complex mapping key (a \(isMapping ? "mapping" : "sequence")): keys must be strings")
        }
        guard stack.count < options.maxDepth else {
          throw at.error(.tooDeep(limit: options.maxDepth))
        }
        let tag =
          isMapping ? event.pointee.data.mapping_start.tag : event.pointee.data.sequence_start.tag
        let anchor =
          isMapping
          ? event.pointee.data.mapping_start.anchor : event.pointee.data.sequence_start.anchor
        let tagText = tag.map(string)
        var replaces = false
        if options.settingsDirectives != nil, let tagText {
          if tagText == "!delete" { throw at.error("!delete takes no value: write 'key: !delete'") }
          replaces = tagText == "!replace"
        }
        let embedded = try replaces ? nil : tagText.flatMap { try checkCollectionTag($0, isMapping: isMapping, at: at) }
        let isFlow =
          isMapping
          ? event.pointee.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
          : event.pointee.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
        let isMergeSources = !isMapping && !stack.isEmpty && stack[stack.count - 1].isMergeValuePending
        stack.append(
          Frame(
            isMapping: isMapping, isFlow: isFlow, start: at, anchor: anchor.map(string), isMergeSources: isMergeSources,
            embedded: embedded))
        if replaces { stack[stack.count - 1].directives = FrameDirectives(own: [(.replace, [], at.position)]) }
        if let name = stack[stack.count - 1].anchor {
          // An alias inside this node must not reach the node the name stood for before.
          anchors[name] = nil
          openAnchors[name, default: 0] += 1
        }
        if let map {
          // (A `!json`/`!plist` collection is closed as one opaque value.)
          map.open(start: offsets.byteOffset(event.pointee.start_mark), flags: anchor == nil ? [] : .anchored)
        }
        continue

      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        let frame = stack.removeLast()
        count = frame.count
        height = frame.height
        if let inside = frame.directives {
          nodeDirectives = inside.own + mergedDirectives(of: frame, inside.merged)
        }
        if frame.isMapping {
          done = .dictionary(frame.merges.isEmpty ? frame.dict : merged(frame))
        } else {
          done = .array(frame.items)
        }
        if let kind = frame.embedded, let embedded = options.embeddedData {
          let start = frame.start
          done = embedded.placeholder(for: done, kind: kind) {
            start.error("\(kind.yamlTag) value cannot be encoded: \($0)")
          }
        }
        if let anchor = frame.anchor {
          anchors[anchor] = Anchored(
            node: done, count: count, height: height, directives: nodeDirectives ?? [])
          openAnchors[anchor, default: 1] -= 1
        }
        if let map {
          // A flow collection ends at its bracket; a block one at its last value
          // (libyaml's end mark lies past the comments and blank lines after it).
          if frame.isFlow { lastEnd = offsets.byteOffset(event.pointee.end_mark) }
          let node = frame.embedded != nil ? map.closeOpaque(end: lastEnd) : map.close(end: lastEnd)
          if !frame.merges.isEmpty { map.mark(node, .merges) }
        }
        if stack.isEmpty {
          if let directives = nodeDirectives { report(directives) }
          return (done, frame.start)
        }

      default:
        throw at.error("unexpected YAML event")
      }
      if stack.isEmpty {
        if let directives = nodeDirectives { report(directives) }
        return (done, at)
      }
      if let directives = nodeDirectives {
        nodeDirectives = nil
        hand(directives, to: &stack[stack.count - 1])
      }
      try add(done, count: count, height: height, isMergeKey: isMergeKey, at: at, to: &stack[stack.count - 1])
    }
  }

  /// Gives the directives of a node about to be added to `frame` to it, below the
  /// key or index the node takes there (a key's own node takes none).
  private func hand(_ directives: [Directive], to frame: inout Frame) {
    var inside = frame.directives ?? FrameDirectives()
    if !frame.isMapping {
      let index = PrefKeyPath.Component.index(frame.items.count)
      inside.own += directives.map { ($0.directive, [index] + $0.path, $0.position) }
    } else if case .key(let key, _)? = frame.key {
      inside.own += directives.map { ($0.directive, [.key(key)] + $0.path, $0.position) }
    } else if frame.isMergeValuePending {
      let first = frame.merges.count
      inside.merged += directives.map { (first, $0) }
    }
    frame.directives = inside
  }

  /// The directives of what a mapping's merge keys gave it that its keys still hold: a
  /// key given in the mapping, or by an earlier merged mapping, wins over them.
  private func mergedDirectives(of frame: Frame, _ merged: [(first: Int, directive: Directive)]) -> [Directive] {
    var kept: [Directive] = []
    for (first, directive) in merged {
      // Below a sequence of mappings, the first step is the mapping's index in it.
      var source = first
      var path = directive.path[...]
      if case .index(let index)? = path.first {
        source += index
        path = path.dropFirst()
      }
      guard case .key(let key)? = path.first, source < frame.merges.count, !frame.dict.contains(key),
        !frame.merges[..<source].contains(where: { $0.contains(key) })
      else { continue }
      kept.append((directive.directive, Array(path), directive.position))
    }
    return kept
  }

  /// Reports the directives of the whole document, whose paths are from its top.
  private func report(_ directives: [Directive]) {
    guard let log = options.settingsDirectives else { return }
    for (directive, path, position) in directives { log.report(directive, at: PrefKeyPath(path), position: position) }
  }

  /// Adds a finished node to the collection being built.
  private func add(
    _ node: PrefValue, count: Int, height: Int, isMergeKey: Bool, at: YAMLMark, to frame: inout Frame
  ) throws {
    frame.count = frame.count.addingSaturating(count)
    // A merged (`<<`) mapping's entries join this one instead of nesting in it, so
    // it adds its own height, not one more (for a sequence of mappings, one level
    // more than it keeps: a bound that errs on the safe side).
    frame.height = max(frame.height, frame.isMergeValuePending ? height : height + 1)
    guard frame.isMapping else {
      frame.items.append(node)
      return
    }
    guard let pending = frame.key else {
      // A key.
      if isMergeKey {
        // `<<` twice: the second would silently lose to the first.
        guard !frame.hasMergeKey else { throw at.error(.duplicateKey("<<")) }
        frame.hasMergeKey = true
        frame.key = .merge(at)
        return
      }
      guard case .string(let key) = node else {
        switch node {
        case .null:
          throw at.error("a null mapping key has no plist form: keys must be strings")
        case .array, .dictionary:
          throw at.error("complex mapping key (a \(node.kind.rawValue)): keys must be strings")
        default:
          throw at.error(
            "mapping key is \(node.kind.rawValue), not a string: keys must be strings",
            hints: ["quote the key"])
        }
      }
      // Duplicates show when the value is added.
      frame.key = .key(key, at)
      return
    }
    frame.key = nil
    switch pending {
    case .merge(let keyMark):
      frame.merges.append(contentsOf: try mergeSources(node, at: at, keyMark: keyMark))
    case .key(let key, let keyMark):
      try DuplicateKeys(options, warnings: warnings).insert(
        key, node, into: &frame.dict, position: { keyMark.position }, refusal: { keyMark.error($0) })
    }
  }

  /// The mappings a `<<` value merges in, in order: one mapping or a sequence of them.
  private func mergeSources(_ node: PrefValue, at: YAMLMark, keyMark: YAMLMark) throws
    -> [PrefDictionary]
  {
    switch node {
    case .dictionary(let d): return [d]
    case .array(let items):
      // Both named loaders refuse a null among merged mappings, as any other scalar.
      return try items.map { item in
        guard case .dictionary(let d) = item else {
          throw at.error(
            "a merge key (<<) takes a mapping or a sequence of mappings, not \(Self.named(item.kind))")
        }
        return d
      }
    case .null:
      throw keyMark.error("a merge key (<<) takes a mapping or a sequence of mappings, not null")
    case .string, .integer, .unsignedInteger, .real, .bool, .date, .data, .uid:
      throw at.error(
        "a merge key (<<) takes a mapping or a sequence of mappings, not \(Self.named(node.kind))")
    }
  }

  /// What a plain scalar's reading is, as a warning of a key names it: `an integer`, `null`.
  private static func named(_ reading: YAMLPlainReading) -> String {
    switch reading {
    case .scalar(let value): "\(value.kind.article) \(value.kind.rawValue)"
    case .null: "null"
    case .string, .merge: "a string"
    case .invalid: "a number or date out of range"
    }
  }

  /// A kind as a merge key's refusal names it: `a string`, `null`.
  private static func named(_ kind: PrefValue.Kind) -> String {
    kind == .null ? "null" : "a \(kind.rawValue)"
  }

  /// The mapping with its merged keys: merged keys first (earlier sources win), then
  /// the explicit keys, which win over merged ones (as PyYAML orders them).
  private func merged(_ frame: Frame) -> PrefDictionary {
    var result = PrefDictionary()
    for source in frame.merges {
      for (key, value) in source {
        result.insertNew(key, value)
      }
    }
    for (key, value) in frame.dict { result[key] = value }
    return result
  }

  // MARK: Scalars

  private static let yamlTagPrefix = "tag:yaml.org,2002:"

  /// The tags of the contract, matched on libyaml's C string without making a String.
  private enum Tag {
    case nonSpecific, str, int, float, bool, null, timestamp, binary, uid, map, seq

    static let table: [(StaticString, Tag)] = [
      ("tag:yaml.org,2002:str", .str), ("tag:yaml.org,2002:int", .int), ("tag:yaml.org,2002:float", .float),
      ("tag:yaml.org,2002:bool", .bool), ("tag:yaml.org,2002:null", .null),
      ("tag:yaml.org,2002:timestamp", .timestamp), ("tag:yaml.org,2002:binary", .binary), ("!uid", .uid),
      ("tag:yaml.org,2002:map", .map), ("tag:yaml.org,2002:seq", .seq), ("!", .nonSpecific),
    ]

    init?(_ tag: UnsafePointer<yaml_char_t>) {
      for (name, kind) in Self.table
      where strcmp(
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self),
        UnsafeRawPointer(tag).assumingMemoryBound(to: CChar.self)) == 0
      {
        self = kind
        return
      }
      return nil
    }
  }

  /// The node a scalar event stands for; `true` with it for a plain `<<` key.
  private mutating func scalar(_ event: UnsafePointer<yaml_event_t>, at: YAMLMark, keyPosition: Bool) throws -> (
    PrefValue, Bool
  ) {
    let s = event.pointee.data.scalar
    let bytes = UnsafeBufferPointer(start: s.value, count: s.length)
    if let tag = s.tag {
      let node = try tagged(tag, bytes, at: at)
      if options.settingsDirectives != nil, !keyPosition, string(tag) == "!delete" {
        nodeDirectives = [(.delete, [], at.position)]
      }
      return (node, false)
    }
    guard s.style == YAML_PLAIN_SCALAR_STYLE else {
      return (.string(String(decoding: bytes, as: UTF8.self)), false)
    }
    // A file read as YAML 1.1 on purpose means the 1.1 reading: nothing to warn of.
    if options.warnsOfYAMLAmbiguities, options.yamlVersion == .v1_2,
      let ambiguity = YAMLAmbiguity(plain: bytes, at: at.position)
    {
      warnings.add(ambiguity.message, position: ambiguity.position)
    }
    let reading = YAMLResolver.resolve(bytes, version: options.yamlVersion)
    if keyPosition, reading != .string, reading != .merge, !bytes.isEmpty {
      // The model's keys are strings: a plain key that reads as something else
      // (`1:`, `true:`, `null:`) is the string it is written as, and a patch keeps
      // that text. A key with no text at all (`? ` alone) stays a null key, refused.
      let text = String(decoding: bytes, as: UTF8.self)
      if options.warnsOfYAMLAmbiguities {
        warnings.add(
          "the key \(text) is \(Self.named(reading)) for YAML readers; read as the string \"\(text)\" (quote it to say so)",
          position: at.position)
      }
      return (.string(text), false)
    }
    switch reading {
    case .string: return (.string(String(decoding: bytes, as: UTF8.self)), false)
    case .null: return (.null, false)
    case .scalar(let value): return (value, false)
    case .merge: return (.string("<<"), keyPosition)
    case .invalid(let problem):
      // Quote at most 40 bytes of the scalar: the error stays one short line.
      let shown = String(decoding: bytes.prefix(40), as: UTF8.self) + (bytes.count > 40 ? "…" : "")
      throw at.error("\(problem): \(shown)", hints: ["quote it to keep it as a string"])
    }
  }

  /// A scalar with an explicit tag: only the tags of the contract, and content that fits.
  private func tagged(
    _ tagPointer: UnsafeMutablePointer<yaml_char_t>, _ bytes: UnsafeBufferPointer<UInt8>, at: YAMLMark
  )
    throws -> PrefValue
  {
    if options.settingsDirectives != nil {
      switch string(tagPointer) {
      case "!delete":
        guard bytes.isEmpty else { throw at.error("!delete takes no value: write 'key: !delete'") }
        return SettingsDirective.deleteStandIn
      case "!replace":
        throw at.error("!replace is for a mapping or a sequence; a scalar setting always replaces")
      default: break
      }
    }
    guard let tag = Tag(tagPointer) else {
      throw at.error(
        "unknown tag \(Self.shortTag(string(tagPointer)))",
        hints: [
          "known tags: !!str !!int !!float !!bool !!null !!timestamp !!binary !!map !!seq !uid"
            + (options.settingsDirectives != nil ? " !replace !delete" : "")
        ])
    }
    func text() -> String { String(decoding: bytes, as: UTF8.self) }
    func unfit(_ what: String) -> PrefsError {
      at.error("\(Self.shortTag(string(tagPointer))) value '\(text())' is not \(what)")
    }
    func reading() -> YAMLPlainReading { YAMLResolver.resolve(bytes, version: options.yamlVersion) }
    switch tag {
    case .nonSpecific, .str:
      return .string(text())
    case .int:
      guard case .scalar(let v) = reading(), v.kind == .integer else { throw unfit("an integer") }
      return v
    case .float:
      let reading = reading()
      if case .scalar(.real(let r)) = reading { return .real(r) }
      // Decimal integer text of any length is a real's text too (`!!float
      // 18446744073709551616`); `0x10` and `0o17` are not (YAML 1.1 drops `_`).
      var decimal = text()
      if options.yamlVersion == .v1_1 { decimal.removeAll { $0 == "_" } }
      if let real = TextForms.parseReal(Substring(decimal)) { return .real(real) }
      if TextForms.isDecimalReal(Substring(decimal)), case .invalid(let problem) = reading {
        throw at.error("\(problem): \(text())")
      }
      throw unfit("a real")
    case .bool:
      guard case .scalar(.bool(let b)) = reading() else { throw unfit("a bool") }
      return .bool(b)
    case .null:
      guard reading() == .null else { throw unfit("null") }
      return .null
    case .timestamp:
      // Only the timestamp pattern: `…T21:59` or a lower-case `z` are no timestamps.
      switch YAMLResolver.timestamp(bytes) {
      case .scalar(.date(let d))?: return .date(d)
      case .invalid(let problem)?: throw at.error("\(problem): \(text())")
      default: throw unfit("a timestamp")
      }
    case .binary:
      do {
        return .data(try Base64.decode(bytes))
      } catch {
        throw unfit("base64 (\(error.message))")
      }
    case .uid:
      switch reading() {
      case .scalar(.integer(let n)) where n >= 0: return .uid(UInt64(n))
      case .scalar(.unsignedInteger(let n)): return .uid(n)
      default: throw unfit("a non-negative integer")
      }
    case .map, .seq:
      throw at.error("\(Self.shortTag(string(tagPointer))) tag on a scalar")
    }
  }

  /// Checks a collection's tag; `!json` and `!plist` give the kind of data it stands for.
  private func checkCollectionTag(_ tag: String, isMapping: Bool, at: YAMLMark) throws -> EmbeddedData.Kind? {
    if let kind = EmbeddedData.Kind(yamlTag: tag) { return kind }
    switch tag {
    case "!": return nil
    case Self.yamlTagPrefix + "map" where isMapping, Self.yamlTagPrefix + "seq" where !isMapping:
      return nil
    case Self.yamlTagPrefix + "map", Self.yamlTagPrefix + "seq":
      throw at.error("\(Self.shortTag(tag)) tag on a \(isMapping ? "mapping" : "sequence")")
    default:
      // A scalar's tag on a collection is a known tag in the wrong place.
      let known = Tag.table.contains { $0.0.description == tag }
      throw at.error(
        known
          ? "\(Self.shortTag(tag)) tag on a \(isMapping ? "mapping" : "sequence")"
          : "unknown tag \(Self.shortTag(tag))")
    }
  }

  /// `tag:yaml.org,2002:str` as `!!str`; other tags as they are.
  static func shortTag(_ tag: String) -> String {
    tag.hasPrefix(yamlTagPrefix) ? "!!" + tag.dropFirst(yamlTagPrefix.count) : tag
  }

  private func mark(_ event: UnsafePointer<yaml_event_t>) -> YAMLMark {
    YAMLMark(event.pointee.start_mark)
  }

  private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>) -> String {
    String(cString: UnsafePointer(pointer))
  }
}

extension Int {
  /// Adds without overflowing (the alias counter only needs to know it is large).
  fileprivate func addingSaturating(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }
}
