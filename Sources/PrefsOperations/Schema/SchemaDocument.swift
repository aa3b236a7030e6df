import PrefsModel

extension Schema {
  /// The schema as a document in prefs' own format (what ``Schema/read(_:path:)``
  /// reads back): `description`, `domain`, then `keys`, each key with every field it
  /// has. Keys of any other name (``allowsOtherKeys``, ``otherKey``), which published
  /// schemas may give, have no field in this format and are left out.
  public var documentValue: PrefValue {
    var root = PrefDictionary()
    if let description { root["description"] = .string(description) }
    if let domain { root["domain"] = .string(domain) }
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
  /// The key's entry in a schema document: `type` (`any` when any type is allowed),
  /// `default`, `values`, `min`, `max`, `required`, `items`, `description`, `keys`,
  /// each when the key has it.
  public var documentValue: PrefValue {
    var entry: PrefDictionary = ["type": .string(allowsAnyType ? Self.anyTypeName : type.rawValue)]
    if let defaultValue { entry["default"] = defaultValue }
    if let values { entry["values"] = .array(values) }
    if let low = range?.min { entry["min"] = low }
    if let high = range?.max { entry["max"] = high }
    if isRequired { entry["required"] = .bool(true) }
    if let items { entry["items"] = items.documentValue }
    if let description { entry["description"] = .string(description) }
    if let keys { entry["keys"] = keys.keysDocumentValue }
    return .dictionary(entry)
  }
}
