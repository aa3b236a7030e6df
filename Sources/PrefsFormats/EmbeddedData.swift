import PrefsModel
import PrefsText

/// Data values that hold a JSON document or a binary plist (the tutorial's `items`:
/// a JSON array of items, encoded as `Data`), shown as structure by `--expand-data`
/// and turned back into the very same bytes when read.
///
/// YAML writes such a value as a collection under a local tag (`items: !json` and
/// the array below it); JSON as a typed object (`{"$json": [...]}`). In a file that is
/// read back (``ExpansionMode/readBack``) a blob is shown expanded only when encoding
/// the structure again reproduces its bytes exactly: compact JSON (as `JSONEncoder`
/// writes it, with `.withoutEscapingSlashes`) or a binary plist as `prefs` writes it;
/// in a view (``ExpansionMode/view``) any JSON or binary plist holding a collection is.
/// Anything else stays `!!binary` / `$data`.
public enum EmbeddedData {
  /// What a blob holds.
  public enum Kind: String, Sendable, CaseIterable {
    case json, plist

    /// The YAML local tag: `!json`, `!plist`.
    public var yamlTag: StaticString {
      switch self {
      case .json: "!json"
      case .plist: "!plist"
      }
    }

    /// The kind a YAML tag names, if any.
    public init?(yamlTag: String) {
      guard yamlTag.hasPrefix("!"), let kind = Kind(rawValue: String(yamlTag.dropFirst())) else { return nil }
      self = kind
    }

    /// The key of the JSON typed object: `$json`, `$plist`.
    public var jsonKey: String { "$" + rawValue }
  }

  /// What a data value holds, as `--expand-data` sees it.
  public enum Contents: Sendable {
    /// A JSON document or binary plist holding an array or a dictionary. `exact` when
    /// ``bytes(_:kind:)`` gives these very bytes back, so that the structure can stand
    /// for the blob in a file (`!json`, `$json`) and be read back unchanged.
    case structure(kind: Kind, value: PrefValue, exact: Bool)
    /// Data that starts as JSON or a binary plist does but cannot be shown as
    /// structure; `reason` says why, in words for a warning line.
    case leftAsData(kind: Kind, reason: String)
    /// Anything else (an image, an archive, text): data, with nothing to say.
    case opaque
  }

  /// What `data` holds. JSON is recognised by its first byte that is not white space
  /// (`{` or `[`), in any spacing or escaping; a binary plist by `bplist00`.
  public static func inspect(_ data: Data) -> Contents {
    let kind: Kind
    if data.starts(with: Array("bplist00".utf8)) {
      kind = .plist
    } else if let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
      // Bytes that are not UTF-8 are no JSON text, whatever their first byte (a UUID's 16 bytes).
      String(validating: data, as: UTF8.self) != nil
    {
      kind = .json
    } else {
      return .opaque
    }
    // The exact form first: typed JSON (`$date`, `$data`) as prefs writes it.
    let codec = kind == .json ? Format.json.codec : Format.binary.codec
    if let value = try? codec.decode(data), value.kind == .array || value.kind == .dictionary,
      (try? bytes(value, kind: kind)) == data
    {
      return .structure(kind: kind, value: value, exact: true)
    }
    // Any other spacing or escaping, read as ordinary JSON.
    var options = ReadOptions()
    options.plainJSON = true
    do {
      let value = try codec.decode(data, options: options)
      guard value.kind == .array || value.kind == .dictionary else {
        return .leftAsData(
          kind: kind, reason: "it holds \(value.kind.article) \(value.kind.rawValue), not a collection")
      }
      return .structure(kind: kind, value: value, exact: false)
    } catch {
      let what = kind == .json ? "JSON" : "binary plist"
      return .leftAsData(kind: kind, reason: "it is not valid \(what): \(PrefsError.text(of: error))")
    }
  }

  /// The array or dictionary `data` holds, when it is JSON or a binary plist whose
  /// structure encodes back to exactly these bytes (``Contents/structure(kind:value:exact:)``
  /// with `exact`); nil otherwise.
  public static func expand(_ data: Data) -> (kind: Kind, value: PrefValue)? {
    guard case .structure(let kind, let value, exact: true) = inspect(data) else { return nil }
    return (kind, value)
  }

  // MARK: The pass before writing

  /// What a blob shows as: its kind and its structure.
  package typealias Expansion = (kind: Kind, value: PrefValue)

  /// Which blobs ``WriteOptions/expandData`` shows as structure.
  public enum ExpansionMode: Sendable, Equatable {
    /// Only blobs whose structure encodes back to their very bytes
    /// (``Contents/structure(kind:value:exact:)`` with `exact`): a file that is read
    /// back, as `convert` and `export` write, gives the same data again.
    case readBack
    /// Every blob that holds structure, in any spacing or escaping: a view that is
    /// not read back as it is (`textconv`, `diff --unified`, the text `edit` opens).
    case view
  }

  /// The pass before writing: `options` with ``WriteOptions/expansions`` holding what
  /// ``WriteOptions/expandData`` shows of `value` (nothing without it). Each blob left
  /// as data is a warning in `warnings`, naming its key path and why.
  static func expanding(_ value: PrefValue, _ options: WriteOptions, warnings: Warnings) -> WriteOptions {
    guard options.expandData else { return options }
    var options = options
    options.expansions = expansions(in: value, mode: options.expansionMode, warnings: warnings)
    return options
  }

  /// What the pass before writing finds: every data value in `value` (and in the
  /// structure those show) that `mode` shows as structure, by its bytes. Writers look
  /// their data up here; they never read a blob themselves.
  ///
  /// A blob that starts as JSON or a binary plist does but is not shown is a warning
  /// at each key path that holds it: why it stays data (``Contents/leftAsData(kind:reason:)``,
  /// or for ``ExpansionMode/readBack`` a structure that would not give its bytes back).
  /// Opaque data (an image, an archive) is data, with nothing to say.
  static func expansions(in value: PrefValue, mode: ExpansionMode, warnings: Warnings) -> [Data: Expansion] {
    var found: [Data: Expansion] = [:]
    var leftAsData: [Data: String] = [:]
    var opaque: Set<Data> = []
    func visit(_ value: PrefValue, at path: PrefKeyPath) {
      switch value {
      case .data(let d):
        if found[d] != nil || opaque.contains(d) { return }
        if let reason = leftAsData[d] {
          return warnings.add(leftAsDataWarning(at: path, reason))
        }
        switch inspect(d) {
        case .structure(let kind, let structure, let exact) where exact || mode == .view:
          found[d] = (kind, structure)
          visit(structure, at: path)
        case .structure(let kind, _, _):
          leftAsData[d] = inexactReason(kind)
          warnings.add(leftAsDataWarning(at: path, inexactReason(kind)))
        case .leftAsData(_, let reason):
          leftAsData[d] = reason
          warnings.add(leftAsDataWarning(at: path, reason))
        case .opaque:
          opaque.insert(d)
        }
      case .array(let items):
        for (index, item) in items.enumerated() { visit(item, at: path.appending(index: index)) }
      case .dictionary(let dict):
        for (key, item) in dict { visit(item, at: path.appending(key: key)) }
      default: break
      }
    }
    visit(value, at: PrefKeyPath())
    return found
  }

  /// The blobs in `value` (and in the structures they hold) that hold structure but
  /// would not give their bytes back from it (other spacing or escaping), each at its
  /// first key path: a view shows them as structure, and its text alone cannot tell
  /// two such blobs of the same structure apart.
  package static func inexactStructures(in value: PrefValue) -> [(path: PrefKeyPath, data: Data)] {
    var found: [(path: PrefKeyPath, data: Data)] = []
    var seen: Set<Data> = []
    func visit(_ value: PrefValue, at path: PrefKeyPath) {
      switch value {
      case .data(let d):
        guard seen.insert(d).inserted, case .structure(_, let structure, let exact) = inspect(d) else { return }
        if !exact { found.append((path, d)) }
        visit(structure, at: path)
      case .array(let items):
        for (index, item) in items.enumerated() { visit(item, at: path.appending(index: index)) }
      case .dictionary(let dict):
        for (key, item) in dict { visit(item, at: path.appending(key: key)) }
      default: break
      }
    }
    visit(value, at: PrefKeyPath())
    return found
  }

  /// Why a structure that does not give its bytes back stays data in a file that is
  /// read back, and where it is shown all the same.
  static func inexactReason(_ kind: Kind) -> String {
    switch kind {
    case .json:
      "its JSON would not come back byte for byte (spacing or escaping); diff, textconv and get show it as structure"
    case .plist:
      "its binary plist would not come back byte for byte; diff, textconv and get show it as structure"
    }
  }

  /// The warning for a blob at `path` that stays data, and why.
  package static func leftAsDataWarning(at path: PrefKeyPath, _ reason: String) -> PrefsWarning {
    PrefsWarning("\(path.nameInMessages) is left as data: \(reason)")
  }

  // MARK: The pass after reading

  /// The pass after reading: `read` run with a table in its options
  /// (``ReadOptions/embeddedData``) where the YAML and JSON readers leave the embedded
  /// structures, and the value it gives with the bytes of each structure in its place.
  package static func collapsing(_ options: ReadOptions, _ read: (ReadOptions) throws -> PrefValue) throws
    -> PrefValue
  {
    try collapsing(options) { (try read($0), ()) }.value
  }

  /// ``collapsing(_:_:)`` for a read that gives more than the value (a source map).
  package static func collapsing<More>(
    _ options: ReadOptions, _ read: (ReadOptions) throws -> (PrefValue, More)
  ) throws -> (value: PrefValue, more: More) {
    let placeholders = Placeholders()
    var options = options
    options.embeddedData = placeholders
    let (value, more) = try read(options)
    return (try placeholders.collapse(value), more)
  }

  /// The structures a reader met under `!json`/`!plist` (YAML) or `$json`/`$plist`
  /// (JSON). The reader leaves a placeholder blob in the value for each; ``collapse(_:)``,
  /// run on the value once it is read, puts the bytes each structure encodes to in its
  /// place. So no reader encodes or reads another format, and an alias or a merge of
  /// the placeholder carries it like any other value.
  ///
  /// Sendable so that it can travel in ``ReadOptions``: one read, on one thread, fills
  /// it, and the pass after it empties it.
  package final class Placeholders: @unchecked Sendable {
    private struct Entry {
      var kind: Kind
      var value: PrefValue
      /// The error for a structure that cannot be encoded, from the reason.
      var refusal: (String) -> PrefsError
      var bytes: Data?
    }
    private var entries: [Entry] = []
    /// Random per read: no input can know it, so no data read can pass for a placeholder.
    /// (Made with the first placeholder: most reads have none.)
    private lazy var prefix = Data((0..<16).map { _ in UInt8.random(in: 0...255) })

    /// Whether no placeholder was made (the pass has nothing to do).
    var isEmpty: Bool { entries.isEmpty }

    init() {}

    /// A placeholder for `value` shown as `kind`; `refusal` makes the error for a
    /// structure that does not encode.
    func placeholder(for value: PrefValue, kind: Kind, refusal: @escaping (String) -> PrefsError) -> PrefValue {
      var token = prefix
      withUnsafeBytes(of: UInt64(entries.count).bigEndian) { token.append(contentsOf: $0) }
      entries.append(Entry(kind: kind, value: value, refusal: refusal))
      return .data(token)
    }

    /// The value with every placeholder replaced by the bytes of its structure (whose
    /// own placeholders are replaced first).
    func collapse(_ value: PrefValue) throws -> PrefValue {
      guard !entries.isEmpty else { return value }
      switch value {
      case .data(let d):
        guard let index = index(of: d) else { return value }
        if let bytes = entries[index].bytes { return .data(bytes) }
        let entry = entries[index]
        do {
          let bytes = try EmbeddedData.bytes(try collapse(entry.value), kind: entry.kind)
          entries[index].bytes = bytes
          return .data(bytes)
        } catch let error as PrefsError where error.position == nil {
          throw entry.refusal(error.message)
        }
      case .array(let items): return .array(try items.map(collapse))
      case .dictionary(let dict): return .dictionary(try dict.mapValues(collapse))
      default: return value
      }
    }

    private func index(of data: Data) -> Int? {
      guard data.count == prefix.count + 8, data.starts(with: prefix) else { return nil }
      let index = data.suffix(8).reduce(0) { $0 << 8 | Int($1) }
      return index < entries.count ? index : nil
    }
  }

  /// The bytes of `value` shown as `kind`: compact JSON without a final newline, or a
  /// binary plist.
  public static func bytes(_ value: PrefValue, kind: Kind) throws -> Data {
    switch kind {
    case .json:
      var encoded = try Format.json.codec.encode(value, options: WriteOptions(compact: true))
      if encoded.last == UInt8(ascii: "\n") { encoded.removeLast() }
      return encoded
    case .plist:
      return try Format.binary.codec.encode(value)
    }
  }
}
