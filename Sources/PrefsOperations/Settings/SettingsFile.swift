import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// A settings file: a dictionary whose top-level keys are domain names (`-g` and
/// `NSGlobalDomain` included) or file paths, each mapping to the settings to hold
/// there. Settings may carry ``SettingsDirective``s: `!replace` and `!delete` in
/// YAML, `{"$replace": …}` and `{"$delete": true}` in JSON and plists; the readers
/// report them, and the file keeps them beside the values (``DomainSettings``).
public struct SettingsFile: Sendable {
  /// The settings for one domain or file, as the file lists them.
  public struct Entry: Sendable {
    /// The top-level key: a domain name, `-g`, or a path (`~/` is the home folder).
    public var target: String
    /// A dictionary of settings, or a directive for the whole domain (`!delete`
    /// removes it, `!replace` makes it exactly the dictionary given).
    public var settings: DomainSettings
    /// The file the entry was read from, for messages.
    public var source: String
    /// The folder a relative path in ``target`` starts from: the settings file's
    /// (nil: the current folder, as for standard input).
    public var folder: String?

    /// An entry for `target`, read from (or written as) `source`.
    public init(target: String, settings: DomainSettings, source: String) {
      self.target = target
      self.settings = settings
      self.source = source
    }

    /// An entry setting the plain values of `settings` (no directives) for `target`.
    public init(target: String, settings: PrefValue, source: String) {
      self.init(target: target, settings: DomainSettings(settings), source: source)
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
    let log = SettingsDirectiveLog()
    options.settingsDirectives = log
    do {
      var (value, format) = try Format.read(data, declared: declared, path: path, options: options, warnings: warnings)
      var directives: [PrefKeyPath: DomainSettings.Directive] = [:]
      if format.isPlist {
        // Plists have no tags: their directives are spelled as `$` words.
        value = try DomainSettings.interpretingWords(value, at: PrefKeyPath(), into: &directives)
      } else {
        for entry in log.entries { directives[entry.path] = .init(entry.directive, position: entry.position) }
      }
      if let top = directives[PrefKeyPath()] {
        throw PrefsError(
          .settings(problem: "a settings file is a dictionary of domains, not a !\(top.kind)"), position: top.position)
      }
      guard case .dictionary(let root) = value else {
        throw PrefsError(
          .settings(
            problem:
              "a settings file is a dictionary of domains, but this one holds \(value.kind.article) \(value.kind.rawValue)"
          ))
      }
      // Each domain's directives, by the paths below its key.
      var byTarget: [ScalarKey: [PrefKeyPath: DomainSettings.Directive]] = [:]
      for (path, directive) in directives {
        guard case .key(let target)? = path.components.first else { continue }
        byTarget[ScalarKey(target), default: [:]][PrefKeyPath(Array(path.components.dropFirst()))] = directive
      }
      var entries: [Entry] = []
      for (target, value) in root {
        let settings = DomainSettings(value, directives: byTarget[ScalarKey(target)] ?? [:])
        if let top = settings.directives[PrefKeyPath()] {
          if top.kind == .replace, value.kind != .dictionary {
            throw PrefsError(
              .settings(problem: "\(target): !replace of a domain takes a dictionary"), position: top.position)
          }
        } else if value.kind != .dictionary {
          throw PrefsError(
            .settings(
              problem:
                "\(target): the settings of a domain are a dictionary, not \(value.kind.article) \(value.kind.rawValue)"
            ),
            hints: ["a settings file maps each domain name or file path to the keys to set there"])
        }
        var entry = Entry(target: target, settings: settings, source: name)
        if let folder = path?.deletingLastPathComponent, !folder.isEmpty { entry.folder = folder }
        entries.append(entry)
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
    var tags: [PrefKeyPath: SettingsDirective] = [:]
    /// Forgets the directives at and below `path`, whose value is being replaced.
    func forgetTags(under path: PrefKeyPath) {
      tags = tags.filter { !$0.key.components.starts(with: path.components) }
    }
    for entry in entries {
      let top = PrefKeyPath([.key(entry.target)])
      if case .dictionary(let existing)? = root[entry.target], tags[top] == nil, entry.settings.directive() == nil,
        case .dictionary(let more) = entry.settings.value
      {
        var merged = existing
        for (key, value) in more {
          merged[key] = value
          forgetTags(under: top.appending(key: key))
        }
        root[entry.target] = .dictionary(merged)
      } else {
        root[entry.target] = entry.settings.value
        forgetTags(under: top)
      }
      tags.merge(entry.settings.tags(under: top)) { $1 }
    }
    var options = options
    var value = PrefValue.dictionary(root)
    if format.isPlist {
      value = DomainSettings.spellingWords(value, at: PrefKeyPath(), tags)
    } else {
      options.settingsDirectives = tags
    }
    return try format.encode(value, options: options, warnings: warnings)
  }
}
