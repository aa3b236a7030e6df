import PrefsFormats
import PrefsModel
import PrefsText

/// A text document read for editing: its value, and where in its bytes each value
/// stands, so that a new value can be written back by changing only the bytes of
/// what changed: a text file is the user's.
///
/// YAML, JSON, XML and OpenStep property lists have text; a binary property list does
/// not, and is written whole. UTF-16 text is edited as UTF-8 and written back as UTF-16.
public struct TextDocument: Sendable {
  /// The document's format.
  public let format: Format
  /// The value the document holds.
  public let value: PrefValue
  /// Where each value stands in the document's text.
  package let map: SourceMap
  /// The document's text as UTF-8 (transcoded from UTF-16 or UTF-32 when it was that).
  package let text: [UInt8]
  /// How the document's bytes are encoded.
  let encoding: TextEncoding
  let syntax: any TextSyntax
  package let options: ReadOptions
  /// The children of the arrays looked up by index, listed once each.
  private let childLists = ChildLists()

  /// The children of `node` in document order, listed once per document: a merge
  /// looks up one item of a long array per conflict.
  package func children(of node: Int) -> [Int] { childLists.children(of: node, in: map) }

  /// The first index at which `items`, the array of `node`, holds `value`, looked up
  /// in a table of its items made once: the other side of a merge numbers items its
  /// own way, and a shuffled long array would be searched once per item.
  package func firstIndex(of value: PrefValue, in items: [PrefValue], at node: Int) -> Int? {
    childLists.firstIndex(of: value, in: items, at: node)
  }

  /// The patcher's view of a format, or nil for one without text.
  static func syntax(for format: Format) -> (any TextSyntax)? {
    switch format {
    case .yaml: YAMLSyntax()
    case .json: JSONSyntax()
    case .xml: XMLSyntax()
    case .openStep: OpenStepSyntax()
    default: nil
    }
  }

  /// Reads `data` as `format` with its source map; nil when the format has no text
  /// to patch (a binary plist, an XML plist in an encoding other than UTF-8, UTF-16 or
  /// UTF-32 with a byte order mark).
  public init?(_ data: Data, format: Format, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings())
    throws
  {
    guard let syntax = Self.syntax(for: format) else { return nil }
    let encoding = TextEncoding.detect(data)
    var utf8 = data
    if !encoding.isUTF8 {
      // The byte order mark stays out: the text is written back with one.
      guard let text = try? encoding.utf8(data) else { return nil }
      utf8 = text
    } else if format == .xml, !XMLPlistReader.canRead(data) {
      return nil
    }
    let (value, map) = try EmbeddedData.collapsing(options) {
      try syntax.readMapped(utf8, options: $0, warnings: warnings)
    }
    self.format = format
    self.value = value
    self.map = map
    self.text = Array(utf8)
    self.encoding = encoding
    self.syntax = syntax
    self.options = options
  }

  /// Reads `data` as ``Format/read(_:declared:path:options:warnings:)`` does (the same
  /// detection), and with its source map when the format has text.
  public static func read(
    _ data: Data, declared: Format? = nil, path: String? = nil, options: ReadOptions = ReadOptions(),
    warnings: Warnings = Warnings()
  ) throws -> (value: PrefValue, format: Format, document: TextDocument?) {
    let (read, format) = try Format.read(
      data, declared: declared, path: path, options: options, warnings: warnings
    ) { format, warnings -> (PrefValue, TextDocument?) in
      if let document = try TextDocument(data, format: format, options: options, warnings: warnings) {
        return (document.value, document)
      }
      return (try format.readValue(data, options: options, warnings: warnings), nil)
    }
    return (read.0, format, read.1)
  }

  /// Where the value at `path` is written: its key, or for an array item its value.
  public func position(of path: PrefKeyPath) -> SourcePosition? {
    guard let node = node(at: path) else { return nil }
    // A UTF-16 document is edited as UTF-8, but its lines and characters are the same.
    return .of(offset: map.nodes[node].key?.lowerBound ?? map.nodes[node].value.lowerBound, in: text)
  }

  /// The document's bytes changed to hold `newValue`.
  public struct Patch: Sendable {
    /// The new bytes of the whole document.
    public let data: Data
    /// Entries that could not change in place and were written whole, by key path.
    public let rewrittenEntries: [PrefKeyPath]
    /// Why the whole document was written anew, when it was.
    public let rewrittenWhole: String?
    /// Whether the bytes changed: false when the new value equals the old one.
    public let changed: Bool
    /// Entries written out that the text gave through a YAML alias or merge key
    /// (`*x`, `<<: *x`), by key path: copies of what their anchor held, which no
    /// longer follow it. The top level when the whole document, holding an alias, was
    /// written anew.
    public var expandedAliases: [PrefKeyPath] = []

    /// What the user should know of the patch: each entry written whole, or why the
    /// whole document was.
    public var notes: [String] {
      rewrittenEntries.map { "\($0.nameInMessages) could not change in place and was written whole" }
        + (rewrittenWhole.map { ["the whole file was written anew: \($0)"] } ?? [])
    }
  }

  /// The document's bytes changed to hold `newValue`, only where the values differ.
  /// The result is read back and compared with `newValue`; when patching cannot give
  /// it, the whole document is written by the format's writer instead, and
  /// ``Patch/rewrittenWhole`` says why. An entry that `newValue` adds and `other` (the
  /// other side of a merge) holds is written as `other` writes it, with its comment
  /// lines, where it fits the document's indentation.
  public func patched(to newValue: PrefValue, warnings: Warnings = Warnings(), other: TextDocument? = nil) throws
    -> Patch
  {
    var patcher = TextPatcher(
      text: text, map: map, syntax: syntax.writing(newValue, replacing: value, in: text), layout: layout,
      warnings: warnings, other: other?.format == format ? other : nil)
    do {
      guard let bytes = try patcher.patch(from: value, to: newValue) else {
        return Patch(data: encoded(text), rewrittenEntries: [], rewrittenWhole: nil, changed: false)
      }
      let data = encoded(bytes)
      // A check in parts that fails is not the last word: the whole document is.
      let checked =
        try readsBackInParts(bytes, patcher, as: newValue) == true || readsBack(data, as: newValue)
      if checked {
        return Patch(
          data: data, rewrittenEntries: patcher.rewrites, rewrittenWhole: nil, changed: true,
          expandedAliases: patcher.expandedAliases)
      }
      return try rewritten(newValue, warnings: warnings, why: "the edited text did not read back as the new value")
    } catch is TextPatcher.NeedsRewrite {
      return try rewritten(newValue, warnings: warnings, why: "the document's top level changed kind")
    }
  }

  /// The indentation a document without any uses: what the format's writer uses.
  var defaultIndent: [UInt8] { format == .xml || format == .openStep ? [0x09] : [0x20, 0x20] }

  /// Above this size, a document patched inside some of its root's entries is checked
  /// by reading those entries' new text alone, not the whole document again.
  static let wholeCheckLimit = 4 << 20

  /// Whether the root entries the patcher changed inside read as `expected` has them;
  /// nil when the document is checked whole (small, UTF-16, with an entry written
  /// whole, or YAML whose anchors, aliases or merge keys tie entries to each other).
  private func readsBackInParts(_ bytes: [UInt8], _ patcher: TextPatcher, as expected: PrefValue) throws
    -> Bool?
  {
    // Entries added or removed at the top level are whole lines the format's own writer
    // wrote (or took away); what changed inside an entry is read back. A YAML value
    // alone is indented as its entry was, so a YAML entry is read with its key.
    guard text.count > Self.wholeCheckLimit, encoding.isUTF8, patcher.rewrites.isEmpty,
      let expected = expected.dictionaryValue
    else { return nil }
    let readsEntries = format == .yaml
    if readsEntries {
      let ties: SourceMap.Flags = [.alias, .anchored, .merges]
      guard map.root.hasChildren, !syntax.isFlow(map.root, in: text),
        !map.nodes.contains(where: { !$0.flags.isDisjoint(with: ties) })
      else { return nil }
    }
    for (key, oldValue, oldEntry) in patcher.patchedRootEntries {
      let range = patcher.newRange(of: readsEntries ? oldEntry : oldValue)
      guard range.lowerBound >= 0, range.upperBound <= bytes.count, let value = expected[key] else { return false }
      let part = Data(bytes[range])
      let shouldRead = readsEntries ? PrefValue.dictionary([key: value]) : value
      guard let read = try? format.readValue(part, options: options, warnings: Warnings()) else { return false }
      if read != shouldRead, try !readsBack(part, as: shouldRead) { return false }
    }
    return true
  }

  /// Whether `bytes` read as `expected`, as far as the format can hold it (an XML
  /// plist holds a date to the second, as its writer writes it).
  package func readsBack(_ data: Data, as expected: PrefValue) throws -> Bool {
    guard let read = try? format.readValue(data, options: options, warnings: Warnings()) else { return false }
    if read == expected { return true }
    let held = try format.readValue(
      try format.codec.encode(expected, options: WriteOptions(), warnings: Warnings()), options: options,
      warnings: Warnings())
    return read == held
  }

  private func rewritten(_ newValue: PrefValue, warnings: Warnings, why: String) throws -> Patch {
    let bytes = try format.codec.encode(newValue, options: WriteOptions(), warnings: warnings)
    // The format's writer writes every alias out.
    let aliases = map.nodes.contains { !$0.flags.isDisjoint(with: [.alias, .merges]) } ? [PrefKeyPath()] : []
    return Patch(
      data: encoded(Array(bytes)), rewrittenEntries: [], rewrittenWhole: why, changed: true,
      expandedAliases: aliases)
  }

  func encoded(_ bytes: [UInt8]) -> Data {
    // UTF-8 text keeps its byte order mark among its bytes; the others get theirs back.
    encoding.isUTF8 ? Data(bytes) : encoding.encode(bytes)
  }
}

/// The lists of children a document has made, and the tables of where its arrays
/// hold each item, by node. A class, so that a document
/// (a value) fills it as it is asked; locked, so that it may be asked from any thread.
private final class ChildLists: @unchecked Sendable {
  private let lock = Lock()
  private var lists: [Int: [Int]] = [:]
  private var positions: [Int: [PrefValue: Int]] = [:]

  func children(of node: Int, in map: SourceMap) -> [Int] {
    lock.withLock {
      if let list = lists[node] { return list }
      let list = map.children(of: node)
      lists[node] = list
      return list
    }
  }

  func firstIndex(of value: PrefValue, in items: [PrefValue], at node: Int) -> Int? {
    lock.withLock {
      if let table = positions[node] { return table[value] }
      var table: [PrefValue: Int] = [:]
      for (index, item) in items.enumerated() where table[item] == nil { table[item] = index }
      positions[node] = table
      return table[value]
    }
  }
}
