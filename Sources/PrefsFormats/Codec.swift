import PrefsModel
import PrefsText

/// How the YAML reader resolves plain (unquoted) scalars. The case names spell the
/// version numbers, as `--yaml-version` takes them.
public enum YAMLVersion: String, Sendable, CaseIterable {
  /// The YAML 1.2 core schema plus ISO 8601 timestamps (the default).
  // swift-format-ignore: AlwaysUseLowerCamelCase
  case v1_2 = "1.2"
  /// YAML 1.1, as PyYAML-era tools wrote it: `yes`/`off` are booleans, `0755` is octal.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  case v1_1 = "1.1"
}

/// Options for reading any format.
public struct ReadOptions: Sendable {
  /// How plain YAML scalars resolve.
  public var yamlVersion = YAMLVersion.v1_2
  /// The deepest nesting of arrays and dictionaries accepted.
  public var maxDepth = 512
  /// The most nodes that YAML aliases may expand to, in all.
  public var maxAliasExpansion = 1_000_000
  /// The largest input read, in bytes (1 GiB). Checked before parsing, and for a
  /// file before reading it, so that memory stays proportional to what is accepted.
  public var maxInputBytes = 1 << 30
  /// YAML: warn of every plain scalar that YAML 1.1 and 1.2 read differently (`yes`,
  /// `0755`), as `prefs lint` does, from the same parse.
  public var warnsOfYAMLAmbiguities = false
  /// Where the YAML and JSON readers report the directives of a settings file
  /// (``SettingsDirective``): YAML `!replace` and `!delete`, JSON `{"$replace": …}` and
  /// `{"$delete": true}`. Only the settings-file loader gives one; a domain never holds
  /// them, and without it a read pays nothing for them.
  package var settingsDirectives: SettingsDirectiveLog?
  /// Read a dictionary that gives a key twice, keeping the last value (as `plutil`
  /// and `plistlib` do) with a warning naming the key and its position, instead of
  /// refusing it.
  public var allowDuplicateKeys = false
  /// When a large plist is read in parts, on several threads.
  public var parallelism = ParallelPolicy.automatic
  /// Ordinary JSON: a one-key object such as `{"$date": …}` is a dictionary like any
  /// other, not a typed value (a JSON Schema describes such objects).
  public var plainJSON = false
  /// Where the YAML and JSON readers leave the structures under `!json`/`!plist` and
  /// `$json`/`$plist`, for the pass after reading (``EmbeddedData``) to turn into
  /// bytes. Without it a reader keeps the structure: a codec reads one format only.
  package var embeddedData: EmbeddedData.Placeholders?

  /// The error for an input of `size` bytes, when that is over ``maxInputBytes``.
  public func sizeError(_ size: Int) -> PrefsError? {
    guard size > maxInputBytes else { return nil }
    return PrefsError(.inputTooLarge(size: size, limit: maxInputBytes))
  }

  public init(yamlVersion: YAMLVersion = .v1_2) {
    self.yamlVersion = yamlVersion
  }
}

/// Options for writing any format; each writer uses those that apply to it.
public struct WriteOptions: Sendable {
  /// Sort every dictionary's keys by code point.
  public var sortKeys = false
  /// Ordinary JSON: no `$date`/`$data`/`$real`/`$uid` objects.
  public var plainJSON = false
  /// One-line JSON.
  public var compact = false
  /// Show data that holds JSON or a binary plist as structure (``EmbeddedData``):
  /// under `!json`/`!plist` in YAML, as `{"$json": …}`/`{"$plist": …}` in JSON.
  /// ``Format/encode(_:options:warnings:)`` finds what to show; a codec alone writes
  /// data as data.
  public var expandData = false
  /// Which blobs ``expandData`` shows: those that read back to their very bytes (a
  /// file), or every one that holds structure (a view).
  public var expansionMode = EmbeddedData.ExpansionMode.readBack
  /// What the pass before writing found for ``expandData``: the blobs the writers
  /// show as structure, by their bytes.
  package var expansions: [Data: EmbeddedData.Expansion] = [:]
  /// The key paths the YAML and JSON writers tag as directives (``SettingsDirective``),
  /// as `!replace`/`!delete` or `$replace`/`$delete`: a settings file. At a `!delete`
  /// the value written is ignored.
  package var settingsDirectives: [PrefKeyPath: SettingsDirective]?
  /// When a large YAML document is written in parts, on several threads.
  public var parallelism = ParallelPolicy.automatic
  /// Property lists: leave out the nulls a plist cannot hold (each with a warning
  /// naming its key path) instead of refusing the first with ``PrefsError/Kind/null(path:)``.
  /// YAML and JSON write their nulls whatever this says.
  public var dropNulls = false
  /// OpenStep: write a dictionary of strings as a `.strings` file, as genstrings does
  /// (`"key" = "value";` entries without braces, each after a comment line), rather
  /// than in braces.
  public var stringsFile = false

  public init(
    sortKeys: Bool = false, plainJSON: Bool = false, compact: Bool = false, expandData: Bool = false,
    dropNulls: Bool = false
  ) {
    self.sortKeys = sortKeys
    self.plainJSON = plainJSON
    self.compact = compact
    self.expandData = expandData
    self.dropNulls = dropNulls
  }
}

/// A reader and writer for one file format. Codecs never call each other: every
/// reader produces a ``PrefValue`` and every writer takes one. What crosses formats,
/// data that holds JSON or a binary plist, is a pass the format table runs around them
/// (``EmbeddedData``).
public protocol FormatCodec: Sendable {
  /// Reads a whole document.
  func read(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue
  /// Writes a whole document to `writer`.
  func write(_ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings) throws
}

extension FormatCodec {
  /// Writes a whole document into memory.
  public func encode(_ value: PrefValue, options: WriteOptions = WriteOptions(), warnings: Warnings = Warnings())
    throws -> Data
  {
    let writer = ByteWriter()
    try write(value, to: writer, options: options, warnings: warnings)
    return try writer.data
  }

  /// Reads a whole document with default options.
  public func decode(_ data: Data, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings()) throws
    -> PrefValue
  {
    try read(data, options: options, warnings: warnings)
  }
}
