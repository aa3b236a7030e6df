import PrefsModel
import PrefsText

/// The two directives a settings file may hold besides values: replace a whole
/// dictionary or array (YAML `!replace`, JSON and plist `{"$replace": …}`), and
/// delete a key (YAML `!delete`, JSON and plist `{"$delete": true}`).
///
/// They exist only in settings files. Readers produce them only when
/// ``ReadOptions/settingsDirectives`` is on (the settings-file loader turns it on),
/// as a marker value: a one-key dictionary whose key no input can hold, because a
/// reader with the option on refuses that key. Writers with
/// ``WriteOptions/settingsDirectives`` write the markers back as tags or `$` words.
public enum SettingsDirective: Sendable, Equatable {
  /// Replace what is there with exactly this value.
  case replace(PrefValue)
  /// Remove the key.
  case delete

  /// The key of a marker dictionary: a NUL first, which no text reader with
  /// directives on accepts in a key.
  static let markerKey = "\u{0}prefs-directive"

  /// The marker standing for `directive` in a value, remembering where it was read.
  public static func marker(_ directive: SettingsDirective, position: SourcePosition? = nil) -> PrefValue {
    var (line, column) = (0, 0)
    if case .lineColumn(let l, let c)? = position { (line, column) = (l, c) }
    switch directive {
    case .delete:
      return .dictionary([markerKey: .array([.string("delete"), .integer(Int64(line)), .integer(Int64(column))])])
    case .replace(let value):
      return .dictionary([
        markerKey: .array([.string("replace"), .integer(Int64(line)), .integer(Int64(column)), value])
      ])
    }
  }

  /// The directive a marker stands for, and where it was read; nil for any other value.
  public static func parse(_ value: PrefValue) -> (directive: SettingsDirective, position: SourcePosition?)? {
    guard case .dictionary(let dict) = value else { return nil }
    return parse(dict)
  }

  /// The directive a marker dictionary stands for; nil for any other dictionary.
  public static func parse(_ dict: PrefDictionary) -> (directive: SettingsDirective, position: SourcePosition?)? {
    guard dict.count == 1, case .array(let parts)? = dict[markerKey], parts.count >= 3,
      case .string(let word) = parts[0], case .integer(let line) = parts[1], case .integer(let column) = parts[2]
    else { return nil }
    let position: SourcePosition? = line > 0 ? .lineColumn(line: Int(line), column: Int(column)) : nil
    switch word {
    case "delete": return (.delete, position)
    case "replace" where parts.count == 4: return (.replace(parts[3]), position)
    default: return nil
    }
  }

  /// Whether `key` is the reserved marker key, which a settings file may not hold.
  static func isReserved(_ key: String) -> Bool { key == markerKey }

  /// The error for an input key that is the reserved marker key.
  static func reservedKeyError() -> String { "a key starting with a NUL character cannot appear in a settings file" }

  /// `$replace`: how JSON and plist settings files spell `!replace`.
  public static let replaceWord = "$replace"
  /// `$delete`: how JSON and plist settings files spell `!delete` (its value is `true`).
  public static let deleteWord = "$delete"

  /// `value` with `{"$replace": …}` and `{"$delete": true}` dictionaries read as
  /// directives and `{"$dict": {…}}` unwrapped to the dictionary it escapes: how a
  /// plist settings file, which has no tags, spells them.
  public static func interpretingWords(_ value: PrefValue, at path: PrefKeyPath = PrefKeyPath()) throws -> PrefValue {
    switch value {
    case .array(let items):
      return .array(try items.enumerated().map { try interpretingWords($1, at: path.appending(index: $0)) })
    case .dictionary(let dict):
      if dict.count == 1, let key = dict.keys.first, let inner = dict[key] {
        switch key {
        case deleteWord:
          guard inner == .bool(true) else {
            throw PrefsError(
              .settings(problem: "\(path.nameInMessages): \"$delete\" takes true, not \(inner.summary)"))
          }
          return marker(.delete)
        case replaceWord:
          return marker(.replace(try interpretingWords(inner, at: path)))
        case "$dict":
          if case .dictionary(let literal) = inner {
            return .dictionary(try literal.mapValuesWithKeys { try interpretingWords($1, at: path.appending(key: $0)) })
          }
        default: break
        }
      }
      for key in dict.keys where isReserved(key) {
        throw PrefsError(.settings(problem: "\(path.nameInMessages): \(reservedKeyError())"))
      }
      return .dictionary(try dict.mapValuesWithKeys { try interpretingWords($1, at: path.appending(key: $0)) })
    default:
      return value
    }
  }

  /// `value` with its markers spelled as `$` words, and dictionaries that look like
  /// one escaped in `{"$dict": …}`: a settings file as a plist holds it.
  public static func spellingWords(_ value: PrefValue) -> PrefValue {
    switch value {
    case .array(let items): return .array(items.map(spellingWords))
    case .dictionary(let dict):
      if let (directive, _) = parse(dict) {
        switch directive {
        case .delete: return .dictionary([deleteWord: .bool(true)])
        case .replace(let inner): return .dictionary([replaceWord: spellingWords(inner)])
        }
      }
      let spelled = PrefValue.dictionary(dict.mapValues(spellingWords))
      if dict.count == 1, let key = dict.keys.first, [deleteWord, replaceWord, "$dict"].contains(key) {
        return .dictionary(["$dict": spelled])
      }
      return spelled
    default: return value
    }
  }
}

extension PrefDictionary {
  /// The dictionary with each value transformed, given its key.
  func mapValuesWithKeys(_ transform: (String, PrefValue) throws -> PrefValue) rethrows -> PrefDictionary {
    PrefDictionary(try map { (key: $0.key, value: try transform($0.key, $0.value)) })
  }
}

extension PrefKeyPath {
  /// The path as messages name it (``PrefKeyPath/nameInMessages``).
  package var descriptionOrTop: String { nameInMessages }
}
