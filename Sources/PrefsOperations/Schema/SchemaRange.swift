import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// The smallest and largest number a key allows (`range: {min: 16, max: 128}`), either
/// end open.
public struct SchemaRange: Sendable, Equatable, CustomStringConvertible {
  /// The smallest value allowed, if there is one.
  public var min: Double?
  /// The largest value allowed, if there is one.
  public var max: Double?

  public init(min: Double? = nil, max: Double? = nil) {
    self.min = min
    self.max = max
  }

  /// Whether a number (an integer or a real) lies in the range; other values are not
  /// the range's to judge, and lie in it.
  public func contains(_ value: PrefValue) -> Bool {
    guard let number = Self.number(value) else { return true }
    return (min.map { number >= $0 } ?? true) && (max.map { number <= $0 } ?? true)
  }

  /// `value` moved to the nearest end of the range when it lies outside it.
  public func clamped(_ value: PrefValue) -> PrefValue {
    guard let number = Self.number(value) else { return value }
    let end = min.flatMap { number < $0 ? $0 : nil } ?? max.flatMap { number > $0 ? $0 : nil }
    guard let end else { return value }
    if case .real = value { return .real(end) }
    return Int64(exactly: end).map(PrefValue.integer) ?? .real(end)
  }

  /// `16 to 128`, `at least 16`, `at most 128`.
  public var description: String {
    switch (min, max) {
    case (let low?, let high?): "\(Self.text(low)) to \(Self.text(high))"
    case (let low?, nil): "at least \(Self.text(low))"
    case (nil, let high?): "at most \(Self.text(high))"
    case (nil, nil): "any"
    }
  }

  static func text(_ number: Double) -> String {
    Int64(exactly: number).map(String.init) ?? TextForms.realOrSpecial(number)
  }

  static func number(_ value: PrefValue) -> Double? {
    switch value {
    case .integer(let n): Double(n)
    case .unsignedInteger(let n): Double(n)
    case .real(let r): r
    default: nil
    }
  }

  /// A range from its schema value: a dictionary with `min`, `max` or both, numbers.
  init(_ value: PrefValue, at path: PrefKeyPath) throws {
    guard case .dictionary(let dict) = value, !dict.isEmpty else {
      throw Schema.invalid(path, "a range is a dictionary with 'min', 'max' or both")
    }
    try Schema.allowOnly(["min", "max"], in: dict, at: path)
    func end(_ name: String) throws -> Double? {
      guard let value = dict[name] else { return nil }
      guard let number = Self.number(value) else { throw Schema.invalid(path.appending(key: name), "must be a number") }
      return number
    }
    self.init(min: try end("min"), max: try end("max"))
  }
}
