import PrefsModel
import PrefsText

/// The YAML reader and writer, over libyaml.
///
/// Reading resolves plain scalars with the YAML 1.2 core schema plus ISO 8601
/// timestamps (or as PyYAML does, with ``ReadOptions/yamlVersion`` `.v1_1`), obeys the
/// explicit tags of the contract (`!!str !!int !!float !!bool !!null !!timestamp
/// !!binary !!map !!seq` and `!uid`), follows anchors, aliases and `<<` merge keys
/// within ``ReadOptions/maxAliasExpansion`` and ``ReadOptions/maxDepth``, reads a null
/// (`key:`, `~`, `null`, `!!null`) as ``PrefValue/null``, reads a plain key that is
/// not a string (`1:`, `true:`) as its text, and refuses duplicate and non-scalar
/// keys, unknown tags and more than one document (``YAMLStream`` reads those), each
/// with its line and column.
///
/// Writing uses block style with a 2-space indent, quotes a string whenever YAML 1.1 or
/// 1.2 would read it as something else, writes multi-line strings as literal blocks
/// when they read back exactly, dates as `!!timestamp`, data as `!!binary`, UIDs
/// as `!uid` and a null as `null`.
public struct YAMLCodec: FormatCodec {
  /// A YAML codec.
  public init() {}

  /// Reads one YAML document into a value.
  public func read(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue {
    try data.withUnsafeBytes { raw in
      let stream = try YAMLEventStream(raw)
      var parser = YAMLParser(options: options, warnings: warnings)
      return try parser.document(from: stream)
    }
  }

  /// Writes `value` as one YAML document.
  public func write(
    _ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings
  ) throws {
    try YAMLParts.write(
      value, to: writer, sortKeys: options.sortKeys, expansions: options.expansions,
      directives: options.settingsDirectives, parallelism: options.parallelism)
  }
}
