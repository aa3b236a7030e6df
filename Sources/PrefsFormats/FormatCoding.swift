import PrefsModel

// Encoding and decoding through the format table, for programs: `Format.yaml.encode(value)`.

extension Format {
  /// The document this format writes for `value`: `Format.yaml.encode(value)`.
  ///
  /// A thin layer over ``codec``, so that a program need not reach for it. What the
  /// format cannot hold exactly throws (a non-finite real in plain JSON) or, where the
  /// writers only warn (a date fraction an XML plist drops), is recorded in `warnings`.
  public func encode(_ value: PrefValue, options: WriteOptions = WriteOptions(), warnings: Warnings = Warnings())
    throws -> Data
  {
    try codec.encode(value, options: options, warnings: warnings)
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
    return try codec.decode(data, options: options, warnings: warnings)
  }
}
