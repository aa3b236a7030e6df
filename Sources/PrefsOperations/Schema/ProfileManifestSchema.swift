import PrefsModel

/// ProfileManifests' manifests as ``Schema``s: plists (read from the user's own
/// checkout) whose `pfm_domain` is the domain and whose `pfm_subkeys` list the keys.
///
/// Each key gives `pfm_name` and `pfm_type` (`string`, `url`, `integer`, `real`,
/// `float`, `boolean`, `date`, `data`, `array`, `dictionary`), and may give
/// `pfm_default`, `pfm_range_list` (the values allowed), `pfm_range_min`,
/// `pfm_range_max`, `pfm_require` (`always` makes it required), `pfm_description`
/// and `pfm_subkeys`: a dictionary's keys (one without a name stands for keys of any
/// name), or an array's one item. The payload keys every manifest lists
/// (`PayloadType`, `PayloadUUID`, …) describe the profile, not the domain, and are
/// left out; other fields (conditions, OS versions, how a form shows the key) are passed over.
extension Schema {
  /// A schema from a manifest's value.
  public init(profileManifest value: PrefValue) throws {
    let root = PrefKeyPath()
    guard case .dictionary(let dict) = value else {
      throw Self.invalid(root, "a manifest is a dictionary with 'pfm_subkeys'")
    }
    let keysPath = root.appending(key: "pfm_subkeys")
    guard let subkeys = dict["pfm_subkeys"] else {
      throw Self.invalid(keysPath, "a manifest needs 'pfm_subkeys', a list of keys")
    }
    var schema = try Self.manifestKeys(subkeys, at: keysPath)
    schema.keys.removeAll { SchemaFormat.payloadKeys.contains($0.name) }
    schema.domain = try Self.string(dict["pfm_domain"], at: root.appending(key: "pfm_domain"))
    let title = try Self.string(dict["pfm_title"], at: root.appending(key: "pfm_title"))
    let text = try Self.string(dict["pfm_description"], at: root.appending(key: "pfm_description"))
    schema.description = [title, text].compactMap { $0?.isEmpty == false ? $0 : nil }.first
    self = schema
  }

  /// The schema of a `pfm_subkeys` list; a key without a name gives the keys of any name.
  fileprivate static func manifestKeys(_ value: PrefValue, at path: PrefKeyPath) throws -> Schema {
    guard case .array(let entries) = value else { throw invalid(path, "must be a list of keys") }
    var schema = Schema(keys: [])
    for (index, entry) in entries.enumerated() {
      let key = try SchemaKey(profileManifest: entry, at: path.appending(index: index))
      if key.name.isEmpty {
        schema.allowsOtherKeys = true
        schema.otherKey = key
      } else {
        schema.keys.append(key)
      }
    }
    return schema
  }
}

extension SchemaKey {
  /// One entry of `pfm_subkeys`; a key without `pfm_name` is named "".
  fileprivate init(profileManifest value: PrefValue, at path: PrefKeyPath) throws {
    guard case .dictionary(let dict) = value else {
      throw Schema.invalid(path, "each key is a dictionary with 'pfm_name' and 'pfm_type'")
    }
    let name = try Schema.string(dict["pfm_name"], at: path.appending(key: "pfm_name")) ?? ""
    guard case .string(let typeText)? = dict["pfm_type"] else { throw Schema.invalid(path, "needs a 'pfm_type'") }
    guard let type = typeText == "url" ? .string : ValueText.TypeName.named(typeText) else {
      throw Schema.invalid(
        path.appending(key: "pfm_type"), "unknown type '\(typeText)'",
        hints: ["types: string, url, integer, real, float, boolean, date, data, array, dictionary"])
    }
    self.init(name: name, type: type)
    description = try Schema.string(dict["pfm_description"], at: path.appending(key: "pfm_description"))
    if let require = dict["pfm_require"] {
      guard case .string(let word) = require else {
        throw Schema.invalid(path.appending(key: "pfm_require"), "must be a string (always, …)")
      }
      isRequired = word == "always"
    }
    defaultValue = try dict["pfm_default"].map { try Self.fitting($0, type, at: path.appending(key: "pfm_default")) }
    values = try dict["pfm_range_list"].map { try Self.allowed($0, type, at: path.appending(key: "pfm_range_list")) }
    range = try SchemaRange(
      min: dict["pfm_range_min"], max: dict["pfm_range_max"], for: type, at: path,
      names: ("pfm_range_min", "pfm_range_max"))
    if let subkeys = dict["pfm_subkeys"] {
      let subkeysPath = path.appending(key: "pfm_subkeys")
      let nested = try Schema.manifestKeys(subkeys, at: subkeysPath)
      try nest(nested, at: subkeysPath)
    }
  }
}
