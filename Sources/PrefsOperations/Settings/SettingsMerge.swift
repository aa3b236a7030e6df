import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// What applying settings to a value means: dictionaries merge
/// deeply, listed array items are made present (matched by value or by an
/// ``ArrayIdentity`` field, added at the end when missing), scalars are set exactly,
/// `!replace` makes a dictionary or array exactly the one given, `!delete` removes a
/// key. Applying the same settings twice gives what applying them once gave.
public enum SettingsMerge {
  /// A domain's contents with `settings` applied; nil when the settings delete the
  /// domain. A missing domain is applied to as an empty one.
  public static func apply(_ settings: DomainSettings, to contents: PrefDictionary?) throws -> PrefDictionary? {
    let merging = Merging(directives: settings.directives)
    guard
      let result = try merging.merge(
        settings.value, into: contents.map(PrefValue.dictionary), at: PrefKeyPath(), source: PrefKeyPath())
    else { return nil }
    return result.dictionaryValue
  }

  /// `items` with each of `wanted` (plain values) present, as applying an array does.
  static func ensure(_ wanted: [PrefValue], in items: [PrefValue], at path: PrefKeyPath) throws -> [PrefValue] {
    try Merging(directives: [:]).ensure(wanted, in: items, at: path, source: path)
  }

  /// Applying one domain's settings. Each step has two paths: `path` names the place in
  /// the result, for messages; `source` is the place in the settings, where their
  /// directives are (an array item merged by identity lands at another index).
  private struct Merging {
    let directives: [PrefKeyPath: DomainSettings.Directive]

    /// `settings` merged into `current` (nil: nothing there); nil means delete.
    func merge(_ settings: PrefValue, into current: PrefValue?, at path: PrefKeyPath, source: PrefKeyPath) throws
      -> PrefValue?
    {
      switch directives[source]?.kind {
      case .delete?: return nil
      case .replace?: return try plain(settings, at: path, source: source)
      case nil: break
      }
      switch settings {
      case .dictionary(let wanted):
        var result = current?.dictionaryValue ?? PrefDictionary()
        for (key, value) in wanted {
          if let merged = try merge(
            value, into: result[key], at: path.appending(key: key), source: source.appending(key: key))
          {
            result[key] = merged
          } else {
            result[key] = nil
          }
        }
        return .dictionary(result)
      case .array(let wanted):
        guard case .array(let items) = current else { return try plain(settings, at: path, source: source) }
        return .array(try ensure(wanted, in: items, at: path, source: source))
      default:
        return settings
      }
    }

    /// `items` with each of `wanted` present: an item with the same identity is merged
    /// into, an equal item is left alone, anything else is added at the end.
    func ensure(_ wanted: [PrefValue], in items: [PrefValue], at path: PrefKeyPath, source: PrefKeyPath) throws
      -> [PrefValue]
    {
      var result = items
      let field = ArrayIdentity.field(in: [items, wanted], at: path)
      for (offset, item) in wanted.enumerated() {
        let itemSource = source.appending(index: offset)
        if let field, let identity = ArrayIdentity.identity(of: item, field: field),
          let index = result.firstIndex(where: { ArrayIdentity.identity(of: $0, field: field) == identity })
        {
          result[index] =
            try merge(item, into: result[index], at: path.appending(index: index), source: itemSource)
            ?? result[index]
          continue
        }
        let value = try plain(item, at: path.appending(index: offset), source: itemSource)
        if !result.contains(value) { result.append(value) }
      }
      return result
    }

    /// `value` with its directives resolved against nothing: a `!replace` is its value,
    /// a `!delete`d key is left out. A `!delete` where no key holds it is an error.
    func plain(_ value: PrefValue, at path: PrefKeyPath, source: PrefKeyPath) throws -> PrefValue {
      if directives.isEmpty { return value }
      if let directive = directives[source], directive.kind == .delete {
        throw PrefsError(
          .settings(problem: "\(path.nameInMessages): !delete removes a key; an array item cannot be deleted so"),
          position: directive.position, hints: ["use !replace on the array to give its exact items"])
      }
      switch value {
      case .dictionary(let dict):
        var result = PrefDictionary()
        for (key, item) in dict {
          let child = source.appending(key: key)
          if directives[child]?.kind == .delete { continue }
          result[key] = try plain(item, at: path.appending(key: key), source: child)
        }
        return .dictionary(result)
      case .array(let items):
        var result: [PrefValue] = []
        for (index, item) in items.enumerated() {
          result.append(try plain(item, at: path.appending(index: index), source: source.appending(index: index)))
        }
        return .array(result)
      default:
        return value
      }
    }
  }
}
