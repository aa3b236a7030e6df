import PrefsModel
import PrefsText

/// JSON, read and written straight to and from ``PrefValue``.
///
/// What plain JSON cannot hold travels as a one-key object: `{"$date": "…"}`,
/// `{"$data": "<base64>"}`, `{"$real": "inf"}`, `{"$uid": 5}`, and with
/// ``WriteOptions/expandData`` data holding JSON or a binary plist as
/// `{"$json": […]}` / `{"$plist": {…}}` (``EmbeddedData``). A real dictionary
/// that looks like one of these is written as `{"$dict": {…}}` so that it reads back
/// as a dictionary. With ``WriteOptions/plainJSON`` the writer emits ordinary JSON
/// instead (dates as ISO 8601 strings, data as base64, a uid as its integer) and
/// refuses non-finite reals.
public struct JSONCodec: FormatCodec {
  public init() {}

  /// The keys of the typed one-key objects, including the escape for look-alikes.
  static let typedKeys: Set<String> = ["$date", "$data", "$real", "$uid", "$json", "$plist", "$dict"]

  public func read(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue {
    try data.withUnsafeBytes { raw in
      var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self), options: options, warnings: warnings)
      return try reader.readDocument()
    }
  }

  public func write(_ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings) throws {
    var jsonWriter = JSONWriter(out: writer, options: options)
    if !options.plainJSON { jsonWriter.expansions = options.expansions }
    try jsonWriter.write(value)
    try writer.write(UInt8(ascii: "\n"))
  }
}
