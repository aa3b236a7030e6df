import PrefsModel
import PrefsText

/// The two directives a settings file may hold besides values: replace a whole
/// dictionary or array (YAML `!replace`, JSON `{"$replace": …}`), and delete a key
/// (YAML `!delete`, JSON `{"$delete": true}`).
///
/// They exist only in settings files, and never inside a ``PrefValue``: a reader given
/// a directive log (`SettingsDirectiveLog`) reports each one there, at its key path, and a writer
/// given the key paths to tag writes them back. Without either, the YAML reader
/// refuses the tags and the JSON reader reads the words as plain keys.
public enum SettingsDirective: Sendable, Hashable {
  /// Replace what is there with exactly the value at the path.
  case replace
  /// Remove the key.
  case delete

  /// `$replace`: how JSON and plist settings files spell `!replace`.
  public static let replaceWord = "$replace"
  /// `$delete`: how JSON and plist settings files spell `!delete` (its value is `true`).
  public static let deleteWord = "$delete"

  /// What a reader keeps at the path of a `!delete`: the value is not the setting, the
  /// directive is, but the key stays so that duplicates and array positions are what
  /// the text says.
  public static let deleteStandIn = PrefValue.bool(true)
}

/// Where a settings-file read reports its directives (``ReadOptions/settingsDirectives``).
///
/// For a `!replace` the reader keeps the replacing value at the path; for a `!delete`
/// it keeps ``SettingsDirective/deleteStandIn``. Entries come in the order of the text.
package final class SettingsDirectiveLog: @unchecked Sendable {
  // Unchecked: one reader fills it, on one thread, before anyone reads it.
  package private(set) var entries: [(directive: SettingsDirective, path: PrefKeyPath, position: SourcePosition?)] =
    []

  package init() {}

  /// Records `directive` at `path`, read at `position`.
  package func report(_ directive: SettingsDirective, at path: PrefKeyPath, position: SourcePosition?) {
    entries.append((directive, path, position))
  }
}
