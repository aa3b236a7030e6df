import PrefsFormats
import PrefsModel

/// JSON Schema (draft 2020-12) both ways: written from a ``Schema`` for editors
/// (yaml-language-server, VS Code) to complete and check domain files and settings
/// files, and read as a ``Schema`` (`type`, `default`, `enum`, `const`, `minimum`,
/// `maximum`, `properties`, `required`, `additionalProperties`, `items`,
/// `description`, local `$ref`s, `anyOf`/`oneOf`).
///
/// A JSON Schema validator sees a file's values as JSON does: in a YAML file a
/// date is a timestamp string and data a base64 string (`!!binary`), in a JSON file
/// they are the typed objects `{"$date": …}` and `{"$data": …}`, and a real that is
/// not finite is `{"$real": "inf"}`. Each key's schema accepts both spellings.
/// Only the keys the schema requires (``SchemaKey/isRequired``) are required in a
/// domain file, and none in a settings file: an app reads a missing key as its
/// fallback. Keys the schema does not list are allowed, as `lint` only warns of
/// them. JSON Schema cannot tell `1` from `1.0`, so a real key accepts an integer.
/// A key of any type (``SchemaKey/allowsAnyType``) is a schema without a type.
public enum JSONSchema {
  /// The dialect written, and the value of `$schema`.
  public static let dialect = "https://json-schema.org/draft/2020-12/schema"

  /// The JSON Schema of a domain file holding the keys of `schema`.
  public static func forDomain(_ schema: Schema) -> PrefValue {
    let writer = Writer(settings: false)
    var root: PrefDictionary = ["$schema": .string(dialect)]
    if let description = schema.description { root["description"] = .string(description) }
    for (key, value) in writer.objectView(schema) { root[key] = value }
    root["$defs"] = .dictionary(writer.definitions)
    return .dictionary(root)
  }

  /// The JSON Schema of a settings file (``SettingsFile``) whose entry `domain` holds
  /// settings for the keys of `schema`: partial dictionaries (settings merge deeply,
  /// so nothing is required), with `!replace`/`!delete` anywhere a key may be, which a
  /// YAML editor sees as the tagged value and as null, and JSON spells
  /// `{"$replace": …}` and `{"$delete": true}`. Other top-level keys may hold
  /// settings for any domain. `-g` and `NSGlobalDomain` name the same domain, so
  /// either gives both.
  public static func forSettings(_ schema: Schema, domain: String) -> PrefValue {
    let writer = Writer(settings: true)
    let entry = writer.settingsOf(.dictionary(writer.objectView(schema)), description: schema.description)
    var properties = PrefDictionary()
    let globalNames = ["-g", "NSGlobalDomain"]
    for name in globalNames.contains(domain) ? globalNames : [domain] { properties[name] = entry }
    let root: PrefDictionary = [
      "$schema": .string(dialect),
      "description": .string(
        "A settings file: each top-level key is a domain or a file, holding the settings to apply there. "
          + "\(domain): \(schema.description.map { $0.hasSuffix(".") ? $0 : $0 + "." } ?? "the keys of its schema.")"),
      "type": "object",
      "properties": .dictionary(properties),
      "additionalProperties": .dictionary(["$ref": "#/$defs/otherDomain"]),
      "$defs": .dictionary(writer.definitions),
    ]
    return .dictionary(root)
  }

  /// How a JSON Schema is written: as JSON (``Format/json``) with these options, so
  /// that the `$` objects it describes are written as they are.
  public static let writeOptions = WriteOptions(plainJSON: true)

  /// Whether a document is a JSON Schema rather than a schema of ``Schema``'s own
  /// format: it names a `$schema`, or it is `type: object` with `properties`.
  public static func isJSONSchema(_ document: PrefValue) -> Bool {
    guard case .dictionary(let root) = document else { return false }
    if root["$schema"] != nil { return true }
    return root["type"] == "object" && root["properties"]?.dictionaryValue != nil
  }

  /// The schema a JSON Schema describes: its `properties` as keys, nested objects'
  /// `properties` as nested keys. Each property needs one type (a nullable type, and
  /// the `$` objects and directives this type writes, count as the type itself).
  public static func schema(from document: PrefValue) throws -> Schema {
    guard case .dictionary(let root) = document else {
      throw Schema.invalid(
        PrefKeyPath(), "a JSON Schema is an object, not \(document.kind.article) \(document.kind.rawValue)")
    }
    let reader = Reader(root: root)
    var schema = try reader.schema(of: root, at: PrefKeyPath(), depth: 0)
    schema.description = root["description"]?.stringValue ?? root["title"]?.stringValue
    return schema
  }
}

// MARK: - Writing

extension JSONSchema {
  /// The one-key objects a JSON file spells values with, and what each stands for.
  static let typedWords: [(word: String, type: ValueText.TypeName)] = [
    ("$date", .date), ("$data", .data), ("$real", .real),
  ]

  fileprivate struct Writer {
    /// Whether the schema is for a settings file: directives allowed at every key.
    let settings: Bool

    /// What every schema written refers to under `#/$defs/`.
    var definitions: PrefDictionary {
      var defs: PrefDictionary = [
        "date": typedObject(
          "$date", ["type": "string", "format": "date-time"],
          "A date as JSON holds it (in YAML, a timestamp: 2023-11-14T22:13:20Z)."),
        "data": typedObject(
          "$data", ["type": "string", "contentEncoding": "base64"],
          "Data as JSON holds it, in base64 (in YAML, !!binary)."),
        "nonFiniteReal": typedObject(
          "$real", ["enum": ["inf", "-inf", "nan"]],
          "A real that is not finite, as JSON holds it (in YAML, .inf, -.inf, .nan)."),
        "typedValue": .dictionary([
          "description": "A one-key object that JSON reads as a typed value, not as a dictionary.",
          "type": "object", "minProperties": 1, "maxProperties": 1,
          "propertyNames": .dictionary(["enum": .array(["$date", "$data", "$real", "$uid", "$dict"])]),
        ]),
      ]
      if settings {
        defs["delete"] = .dictionary([
          "description": "!delete: removes the key (a YAML editor sees the tag's empty value as null).",
          "anyOf": [
            ["type": "null"],
            [
              "type": "object", "properties": ["$delete": ["const": true]], "required": ["$delete"],
              "additionalProperties": false,
            ],
          ],
        ])
        defs["otherDomain"] = .dictionary([
          "description": "Settings for a domain or file: a dictionary of its keys, or !delete.",
          "anyOf": [["type": "object"], ["$ref": "#/$defs/delete"]],
        ])
      }
      return defs
    }

    private func typedObject(_ word: String, _ inner: PrefDictionary, _ description: String) -> PrefValue {
      .dictionary([
        "description": .string(description), "type": "object",
        "properties": .dictionary([word: .dictionary(inner)]), "required": .array([.string(word)]),
        "additionalProperties": false,
      ])
    }

    /// An object with the schema's keys as properties, those it requires required
    /// (in a domain file), and what keys of other names hold when it says.
    func objectView(_ schema: Schema) -> PrefDictionary {
      var properties = PrefDictionary()
      for key in schema.keys { properties[key.name] = property(key) }
      var view: PrefDictionary = ["type": "object", "properties": .dictionary(properties)]
      let required = schema.keys.filter(\.isRequired).map { PrefValue.string($0.name) }
      if !settings, !required.isEmpty { view["required"] = .array(required) }
      if let other = schema.otherKey {
        view["additionalProperties"] = property(other)
      } else if schema.allowsOtherKeys {
        view["additionalProperties"] = true
      }
      return view
    }

    /// One key's schema: the values it may hold, with its description and default;
    /// in a settings file also `!delete` and `!replace`.
    func property(_ key: SchemaKey) -> PrefValue {
      var annotations = PrefDictionary()
      if let description = key.description { annotations["description"] = .string(description) }
      if let defaultValue = key.defaultValue { annotations["default"] = JSONSchema.plain(defaultValue) }
      let view = valueView(key)
      if settings { return settingsOf(view, annotations: annotations) }
      guard case .dictionary(var dict) = view else { return view }
      for (name, value) in annotations { dict[name] = value }
      return .dictionary(dict)
    }

    /// `view`, or `!delete`, or `!replace` of a value of `view`.
    func settingsOf(_ view: PrefValue, description: String? = nil, annotations: PrefDictionary = [:]) -> PrefValue {
      var dict = annotations
      if let description { dict["description"] = .string(description) }
      dict["anyOf"] = .array([
        view, ["$ref": "#/$defs/delete"],
        .dictionary([
          "description": "!replace: exactly this value, not merged.", "type": "object",
          "properties": .dictionary(["$replace": view]), "required": ["$replace"], "additionalProperties": false,
        ]),
      ])
      return .dictionary(dict)
    }

    /// The values of the key's type (within its values and bounds), in YAML's and in
    /// JSON's spellings.
    func valueView(_ key: SchemaKey) -> PrefValue {
      var view: PrefDictionary
      var bounds = PrefDictionary()
      if let low = key.range?.min { bounds["minimum"] = JSONSchema.plain(low) }
      if let high = key.range?.max { bounds["maximum"] = JSONSchema.plain(high) }
      if key.allowsAnyType { return .dictionary([:]) }
      switch key.type {
      case .string: view = ["type": "string"]
      case .integer: view = bounds.merging(["type": "integer"])
      case .bool: view = ["type": "boolean"]
      case .real:
        view = ["anyOf": [.dictionary(bounds.merging(["type": "number"])), ["$ref": "#/$defs/nonFiniteReal"]]]
      case .date: view = ["anyOf": [["type": "string", "format": "date-time"], ["$ref": "#/$defs/date"]]]
      case .data: view = ["anyOf": [["type": "string", "contentEncoding": "base64"], ["$ref": "#/$defs/data"]]]
      case .array:
        view = ["type": "array"]
        if let items = key.items { view["items"] = valueView(items) }
      case .dict:
        view = objectView(key.keys ?? Schema(keys: []))
        view["not"] = ["$ref": "#/$defs/typedValue"]
      case .null: view = ["type": "null"]
      }
      if let values = key.values {
        view["enum"] = .array(
          values.flatMap { value in
            let plain = JSONSchema.plain(value)
            let typed = JSONSchema.typedSpelling(value)
            return typed.map { [plain, $0] } ?? [plain]
          })
      }
      return .dictionary(view)
    }
  }

  /// `value` as a JSON Schema spells a default or an allowed value: as a YAML file
  /// reads to an editor (a date as its ISO 8601 text, data as base64), a real that
  /// is not finite as `{"$real": …}`, a uid as its integer.
  static func plain(_ value: PrefValue) -> PrefValue {
    switch value {
    case .date(let date): .string(TextForms.date(date))
    case .data(let data): .string(Base64.encode(data))
    case .real(let r) where !r.isFinite: .dictionary(["$real": .string(TextForms.nonFiniteWord(r))])
    case .uid(let n): .integer(exactly: n)
    case .array(let items): .array(items.map(plain))
    case .dictionary(let dict): .dictionary(PrefDictionary(dict.map { (key: $0.key, value: plain($0.value)) }))
    default: value
    }
  }

  /// The typed object a JSON file spells `value` with, when it has one.
  static func typedSpelling(_ value: PrefValue) -> PrefValue? {
    switch value {
    case .date(let date): .dictionary(["$date": .string(TextForms.date(date))])
    case .data(let data): .dictionary(["$data": .string(Base64.encode(data))])
    default: nil
    }
  }
}

extension PrefDictionary {
  /// These entries, then `other`'s (an entry of `other` replaces one of the same key).
  fileprivate func merging(_ other: PrefDictionary) -> PrefDictionary {
    var result = self
    for (key, value) in other { result[key] = value }
    return result
  }
}

// MARK: - Reading

extension JSONSchema {
  fileprivate struct Reader {
    let root: PrefDictionary
    /// The deepest nesting of schemas (and `$ref`s) followed.
    static let maxDepth = 64

    func keys(of object: PrefDictionary, at path: PrefKeyPath, depth: Int) throws -> [SchemaKey] {
      guard let properties = object["properties"] else { return [] }
      guard case .dictionary(let entries) = properties else {
        throw Schema.invalid(path.appending(key: "properties"), "must be an object of the keys' schemas")
      }
      return try entries.map { name, value in
        try key(name, value, at: path.appending(key: "properties").appending(key: name), depth: depth + 1)
      }
    }

    /// The schema `value` stands for: a local `$ref` (`#/$defs/…`, `#/definitions/…`) followed.
    func resolved(_ value: PrefValue, at path: PrefKeyPath, depth: Int) throws -> PrefDictionary {
      guard depth < Self.maxDepth else { throw Schema.invalid(path, "schemas nest (or refer) too deeply") }
      switch value {
      case .bool(true): return [:]
      case .dictionary(let dict):
        guard case .string(let reference)? = dict["$ref"] else { return dict }
        guard reference.hasPrefix("#/") else {
          throw Schema.invalid(path.appending(key: "$ref"), "only references within the file (#/…) are followed")
        }
        var target = PrefValue.dictionary(root)
        for part in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
          let name = Self.unescapedPointer(part)
          guard case .dictionary(let level) = target, let next = level[name] else {
            throw Schema.invalid(path.appending(key: "$ref"), "'\(reference)' names nothing in the file")
          }
          target = next
        }
        var merged = try resolved(target, at: path, depth: depth + 1)
        for (name, item) in dict where name != "$ref" { merged[name] = item }
        return merged
      default:
        throw Schema.invalid(path, "a schema is an object, not \(value.kind.article) \(value.kind.rawValue)")
      }
    }

    /// A JSON Pointer's part as the name it escapes: `~1` is `/`, `~0` is `~`.
    static func unescapedPointer(_ part: Substring) -> String {
      var name = ""
      var escaping = false
      for character in part {
        if escaping {
          name.append(character == "1" ? "/" : character == "0" ? "~" : character)
          escaping = false
        } else if character == "~" {
          escaping = true
        } else {
          name.append(character)
        }
      }
      return name
    }

    /// What a schema allows, seen as a key of ``Schema``: each branch's type, and the
    /// branches that describe plain values (not a `$` object, a directive or null), in order.
    struct Shape {
      var types: [ValueText.TypeName] = []
      var views: [PrefDictionary] = []
    }

    func shape(of schema: PrefDictionary, at path: PrefKeyPath, depth: Int) throws -> Shape {
      var shape = Shape()
      func add(_ type: ValueText.TypeName) { if !shape.types.contains(type) { shape.types.append(type) } }
      // A `$` object or a directive: the value it spells.
      if case .dictionary(let properties)? = schema["properties"], properties.count == 1,
        let word = properties.keys.first, schema["required"]?.arrayValue == [.string(word)]
      {
        if let typed = typedWords.first(where: { $0.word == word }) {
          add(typed.type)
          return shape
        }
        if word == SettingsDirective.deleteWord { return shape }
        if word == SettingsDirective.replaceWord, let inner = properties[word] {
          return try self.shape(of: resolved(inner, at: path, depth: depth + 1), at: path, depth: depth + 1)
        }
      }
      var names: [String] = []
      switch schema["type"] {
      case .string(let name)?: names = [name]
      case .array(let items)?: names = items.compactMap(\.stringValue)
      default: break
      }
      for name in names {
        switch name {
        case "string":
          if schema["contentEncoding"] == "base64" {
            add(.data)
          } else if let format = schema["format"]?.stringValue, format == "date-time" || format == "date" {
            add(.date)
          } else {
            add(.string)
          }
        case "integer": add(.integer)
        case "number": add(.real)
        case "boolean": add(.bool)
        case "array": add(.array)
        case "object": add(.dict)
        case "null": break
        default:
          throw Schema.invalid(path.appending(key: "type"), "unknown type '\(name)'")
        }
      }
      if !names.isEmpty, names != ["null"] { shape.views.append(schema) }
      for combinator in ["anyOf", "oneOf"] {
        guard let branches = schema[combinator] else { continue }
        guard case .array(let items) = branches else {
          throw Schema.invalid(path.appending(key: combinator), "must be a list of schemas")
        }
        for (index, item) in items.enumerated() {
          let branchPath = path.appending(key: combinator).appending(index: index)
          let branch = try resolved(item, at: branchPath, depth: depth + 1)
          let inner = try self.shape(of: branch, at: branchPath, depth: depth + 1)
          inner.types.forEach(add)
          if !inner.views.isEmpty { shape.views.append(branch) }
          shape.views += inner.views
        }
      }
      if shape.types.isEmpty, names.isEmpty, let listed = schema["enum"]?.arrayValue ?? schema["const"].map({ [$0] }) {
        for value in listed { if let type = Self.type(of: value) { add(type) } }
      }
      return shape
    }

    /// The type a plain JSON value is of, as a default or an allowed value (a null is of none).
    static func type(of value: PrefValue) -> ValueText.TypeName? {
      ValueText.TypeName.allCases.first { $0 != .null && $0.kind == value.kind }
    }

    func key(_ name: String, _ value: PrefValue, at path: PrefKeyPath, depth: Int) throws -> SchemaKey {
      let schema = try resolved(value, at: path, depth: depth)
      let shape = try self.shape(of: schema, at: path, depth: depth)
      var types = shape.types
      // A number that may be an integer is a real (JSON Schema cannot tell 1 from 1.0).
      if Set(types) == [.integer, .real] { types = [.real] }
      if types.isEmpty {
        // No type: any value (`{}`), not checked.
        var key = SchemaKey(name: name, type: .string, allowsAnyType: true)
        key.description = (schema["description"] ?? schema["title"])?.stringValue
        key.defaultValue = schema["default"].flatMap { $0 == .null ? nil : $0 }
        return key
      }
      guard types.count == 1, let type = types.first else {
        throw Schema.invalid(path, "allows \(types.map(\.rawValue).joined(separator: " or ")); a key has one type")
      }
      // Each keyword from the schema itself, else from the first branch of plain values that has it.
      let levels = [schema] + shape.views
      func field(_ keyword: String) -> (PrefValue, PrefKeyPath)? {
        levels.lazy.compactMap { $0[keyword] }.first.map { ($0, path.appending(key: keyword)) }
      }
      var key = SchemaKey(name: name, type: type)
      key.description = (schema["description"] ?? schema["title"])?.stringValue
      // A null default, or a null among the values, says nothing an app reads.
      if let (value, at) = field("default"), value != .null { key.defaultValue = try Self.typed(value, type, at: at) }
      if let (value, at) = field("enum") ?? field("const").map({ (.array([$0.0]), $0.1) }) {
        guard case .array(let items) = value else { throw Schema.invalid(at, "must be a list of the values allowed") }
        var allowed: [PrefValue] = []
        for (index, item) in items.enumerated() where item != .null {
          // The JSON spelling of an allowed date or data is the same value again.
          let typedItem = try Self.typed(item, type, at: at.appending(index: index))
          if !allowed.contains(typedItem) { allowed.append(typedItem) }
        }
        key.values = allowed.isEmpty ? nil : allowed
      }
      if type == .integer || type == .real {
        let low = try field("minimum").map { try Self.typed($0.0, type, at: $0.1) }
        let high = try field("maximum").map { try Self.typed($0.0, type, at: $0.1) }
        if low != nil || high != nil { key.range = SchemaRange(min: low, max: high) }
      }
      if type == .array, let (value, at) = field("items"), value != .bool(true) {
        key.items = try self.key("items", value, at: at, depth: depth + 1)
      }
      if type == .dict,
        let object = levels.first(where: { $0["properties"] != nil || $0["additionalProperties"] != nil })
      {
        key.keys = try self.schema(of: object, at: path, depth: depth)
      }
      return key
    }

    /// The keys of an object's schema: its `properties`, those it lists as `required`
    /// required, and `additionalProperties` (true, or what other keys hold).
    func schema(of object: PrefDictionary, at path: PrefKeyPath, depth: Int) throws -> Schema {
      var schema = Schema(keys: try keys(of: object, at: path, depth: depth))
      if let required = object["required"] {
        guard case .array(let names) = required else {
          throw Schema.invalid(path.appending(key: "required"), "must be a list of key names")
        }
        for name in names.compactMap(\.stringValue) {
          if let index = schema.keys.firstIndex(where: { $0.name == name }) { schema.keys[index].isRequired = true }
        }
      }
      switch object["additionalProperties"] {
      case .bool(true)?: schema.allowsOtherKeys = true
      case .dictionary(let other)?:
        schema.otherKey = try key(
          "ANY", .dictionary(other), at: path.appending(key: "additionalProperties"), depth: depth + 1)
        schema.allowsOtherKeys = true
      default: break
      }
      return schema
    }

    /// A default or allowed value as a value of `type`: ISO 8601 text is a date,
    /// base64 text data, an integer a real, and the `$` objects their values.
    static func typed(_ value: PrefValue, _ type: ValueText.TypeName, at path: PrefKeyPath) throws -> PrefValue {
      if value.kind == type.kind { return value }
      switch (type, value) {
      case (.date, .string(let text)):
        if let date = TextForms.parseDate(text) { return .date(date) }
      case (.data, .string(let text)):
        if let data = try? Base64.decode(text) { return .data(data) }
      case (.real, .integer(let n)):
        if let real = Double(exactly: n) { return .real(real) }
      case (.integer, .real(let r)):
        if let n = Int64(exactly: r) { return .integer(n) }
      case (_, .dictionary(let dict)) where dict.count == 1:
        if let word = dict.keys.first, let inner = dict[word], let typed = typedWords.first(where: { $0.word == word }),
          typed.type == type,
          case .string(let text) = inner
        {
          switch type {
          case .real:
            switch text {
            case "inf": return .real(.infinity)
            case "-inf": return .real(-.infinity)
            case "nan": return .real(.nan)
            default: break
            }
          default: return try Self.typed(.string(text), type, at: path)
          }
        }
      default: break
      }
      throw Schema.invalid(
        path, "\(value.kind.article) \(value.kind.rawValue) is not \(type.kind.article) \(type.kind.rawValue)")
    }
  }
}
