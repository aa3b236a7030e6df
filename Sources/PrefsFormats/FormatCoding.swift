import PrefsModel
import PrefsText

// Encoding and decoding through the format table, for programs: `Format.yaml.encode(value)`.

extension Format {
  /// The document this format writes for `value`: `Format.yaml.encode(value)`.
  ///
  /// A thin layer over ``codec``, so that a program need not reach for it. What the
  /// format cannot hold exactly throws (a non-finite real in plain JSON) or, where the
  /// writers only warn (a date fraction an XML plist drops), is recorded in `warnings`.
  /// With ``WriteOptions/expandData``, data holding JSON or a binary plist is shown as
  /// structure (``EmbeddedData``), as ``WriteOptions/expansionMode`` says; each blob
  /// left as data is a warning naming its key path and why.
  public func encode(_ value: PrefValue, options: WriteOptions = WriteOptions(), warnings: Warnings = Warnings())
    throws -> Data
  {
    try codec.encode(value, options: EmbeddedData.expanding(value, options, warnings: warnings), warnings: warnings)
  }

  /// Writes the document ``encode(_:options:warnings:)`` makes to `writer`.
  package func write(_ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings) throws {
    try codec.write(
      value, to: writer, options: EmbeddedData.expanding(value, options, warnings: warnings), warnings: warnings)
  }

  /// The codec's read of `data` followed by the pass that turns embedded JSON and
  /// binary plists back into bytes (``EmbeddedData``): what every read of a document goes
  /// through. Unlike ``decode(_:options:warnings:)`` it leaves the size to the caller.
  package func readValue(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue {
    try EmbeddedData.collapsing(options) { try codec.read(data, options: $0, warnings: warnings) }
  }

  /// The value of a document in this format: `Format.yaml.decode(data)`.
  ///
  /// The format is taken as given, not detected: use ``read(_:declared:path:options:warnings:)``
  /// (`Format.read(data)`) to decide it from the content. Throws ``PrefsError`` with
  /// the position of what does not read.
  public func decode(_ data: Data, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings()) throws
    -> PrefValue
  {
    if let error = options.sizeError(data.count) { throw error }
    return try readValue(data, options: options, warnings: warnings)
  }
}
