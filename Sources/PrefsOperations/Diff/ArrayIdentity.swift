import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// How items of arrays of dictionaries are recognised as "the same item" across
/// versions of a domain: by an identity field they all hold. `prefs apply` matches
/// the items a settings file lists with it, and merges match the items of their three
/// inputs with it, so the rules live here, once.
public enum ArrayIdentity {
  /// The fields that name an item, in order of preference, for arrays no rule names:
  /// the first one every item holds, unique in its array, is the identity.
  public static let fields = [
    "id", "identifier", "uuid", "UUID", "GUID", "CFBundleIdentifier", "bundleIdentifier", "bundle-identifier", "name",
    "key", "path", "URL", "url",
  ]

  /// Arrays whose items are known to be named by a nested field, tried in order for
  /// each array (the first that every item holds): the Dock's tiles by their bundle
  /// identifier, then by the `GUID` the Dock gives every tile (folders and files in
  /// `persistent-others` have no bundle identifier); a configuration profile's
  /// payloads by their `PayloadIdentifier`, then their `PayloadUUID`.
  public static let knownArrays: [(array: KeyGlob, field: [String])] = [
    (KeyGlob("persistent-apps"), ["tile-data", "bundle-identifier"]), (KeyGlob("persistent-apps"), ["GUID"]),
    (KeyGlob("persistent-others"), ["tile-data", "bundle-identifier"]), (KeyGlob("persistent-others"), ["GUID"]),
    (KeyGlob("PayloadContent"), ["PayloadIdentifier"]), (KeyGlob("PayloadContent"), ["PayloadUUID"]),
  ]

  /// The key path inside each item that names it, for `arrays` (versions of the array
  /// at `path`): the first field of `rules` and then ``knownArrays`` whose glob matches
  /// `path`, else (when none matches) the first of `fields`, that every item of every
  /// array holds with a scalar value unique in its array. Nil when an item is not a
  /// dictionary, when there is no such field, or when no array has an item.
  public static func field(
    in arrays: [[PrefValue]], at path: PrefKeyPath, rules: [(array: KeyGlob, field: [String])] = [],
    fields: [String] = fields
  ) -> [String]? {
    guard arrays.contains(where: { !$0.isEmpty }), arrays.allSatisfy({ $0.allSatisfy { $0.dictionaryValue != nil } })
    else { return nil }
    let text = path.description
    let named = (rules + knownArrays).filter { $0.array.matches(text) }.map(\.field)
    let candidates = named.isEmpty ? fields.map { [$0] } : named
    return candidates.first { field in arrays.allSatisfy { identities($0, field: field) != nil } }
  }

  /// Each item's identity (the value at `field`, as text with its kind), or nil when
  /// an item lacks the field, holds a container there, or two items share one.
  public static func identities(_ items: [PrefValue], field: [String]) -> [String]? {
    var seen = Set<String>()
    var result: [String] = []
    result.reserveCapacity(items.count)
    for item in items {
      guard let identity = identity(of: item, field: field), seen.insert(identity).inserted else { return nil }
      result.append(identity)
    }
    return result
  }

  /// The identity of `item` (the scalar at `field`, as text with its kind), or nil
  /// when it has none.
  public static func identity(of item: PrefValue, field: [String]) -> String? {
    guard let value = try? item.value(at: field), value.arrayValue == nil, value.dictionaryValue == nil else {
      return nil
    }
    return "\(value.kind.rawValue):\(value.inlineText(limit: .max))"
  }
}
