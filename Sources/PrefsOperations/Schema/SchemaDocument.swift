import PrefsModel

extension Schema {
  /// The schema as its document holds it (the form ``Schema/read(_:path:)`` reads):
  /// `description`, then `keys`, each key with every field it has, in the order the
  /// format's documentation lists them.
  public var documentValue: PrefValue {
    var root = PrefDictionary()
    if let description { root["description"] = .string(description) }
    root["keys"] = keysDocumentValue
    return .dictionary(root)
  }

  /// The document's `keys`: each key by name.
  var keysDocumentValue: PrefValue {
    var entries = PrefDictionary()
    for key in keys { entries[key.name] = key.documentValue }
    return .dictionary(entries)
  }
}

extension SchemaKey {
  /// The key's entry in a schema document: `type`, `default`, `values`, `minimum`,
  /// `maximum`, `items`, `description`, `keys`, each when the key has it.
  public var documentValue: PrefValue {
    var entry: PrefDictionary = ["type": .string(type.rawValue)]
    if let defaultValue { entry["default"] = defaultValue }
    if let values { entry["values"] = .array(values) }
    if let minimum { entry["minimum"] = minimum }
    if let maximum { entry["maximum"] = maximum }
    if let items { entry["items"] = items.documentValue }
    if let description { entry["description"] = .string(description) }
    if let keys { entry["keys"] = keys.keysDocumentValue }
    return .dictionary(entry)
  }
}
