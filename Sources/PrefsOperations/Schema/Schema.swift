import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// The keys an app reads from a domain, each with the type it casts to and the
/// fallback it uses.
///
/// A schema is read from prefs' own format (below), from Apple's device-management
/// YAML (``init(deviceManagement:)``) or from a ProfileManifests manifest
/// (``init(profileManifest:)``) or from a JSON Schema (``JSONSchema/schema(from:)``);
/// ``read(_:path:)`` tells them apart. Prefs' own format
/// is a YAML or JSON document (read through the format table):
///
/// ```yaml
/// description: The tutorial's user settings.
/// keys:
///   isAccountPrivate:
///     type: bool            # string integer real bool date data array dict
///     default: true         # what the app reads when the key is missing or of another type
///     description: Whether only approved followers see the account.
///   ringtone:
///     type: string
///     default: Chimes
///     values: [Chimes, Signal, Waves]   # optional: the values allowed
///   window:
///     type: dict
///     keys:                 # optional: the keys of a nested dictionary
///       width: {type: integer, default: 800, min: 100, max: 4000, required: true}
///   recent:
///     type: array
///     items: {type: string}  # optional: what each item of an array is
///   extra:
///     type: any             # any type: not checked
/// domain: com.example.app   # optional: the domain the schema describes
/// ```
public struct Schema: Sendable, Equatable {
  /// What the schema describes, if it says.
  public var description: String?
  /// The keys, in the order the schema lists them.
  public var keys: [SchemaKey]

  // What a scan of the app's code found beside its keys (SchemaScanFields.swift).
  /// The reads whose key the code builds at run time.
  public var dynamicKeys: [DynamicKeyRead] = []
  /// The keys the code reads with two types or two fallbacks.
  public var conflicts: [ReadConflict] = []

  // MARK: From published schemas (device-management, ProfileManifests)

  /// The domain the schema describes, when it names one: a device-management
  /// payload type, a manifest's `pfm_domain`.
  public var domain: String?
  /// Whether the keys the schema does not list are allowed: a schema whose
  /// dictionary is open to keys of any name (device-management's `ANY`).
  public var allowsOtherKeys = false
  /// What each key the schema does not list holds, when it says (`ANY` with a type).
  public var otherKey: SchemaKey? {
    get { otherKeyStorage.first }
    set { otherKeyStorage = newValue.map { [$0] } ?? [] }
  }
  private var otherKeyStorage: [SchemaKey] = []

  public init(
    description: String? = nil, keys: [SchemaKey], domain: String? = nil, allowsOtherKeys: Bool = false,
    otherKey: SchemaKey? = nil
  ) {
    self.description = description
    self.keys = keys
    self.domain = domain
    self.allowsOtherKeys = allowsOtherKeys || otherKey != nil
    self.otherKey = otherKey
  }

  /// The key called `name`, if the schema lists it.
  public func key(_ name: String) -> SchemaKey? { keys.first { $0.name == name } }
}

/// One key of a ``Schema``.
public struct SchemaKey: Sendable, Equatable {
  public var name: String
  /// The type the app casts the value to.
  public var type: ValueText.TypeName
  /// The fallback: what the app reads when the key is missing or of another type;
  /// nil when the app has none (it reads nil).
  public var defaultValue: PrefValue?
  /// The values allowed, when the schema restricts them.
  public var values: [PrefValue]?
  public var description: String?
  /// The keys of a nested dictionary (`type: dict` only).
  public var keys: Schema?

  // What a scan of the app's code found (SchemaScanFields.swift).
  /// The suite the app reads the key from (`UserDefaults(suiteName:)`); nil for its own domain.
  public var suite: String?
  /// Where the app's code reads the key: `File.swift:LINE:COL`.
  public var readAt: [String] = []
  /// Where the app's code stores the key.
  public var writtenAt: [String] = []
  /// How the data of a `type: data` key holds a `Codable` value.
  public var encoding: DataEncoding?
  /// The shape of that value, from the app's `Codable` type.
  public var content: SchemaContent?
  /// What the app uses instead when the data does not decode (`[]`), if the code says.
  public var decodeFallback: PrefValue?

  // MARK: From published schemas (device-management, ProfileManifests)

  /// The bounds of a number (`range` min/max, `pfm_range_min`/`max`), if any.
  public var range: SchemaRange?
  /// Whether the key must be present (`presence: required`, `pfm_require: always`).
  public var isRequired = false
  /// Whether any type is allowed (`<any>`): ``type`` is then not checked.
  public var allowsAnyType = false
  /// What each item of an array is (`type: array` only), when the schema says.
  public var items: SchemaKey? {
    get { itemStorage.first }
    set { itemStorage = newValue.map { [$0] } ?? [] }
  }
  private var itemStorage: [SchemaKey] = []

  public init(
    name: String, type: ValueText.TypeName, defaultValue: PrefValue? = nil, values: [PrefValue]? = nil,
    description: String? = nil, keys: Schema? = nil, range: SchemaRange? = nil, isRequired: Bool = false,
    allowsAnyType: Bool = false, items: SchemaKey? = nil
  ) {
    self.name = name
    self.type = type
    self.defaultValue = defaultValue
    self.values = values
    self.description = description
    self.keys = keys
    self.range = range
    self.isRequired = isRequired
    self.allowsAnyType = allowsAnyType
    self.items = items
  }
}

// MARK: - Reading

extension Schema {
  /// Reads a schema document in any format of the table (YAML, JSON, a plist), in
  /// any of the schema formats of ``SchemaFormat``, told apart by their fields. A
  /// field that is not right is named by its key path and, in a text, by its line
  /// and column.
  public static func read(_ data: Data, path: String? = nil) throws -> Schema {
    var text: TextDocument?
    do {
      // Read as ordinary JSON first: a JSON Schema describes `{"$date": …}` objects.
      var plain = ReadOptions()
      plain.plainJSON = true
      let document: PrefValue
      (document, _, text) = try TextDocument.read(data, path: path, options: plain)
      if SchemaFormat.of(document) == .jsonSchema { return try JSONSchema.schema(from: document) }
      let (value, _) = try Format.read(data, path: path)
      return try Schema(document: value)
    } catch var error as PrefsError {
      if error.position == nil, case .schema(let at, _) = error.kind, let text {
        // The field, or the nearest entry around it that the text has.
        var components = at.components
        while error.position == nil {
          error.position = text.position(of: PrefKeyPath(components))
          if components.isEmpty { break }
          components.removeLast()
        }
      }
      throw path.map { error.inFile($0) } ?? error
    }
  }

  /// A schema from a document's value in any of the schema formats.
  public init(document value: PrefValue) throws {
    switch SchemaFormat.of(value) {
    case .prefs: try self.init(value)
    case .deviceManagement: try self.init(deviceManagement: value)
    case .profileManifest: try self.init(profileManifest: value)
    case .jsonSchema: self = try JSONSchema.schema(from: value)
    }
  }

  /// A schema from its document's value, in prefs' own format.
  public init(_ value: PrefValue) throws {
    try self.init(value, at: PrefKeyPath())
  }

  private init(_ value: PrefValue, at path: PrefKeyPath) throws {
    guard case .dictionary(let dict) = value else {
      throw Self.invalid(path, "a schema is a dictionary with 'keys', not \(value.kind.article) \(value.kind.rawValue)")
    }
    try Self.allowOnly(Set(["description", "domain", "keys"] + Self.scanFieldNames), in: dict, at: path)
    description = try Self.string(dict["description"], at: path.appending(key: "description"))
    domain = try Self.string(dict["domain"], at: path.appending(key: "domain"))
    let keysPath = path.appending(key: "keys")
    guard case .dictionary(let entries)? = dict["keys"] else {
      throw Self.invalid(keysPath, "a schema needs 'keys', a dictionary of the keys the app reads")
    }
    keys = try entries.map { name, entry in try SchemaKey(name: name, entry, at: keysPath.appending(key: name)) }
    try readScanFields(dict, at: path)
  }

  static func invalid(_ path: PrefKeyPath, _ message: String, hints: [String] = []) -> PrefsError {
    PrefsError(.schema(path: path, problem: message), hints: hints)
  }

  static func allowOnly(_ names: Set<String>, in dict: PrefDictionary, at path: PrefKeyPath) throws {
    if let unknown = dict.keys.first(where: { !names.contains($0) }) {
      throw invalid(
        path.appending(key: unknown), "unknown field", hints: ["fields: \(names.sorted().joined(separator: ", "))"])
    }
  }

  static func string(_ value: PrefValue?, at path: PrefKeyPath) throws -> String? {
    guard let value else { return nil }
    guard case .string(let s) = value else { throw invalid(path, "must be a string") }
    return s
  }
}

extension SchemaKey {
  fileprivate init(name: String, _ value: PrefValue, at path: PrefKeyPath) throws {
    guard case .dictionary(let dict) = value else {
      throw Schema.invalid(path, "each key needs a dictionary with at least 'type'")
    }
    try Schema.allowOnly(
      Set(
        ["type", "default", "values", "description", "keys", "min", "max", "required", "items"] + Self.scanFieldNames),
      in: dict, at: path)
    // A key's type is what an app reads; a null is no type an app can read a key as.
    let typeNames = (ValueText.TypeName.allCases.filter { $0 != .null }.map(\.rawValue) + [Self.anyTypeName])
      .joined(separator: ", ")
    guard case .string(let typeText)? = dict["type"] else {
      throw Schema.invalid(path, "needs a 'type'", hints: ["types: \(typeNames)"])
    }
    // `any`: the key may hold any type (``allowsAnyType``), and its type is not checked.
    guard let type = typeText == Self.anyTypeName ? .string : ValueText.TypeName.named(typeText), type != .null else {
      throw Schema.invalid(path.appending(key: "type"), "unknown type '\(typeText)'", hints: ["types: \(typeNames)"])
    }
    self.allowsAnyType = typeText == Self.anyTypeName
    self.name = name
    self.type = type
    self.description = try Schema.string(dict["description"], at: path.appending(key: "description"))
    self.defaultValue = try dict["default"].map { try Self.fitting($0, type, at: path.appending(key: "default")) }
    self.values = try dict["values"].map { try Self.allowed($0, type, at: path.appending(key: "values")) }
    if let nested = dict["keys"] {
      guard type == .dict else { throw Schema.invalid(path.appending(key: "keys"), "only a dict has keys") }
      self.keys = try Schema(.dictionary(["keys": nested]))
    } else {
      self.keys = nil
    }
    self.range = try SchemaRange(min: dict["min"], max: dict["max"], for: type, at: path)
    if let required = dict["required"] {
      guard case .bool(let flag) = required else {
        throw Schema.invalid(path.appending(key: "required"), "must be true or false")
      }
      self.isRequired = flag
    }
    if let item = dict["items"] {
      guard type == .array else { throw Schema.invalid(path.appending(key: "items"), "only an array has items") }
      self.items = try SchemaKey(name: "items", item, at: path.appending(key: "items"))
    }
    try readScanFields(dict, at: path)
  }

  /// The type word of a key that may hold any type, in prefs' own format.
  static let anyTypeName = "any"

  /// The list of values allowed (`values`, `rangelist`, `pfm_range_list`), each of `type`.
  static func allowed(_ list: PrefValue, _ type: ValueText.TypeName, at path: PrefKeyPath) throws -> [PrefValue] {
    guard case .array(let items) = list, !items.isEmpty else {
      throw Schema.invalid(path, "must be a list of the values allowed")
    }
    return try items.enumerated().map { try fitting($1, type, at: path.appending(index: $0)) }
  }

  /// Gives the key the `subkeys` a published schema lists: a dictionary's keys, or
  /// an array's items (the one key listed).
  mutating func nest(_ subkeys: Schema, at path: PrefKeyPath) throws {
    switch type {
    case .dict: keys = subkeys
    case .array: items = subkeys.keys.first ?? subkeys.otherKey
    default: throw Schema.invalid(path, "only a dictionary or an array has subkeys")
    }
  }

  /// `value` as a value of `type`: its own kind, or an integer given for a real.
  static func fitting(_ value: PrefValue, _ type: ValueText.TypeName, at path: PrefKeyPath) throws -> PrefValue {
    if value.kind == type.kind { return value }
    if type == .real, case .integer(let n) = value, let real = Double(exactly: n) { return .real(real) }
    throw Schema.invalid(
      path, "\(value.kind.article) \(value.kind.rawValue) is not \(type.kind.article) \(type.kind.rawValue)")
  }
}

extension ValueText.TypeName {
  /// The kind of value this type is.
  public var kind: PrefValue.Kind {
    switch self {
    case .string: .string
    case .integer: .integer
    case .real: .real
    case .bool: .bool
    case .date: .date
    case .data: .data
    case .array: .array
    case .dict: .dictionary
    case .null: .null
    }
  }

  /// The Swift type an app casts to: `Bool`, `[String: Any]`.
  public var swiftName: String {
    switch self {
    case .string: "String"
    case .integer: "Int"
    case .real: "Double"
    case .bool: "Bool"
    case .date: "Date"
    case .data: "Data"
    case .array: "[Any]"
    case .dict: "[String: Any]"
    case .null: "NSNull"
    }
  }
}

// MARK: - Built in

extension Schema {
  /// The schemas `--schema NAME` knows without a file, by name.
  public static let builtInNames = ["user-settings"]

  /// The built-in schema called `name`.
  public static func builtIn(_ name: String) -> Schema? {
    switch name {
    case "user-settings": userSettings
    default: nil
    }
  }

  /// The tutorial's settings and items, as `prefs schema scan` gives them for its
  /// settings model and storage manager (`Samples/UserSettings.schema.yaml`):
  /// `username` as `String ?? ""`, `isAccountPrivate` as `Bool ?? true`, `ringtone`
  /// as `String ?? "Chimes"` out of Chimes, Signal, Waves, and `items`, data holding
  /// the JSON of an array of `Item {id, name, description}`, all strings, read as
  /// `[]` when it does not decode.
  public static let userSettings: Schema = {
    func key(
      _ name: String, _ type: ValueText.TypeName, _ fallback: PrefValue?, values: [String]? = nil, read: String,
      written: String
    ) -> SchemaKey {
      var key = SchemaKey(name: name, type: type, defaultValue: fallback, values: values?.map(PrefValue.string))
      key.readAt = [read]
      key.writtenAt = [written]
      return key
    }
    var items = key("items", .data, nil, read: "StorageManager.swift:19:26", written: "StorageManager.swift:48:13")
    items.encoding = .json
    let string = SchemaContent(type: .string)
    items.content = SchemaContent(
      type: .array, swiftType: "[Item]",
      items: SchemaContent(
        type: .dict, swiftType: "Item",
        fields: ["id", "name", "description"].map { SchemaField(name: $0, content: string) }))
    items.decodeFallback = .array([])
    return Schema(keys: [
      key("username", .string, .string(""), read: "UserSettings.swift:26:25", written: "UserSettings.swift:7:13"),
      key(
        "isAccountPrivate", .bool, .bool(true), read: "UserSettings.swift:27:26", written: "UserSettings.swift:13:13"),
      key(
        "ringtone", .string, .string("Chimes"), values: ["Chimes", "Signal", "Waves"], read: "UserSettings.swift:28:25",
        written: "UserSettings.swift:19:13"),
      items,
    ])
  }()
}
