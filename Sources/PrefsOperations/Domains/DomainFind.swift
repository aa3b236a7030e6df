import PrefsFormats
import PrefsModel
import PrefsStore

/// `prefs find WORD`, searching as `defaults find` does: the domains of a store whose
/// keys or values hold a word, in any case.
public struct DomainFind: Sendable {
  /// One domain's matches.
  public struct Found: Sendable, Equatable {
    /// The domain's name.
    public var domain: String
    /// Its top-level entries that hold the word, in their key or anywhere in their value.
    public var entries: PrefDictionary
  }

  /// The word looked for.
  public var word: String

  /// A search for `word`.
  public init(_ word: String) { self.word = word }

  /// Whether `text` holds the word, ignoring case.
  public func matches(_ text: String) -> Bool { text.lowercased().contains(word.lowercased()) }

  /// Whether `value` holds the word: a string, or the text of a number, boolean or date
  /// as messages show it (``PrefValue/literal``), or a key or value inside it. Data
  /// holds no word.
  public func matches(_ value: PrefValue) -> Bool {
    switch value {
    case .string(let text): matches(text)
    case .array(let items): items.contains { matches($0) }
    case .dictionary(let contents): contents.contains { key, value in matches(key) || matches(value) }
    case .data, .null: false
    default: matches(value.literal)
    }
  }

  /// The entries of `contents` that hold the word, in their key or their value.
  public func entries(of contents: PrefDictionary) -> PrefDictionary {
    var entries = PrefDictionary()
    for (key, value) in contents where matches(key) || matches(value) { entries[key] = value }
    return entries
  }

  /// `value` in what an OpenStep property list holds, as `defaults find` prints it: a
  /// boolean as 1 or 0, a number, date or UID as its text (``PrefValue/literal``).
  public static func openStepForm(_ value: PrefValue) -> PrefValue {
    switch value {
    case .string, .data: return value
    case .bool(let flag): return .string(flag ? "1" : "0")
    case .array(let items): return .array(items.map(openStepForm))
    case .dictionary(let contents):
      var shown = PrefDictionary()
      for (key, item) in contents { shown[key] = openStepForm(item) }
      return .dictionary(shown)
    default: return .string(value.literal)
    }
  }

  /// Every domain of `store` that holds the word, in the order of
  /// ``DomainStore/domainNames()``; a domain gone by the time it is read is skipped.
  /// What reading warns of is added to `warnings`, naming the domain's file.
  public func search(
    _ store: any DomainStore, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings()
  ) throws -> [Found] {
    var found: [Found] = []
    for name in try store.domainNames() {
      let domain = try store.domain(named: name)
      let readWarnings = Warnings()
      let contents = try domain.read(options: options, warnings: readWarnings)
      warnings.add(readWarnings, file: domain.location)
      guard let contents else { continue }
      let entries = entries(of: contents)
      if !entries.isEmpty { found.append(Found(domain: name, entries: entries)) }
    }
    return found
  }
}
