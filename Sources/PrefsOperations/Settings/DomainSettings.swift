import PrefsFormats
import PrefsModel
import PrefsText

/// What a settings file says for one domain: the values to merge in, and the
/// directives (``SettingsDirective``) at their key paths.
///
/// The value holds, at the path of a `!replace`, the value that replaces, and at the
/// path of a `!delete`, ``SettingsDirective/deleteStandIn`` (which applying ignores).
public struct DomainSettings: Sendable, Equatable {
  /// One directive, and where the file gave it.
  public struct Directive: Sendable, Equatable {
    /// Replace or delete.
    public var kind: SettingsDirective
    /// Where it was read, for errors; nil for directives not read from a text.
    public var position: SourcePosition?

    /// A directive of `kind`, read at `position`.
    public init(_ kind: SettingsDirective, position: SourcePosition? = nil) {
      self.kind = kind
      self.position = position
    }
  }

  /// The values, with the replacing value or the stand-in at each directive's path.
  public var value: PrefValue
  /// The directives, by key path from the domain (the empty path is the domain).
  public var directives: [PrefKeyPath: Directive]

  /// Settings of `value`, with `directives` at their paths.
  public init(_ value: PrefValue, directives: [PrefKeyPath: Directive] = [:]) {
    self.value = value
    self.directives = directives
  }

  /// Settings that make the domain exactly `value`.
  public static func replace(_ value: PrefValue) -> DomainSettings {
    DomainSettings(value, directives: [PrefKeyPath(): Directive(.replace)])
  }

  /// Settings that delete the domain.
  public static let delete = DomainSettings(
    SettingsDirective.deleteStandIn, directives: [PrefKeyPath(): Directive(.delete)])

  /// The directive at `path` (by default, for the whole domain), if any.
  public func directive(at path: PrefKeyPath = PrefKeyPath()) -> SettingsDirective? { directives[path]?.kind }

  /// The directives as writers take them, each under `prefix`.
  func tags(under prefix: PrefKeyPath) -> [PrefKeyPath: SettingsDirective] {
    Dictionary(
      directives.map { (PrefKeyPath(prefix.components + $0.key.components), $0.value.kind) },
      uniquingKeysWith: { $1 })
  }

  // MARK: Plists: directives as `$` words

  /// `value` with `{"$replace": …}` and `{"$delete": true}` dictionaries read as
  /// directives into `directives` and `{"$dict": {…}}` unwrapped to the dictionary it
  /// escapes: how a plist settings file, which has no tags, spells them.
  static func interpretingWords(
    _ value: PrefValue, at path: PrefKeyPath, into directives: inout [PrefKeyPath: Directive]
  ) throws -> PrefValue {
    switch value {
    case .array(let items):
      var result: [PrefValue] = []
      for (index, item) in items.enumerated() {
        result.append(try interpretingWords(item, at: path.appending(index: index), into: &directives))
      }
      return .array(result)
    case .dictionary(let dict):
      if dict.count == 1, let key = dict.keys.first, let inner = dict[key] {
        switch key {
        case SettingsDirective.deleteWord:
          guard inner == .bool(true) else {
            throw PrefsError(
              .settings(problem: "\(path.nameInMessages): \"$delete\" takes true, not \(inner.summary)"))
          }
          directives[path] = Directive(.delete)
          return SettingsDirective.deleteStandIn
        case SettingsDirective.replaceWord:
          directives[path] = Directive(.replace)
          return try interpretingWords(inner, at: path, into: &directives)
        case "$dict":
          if case .dictionary(let literal) = inner {
            return try interpretingEntries(literal, at: path, into: &directives)
          }
        default: break
        }
      }
      return try interpretingEntries(dict, at: path, into: &directives)
    default:
      return value
    }
  }

  private static func interpretingEntries(
    _ dict: PrefDictionary, at path: PrefKeyPath, into directives: inout [PrefKeyPath: Directive]
  ) throws -> PrefValue {
    var result = PrefDictionary()
    for (key, item) in dict {
      result[key] = try interpretingWords(item, at: path.appending(key: key), into: &directives)
    }
    return .dictionary(result)
  }

  /// `value` with the directives of `tags` spelled as `$` words, and dictionaries that
  /// look like one escaped in `{"$dict": …}`: a settings file as a plist holds it.
  static func spellingWords(_ value: PrefValue, at path: PrefKeyPath, _ tags: [PrefKeyPath: SettingsDirective])
    -> PrefValue
  {
    switch tags[path] {
    case .delete?: return .dictionary([SettingsDirective.deleteWord: .bool(true)])
    case .replace?: return .dictionary([SettingsDirective.replaceWord: spellingEntries(value, at: path, tags)])
    case nil: return spellingEntries(value, at: path, tags)
    }
  }

  private static func spellingEntries(
    _ value: PrefValue, at path: PrefKeyPath, _ tags: [PrefKeyPath: SettingsDirective]
  )
    -> PrefValue
  {
    switch value {
    case .array(let items):
      return .array(items.enumerated().map { spellingWords($1, at: path.appending(index: $0), tags) })
    case .dictionary(let dict):
      var spelled = PrefDictionary()
      for (key, item) in dict { spelled[key] = spellingWords(item, at: path.appending(key: key), tags) }
      if dict.count == 1, let key = dict.keys.first,
        [SettingsDirective.deleteWord, SettingsDirective.replaceWord, "$dict"].contains(key)
      {
        return .dictionary(["$dict": .dictionary(spelled)])
      }
      return .dictionary(spelled)
    default: return value
    }
  }
}
