import PrefsModel
import PrefsText

/// Data values that hold a JSON document or a binary plist (the tutorial's `items`:
/// a JSON array of items, encoded as `Data`), shown as structure by `--expand-data`
/// and turned back into the very same bytes when read.
///
/// YAML writes such a value as a collection under a local tag (`items: !json` and
/// the array below it); JSON as a typed object (`{"$json": [...]}`). A blob is shown
/// expanded only when encoding the structure again reproduces its bytes exactly:
/// compact JSON (as `JSONEncoder` writes it, with `.withoutEscapingSlashes`) or a
/// binary plist as `prefs` writes it. Anything else stays `!!binary` / `$data`.
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
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
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

  /// The pass before writing: `options` with ``WriteOptions/expansions`` holding what
  /// ``WriteOptions/expandData`` shows of `value` (nothing without it).
  static func expanding(_ value: PrefValue, _ options: WriteOptions) -> WriteOptions {
    guard options.expandData else { return options }
    var options = options
    options.expansions = expansions(in: value)
    return options
  }

  /// What the pass before writing finds: every data value in `value`
  /// (and in the structure those show) that ``expand(_:)`` shows as structure, by its
  /// bytes. Writers look their data up here; they never read a blob themselves.
  static func expansions(in value: PrefValue) -> [Data: Expansion] {
    var found: [Data: Expansion] = [:]
    var refused: Set<Data> = []
    func visit(_ value: PrefValue) {
      switch value {
      case .data(let d):
        guard found[d] == nil, !refused.contains(d) else { return }
        if let expansion = expand(d) {
          found[d] = expansion
          visit(expansion.value)
        } else {
          refused.insert(d)
        }
      case .array(let items): items.forEach(visit)
      case .dictionary(let dict): dict.values.forEach(visit)
      default: break
      }
    }
    visit(value)
    return found
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
