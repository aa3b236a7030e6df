import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// A settings file: a dictionary whose top-level keys are domain names (`-g` and
/// `NSGlobalDomain` included) or file paths, each mapping to the settings to hold
/// there. Settings may carry ``SettingsDirective``s: `!replace` and `!delete` in
/// YAML, `{"$replace": …}` and `{"$delete": true}` in JSON and plists.
public struct SettingsFile: Sendable {
  /// The settings for one domain or file, as the file lists them.
  public struct Entry: Sendable {
    /// The top-level key: a domain name, `-g`, or a path (`~/` is the home folder).
    public var target: String
    /// A dictionary of settings, or a directive for the whole domain (`!delete`
    /// removes it, `!replace` makes it exactly the dictionary given).
    public var settings: PrefValue
    /// The file the entry was read from, for messages.
    public var source: String

    /// An entry for `target`, read from (or written as) `source`.
    public init(target: String, settings: PrefValue, source: String) {
      self.target = target
      self.settings = settings
      self.source = source
    }
  }

  /// The entries in the order the file lists them.
  public var entries: [Entry]

  /// A settings file of these entries.
  public init(entries: [Entry]) { self.entries = entries }

  /// Reads a settings file in any format of the table. `name` is how messages name
  /// it; errors carry its line and column where the format has them.
  public static func read(
    _ data: Data, name: String, path: String? = nil, declared: Format? = nil, options: ReadOptions = ReadOptions(),
    warnings: Warnings = Warnings()
  ) throws -> SettingsFile {
    var options = options
    options.settingsDirectives = true
    do {
      var (value, format) = try Format.read(data, declared: declared, path: path, options: options, warnings: warnings)
      // Plists have no tags: their directives are spelled as `$` words.
      if format.isPlist { value = try SettingsDirective.interpretingWords(value) }
      guard case .dictionary(let root) = value else {
        throw PrefsError(
          .settings(
            problem:
              "a settings file is a dictionary of domains, but this one holds \(value.kind.article) \(value.kind.rawValue)"
          ))
      }
      var entries: [Entry] = []
      for (target, settings) in root {
        if case .dictionary(let dict) = settings, SettingsDirective.parse(dict) == nil {
        } else if let (directive, position) = SettingsDirective.parse(settings) {
          if case .replace(let inner) = directive, inner.kind != .dictionary {
            throw PrefsError(
              .settings(problem: "\(target): !replace of a domain takes a dictionary"), position: position)
          }
        } else {
          throw PrefsError(
            .settings(
              problem:
                "\(target): the settings of a domain are a dictionary, not \(settings.kind.article) \(settings.kind.rawValue)"
            ),
            hints: ["a settings file maps each domain name or file path to the keys to set there"])
        }
        entries.append(Entry(target: target, settings: settings, source: name))
      }
      return SettingsFile(entries: entries)
    } catch let error as PrefsError {
      throw error.inFile(name)
    }
  }

  /// The file as `format`: YAML with `!replace`/`!delete` tags, JSON and plists with
  /// `$replace`/`$delete` words. Keys are written in the order given.
  public func encoded(as format: Format, options: WriteOptions = WriteOptions(), warnings: Warnings = Warnings())
    throws -> Data
  {
    var root = PrefDictionary()
    for entry in entries {
      if case .dictionary(let existing)? = root[entry.target], case .dictionary(let more) = entry.settings {
        var merged = existing
        for (key, value) in more { merged[key] = value }
        root[entry.target] = .dictionary(merged)
      } else {
        root[entry.target] = entry.settings
      }
    }
    var options = options
    options.settingsDirectives = true
    let value = format.isPlist ? SettingsDirective.spellingWords(.dictionary(root)) : .dictionary(root)
    return try format.encode(value, options: options, warnings: warnings)
  }
}
