import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

// The parts of a schema that a scan of an app's code gives (`prefs schema scan`):
// where each key is read and stored, its suite, the `Codable` value its data holds,
// the keys built at run time and the keys read two ways. In the document:
//
// ```yaml
// keys:
//   items:
//     type: data
//     encoding: json              # json or plist: how the data holds the value
//     content:                    # the value's shape, from the app's Codable type
//       type: array
//       swift-type: "[Item]"
//       items:
//         type: dict
//         swift-type: Item
//         fields:
//           id: {type: string}
//           note: {type: string, optional: true}
//     decode-fallback: []         # what the app uses when the data does not decode
//     suite: group.com.example    # read through UserDefaults(suiteName:)
//     read-at: [StorageManager.swift:18:32]
//     written-at: [StorageManager.swift:44:13]
// dynamic-keys:
//   - expression: '"row-\(index)"'
//     pattern: row-*
//     read-at: [Rows.swift:9:5]
// conflicts:
//   volume:
//     - {type: integer, default: 0, read-at: A.swift:3:9}
//     - {type: real, default: 0.5, read-at: B.swift:4:9}
// ```

/// How data holds a `Codable` value: the encoder the app uses.
public enum DataEncoding: String, Sendable, CaseIterable {
  /// `JSONEncoder` / `JSONDecoder`.
  case json
  /// `PropertyListEncoder` / `PropertyListDecoder` (a binary plist by default).
  case plist

  /// The decoder's name in messages: `JSONDecoder`.
  public var decoderName: String { self == .json ? "JSONDecoder" : "PropertyListDecoder" }
}

/// The shape of a decoded `Codable` value: its type, and for an array its items,
/// for a structure its fields.
public struct SchemaContent: Sendable, Equatable {
  /// The kind of value the encoder writes; nil when the scan could not tell (any
  /// value is then accepted).
  public var type: ValueText.TypeName?
  /// The Swift type, for messages: `[Item]`, `Item`.
  public var swiftType: String?
  /// Whether a field may be missing (or null): an optional property.
  public var isOptional: Bool
  /// The fields of a structure, in declaration order, by their coding keys.
  public var fields: [SchemaField]?
  private var itemStorage: [SchemaContent]

  public init(
    type: ValueText.TypeName?, swiftType: String? = nil, isOptional: Bool = false, items: SchemaContent? = nil,
    fields: [SchemaField]? = nil
  ) {
    self.type = type
    self.swiftType = swiftType
    self.isOptional = isOptional
    self.fields = fields
    self.itemStorage = items.map { [$0] } ?? []
  }

  /// The shape of each item of an array.
  public var items: SchemaContent? {
    get { itemStorage.first }
    set { itemStorage = newValue.map { [$0] } ?? [] }
  }
}

/// One field of a ``SchemaContent`` structure.
public struct SchemaField: Sendable, Equatable {
  /// The coding key: the property's name, or its `CodingKeys` raw value.
  public var name: String
  public var content: SchemaContent

  public init(name: String, content: SchemaContent) {
    self.name = name
    self.content = content
  }
}

/// A read whose key the code builds at run time (`"row-\(index)"`, a parameter).
public struct DynamicKeyRead: Sendable, Equatable {
  /// The key expression as written.
  public var expression: String
  /// A key glob of the keys it can give (`row-*`), when the expression has literal parts.
  public var pattern: String?
  /// The type the read casts to, if known.
  public var type: ValueText.TypeName?
  public var readAt: [String]

  public init(expression: String, pattern: String? = nil, type: ValueText.TypeName? = nil, readAt: [String]) {
    self.expression = expression
    self.pattern = pattern
    self.type = type
    self.readAt = readAt
  }

  /// Whether `key` is one this read can give.
  public func matches(_ key: String) -> Bool {
    guard let pattern else { return false }
    return KeyGlob(pattern).matches(key)
  }
}

/// One read of a key, as a ``ReadConflict`` lists it.
public struct KeyRead: Sendable, Equatable {
  public var type: ValueText.TypeName
  /// Its fallback; nil when the read can give nil.
  public var defaultValue: PrefValue?
  public var readAt: String

  public init(type: ValueText.TypeName, defaultValue: PrefValue?, readAt: String) {
    self.type = type
    self.defaultValue = defaultValue
    self.readAt = readAt
  }
}

/// A key the code reads with two types, or two fallbacks: one of the two reads is
/// not what the domain holds, or the app disagrees with itself.
public struct ReadConflict: Sendable, Equatable {
  public var key: String
  /// The reads that disagree, the first as the schema's key has it.
  public var reads: [KeyRead]

  public init(key: String, reads: [KeyRead]) {
    self.key = key
    self.reads = reads
  }

  /// `read as bool (fallback true) at A.swift:3:9 and as string at B.swift:4:9`.
  public var message: String {
    "read "
      + reads.map { read in
        "as \(read.type.rawValue)\(read.defaultValue.map { " (fallback \($0.literal))" } ?? "") at \(read.readAt)"
      }.joined(separator: " and ")
  }
}

// MARK: - Reading

extension Schema {
  /// The schema fields of a scan.
  static let scanFieldNames = ["dynamic-keys", "conflicts"]

  mutating func readScanFields(_ dict: PrefDictionary, at path: PrefKeyPath) throws {
    if let list = dict["dynamic-keys"] {
      let listPath = path.appending(key: "dynamic-keys")
      dynamicKeys = try Self.list(list, at: listPath).enumerated().map { index, entry in
        let entryPath = listPath.appending(index: index)
        guard case .dictionary(let fields) = entry else { throw Self.invalid(entryPath, "must be a dictionary") }
        try Self.allowOnly(["expression", "pattern", "type", "read-at"], in: fields, at: entryPath)
        guard let expression = try Self.string(fields["expression"], at: entryPath.appending(key: "expression")) else {
          throw Self.invalid(entryPath, "needs an 'expression'")
        }
        return DynamicKeyRead(
          expression: expression, pattern: try Self.string(fields["pattern"], at: entryPath.appending(key: "pattern")),
          type: try fields["type"].map { try Self.typeName($0, at: entryPath.appending(key: "type")) },
          readAt: try Self.locations(fields["read-at"], at: entryPath.appending(key: "read-at")))
      }
    }
    if let conflictsValue = dict["conflicts"] {
      let conflictsPath = path.appending(key: "conflicts")
      guard case .dictionary(let entries) = conflictsValue else {
        throw Self.invalid(conflictsPath, "must be a dictionary of keys, each with the reads that disagree")
      }
      conflicts = try entries.map { key, reads in
        let keyPath = conflictsPath.appending(key: key)
        return ReadConflict(
          key: key,
          reads: try Self.list(reads, at: keyPath).enumerated().map { index, entry in
            let readPath = keyPath.appending(index: index)
            guard case .dictionary(let fields) = entry, let typeValue = fields["type"] else {
              throw Self.invalid(readPath, "each read needs a dictionary with 'type' and 'read-at'")
            }
            try Self.allowOnly(["type", "default", "read-at"], in: fields, at: readPath)
            let type = try Self.typeName(typeValue, at: readPath.appending(key: "type"))
            guard let readAt = try Self.string(fields["read-at"], at: readPath.appending(key: "read-at")) else {
              throw Self.invalid(readPath, "needs a 'read-at'")
            }
            return KeyRead(
              type: type,
              defaultValue: try fields["default"].map {
                try SchemaKey.fitting($0, type, at: readPath.appending(key: "default"))
              }, readAt: readAt)
          })
      }
    }
  }

  static func list(_ value: PrefValue, at path: PrefKeyPath) throws -> [PrefValue] {
    guard case .array(let items) = value else { throw invalid(path, "must be a list") }
    return items
  }

  /// `read-at: File.swift:1:2` or a list of them.
  static func locations(_ value: PrefValue?, at path: PrefKeyPath) throws -> [String] {
    guard let value else { return [] }
    if case .string(let one) = value { return [one] }
    return try list(value, at: path).enumerated().map { index, item in
      guard case .string(let text) = item else {
        throw invalid(path.appending(index: index), "must be a location, File.swift:LINE:COL")
      }
      return text
    }
  }

  static func typeName(_ value: PrefValue, at path: PrefKeyPath) throws -> ValueText.TypeName {
    let typeNames = ValueText.TypeName.allCases.map(\.rawValue).joined(separator: ", ")
    guard case .string(let text) = value, let type = ValueText.TypeName.named(text) else {
      throw invalid(path, "unknown type \(value.literal)", hints: ["types: \(typeNames)"])
    }
    return type
  }
}

extension SchemaKey {
  /// The key fields of a scan.
  static let scanFieldNames = ["suite", "read-at", "written-at", "encoding", "content", "decode-fallback"]

  mutating func readScanFields(_ dict: PrefDictionary, at path: PrefKeyPath) throws {
    suite = try Schema.string(dict["suite"], at: path.appending(key: "suite"))
    readAt = try Schema.locations(dict["read-at"], at: path.appending(key: "read-at"))
    writtenAt = try Schema.locations(dict["written-at"], at: path.appending(key: "written-at"))
    if let encodingValue = dict["encoding"] {
      let encodingPath = path.appending(key: "encoding")
      guard type == .data else { throw Schema.invalid(encodingPath, "only data has an encoding") }
      guard case .string(let text) = encodingValue, let encoding = DataEncoding(rawValue: text) else {
        throw Schema.invalid(
          encodingPath, "unknown encoding \(encodingValue.literal)",
          hints: ["encodings: \(DataEncoding.allCases.map(\.rawValue).joined(separator: ", "))"])
      }
      self.encoding = encoding
    }
    if let contentValue = dict["content"] {
      let contentPath = path.appending(key: "content")
      guard encoding != nil else { throw Schema.invalid(contentPath, "content needs an 'encoding'") }
      content = try SchemaContent(contentValue, at: contentPath)
    }
    if let fallback = dict["decode-fallback"] {
      guard content != nil else {
        throw Schema.invalid(path.appending(key: "decode-fallback"), "a decode fallback needs a 'content'")
      }
      decodeFallback = fallback
    }
  }
}

extension SchemaContent {
  fileprivate init(_ value: PrefValue, at path: PrefKeyPath) throws {
    guard case .dictionary(let dict) = value else {
      throw Schema.invalid(path, "must be a dictionary with a 'type'")
    }
    try Schema.allowOnly(["type", "swift-type", "optional", "items", "fields"], in: dict, at: path)
    type = try dict["type"].map { try Schema.typeName($0, at: path.appending(key: "type")) }
    swiftType = try Schema.string(dict["swift-type"], at: path.appending(key: "swift-type"))
    switch dict["optional"] {
    case nil: isOptional = false
    case .bool(let flag)?: isOptional = flag
    default: throw Schema.invalid(path.appending(key: "optional"), "must be true or false")
    }
    itemStorage = []
    if let itemsValue = dict["items"] {
      guard type == .array else { throw Schema.invalid(path.appending(key: "items"), "only an array has items") }
      items = try SchemaContent(itemsValue, at: path.appending(key: "items"))
    }
    if let fieldsValue = dict["fields"] {
      let fieldsPath = path.appending(key: "fields")
      guard type == .dict, case .dictionary(let entries) = fieldsValue else {
        throw Schema.invalid(fieldsPath, "only a dict has fields, a dictionary of them")
      }
      fields = try entries.map { name, entry in
        SchemaField(name: name, content: try SchemaContent(entry, at: fieldsPath.appending(key: name)))
      }
    } else {
      fields = nil
    }
  }
}
