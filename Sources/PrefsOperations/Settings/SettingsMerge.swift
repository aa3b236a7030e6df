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
  public static func apply(_ settings: PrefValue, to contents: PrefDictionary?) throws -> PrefDictionary? {
    guard let result = try merge(settings, into: contents.map(PrefValue.dictionary), at: PrefKeyPath()) else {
      return nil
    }
    return result.dictionaryValue
  }

  /// `settings` merged into `current` (nil: nothing there), at `path`; nil means delete.
  static func merge(_ settings: PrefValue, into current: PrefValue?, at path: PrefKeyPath) throws -> PrefValue? {
    if let (directive, _) = SettingsDirective.parse(settings) {
      switch directive {
      case .delete: return nil
      case .replace(let value): return try plain(value, at: path)
      }
    }
    switch settings {
    case .dictionary(let wanted):
      var result = current?.dictionaryValue ?? PrefDictionary()
      for (key, value) in wanted {
        let child = path.appending(key: key)
        if let merged = try merge(value, into: result[key], at: child) {
          result[key] = merged
        } else {
          result[key] = nil
        }
      }
      return .dictionary(result)
    case .array(let wanted):
      guard case .array(let items) = current else { return try plain(settings, at: path) }
      return .array(try ensure(wanted, in: items, at: path))
    default:
      return settings
    }
  }

  /// `items` with each of `wanted` present: an item with the same identity is merged
  /// into, an equal item is left alone, anything else is added at the end.
  static func ensure(_ wanted: [PrefValue], in items: [PrefValue], at path: PrefKeyPath) throws -> [PrefValue] {
    var result = items
    let field = ArrayIdentity.field(in: [items, wanted])
    for (offset, item) in wanted.enumerated() {
      if let field, let identity = ArrayIdentity.identity(of: item, field: field),
        let index = result.firstIndex(where: { ArrayIdentity.identity(of: $0, field: field) == identity })
      {
        result[index] = try merge(item, into: result[index], at: path.appending(index: index)) ?? result[index]
        continue
      }
      let value = try plain(item, at: path.appending(index: offset))
      if !result.contains(value) { result.append(value) }
    }
    return result
  }

  /// `value` with its directives resolved against nothing: a `!replace` is its value,
  /// a `!delete`d key is left out. A `!delete` where no key holds it is an error.
  static func plain(_ value: PrefValue, at path: PrefKeyPath) throws -> PrefValue {
    if let (directive, position) = SettingsDirective.parse(value) {
      switch directive {
      case .replace(let inner): return try plain(inner, at: path)
      case .delete:
        throw PrefsError(
          .settings(problem: "\(path.nameInMessages): !delete removes a key; an array item cannot be deleted so"),
          position: position, hints: ["use !replace on the array to give its exact items"])
      }
    }
    switch value {
    case .dictionary(let dict):
      var result = PrefDictionary()
      for (key, item) in dict where SettingsDirective.parse(item)?.directive != .delete {
        result[key] = try plain(item, at: path.appending(key: key))
      }
      return .dictionary(result)
    case .array(let items):
      return .array(try items.enumerated().map { try plain($1, at: path.appending(index: $0)) })
    default:
      return value
    }
  }
}
