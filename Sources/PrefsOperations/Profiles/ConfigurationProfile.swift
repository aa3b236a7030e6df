import PrefsFormats
import PrefsModel

/// How a Custom Settings payload (`com.apple.ManagedClient.preferences`) manages
/// what it sets.
public enum ProfileManagement: String, Sendable, CaseIterable {
  /// Always enforced: the user cannot change it (`Forced`).
  case forced
  /// Set once, then the user's to change (`Set-Once`).
  case once
  /// Set again at every login, changeable in between (`Often`).
  case often

  /// The key of the payload's array for this management.
  public var payloadKey: String {
    switch self {
    case .forced: "Forced"
    case .once: "Set-Once"
    case .often: "Often"
    }
  }
}

/// A configuration profile (`.mobileconfig`): a plist whose `PayloadType` is
/// `Configuration` and whose `PayloadContent` lists payloads, each a dictionary with
/// its own `PayloadType`, `PayloadIdentifier`, `PayloadUUID` and `PayloadVersion`.
///
/// A payload sets a domain in one of two ways: a Custom Settings payload
/// (``customSettingsType``) holds, for each domain, arrays of
/// `mcx_preference_settings` under `Forced`, `Set-Once` or `Often`; any other payload
/// is native, its type the domain and its other keys the settings.
public struct ConfigurationProfile: Sendable, Equatable {
  /// The type of a Custom Settings payload.
  public static let customSettingsType = "com.apple.ManagedClient.preferences"
  /// The name Custom Settings give the global domain.
  public static let globalDomain = ".GlobalPreferences"

  /// The profile's plist, as it is read or written.
  public var value: PrefDictionary

  /// A profile from its plist's value; anything but a dictionary with
  /// `PayloadType` `Configuration` and a `PayloadContent` array of dictionaries is refused.
  public init(_ value: PrefValue) throws {
    guard case .dictionary(let dict) = value, dict["PayloadType"] == .string("Configuration") else {
      throw PrefsError(.profile(problem: "a configuration profile is a dictionary whose PayloadType is Configuration"))
    }
    guard case .array(let payloads)? = dict["PayloadContent"] else {
      throw PrefsError(.profile(problem: "the profile has no PayloadContent, the list of its payloads"))
    }
    for (index, payload) in payloads.enumerated() {
      guard case .dictionary(let fields) = payload, case .string? = fields["PayloadType"] else {
        throw PrefsError(.profile(problem: "payload \(index) is not a dictionary with a PayloadType"))
      }
    }
    self.value = dict
  }

  /// A profile of exactly this plist value (not checked).
  init(checked value: PrefDictionary) { self.value = value }

  /// Whether `value` is a configuration profile's plist.
  public static func isProfile(_ value: PrefValue) -> Bool {
    value.dictionaryValue?["PayloadType"] == .string("Configuration")
  }

  /// The profile as an XML plist, keys sorted: the same profile gives the same bytes.
  public func encoded(warnings: Warnings = Warnings()) throws -> Data {
    try Format.xml.encode(.dictionary(value), options: WriteOptions(sortKeys: true), warnings: warnings)
  }

  /// What one payload sets in one domain.
  public struct DomainPart: Sendable, Equatable {
    /// The domain (`NSGlobalDomain` for Custom Settings' `.GlobalPreferences`).
    public var domain: String
    /// The settings, as the domain would hold them.
    public var settings: PrefDictionary
    /// Where the settings are in the profile: the payload (native), or one
    /// `mcx_preference_settings` dictionary (Custom Settings).
    public var path: PrefKeyPath
  }

  /// What the payloads set, payload by payload and, in a Custom Settings payload,
  /// domain by domain and dictionary by dictionary (`Forced`, `Set-Once`, `Often`).
  /// A native payload's own `Payload…` keys are left out.
  public func domainParts() throws -> [DomainPart] {
    var parts: [DomainPart] = []
    let payloads = value["PayloadContent"]?.arrayValue ?? []
    for (index, payload) in payloads.enumerated() {
      let path = PrefKeyPath().appending(key: "PayloadContent").appending(index: index)
      guard let fields = payload.dictionaryValue, case .string(let type)? = fields["PayloadType"] else { continue }
      if type == Self.customSettingsType {
        parts += try Self.customSettingsParts(fields, at: path)
      } else {
        var settings = PrefDictionary()
        for (key, item) in fields where !SchemaFormat.payloadKeys.contains(key) { settings[key] = item }
        parts.append(DomainPart(domain: type, settings: settings, path: path))
      }
    }
    return parts
  }

  private static func customSettingsParts(_ payload: PrefDictionary, at path: PrefKeyPath) throws -> [DomainPart] {
    let contentPath = path.appending(key: "PayloadContent")
    guard case .dictionary(let domains)? = payload["PayloadContent"] else {
      throw PrefsError(
        .profile(problem: "\(contentPath.nameInMessages): a Custom Settings payload holds a dictionary of domains"))
    }
    var parts: [DomainPart] = []
    for (domain, entry) in domains {
      let domainPath = contentPath.appending(key: domain)
      guard case .dictionary(let modes) = entry else {
        throw PrefsError(
          .profile(problem: "\(domainPath.nameInMessages): must be a dictionary of Forced, Set-Once, Often"))
      }
      let name = domain == globalDomain ? "NSGlobalDomain" : domain
      for management in ProfileManagement.allCases {
        guard let list = modes[management.payloadKey] else { continue }
        let listPath = domainPath.appending(key: management.payloadKey)
        guard case .array(let items) = list else {
          throw PrefsError(.profile(problem: "\(listPath.nameInMessages): must be an array"))
        }
        for (index, item) in items.enumerated() {
          let itemPath = listPath.appending(index: index).appending(key: "mcx_preference_settings")
          guard case .dictionary(let values)? = item.dictionaryValue?["mcx_preference_settings"] else {
            throw PrefsError(.profile(problem: "\(itemPath.nameInMessages): a dictionary of settings is missing"))
          }
          parts.append(DomainPart(domain: name, settings: values, path: itemPath))
        }
      }
    }
    return parts
  }

  /// The profile as a settings file (`prefs apply` takes it): one entry a domain
  /// part, in the profile's order (parts of one domain merge), named `source` in messages.
  public func settingsFile(source: String) throws -> SettingsFile {
    SettingsFile(
      entries: try domainParts().map {
        SettingsFile.Entry(target: $0.domain, settings: .dictionary($0.settings), source: source)
      })
  }
}
