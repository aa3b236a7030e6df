internal import CYaml
import PrefsModel
import PrefsText

/// Writes a ``PrefValue`` as one YAML document through libyaml's emitter, streaming
/// its output into a ``ByteWriter``: block style, 2-space indent, UTF-8, no line
/// folding, `[]`/`{}` for empty collections, and no `---` marker (libyaml ends the
/// document with `...` only after a literal block that keeps its final line breaks).
final class YAMLEmitter {
  /// Where libyaml's write handler puts the bytes, and the error it met, if any.
  private final class Sink {
    let writer: ByteWriter
    var error: (any Error)?
    /// Puts back the characters outside the BMP, once a string has had stand-ins
    /// (``YAMLWideCharacters``); until then no output holds one.
    var restorer: YAMLWideCharacters.Restorer?
    init(_ writer: ByteWriter) { self.writer = writer }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
      if restorer == nil { return try writer.write(bytes) }
      try restorer!.write(bytes, to: writer)
    }
  }

  private let emitter: UnsafeMutablePointer<yaml_emitter_t>
  private let sink: Sink
  private let sortKeys: Bool
  /// Data holding JSON or a binary plist, shown as a tagged collection: what the pass
  /// before writing found (``EmbeddedData/expansions(in:mode:warnings:)``).
  private let expansions: [Data: EmbeddedData.Expansion]
  /// The key paths to tag `!replace` and `!delete` (a settings file).
  private let directives: [PrefKeyPath: SettingsDirective]?
  /// The path to the node being written; kept only when there are ``directives``.
  private var path: [PrefKeyPath.Component] = []
  /// How deep inside such a collection the emitter is: its keys keep their order,
  /// which the bytes depend on.
  private var embeddedDepth = 0
  /// Collections in flow style (`[a, b]`, `{k: v}`), for values placed inside a flow collection.
  private let flow: Bool
  /// The style of the next string scalar written, when the text it replaces asks for one.
  private var nextStringStyle: yaml_scalar_style_t?

  /// An emitter writing into `writer`; `indent` (2 to 9 spaces), `flow` and `crlf`
  /// lay out fragments in the style of a document being patched.
  init(
    writer: ByteWriter, sortKeys: Bool, expansions: [Data: EmbeddedData.Expansion] = [:],
    directives: [PrefKeyPath: SettingsDirective]? = nil,
    indent: Int = 2, flow: Bool = false, crlf: Bool = false
  ) throws {
    emitter = .allocate(capacity: 1)
    guard yaml_emitter_initialize(emitter) == 1 else {
      emitter.deallocate()
      throw PrefsError(.outOfMemory(doing: "starting the YAML emitter"))
    }
    sink = Sink(writer)
    self.sortKeys = sortKeys
    self.expansions = expansions
    self.directives = directives
    self.flow = flow
    yaml_emitter_set_output(
      emitter,
      { context, buffer, size in
        let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
        do {
          try sink.write(UnsafeRawBufferPointer(start: buffer, count: size))
          return 1
        } catch {
          sink.error = error
          return 0
        }
      }, Unmanaged.passUnretained(sink).toOpaque())
    yaml_emitter_set_encoding(emitter, YAML_UTF8_ENCODING)
    yaml_emitter_set_unicode(emitter, 1)
    yaml_emitter_set_indent(emitter, Int32(min(max(indent, 2), 9)))
    // Negative: no width limit, so long scalars are never folded.
    yaml_emitter_set_width(emitter, -1)
    yaml_emitter_set_break(emitter, crlf ? YAML_CRLN_BREAK : YAML_LN_BREAK)
  }

  deinit {
    yaml_emitter_delete(emitter)
    emitter.deallocate()
  }

  /// Writes the whole stream: one implicit document holding `value`.
  func document(_ value: PrefValue) throws {
    try startDocument()
    try node(value)
    try endDocument(endingStream: true)
  }

  /// Writes some consecutive entries of a root dictionary as the lines ``document(_:)``
  /// writes for them; the parts of a dictionary, joined in order, are its document.
  /// Only the last part ends the stream, where libyaml may add a `...` line.
  func documentPart(_ entries: ArraySlice<PrefDictionary.Element>, isLast: Bool) throws {
    try startDocument()
    var event = yaml_event_t()
    yaml_mapping_start_event_initialize(&event, nil, nil, 1, YAML_BLOCK_MAPPING_STYLE)
    try emit(&event)
    for (key, item) in entries {
      try string(key, isKey: true)
      try node(item)
    }
    yaml_mapping_end_event_initialize(&event)
    try emit(&event)
    try endDocument(endingStream: isLast)
  }

  /// Writes `value` as the only item of a sequence (`- value`) or, with `key`, the only
  /// entry of a mapping (`key: value`): the text of one entry, for the patcher. In flow
  /// style the collection's brackets surround it. `quoted` asks for a string in double
  /// (`"`) or single (`'`) quotes, as the text it replaces has.
  func entry(key: String?, value: PrefValue, quoted: UInt8? = nil) throws {
    try startDocument()
    var event = yaml_event_t()
    if let key {
      yaml_mapping_start_event_initialize(
        &event, nil, nil, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE)
      try emit(&event)
      try string(key, isKey: true)
    } else {
      yaml_sequence_start_event_initialize(
        &event, nil, nil, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE)
      try emit(&event)
    }
    switch quoted {
    case UInt8(ascii: "\""): nextStringStyle = YAML_DOUBLE_QUOTED_SCALAR_STYLE
    case UInt8(ascii: "'"): nextStringStyle = YAML_SINGLE_QUOTED_SCALAR_STYLE
    default: nextStringStyle = nil
    }
    try node(value)
    if key != nil {
      yaml_mapping_end_event_initialize(&event)
    } else {
      yaml_sequence_end_event_initialize(&event)
    }
    try emit(&event)
    try endDocument(endingStream: true)
  }

  private func startDocument() throws {
    var event = yaml_event_t()
    yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING)
    try emit(&event)
    yaml_document_start_event_initialize(&event, nil, nil, nil, 1)
    try emit(&event)
  }

  private func endDocument(endingStream: Bool) throws {
    var event = yaml_event_t()
    yaml_document_end_event_initialize(&event, 1)
    try emit(&event)
    if endingStream {
      yaml_stream_end_event_initialize(&event)
      try emit(&event)
    }
    guard yaml_emitter_flush(emitter) == 1 else { throw emitterError() }
  }

  // MARK: Nodes

  private static let timestampTag: StaticString = "tag:yaml.org,2002:timestamp"
  private static let binaryTag: StaticString = "tag:yaml.org,2002:binary"
  private static let uidTag: StaticString = "!uid"
  private static let replaceTag: StaticString = "!replace"
  private static let deleteTag: StaticString = "!delete"

  private func node(_ value: PrefValue, tag: StaticString? = nil) throws {
    if let directives, tag == nil, let directive = directives[PrefKeyPath(path)] {
      switch directive {
      case .delete: return try scalar("", tag: Self.deleteTag, style: YAML_PLAIN_SCALAR_STYLE)
      // A scalar setting replaces anyway; only a collection carries the tag.
      case .replace where value.kind == .array || value.kind == .dictionary:
        return try node(value, tag: Self.replaceTag)
      case .replace: break
      }
    }
    switch value {
    case .string(let s):
      try string(s, isKey: false)
    case .integer(let n):
      try plain(String(n))
    case .unsignedInteger(let n):
      try plain(String(n))
    case .real(let r):
      try plain(TextForms.realOrSpecial(r))
    case .bool(let b):
      try plain(b ? "true" : "false")
    case .date(let d):
      guard let text = TextForms.exactDate(d) else { throw Self.refusal(of: d) }
      try scalar(text, tag: Self.timestampTag, style: YAML_PLAIN_SCALAR_STYLE)
    case .data(let d):
      if let (kind, embedded) = expansions[d] {
        embeddedDepth += 1
        defer { embeddedDepth -= 1 }
        return try node(embedded, tag: kind.yamlTag)
      }
      if d.isEmpty {
        try scalar("", tag: Self.binaryTag, style: YAML_DOUBLE_QUOTED_SCALAR_STYLE)
      } else if d.count <= 57 {
        // 57 bytes make one 76-character base64 line.
        try scalar(Base64.encode(d), tag: Self.binaryTag, style: YAML_PLAIN_SCALAR_STYLE)
      } else {
        let lines = Base64.encodedLines(d, lineLength: 76) + "\n"
        try scalar(lines, tag: Self.binaryTag, style: YAML_LITERAL_SCALAR_STYLE)
      }
    case .uid(let u):
      try scalar(String(u), tag: Self.uidTag, style: YAML_PLAIN_SCALAR_STYLE)
    case .null:
      try plain("null")
    case .array(let items):
      var event = yaml_event_t()
      let style = items.isEmpty || flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE
      yaml_sequence_start_event_initialize(&event, nil, tag?.utf8Start, tag == nil ? 1 : 0, style)
      try emit(&event)
      if directives == nil {
        for item in items { try node(item) }
      } else {
        for (index, item) in items.enumerated() { try node(item, at: .index(index)) }
      }
      yaml_sequence_end_event_initialize(&event)
      try emit(&event)
    case .dictionary(let dict):
      var event = yaml_event_t()
      let style = dict.isEmpty || flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE
      yaml_mapping_start_event_initialize(&event, nil, tag?.utf8Start, tag == nil ? 1 : 0, style)
      try emit(&event)
      if sortKeys, embeddedDepth == 0 {
        for (key, item) in dict.sorted(by: { PrefDictionary.codePointOrder($0.key, $1.key) }) {
          try string(key, isKey: true)
          try node(item, at: directives == nil ? nil : .key(key))
        }
      } else {
        for (key, item) in dict {
          try string(key, isKey: true)
          try node(item, at: directives == nil ? nil : .key(key))
        }
      }
      yaml_mapping_end_event_initialize(&event)
      try emit(&event)
    }
  }

  /// Writes `value` one level down, at `component` of the path (nil: no path is kept).
  @inline(__always)
  private func node(_ value: PrefValue, at component: PrefKeyPath.Component?) throws {
    guard let component else { return try node(value) }
    path.append(component)
    defer { path.removeLast() }
    try node(value)
  }

  /// Why a date has no YAML timestamp: outside ``TextForms/dateRange``, or `-0.0`.
  private static func refusal(of date: Date) -> PrefsError {
    let text = TextForms.date(date)
    guard TextForms.isInDateRange(date) else {
      return PrefsError(
        .unrepresentable(
          format: "yaml", kind: .date, path: nil, problem: "date \(text) is \(TextForms.dateRangeProblem)"))
    }
    return PrefsError(
      .unrepresentable(format: "yaml", kind: .date, path: nil, problem: "date \(text) has no exact ISO 8601 form"))
  }

  private func string(_ text: String, isKey: Bool) throws {
    var s = text
    // One pass over the string's own bytes (walking its UTF-8 view by index costs more).
    let needsStandIns =
      text.utf8.withContiguousStorageIfAvailable(YAMLWideCharacters.needsStandIns)
      ?? s.withUTF8(YAMLWideCharacters.needsStandIns)
    if needsStandIns {
      s = YAMLWideCharacters.standingIn(s)
      if sink.restorer == nil { sink.restorer = YAMLWideCharacters.Restorer() }
    }
    var style: yaml_scalar_style_t
    switch YAMLScalarStyle.choose(for: s, isKey: isKey) {
    case .plain: style = YAML_PLAIN_SCALAR_STYLE
    case .doubleQuoted: style = YAML_DOUBLE_QUOTED_SCALAR_STYLE
    case .literal: style = YAML_LITERAL_SCALAR_STYLE
    }
    if !isKey, let asked = nextStringStyle {
      // libyaml falls back to double quotes where single quotes cannot hold the text.
      style = asked
      nextStringStyle = nil
    }
    if flow, style == YAML_LITERAL_SCALAR_STYLE { style = YAML_DOUBLE_QUOTED_SCALAR_STYLE }
    try scalar(s, tag: nil, style: style)
  }

  private func plain(_ text: String) throws {
    try scalar(text, tag: nil, style: YAML_PLAIN_SCALAR_STYLE)
  }

  private func scalar(_ text: String, tag: StaticString?, style: yaml_scalar_style_t) throws {
    var text = text
    try text.withUTF8 { bytes in
      // The event is filled in here rather than by yaml_scalar_event_initialize, which
      // checks the UTF-8 of every value again (a Swift string is valid already). The
      // emitter frees the value and the tag when it is done with them.
      guard let value = malloc(bytes.count + 1)?.assumingMemoryBound(to: UInt8.self) else {
        throw PrefsError(.outOfMemory(doing: "writing YAML"))
      }
      if let base = bytes.baseAddress { value.initialize(from: base, count: bytes.count) }
      value[bytes.count] = 0
      var event = yaml_event_t()
      event.type = YAML_SCALAR_EVENT
      event.data.scalar.value = value
      event.data.scalar.length = bytes.count
      if let tag {
        guard let copy = strdup(UnsafeRawPointer(tag.utf8Start).assumingMemoryBound(to: CChar.self)) else {
          free(value)
          throw PrefsError(.outOfMemory(doing: "writing YAML"))
        }
        event.data.scalar.tag = UnsafeMutableRawPointer(copy).assumingMemoryBound(to: yaml_char_t.self)
      } else {
        event.data.scalar.plain_implicit = 1
        event.data.scalar.quoted_implicit = 1
      }
      event.data.scalar.style = style
      try emit(&event)
    }
  }

  private func emit(_ event: inout yaml_event_t) throws {
    guard yaml_emitter_emit(emitter, &event) == 1 else { throw emitterError() }
  }

  private func emitterError() -> any Error {
    if let error = sink.error { return error }
    let problem = emitter.pointee.problem.map { String(cString: $0) } ?? "unknown error"
    return PrefsError(.writerFailed(writer: "YAML writer", problem: problem))
  }
}
