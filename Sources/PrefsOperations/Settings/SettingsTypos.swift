import PrefsModel
import PrefsStore

/// What in a settings file looks like a slip of the keyboard: a new domain whose name
/// is close to one the store has (`com.exmaple.app` beside `com.example.app`), and a
/// `$` key close to a directive word (`{"$delte": true}`), which would become a key.
public enum SettingsTypos {
  /// The directive words of JSON and plist settings files.
  static let directiveWords = ["$delete", "$replace"]

  /// One warning per likely slip in `steps`, naming the domain and what was meant.
  public static func warnings(for steps: [ApplyStep], in store: any DomainStore) -> [String] {
    let names = (try? store.domainNames()) ?? []
    var found: [String] = []
    for step in steps where step.error == nil {
      if step.before == nil, !DomainName.isPath(step.target),
        let guess = Suggestions.closest(to: step.target, among: names.filter { $0 != step.target })
      {
        found.append("\(step.target) is a new domain; did you mean '\(guess)'?")
      }
      for settings in step.settings {
        for path in dollarKeys(in: settings.value, at: PrefKeyPath()) {
          guard case .key(let key)? = path.components.last,
            let word = Suggestions.closest(to: key, among: directiveWords), word != key
          else { continue }
          found.append("\(step.name): '\(key)' at \(path.nameInMessages) is set as a key; did you mean '\(word)'?")
        }
      }
    }
    return found
  }

  /// The key paths of keys that start with `$`, at any depth.
  private static func dollarKeys(in value: PrefValue, at path: PrefKeyPath) -> [PrefKeyPath] {
    switch value {
    case .dictionary(let dict):
      return dict.flatMap { key, child in
        let here = path.appending(key: key)
        return (key.hasPrefix("$") ? [here] : []) + dollarKeys(in: child, at: here)
      }
    case .array(let items):
      return items.enumerated().flatMap { dollarKeys(in: $1, at: path.appending(index: $0)) }
    default:
      return []
    }
  }
}
