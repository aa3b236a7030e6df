import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// How items of arrays of dictionaries are recognised as "the same item" across two
/// versions of a domain: by an identity field they all hold. `prefs apply` matches
/// the items a settings file lists with it, and merges use the same rules, so the
/// list of fields lives here, once.
public enum ArrayIdentity {
  /// The fields that name an item, in order of preference: the first one every item
  /// holds is the identity.
  public static let fields = [
    "id", "identifier", "uuid", "UUID", "name", "key", "CFBundleIdentifier", "bundleIdentifier", "path", "URL", "url",
  ]

  /// The identity field shared by every item of `arrays`: each item is a dictionary
  /// holding that field with a scalar value, unique within its array. Nil when there
  /// is none, or when no array has an item (then items are matched by value).
  public static func field(in arrays: [[PrefValue]]) -> String? {
    guard arrays.contains(where: { !$0.isEmpty }) else { return nil }
    return fields.first { field in
      arrays.allSatisfy { items in
        var seen: [PrefValue] = []
        for item in items {
          guard case .dictionary(let dict) = item, let value = dict[field], isScalar(value), !seen.contains(value)
          else { return false }
          seen.append(value)
        }
        return true
      }
    }
  }

  /// Arrays whose items are known to be named by a nested field, tried in order for
  /// each array (the first that every item holds): the Dock's tiles by their bundle
  /// identifier, then by the `GUID` the Dock gives every tile (folders and files in
  /// `persistent-others` have no bundle identifier).
  public static let knownArrays: [(array: KeyGlob, field: [String])] = [
    (KeyGlob("persistent-apps"), ["tile-data", "bundle-identifier"]), (KeyGlob("persistent-apps"), ["GUID"]),
    (KeyGlob("persistent-others"), ["tile-data", "bundle-identifier"]), (KeyGlob("persistent-others"), ["GUID"]),
  ]

  /// The value of `field` in `item`, when it is a dictionary holding it.
  public static func identity(of item: PrefValue, field: String) -> PrefValue? {
    guard case .dictionary(let dict) = item else { return nil }
    return dict[field]
  }

  private static func isScalar(_ value: PrefValue) -> Bool {
    switch value {
    case .array, .dictionary: false
    default: true
    }
  }
}
