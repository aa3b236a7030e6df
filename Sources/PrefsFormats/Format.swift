import PrefsModel
import PrefsText

/// The format table: every file format `prefs` knows, declared once. Option parsing
/// (`--from`, `--to`, `--format`), extension detection, content sniffing, help text
/// and error messages all read from it.
public struct Format: Sendable, Hashable, CustomStringConvertible {
  /// The canonical name (`xml`, `binary`, `json`, `yaml`, `openstep`).
  public let name: String
  /// Other names accepted on the command line (`xml1`, `binary1`, `yml`).
  public let aliases: [String]
  /// File extensions (without the dot) that select this format.
  public let extensions: [String]
  /// Whether `prefs` writes this format.
  public let isWritable: Bool
  /// One line for help text.
  public let summary: String
  /// How content is recognised when neither an option nor an extension decides.
  let sniff: Sniff
  /// The reader and writer.
  public let codec: any FormatCodec

  public var description: String { name }
  public static func == (a: Format, b: Format) -> Bool { a.name == b.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// How a format is recognised from its first bytes.
  enum Sniff: Sendable {
    /// Starts with one of these (after a UTF-8 byte order mark and white space).
    case prefix([String])
    /// Its first element, after the prolog, comments and white space, is a property
    /// list element (`<plist>`, or a bare `<dict>`, `<array>`, … as Munki writes).
    case xmlPlistElement
    /// Starts with one of these characters and reads without error as this format.
    case parses(startingWith: [Character])
    /// Looks like an OpenStep `key = value;` list or `( … )` array.
    case openStepShape
    /// Anything else.
    case fallback
  }

  // MARK: The table

  /// XML property list.
  public static let xml = Format(
    name: "xml", aliases: ["xml1"], extensions: ["plist", "xml"], isWritable: true,
    summary: "XML property list", sniff: .xmlPlistElement,
    codec: PlistCodec(variant: .xml))
  /// Binary property list (`bplist00`).
  public static let binary = Format(
    name: "binary", aliases: ["binary1", "bplist"], extensions: ["bplist"], isWritable: true,
    summary: "binary property list", sniff: .prefix(["bplist"]),
    codec: PlistCodec(variant: .binary))
  /// JSON, with `$date`/`$data`/`$real`/`$uid` objects for what plain JSON cannot hold.
  public static let json = Format(
    name: "json", aliases: [], extensions: ["json"], isWritable: true,
    summary: "JSON (typed objects for dates, data, non-finite reals and UIDs)",
    sniff: .parses(startingWith: ["{", "["]), codec: JSONCodec())
  /// OpenStep (old-style ASCII) property list: Xcode projects, `.strings` files.
  public static let openStep = Format(
    name: "openstep", aliases: ["ascii"], extensions: ["pbxproj", "strings"], isWritable: true,
    summary: "OpenStep property list (Xcode projects, .strings)", sniff: .openStepShape,
    codec: PlistCodec(variant: .openStep))
  /// YAML 1.2 (with ISO 8601 timestamps), written so that YAML 1.1 reads it the same.
  public static let yaml = Format(
    name: "yaml", aliases: ["yml"], extensions: ["yaml", "yml"], isWritable: true,
    summary: "YAML", sniff: .fallback, codec: YAMLCodec())

  /// Every format, in sniffing order.
  public static let all: [Format] = [binary, xml, json, openStep, yaml]

  /// Formats that can be written.
  public static var writable: [Format] { all.filter(\.isWritable) }

  /// The format called `name` or one of its aliases (case-insensitive).
  public static func named(_ name: String) -> Format? {
    let lower = name.lowercased()
    return all.first { $0.name == lower || $0.aliases.contains(lower) }
  }

  /// The format a path's extension selects, if any (`.plist` selects XML; reading
  /// still recognises a binary or OpenStep plist behind it).
  public static func forPath(_ path: String) -> Format? {
    let ext = path.pathExtension.lowercased()
    guard !ext.isEmpty else { return nil }
    return all.first { $0.extensions.contains(ext) }
  }

  /// Whether this is one of the property list formats.
  public var isPlist: Bool { self == .xml || self == .binary || self == .openStep }

  /// A text listing the names, for messages: `xml, binary, json, yaml, openstep`.
  public static func namesList(writableOnly: Bool = false) -> String {
    (writableOnly ? writable : all).map(\.name).joined(separator: ", ")
  }

  /// The error for a format name that is not in the table, with the nearest name
  /// or alias of the table when one is near enough to be a typo.
  public static func unknown(_ name: String, writableOnly: Bool = false) -> PrefsError {
    let candidates = (writableOnly ? writable : all).flatMap { [$0.name] + $0.aliases }
    let guess = Suggestions.closest(to: name.lowercased(), among: candidates, maximum: 1)
    return PrefsError(
      .unknownFormat(name, suggestion: guess), hints: ["formats: \(namesList(writableOnly: writableOnly))"])
  }
}

// MARK: - Reading with detection

extension Format {
  /// Reads `data`, deciding its format: `declared` when given, else the path's
  /// extension, else the content. A `.plist` file (or `--from xml`) may hold any of
  /// the plist formats. Returns the value and the format it was read as.
  ///
  /// `Format.read(data)` alone detects the format from the content, as the command
  /// line does for standard input: `bplist` magic is binary, `<?xml` or a plist element
  /// is XML, text that parses as JSON is JSON, `key = value;` is OpenStep, anything
  /// else YAML. To read a format known in advance, use ``decode(_:options:warnings:)``.
  public static func read(
    _ data: Data, declared: Format? = nil, path: String? = nil, options: ReadOptions = ReadOptions(),
    warnings: Warnings = Warnings()
  ) throws -> (value: PrefValue, format: Format) {
    try read(data, declared: declared, path: path, options: options, warnings: warnings) { format, warnings in
      try format.readValue(data, options: options, warnings: warnings)
    }
  }

  /// The one detection every read goes through: decides the format of `data` as
  /// ``read(_:declared:path:options:warnings:)`` says, and reads it with `reader`
  /// (the codec, or a reader that also maps the text). Text that starts like JSON is
  /// read as JSON first, and as what the formats after JSON say when it is not JSON.
  package static func read<Result>(
    _ data: Data, declared: Format?, path: String?, options: ReadOptions, warnings: Warnings,
    with reader: (Format, Warnings) throws -> Result
  ) throws -> (value: Result, format: Format) {
    if let error = options.sizeError(data.count) { throw error }
    if isPlainlyBinary(data) { throw PrefsError(.notAPreferenceFile) }
    guard let format = detect(data, declared: declared, path: path) else {
      let attempt = Warnings()
      do {
        let value = try reader(json, attempt)
        attempt.all.forEach(warnings.add)
        return (value, json)
      } catch {
        if JSONGrammar.isJSON(data) { throw error }
      }
      let format = sniffed(data, jsonUndecided: false) ?? yaml
      return (try reader(format, warnings), format)
    }
    do {
      return (try reader(format, warnings), format)
    } catch var error as PrefsError where declared == nil && format.isPlist && error.category == .badInput {
      // JSON saved under a plist name (often by a script) deserves better than a
      // complaint about OpenStep syntax.
      if (try? json.codec.read(data, options: options, warnings: Warnings())) != nil {
        error.kind = .jsonInPlistFile(cause: error.kind)
      }
      throw error
    }
  }

  /// The format `data` is read as when `declared`, the path's extension or the first
  /// bytes decide it; nil when only trying to read it as JSON can tell.
  public static func detect(_ data: Data, declared: Format? = nil, path: String? = nil) -> Format? {
    if var format = declared ?? path.flatMap(forPath) {
      if format.isPlist, let sniffed = sniffPlist(data) { format = sniffed }
      return format
    }
    return sniffed(data, jsonUndecided: true)
  }

  /// The format the first bytes say, by the table's order; with `jsonUndecided`, nil
  /// for text that starts like JSON (only reading it can tell), else the formats after
  /// JSON decide.
  private static func sniffed(_ data: Data, jsonUndecided: Bool) -> Format? {
    let head = leadingText(data)
    for format in all {
      switch format.sniff {
      case .prefix(let marks): if marks.contains(where: head.hasPrefix) { return format }
      case .xmlPlistElement: if startsLikeXMLPlist(data) { return format }
      case .parses(let starts): if jsonUndecided, let first = head.first, starts.contains(first) { return nil }
      case .openStepShape: if looksLikeOpenStep(head) { return format }
      case .fallback: return format
      }
    }
    return yaml
  }

  /// The plist variant the content starts like, if any: the one plist sniffer, used
  /// for detection and by ``PlistCodec``.
  package static func sniffPlist(_ data: Data) -> Format? {
    if data.starts(with: BinaryPlistReader.magic) { return binary }
    if startsLikeXMLPlist(data) { return xml }
    return looksLikeOpenStep(leadingText(data)) ? openStep : nil
  }

  /// Whether `data` is plainly binary and no binary plist, so that no reader could
  /// take it (an ELF or Mach-O executable, an image, an archive): a control character
  /// other than white space among its first four bytes, or first bytes that do not
  /// start UTF-8 text and a NUL in its first 512. Text in UTF-16 or UTF-32 (with a
  /// byte order mark, or XML without one) is text; a stray NUL or control character
  /// further into a text is left to its reader, which says where it is.
  package static func isPlainlyBinary(_ data: Data) -> Bool {
    let head = Array(data.prefix(512))
    guard !head.starts(with: BinaryPlistReader.magic),
      TextEncoding.detect(head, unmarkedFirst: UInt8(ascii: "<")) == .utf8(marked: false)
    else { return false }
    let first = head.prefix(4)
    guard !first.isEmpty else { return false }
    if first.contains(where: { $0 == 0x7F || ($0 < 0x20 && ![0x09, 0x0A, 0x0D].contains($0)) }) { return true }
    // The first character may be cut off by the four bytes: any prefix that is UTF-8 will do.
    let startsAsUTF8 = (1...first.count).contains { String(validating: first.prefix($0), as: UTF8.self) != nil }
    return !startsAsUTF8 && head.contains(0)
  }

  /// The element names that may stand first in an XML property list.
  private static let plistElements: Set<String> = [
    "plist", "dict", "array", "string", "key", "integer", "real", "true", "false", "date", "data",
  ]

  /// Whether the first element, after an XML declaration, processing instructions,
  /// comments, a DOCTYPE and white space, is a property list element, as `plutil`
  /// sniffs: so a bare `<dict>` or a file that starts with a comment is a plist.
  static func startsLikeXMLPlist(_ data: Data) -> Bool {
    data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      var p = TextEncoding.utf8MarkLength(bytes)
      func starts(_ text: String) -> Bool { bytes[p...].starts(with: text.utf8) }
      func skip(past end: String) -> Bool {
        let mark = Array(end.utf8)
        while p + mark.count <= bytes.count {
          if bytes[p..<(p + mark.count)].elementsEqual(mark) {
            p += mark.count
            return true
          }
          p += 1
        }
        return false
      }
      while true {
        while p < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[p]) { p += 1 }
        if starts("<?xml") || starts("<!DOCTYPE plist") { return true }
        if starts("<?") {
          guard skip(past: "?>") else { return false }
        } else if starts("<!--") {
          guard skip(past: "-->") else { return false }
        } else if starts("<!DOCTYPE") {
          guard skip(past: ">") else { return false }
        } else if starts("<") {
          let name = bytes[(p + 1)...].prefix { $0 != 0x3E && $0 != 0x2F && ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
          return plistElements.contains(String(decoding: name, as: UTF8.self))
        } else {
          return false
        }
      }
    }
  }

  /// The first few hundred bytes as text, without a byte order mark or leading white space.
  /// UTF-16 with a byte order mark (as `.strings` files often are), and UTF-32 with
  /// one, are decoded as such.
  private static func leadingText(_ data: Data) -> Substring {
    let head = data.prefix(512)
    let utf8 = (try? TextEncoding.detect(head).utf8(head, repairing: true)) ?? head
    return String(decoding: utf8, as: UTF8.self).drop(while: { $0.isWhitespace })
  }

  /// `{ key = value; … }`, `key = value;` or `( … )`: the shapes of an OpenStep plist
  /// that YAML and JSON never take (`(` does not start a YAML collection, `=` never
  /// follows a JSON or YAML flow key).
  static func looksLikeOpenStep(_ head: Substring) -> Bool {
    var rest = skipOpenStepSpace(head)
    if rest.first == "(" { return true }
    if rest.first == "{" { rest = skipOpenStepSpace(rest.dropFirst()) }
    if rest.first == "}" { return rest.count == 1 || skipOpenStepSpace(rest.dropFirst()).isEmpty }
    // A key: quoted string or unquoted word.
    if rest.first == "\"" {
      guard let close = rest.dropFirst().firstIndex(of: "\"") else { return false }
      rest = rest[rest.index(after: close)...]
    } else {
      let word = rest.prefix(while: { $0.isLetter || $0.isNumber || "_$+/:.-".contains($0) })
      guard !word.isEmpty else { return false }
      rest = rest.dropFirst(word.count)
    }
    return skipOpenStepSpace(rest).first == "="
  }

  private static func skipOpenStepSpace(_ text: Substring) -> Substring {
    var rest = text.drop(while: { $0.isWhitespace })
    while rest.hasPrefix("//") || rest.hasPrefix("/*") {
      if rest.hasPrefix("//") {
        rest = rest.drop(while: { $0 != "\n" })
      } else if let end = rest.firstRange(of: "*/") {
        rest = rest[end.upperBound...]
      } else {
        return ""
      }
      rest = rest.drop(while: { $0.isWhitespace })
    }
    return rest
  }
}

extension PrefsError {
  /// A syntax error of `format` at a line and column.
  static func syntax(
    in format: Format, _ problem: String, line: Int, column: Int, stage: SyntaxStage = .parser
  ) -> PrefsError {
    .syntax(problem, format: format.name, stage: stage, position: .lineColumn(line: line, column: column))
  }

  /// A syntax error of `format` at a byte offset.
  static func syntax(in format: Format, _ problem: String, offset: Int, stage: SyntaxStage = .parser) -> PrefsError {
    .syntax(problem, format: format.name, stage: stage, position: .byteOffset(offset))
  }
}
