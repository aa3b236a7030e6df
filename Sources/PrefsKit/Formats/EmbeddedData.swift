import Foundation

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

  /// The array or dictionary `data` holds, when it is compact JSON or a binary plist
  /// whose structure encodes back to exactly these bytes; nil otherwise.
  public static func expand(_ data: Data) -> (kind: Kind, value: PrefValue)? {
    let kind: Kind
    switch data.first {
    case UInt8(ascii: "{"), UInt8(ascii: "["): kind = .json
    case UInt8(ascii: "b") where data.starts(with: Array("bplist00".utf8)): kind = .plist
    default: return nil
    }
    let codec = kind == .json ? Format.json.codec : Format.binary.codec
    guard let value = try? codec.decode(data), value.kind == .array || value.kind == .dictionary,
      (try? bytes(value, kind: kind)) == data
    else { return nil }
    return (kind, value)
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
