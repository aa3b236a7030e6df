import PrefsModel

/// The bounds a schema gives a number: device-management's `range` (`min`, `max`),
/// ProfileManifests' `pfm_range_min` and `pfm_range_max`, prefs' `min` and `max`.
/// Either bound may be missing; both are inclusive.
public struct SchemaRange: Sendable, Equatable, CustomStringConvertible {
  /// The smallest value allowed (an integer or a real), if any.
  public var min: PrefValue?
  /// The largest value allowed (an integer or a real), if any.
  public var max: PrefValue?

  /// A range from `min` to `max`, each an integer or a real, or nil for no bound.
  public init(min: PrefValue? = nil, max: PrefValue? = nil) {
    self.min = min
    self.max = max
  }

  /// The range a schema's `min` and `max` give a key of `type`, or nil when it gives
  /// neither; a bound that is not a number, or bounds on a key that is not one, are refused.
  init?(
    min: PrefValue?, max: PrefValue?, for type: ValueText.TypeName, at path: PrefKeyPath,
    names: (String, String) = ("min", "max")
  ) throws {
    guard min != nil || max != nil else { return nil }
    for (bound, name) in [(min, names.0), (max, names.1)] {
      guard let bound else { continue }
      guard type == .integer || type == .real else {
        throw Schema.invalid(path.appending(key: name), "only an integer or a real has a range")
      }
      guard Self.number(bound) != nil else {
        throw Schema.invalid(
          path.appending(key: name), "must be a number, not \(bound.kind.article) \(bound.kind.rawValue)")
      }
    }
    self.init(min: min, max: max)
  }

  /// Whether `value` lies within the bounds; a value that is no number is left to the type check.
  public func contains(_ value: PrefValue) -> Bool {
    guard let number = Self.number(value) else { return true }
    if let low = min.flatMap(Self.number), Self.less(number, low) { return false }
    if let high = max.flatMap(Self.number), Self.less(high, number) { return false }
    return true
  }

  /// `16...128`, `at least 16`, `at most 128`.
  public var description: String {
    switch (min, max) {
    case (let low?, let high?): "\(low.literal)...\(high.literal)"
    case (let low?, nil): "at least \(low.literal)"
    case (nil, let high?): "at most \(high.literal)"
    case (nil, nil): "any number"
    }
  }

  /// A number as an exact integer where it is one, else a real.
  private enum Number {
    case integer(Int64)
    case unsigned(UInt64)
    case real(Double)
  }

  private static func number(_ value: PrefValue) -> Number? {
    switch value {
    case .integer(let n): .integer(n)
    case .unsignedInteger(let n): .unsigned(n)
    case .real(let r) where !r.isNaN: .real(r)
    default: nil
    }
  }

  /// `a < b`, exactly for integers (no rounding through Double).
  private static func less(_ a: Number, _ b: Number) -> Bool {
    switch (a, b) {
    case (.integer(let x), .integer(let y)): return x < y
    case (.unsigned(let x), .unsigned(let y)): return x < y
    case (.integer(let x), .unsigned(let y)): return x < 0 || UInt64(x) < y
    case (.unsigned(let x), .integer(let y)): return y >= 0 && x < UInt64(y)
    default: return real(a) < real(b)
    }
  }

  private static func real(_ n: Number) -> Double {
    switch n {
    case .integer(let x): Double(x)
    case .unsigned(let x): Double(x)
    case .real(let x): x
    }
  }
}
