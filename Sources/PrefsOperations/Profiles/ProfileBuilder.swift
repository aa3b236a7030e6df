import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore

/// The settings of one domain to put in a profile, and where they were read, so
/// that what a schema refuses is reported at its line and column.
public struct ProfileInput: Sendable {
  /// The domain (`-g` and `NSGlobalDomain` are the global domain).
  public var domain: String
  /// The values to set.
  public var settings: PrefDictionary
  /// The file they were read from, for messages.
  public var file: String
  /// The file's text with its source map, when it has one.
  public var document: TextDocument?
  /// Where the domain's settings stand in the document (a settings file's top-level key).
  public var prefix: PrefKeyPath

  /// Settings for `domain` read from `file` (at `prefix` in `document`).
  public init(
    domain: String, settings: PrefDictionary, file: String, document: TextDocument? = nil,
    prefix: PrefKeyPath = PrefKeyPath()
  ) {
    self.domain = domain
    self.settings = settings
    self.file = file
    self.document = document
    self.prefix = prefix
  }

  /// Each domain of a settings file, in the file's order. A profile sets values: a
  /// file path as a domain, `!replace` and `!delete` have no form in one and are refused.
  public static func settingsFile(
    _ data: Data, name: String, path: String? = nil, options: ReadOptions = ReadOptions()
  ) throws -> [ProfileInput] {
    let file = try SettingsFile.read(data, name: name, path: path, options: options)
    var inputs: [ProfileInput] = []
    var document: TextDocument?
    for entry in file.entries {
      if let directive = entry.settings.directives.sorted(by: { $0.key.description < $1.key.description }).first {
        let place = directive.key.components.isEmpty ? entry.target : "\(entry.target): \(directive.key.nameInMessages)"
        throw PrefsError(
          .settings(problem: "\(place): a profile sets values; !\(directive.value.kind) has no form in one"),
          file: name, position: directive.value.position)
      }
      if DomainName.isPath(entry.target) {
        throw PrefsError(
          .settings(problem: "\(entry.target): a profile sets domains, and this names a file"), file: name)
      }
      if document == nil { document = try? TextDocument.read(data, path: path, options: options).document }
      inputs.append(
        ProfileInput(
          domain: entry.target, settings: entry.settings.value.dictionaryValue ?? PrefDictionary(), file: name,
          document: document, prefix: PrefKeyPath([.key(entry.target)])))
    }
    return inputs
  }
}

/// What `prefs profile` is asked to make.
public struct ProfileRequest: Sendable {
  /// The profile's `PayloadIdentifier`; each payload's is this and its domain.
  public var identifier: String
  /// `PayloadOrganization`, if any.
  public var organization: String?
  /// `PayloadDisplayName` (default: the identifier).
  public var displayName: String?
  /// How Custom Settings payloads manage their settings.
  public var management: ProfileManagement
  /// Where device-management schemas are: a domain that has one gets a native
  /// payload, checked against it.
  public var schemas: SchemaDirectory?

  public init(
    identifier: String, organization: String? = nil, displayName: String? = nil,
    management: ProfileManagement = .forced, schemas: SchemaDirectory? = nil
  ) {
    self.identifier = identifier
    self.organization = organization
    self.displayName = displayName
    self.management = management
    self.schemas = schemas
  }
}

extension ConfigurationProfile {
  /// A profile setting each input's domain: one payload an input, native when
  /// `request.schemas` has the domain's schema (its keys checked against it: a value
  /// of the wrong type, out of range or not allowed, or a required key missing, is
  /// refused at its position; a key the schema does not list is a warning), else a
  /// Custom Settings payload. UUIDs are name-based (version 5) on the identifier and
  /// the content, so the same input gives the same profile, byte for byte.
  public static func build(_ inputs: [ProfileInput], request: ProfileRequest, warnings: Warnings = Warnings()) throws
    -> ConfigurationProfile
  {
    guard !inputs.isEmpty else { throw PrefsError(.profile(problem: "a profile needs at least one domain")) }
    var payloads: [PrefValue] = []
    var uuids: [String] = []
    for input in inputs {
      let global = input.domain == "-g" || input.domain == "NSGlobalDomain"
      let domain = global ? "NSGlobalDomain" : input.domain
      var payload = PrefDictionary()
      if let schema = global ? nil : try request.schemas?.schema(for: domain) {
        try check(input, against: schema, warnings: warnings)
        payload = input.settings
        payload["PayloadType"] = .string(domain)
      } else {
        let settings = PrefDictionary(["mcx_preference_settings": .dictionary(input.settings)])
        let modes = PrefDictionary([request.management.payloadKey: .array([.dictionary(settings)])])
        payload["PayloadContent"] = .dictionary([global ? globalDomain : domain: .dictionary(modes)])
        payload["PayloadType"] = .string(customSettingsType)
      }
      let identifier = "\(request.identifier).\(domain)"
      payload["PayloadIdentifier"] = .string(identifier)
      payload["PayloadDisplayName"] = .string(domain)
      payload["PayloadVersion"] = .integer(1)
      let uuid = try contentUUID(of: payload, named: identifier)
      payload["PayloadUUID"] = .string(uuid)
      payloads.append(.dictionary(payload))
      uuids.append(uuid)
    }
    var profile = PrefDictionary()
    profile["PayloadContent"] = .array(payloads)
    profile["PayloadDisplayName"] = .string(request.displayName ?? request.identifier)
    profile["PayloadIdentifier"] = .string(request.identifier)
    if let organization = request.organization { profile["PayloadOrganization"] = .string(organization) }
    profile["PayloadType"] = .string("Configuration")
    profile["PayloadVersion"] = .integer(1)
    profile["PayloadUUID"] = .string(try contentUUID(of: profile, named: request.identifier))
    // The date fractions an XML plist drops are said once, when the profile is written.
    return ConfigurationProfile(checked: profile)
  }

  /// The name-based UUID of `payload`'s identifier and content (its XML, keys sorted).
  private static func contentUUID(of payload: PrefDictionary, named identifier: String) throws -> String {
    let xml = try Format.xml.encode(.dictionary(payload), options: WriteOptions(sortKeys: true), warnings: Warnings())
    return NameBasedUUID.uuid(namespace: NameBasedUUID.urlNamespace, name: Array(identifier.utf8) + [0] + Array(xml))
  }

  /// Refuses the first value `schema` refuses in `input`, at its position; unknown
  /// keys are warnings, and so is a key that only payloads carry.
  private static func check(_ input: ProfileInput, against schema: Schema, warnings: Warnings) throws {
    func position(_ path: PrefKeyPath) -> SourcePosition? {
      input.document.flatMap {
        Lint.nearestPosition(of: PrefKeyPath(input.prefix.components + path.components), in: $0)
      }
    }
    for key in input.settings.keys where SchemaFormat.payloadKeys.contains(key) {
      throw PrefsError(
        .payloadRefused(path: PrefKeyPath([.key(key)]), problem: "a payload's own key cannot be a setting"),
        file: input.file, position: position(PrefKeyPath([.key(key)])))
    }
    let findings = schema.check(input.settings)
    if let refused = findings.first(where: \.isError) {
      throw PrefsError(
        .payloadRefused(path: refused.path, problem: "\(refused.message) (the schema of \(input.domain))"),
        file: input.file, position: position(refused.path))
    }
    for finding in findings {
      warnings.add(
        PrefsWarning(
          "\(finding.path.nameInMessages): not in the schema of \(input.domain); the payload carries it, and what "
            + "reads the domain may ignore it", file: input.file, position: position(finding.path)))
    }
  }
}
