import PrefsModel

/// The formats a schema is read from, told apart by the fields of the document.
public enum SchemaFormat: String, Sendable, CaseIterable {
  /// prefs' own: `keys`, each with `type`, `default`, `values`.
  case prefs
  /// Apple's device-management YAML: `payload.payloadtype` and `payloadkeys`.
  case deviceManagement = "device-management"
  /// ProfileManifests' manifests (plists): `pfm_domain` and `pfm_subkeys`.
  case profileManifest = "ProfileManifests"

  /// The format of a schema document: device-management when it has `payloadkeys`
  /// or `payload`, a manifest when it has `pfm_domain` or `pfm_subkeys`, else prefs'
  /// own (whose reader then says what is wrong).
  public static func of(_ document: PrefValue) -> SchemaFormat {
    guard case .dictionary(let dict) = document else { return .prefs }
    if dict["payloadkeys"] != nil || dict["payload"] != nil { return .deviceManagement }
    if dict["pfm_domain"] != nil || dict["pfm_subkeys"] != nil { return .profileManifest }
    return .prefs
  }

  /// The keys every configuration-profile payload carries; a payload schema that
  /// lists them describes the profile, not the domain, so they are left out.
  static let payloadKeys: Set<String> = [
    "PayloadDescription", "PayloadDisplayName", "PayloadEnabled", "PayloadIdentifier", "PayloadOrganization",
    "PayloadType", "PayloadUUID", "PayloadVersion",
  ]
}
