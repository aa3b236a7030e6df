import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

extension Schema {
  /// The contents as the app reads them on `platform`: each listed key's value after
  /// its cast, or its fallback when the key is missing or the cast fails (a key with
  /// no fallback is then left out). Nested dictionaries are filled in the same way; a
  /// missing one is added only when one of its keys has a fallback.
  /// Keys the schema does not list are kept as stored.
  public func effective(_ contents: PrefDictionary, on platform: Platform = .current) -> PrefDictionary {
    var result = PrefDictionary()
    for key in keys {
      var value = key.appReads(contents[key.name], on: platform)
      if let nested = key.keys {
        let filled = nested.effective(value?.dictionaryValue ?? PrefDictionary(), on: platform)
        // A missing dictionary none of whose keys has a fallback stays missing.
        if value != nil || !filled.isEmpty { value = .dictionary(filled) }
      }
      if let value { result[key.name] = value }
    }
    for (name, value) in contents where self.key(name) == nil { result[name] = value }
    return result
  }
}
