import PrefsModel

/// Apple's device-management schemas as ``Schema``s: one YAML document per
/// configuration-profile payload, whose `payload.payloadtype` is the domain and whose
/// `payloadkeys` list the keys.
///
/// Each key gives `key`, `type` (`<string>`, `<integer>`, `<real>`, `<boolean>`,
/// `<date>`, `<data>`, `<array>`, `<dictionary>`, `<any>`), and may give `presence`
/// (`required`), `default`, `range` (`min`, `max`), `rangelist` (the values
/// allowed), `content` (its description) and `subkeys`: a dictionary's keys (one
/// named `ANY` stands for keys of any name), or an array's one item. Fields about
/// other things (OS versions, titles, formats, how configurations combine) are passed over.
extension Schema {
  /// A schema from a device-management document's value.
  public init(deviceManagement value: PrefValue) throws {
    let root = PrefKeyPath()
    guard case .dictionary(let dict) = value else {
      throw Self.invalid(root, "a device-management schema is a dictionary with 'payloadkeys'")
    }
    let domain: String?
    if let payload = dict["payload"] {
      guard case .dictionary(let fields) = payload else {
        throw Self.invalid(root.appending(key: "payload"), "must be a dictionary")
      }
      domain = try Self.string(fields["payloadtype"], at: root.appending(key: "payload").appending(key: "payloadtype"))
    } else {
      domain = nil
    }
    let title = try Self.string(dict["title"], at: root.appending(key: "title"))
    let text = try Self.string(dict["description"], at: root.appending(key: "description"))
    let keysPath = root.appending(key: "payloadkeys")
    guard case .array(let entries)? = dict["payloadkeys"] else {
      throw Self.invalid(keysPath, "a device-management schema needs 'payloadkeys', a list of keys")
    }
    var schema = try Self.deviceManagementKeys(entries, at: keysPath)
    schema.keys.removeAll { SchemaFormat.payloadKeys.contains($0.name) }
    schema.domain = domain
    schema.description = [title, text].compactMap { $0?.isEmpty == false ? $0 : nil }.first
    self = schema
  }

  /// The schema of a list of `payloadkeys` or `subkeys`, `ANY` among them giving the others.
  private static func deviceManagementKeys(_ entries: [PrefValue], at path: PrefKeyPath) throws -> Schema {
    var schema = Schema(keys: [])
    for (index, entry) in entries.enumerated() {
      let key = try SchemaKey(deviceManagement: entry, at: path.appending(index: index))
      if key.name == "ANY" {
        schema.allowsOtherKeys = true
        schema.otherKey = key.allowsAnyType ? nil : key
      } else {
        schema.keys.append(key)
      }
    }
    return schema
  }

  fileprivate static func deviceManagementSubkeys(_ value: PrefValue, at path: PrefKeyPath) throws -> Schema {
    guard case .array(let entries) = value else { throw invalid(path, "must be a list of keys") }
    return try deviceManagementKeys(entries, at: path)
  }
}

extension SchemaKey {
  /// One entry of `payloadkeys` or `subkeys`.
  fileprivate init(deviceManagement value: PrefValue, at path: PrefKeyPath) throws {
    guard case .dictionary(let dict) = value else {
      throw Schema.invalid(path, "each key is a dictionary with 'key' and 'type'")
    }
    guard case .string(let name)? = dict["key"] else { throw Schema.invalid(path, "needs a 'key', the key's name") }
    guard case .string(let typeText)? = dict["type"] else { throw Schema.invalid(path, "needs a 'type'") }
    let typePath = path.appending(key: "type")
    let anyType = typeText == "<any>"
    let type: ValueText.TypeName
    if anyType {
      type = .string
    } else {
      guard typeText.hasPrefix("<"), typeText.hasSuffix(">"),
        let named = ValueText.TypeName.named(String(typeText.dropFirst().dropLast()))
      else {
        throw Schema.invalid(
          typePath, "unknown type '\(typeText)'",
          hints: ["types: <string>, <integer>, <real>, <boolean>, <date>, <data>, <array>, <dictionary>, <any>"])
      }
      type = named
    }
    self.init(name: name, type: type, allowsAnyType: anyType)
    description = try Schema.string(dict["content"], at: path.appending(key: "content"))
    if let presence = dict["presence"] {
      guard case .string(let word) = presence, ["required", "optional"].contains(word) else {
        throw Schema.invalid(path.appending(key: "presence"), "must be required or optional")
      }
      isRequired = word == "required"
    }
    guard !anyType else { return }
    defaultValue = try dict["default"].map { try Self.fitting($0, type, at: path.appending(key: "default")) }
    values = try dict["rangelist"].map { try Self.allowed($0, type, at: path.appending(key: "rangelist")) }
    if let bounds = dict["range"] {
      let rangePath = path.appending(key: "range")
      guard case .dictionary(let fields) = bounds else { throw Schema.invalid(rangePath, "must give 'min' and 'max'") }
      range = try SchemaRange(min: fields["min"], max: fields["max"], for: type, at: rangePath)
    }
    if let subkeys = dict["subkeys"] {
      let subkeysPath = path.appending(key: "subkeys")
      let nested = try Schema.deviceManagementSubkeys(subkeys, at: subkeysPath)
      try nest(nested, at: subkeysPath)
    }
  }
}
