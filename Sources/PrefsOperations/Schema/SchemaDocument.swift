import PrefsFormats
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
    if !dynamicKeys.isEmpty {
      root["dynamic-keys"] = .array(
        dynamicKeys.map { read in
          var entry: PrefDictionary = ["expression": .string(read.expression)]
          if let pattern = read.pattern { entry["pattern"] = .string(pattern) }
          if let type = read.type { entry["type"] = .string(type.rawValue) }
          entry["read-at"] = .array(read.readAt.map(PrefValue.string))
          return .dictionary(entry)
        })
    }
    if !conflicts.isEmpty {
      root["conflicts"] = .dictionary(
        PrefDictionary(
          conflicts.map { conflict in
            let reads = conflict.reads.map { read in
              var entry: PrefDictionary = ["type": .string(read.type.rawValue)]
              if let value = read.defaultValue { entry["default"] = value }
              entry["read-at"] = .string(read.readAt)
              return PrefValue.dictionary(entry)
            }
            return (conflict.key, .array(reads))
          }))
    }
    return .dictionary(root)
  }

  /// The schema's document in `format` (YAML for people, JSON for programs).
  public func encoded(as format: Format, options: WriteOptions = WriteOptions()) throws -> Data {
    try format.encode(documentValue, options: options)
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
  /// and what a scan found (`suite`, `encoding`, `content`, `decode-fallback`,
  /// `read-at`, `written-at`), each when the key has it.
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
    if let suite { entry["suite"] = .string(suite) }
    if let encoding { entry["encoding"] = .string(encoding.rawValue) }
    if let content { entry["content"] = content.documentValue }
    if let decodeFallback { entry["decode-fallback"] = decodeFallback }
    if !readAt.isEmpty { entry["read-at"] = .array(readAt.map(PrefValue.string)) }
    if !writtenAt.isEmpty { entry["written-at"] = .array(writtenAt.map(PrefValue.string)) }
    return .dictionary(entry)
  }
}

extension SchemaContent {
  /// This shape's entry in the schema document.
  var documentValue: PrefValue {
    var dict = PrefDictionary()
    if let type { dict["type"] = .string(type.rawValue) }
    if let swiftType { dict["swift-type"] = .string(swiftType) }
    if isOptional { dict["optional"] = .bool(true) }
    if let items { dict["items"] = items.documentValue }
    if let fields {
      dict["fields"] = .dictionary(PrefDictionary(fields.map { ($0.name, $0.content.documentValue) }))
    }
    return .dictionary(dict)
  }
}
