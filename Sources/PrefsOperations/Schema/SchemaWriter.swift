import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

extension Schema {
  /// The schema as its document in prefs' own format: the value ``init(_:)`` reads
  /// back to this schema. Fields are written in the order the document format lists
  /// them, and only when they say something. What only a published format says (a
  /// payload's domain, keys of any name, any type) has no field in it and is left out.
  public var document: PrefValue {
    var dict = PrefDictionary()
    if let description { dict["description"] = .string(description) }
    dict["keys"] = .dictionary(PrefDictionary(keys.map { ($0.name, $0.document) }))
    if !dynamicKeys.isEmpty {
      dict["dynamic-keys"] = .array(
        dynamicKeys.map { read in
          var entry: PrefDictionary = ["expression": .string(read.expression)]
          if let pattern = read.pattern { entry["pattern"] = .string(pattern) }
          if let type = read.type { entry["type"] = .string(type.rawValue) }
          entry["read-at"] = .array(read.readAt.map(PrefValue.string))
          return .dictionary(entry)
        })
    }
    if !conflicts.isEmpty {
      dict["conflicts"] = .dictionary(
        PrefDictionary(
          conflicts.map { conflict in
            (
              conflict.key,
              .array(
                conflict.reads.map { read in
                  var entry: PrefDictionary = ["type": .string(read.type.rawValue)]
                  if let value = read.defaultValue { entry["default"] = value }
                  entry["read-at"] = .string(read.readAt)
                  return .dictionary(entry)
                })
            )
          }))
    }
    return .dictionary(dict)
  }

  /// The schema's document in `format` (YAML for people, JSON for programs).
  public func encoded(as format: Format, options: WriteOptions = WriteOptions()) throws -> Data {
    try format.encode(document, options: options)
  }
}

extension SchemaKey {
  /// This key's entry in the schema document.
  var document: PrefValue {
    var dict: PrefDictionary = ["type": .string(type.rawValue)]
    if let defaultValue { dict["default"] = defaultValue }
    if let values { dict["values"] = .array(values) }
    if let description { dict["description"] = .string(description) }
    if let keys { dict["keys"] = keys.document.dictionaryValue?["keys"] }
    if let min = range?.min { dict["min"] = min }
    if let max = range?.max { dict["max"] = max }
    if isRequired { dict["required"] = .bool(true) }
    if let items { dict["items"] = items.document }
    if let suite { dict["suite"] = .string(suite) }
    if let encoding { dict["encoding"] = .string(encoding.rawValue) }
    if let content { dict["content"] = content.document }
    if let decodeFallback { dict["decode-fallback"] = decodeFallback }
    if !readAt.isEmpty { dict["read-at"] = .array(readAt.map(PrefValue.string)) }
    if !writtenAt.isEmpty { dict["written-at"] = .array(writtenAt.map(PrefValue.string)) }
    return .dictionary(dict)
  }
}

extension SchemaContent {
  /// This shape's entry in the schema document.
  var document: PrefValue {
    var dict = PrefDictionary()
    if let type { dict["type"] = .string(type.rawValue) }
    if let swiftType { dict["swift-type"] = .string(swiftType) }
    if isOptional { dict["optional"] = .bool(true) }
    if let items { dict["items"] = items.document }
    if let fields { dict["fields"] = .dictionary(PrefDictionary(fields.map { ($0.name, $0.content.document) })) }
    return .dictionary(dict)
  }
}
