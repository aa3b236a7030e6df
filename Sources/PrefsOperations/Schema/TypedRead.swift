import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// A platform an app may run on: the typed casts of `UserDefaults` values differ.
public enum Platform: String, Sendable, CaseIterable {
  case linux = "Linux"
  case macOS = "macOS"

  /// The platform this code runs on.
  public static var current: Platform {
    #if canImport(Darwin)
      .macOS
    #else
      .linux
    #endif
  }
}

/// What `defaults.object(forKey:) as? T` gives for a stored value: one cell of the
/// fallback table.
public enum CastRule: Sendable, Equatable, CustomStringConvertible {
  /// The stored value itself.
  case value
  /// Nothing: the cast fails and the app uses its fallback.
  case fallback
  /// NSNumber bridging: the number as `T` when `T` holds it exactly (`1 as? Bool`
  /// is true, `42 as? Double` is 42.0, `1.5 as? Int` and `2 as? Bool` fail).
  case exactNumber
  /// The stored integer, except `Int64.max` and above: swift-corelibs-foundation
  /// reads those as `Int64`/`UInt64`, which `as? Int` refuses.
  case integerBelowInt64Max

  public var description: String {
    switch self {
    case .value: "value"
    case .fallback: "fallback"
    case .exactNumber: "exact number"
    case .integerBelowInt64Max: "value below Int64.max"
    }
  }
}

/// The one fallback table: stored kind x requested type x
/// platform, for the reads an app makes as `object(forKey:) as? T ?? fallback`.
///
/// The requested types are the Swift casts `Bool`, `String`, `Int`, `Double`,
/// `Date`, `Data`, `[Any]` and `[String: Any]`, named as ``ValueText/TypeName``.
/// The Linux column was measured on swift-corelibs-foundation reading a domain
/// file through a fresh `UserDefaults(suiteName:)`: only the matching kind casts
/// (a stored integer 1 is not a `Bool`, a stored integer is not a `Double`), and
/// the test suite checks every cell against a real `UserDefaults`. The macOS column
/// follows Swift's NSNumber bridging, where a number casts to another number type
/// or to `Bool` when the value fits exactly.
///
/// A uid falls back everywhere; on Linux a domain holding one reads as empty.
public enum TypedRead {
  /// The cells where some platform reads something; every other cell falls back on both.
  private static let cells: [(PrefValue.Kind, ValueText.TypeName, linux: CastRule, macOS: CastRule)] = [
    (.bool, .bool, .value, .value),
    (.bool, .integer, .fallback, .exactNumber),
    (.bool, .real, .fallback, .exactNumber),
    (.integer, .bool, .fallback, .exactNumber),
    (.integer, .integer, .integerBelowInt64Max, .exactNumber),
    (.integer, .real, .fallback, .exactNumber),
    (.real, .bool, .fallback, .exactNumber),
    (.real, .integer, .fallback, .exactNumber),
    (.real, .real, .value, .value),
    (.string, .string, .value, .value),
    (.date, .date, .value, .value),
    (.data, .data, .value, .value),
    (.array, .array, .value, .value),
    (.dictionary, .dict, .value, .value),
  ]

  private static let table: [String: (linux: CastRule, macOS: CastRule)] = Dictionary(
    uniqueKeysWithValues: cells.map { ("\($0.0.rawValue)/\($0.1.rawValue)", ($0.linux, $0.macOS)) })

  /// The rule for one cell.
  public static func rule(stored: PrefValue.Kind, requested: ValueText.TypeName, on platform: Platform) -> CastRule {
    guard let cell = table["\(stored.rawValue)/\(requested.rawValue)"] else { return .fallback }
    return platform == .linux ? cell.linux : cell.macOS
  }

  /// What the app reads for `stored` cast to `type` on `platform`: the value it gets,
  /// or nil when the cast fails (or nothing is stored) and the fallback applies.
  public static func read(_ stored: PrefValue?, as type: ValueText.TypeName, on platform: Platform) -> PrefValue? {
    guard let stored else { return nil }
    switch rule(stored: stored.kind, requested: type, on: platform) {
    case .value: return stored
    case .fallback: return nil
    case .integerBelowInt64Max:
      if case .integer(let n) = stored, n < Int64.max { return stored }
      return nil
    case .exactNumber: return exactNumber(stored, as: type)
    }
  }

  /// Whether the two platforms read `stored` as `type` differently.
  public static func platformsDiffer(_ stored: PrefValue, as type: ValueText.TypeName) -> Bool {
    read(stored, as: type, on: .linux) != read(stored, as: type, on: .macOS)
  }

  /// A number (or bool) as `type`, when it holds the value exactly.
  private static func exactNumber(_ stored: PrefValue, as type: ValueText.TypeName) -> PrefValue? {
    let real: Double?
    let integer: Int64?
    switch stored {
    case .bool(let b):
      (real, integer) = (b ? 1 : 0, b ? 1 : 0)
    case .integer(let n):
      (real, integer) = (Double(exactly: n), n)
    case .unsignedInteger(let n):
      (real, integer) = (Double(exactly: n), nil)
    case .real(let r):
      (real, integer) = (r, Int64(exactly: r))
    default:
      return nil
    }
    switch type {
    case .bool:
      guard let integer, integer == 0 || integer == 1 else { return nil }
      return .bool(integer == 1)
    case .integer: return integer.map(PrefValue.integer)
    case .real: return real.map(PrefValue.real)
    default: return nil
    }
  }
}
