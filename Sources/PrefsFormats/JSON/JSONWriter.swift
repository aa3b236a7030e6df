import PrefsModel
import PrefsText

/// Writes a ``PrefValue`` as JSON, streaming into a ``ByteWriter``.
struct JSONWriter {
  let out: ByteWriter
  package var options: WriteOptions
  /// The path to the value being written, for error messages.
  package var path: [PrefKeyPath.Component] = []
  /// One line with a space after each `,` and `:` (`{"a": 1, "b": 2}`), for values the
  /// patcher puts into a one-line container written so.
  var spacedOneLine = false
  /// Strings with `/` escaped as `\/`, as `JSONEncoder` writes them by default, for
  /// values the patcher puts into a text written so.
  var escapesSlashes = false
  /// With `--expand-data`: the blobs shown as structure, found by the pass before
  /// writing (``EmbeddedData/expansions(in:)``).
  var expansions: [Data: EmbeddedData.Expansion] = [:]

  init(out: ByteWriter, options: WriteOptions) {
    self.out = out
    self.options = options
  }

  mutating func write(_ value: PrefValue, indent: Int = 0) throws {
    if let directives = options.settingsDirectives, let directive = directives[PrefKeyPath(path)] {
      switch directive {
      case .delete:
        try openTyped(SettingsDirective.deleteWord)
        try out.write("true")
      case .replace:
        try openTyped(SettingsDirective.replaceWord)
        try writeValue(value, indent: indent)
      }
      return try out.write(UInt8(ascii: "}"))
    }
    try writeValue(value, indent: indent)
  }

  /// Writes `value` itself, whatever directive its path has.
  mutating func writeValue(_ value: PrefValue, indent: Int) throws {
    switch value {
    case .string(let s): try writeString(s)
    case .integer(let n): try out.write(String(n))
    case .unsignedInteger(let n): try out.write(String(n))
    case .bool(let b): try out.write(b ? "true" : "false")
    case .null: try out.write("null")
    case .real(let r):
      if let text = TextForms.real(r) {
        try out.write(text)
      } else if options.plainJSON {
        throw PrefsError(.nonFiniteReal(r, path: PrefKeyPath(path)))
      } else {
        try typed("$real", string: nonFiniteName(r))
      }
    case .date(let d):
      guard let text = TextForms.exactDate(d) else {
        let problem = TextForms.isInDateRange(d) ? "has no exact ISO 8601 form" : "is \(TextForms.dateRangeProblem)"
        throw PrefsError(
          .unrepresentable(
            format: "json", kind: .date, path: PrefKeyPath(path),
            problem: "date \(TextForms.date(d)) at \(pathText) \(problem)"))
      }
      if options.plainJSON { try writeString(text) } else { try typed("$date", string: text) }
    case .data(let d):
      if !options.plainJSON, let (kind, embedded) = expansions[d] {
        // The embedded keys keep their order: the bytes depend on it.
        let sortKeys = options.sortKeys
        options.sortKeys = false
        defer { options.sortKeys = sortKeys }
        try openTyped(kind.jsonKey)
        try write(embedded, indent: indent)
        return try out.write(UInt8(ascii: "}"))
      }
      let text = Base64.encode(d)
      if options.plainJSON { try writeString(text) } else { try typed("$data", string: text) }
    case .uid(let n):
      if options.plainJSON {
        try out.write(String(n))
      } else {
        try openTyped("$uid")
        try out.write(String(n))
        try out.write(UInt8(ascii: "}"))
      }
    case .array(let items):
      if items.isEmpty { return try out.write("[]") }
      try out.write(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { try comma() }
        try newline(indent + 1)
        path.append(.index(index))
        try write(item, indent: indent + 1)
        path.removeLast()
      }
      try newline(indent)
      try out.write(UInt8(ascii: "]"))
    case .dictionary(let dict):
      // A dictionary that looks like a typed object is escaped so it reads back as one.
      if !options.plainJSON, dict.count == 1, let key = dict.keys.first,
        JSONCodec.typedKeys.contains(key)
          || (options.settingsDirectives != nil
            && (key == SettingsDirective.replaceWord || key == SettingsDirective.deleteWord))
      {
        try openTyped("$dict")
        try writeMembers(dict, indent: indent)
        return try out.write(UInt8(ascii: "}"))
      }
      try writeMembers(dict, indent: indent)
    }
  }

  mutating func writeMembers(_ dict: PrefDictionary, indent: Int) throws {
    if dict.isEmpty { return try out.write("{}") }
    try out.write(UInt8(ascii: "{"))
    let entries: [PrefDictionary.Element] =
      options.sortKeys
      ? dict.sorted { PrefDictionary.codePointOrder($0.key, $1.key) } : Array(dict)
    for (index, entry) in entries.enumerated() {
      if index > 0 { try comma() }
      try newline(indent + 1)
      try writeString(entry.key)
      try out.write(options.compact && !spacedOneLine ? ":" : ": ")
      path.append(.key(entry.key))
      try write(entry.value, indent: indent + 1)
      path.removeLast()
    }
    try newline(indent)
    try out.write(UInt8(ascii: "}"))
  }

  /// Starts a typed object, `{"$key": `; the caller writes its value and the `}`.
  func openTyped(_ key: String) throws {
    try out.write(UInt8(ascii: "{"))
    try writeString(key)
    try out.write(options.compact && !spacedOneLine ? ":" : ": ")
  }

  private func comma() throws {
    try out.write(UInt8(ascii: ","))
    if options.compact, spacedOneLine { try out.write(UInt8(ascii: " ")) }
  }

  /// Writes a whole typed object holding a string: `{"$date": "…"}`.
  func typed(_ key: String, string: String) throws {
    try openTyped(key)
    try writeString(string)
    try out.write(UInt8(ascii: "}"))
  }

  func newline(_ indent: Int) throws {
    guard !options.compact else { return }
    try out.write(UInt8(ascii: "\n"))
    for _ in 0..<indent { try out.write("  ") }
  }

  func nonFiniteName(_ r: Double) -> String { TextForms.nonFiniteWord(r) }

  var pathText: String {
    PrefKeyPath(path).nameInMessages
  }

  func writeString(_ s: String) throws {
    try out.write(UInt8(ascii: "\""))
    var s = s
    try s.withUTF8 { utf8 in
      var runStart = 0
      for (k, b) in utf8.enumerated() where b < 0x20 || b == 0x22 || b == 0x5C || (b == 0x2F && escapesSlashes) {
        if runStart < k { try out.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[runStart..<k]))) }
        runStart = k + 1
        switch b {
        case 0x22: try out.write("\\\"")
        case 0x5C: try out.write("\\\\")
        case 0x2F: try out.write("\\/")
        case 0x0A: try out.write("\\n")
        case 0x0D: try out.write("\\r")
        case 0x09: try out.write("\\t")
        case 0x08: try out.write("\\b")
        case 0x0C: try out.write("\\f")
        default:
          try out.write("\\u00")
          try out.write(lowercaseHexDigits[Int(b >> 4)])
          try out.write(lowercaseHexDigits[Int(b & 0xF)])
        }
      }
      if runStart < utf8.count {
        try out.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[runStart...])))
      }
    }
    try out.write(UInt8(ascii: "\""))
  }
}
