import PrefsFormats
import PrefsModel
import PrefsText

extension TextDocument {
  /// Reads `data` as ``Format/read(_:declared:path:options:warnings:)`` does, and for a
  /// format with text also its source map. Where the extension or the first bytes tell
  /// the format, the text is read once; only text that must be parsed to be told apart
  /// (JSON or YAML without an extension, as git's temporary files are) is read twice.
  public static func read(
    _ data: Data, path: String?, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings()
  ) throws -> (value: PrefValue, format: Format, document: TextDocument?) {
    var known = path.flatMap(Format.forPath)
    if known == nil || known!.isPlist { known = Format.sniffPlist(data) ?? known }
    if let format = known {
      if let error = options.sizeError(data.count) { throw error }
      if syntax(for: format) != nil,
        let document = try TextDocument(data, format: format, options: options, warnings: warnings)
      {
        return (document.value, format, document)
      }
      return (try format.codec.read(data, options: options, warnings: warnings), format, nil)
    }
    let (value, format) = try Format.read(data, path: path, options: options, warnings: warnings)
    return (value, format, try TextDocument(data, format: format, options: options))
  }
}
