import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// One problem `lint --schema` finds in a domain: a key the app will silently read
/// as its fallback, a value outside the allowed ones, or a key the app never reads.
public struct SchemaFinding: Sendable, Equatable, CustomStringConvertible {
  /// What was found.
  public enum Problem: Sendable, Equatable {
    /// The stored value does not cast to the schema's type on some platform, so
    /// the app reads its fallback (nil when the schema gives none) there.
    case typeMismatch(stored: PrefValue, type: ValueText.TypeName, fallback: PrefValue?)
    /// The value is not one of the schema's `values`.
    case notAllowed(PrefValue, allowed: [PrefValue])
    /// The schema does not list this key; `suggestion` is a listed key it may be a typo of.
    case unknownKey(suggestion: String?)
    /// The data does not decode as the app's `Codable` type: the app's decoder
    /// throws, and the app does what the key's ``SchemaKey/decodeFallback`` says.
    case undecodable(DecodeFailure, key: SchemaKey)
    /// The app's code reads this key two ways (a scan's finding).
    case conflictingReads(ReadConflict)
    /// The number is outside the schema's range.
    case outOfRange(PrefValue, range: SchemaRange)
    /// The schema requires the key, and it is missing.
    case missingRequired
  }

  public var path: PrefKeyPath
  public var problem: Problem

  public init(path: PrefKeyPath, problem: Problem) {
    self.path = path
    self.problem = problem
  }

  /// Errors are values the app discards or does not expect; unknown keys and
  /// conflicting reads are warnings.
  public var isError: Bool {
    switch problem {
    case .unknownKey, .conflictingReads: false
    default: true
    }
  }

  /// The message, without the key path: `stored as string "false"; the app reads true (fallback)`.
  public var message: String {
    switch problem {
    case .typeMismatch(let stored, let type, let fallback):
      func reading(_ cast: PrefValue?) -> String {
        if let cast { return cast.literal }
        return fallback.map { "\($0.literal) (fallback)" } ?? "nil (the schema gives no fallback)"
      }
      let linux = TypedRead.read(stored, as: type, on: .linux)
      let macOS = TypedRead.read(stored, as: type, on: .macOS)
      if linux == macOS { return "stored as \(stored.summary); the app reads \(reading(linux))" }
      // Both platforms read the same value, one of them through the fallback: one reading.
      if let read = linux ?? fallback, read == macOS ?? fallback {
        return "stored as \(stored.summary); the app reads \(read.literal) (on \(linux == nil ? "Linux" : "macOS"), "
          + "as its fallback)"
      }
      return
        "stored as \(stored.summary); on Linux the app reads \(reading(linux)); on macOS it reads \(reading(macOS))"
    case .notAllowed(let value, let allowed):
      return "\(value.literal) is not one of \(allowed.map(\.literal).joined(separator: ", "))"
    case .unknownKey(let suggestion):
      return "not in the schema; the app does not read it" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    case .undecodable(let failure, let key):
      return failure.message(for: key)
    case .conflictingReads(let conflict):
      return "the app's code " + conflict.message
    case .outOfRange(let value, let range):
      switch (range.min, range.max) {
      case (let low?, nil): return "\(value.literal) is below the minimum \(low.literal)"
      case (nil, let high?): return "\(value.literal) is above the maximum \(high.literal)"
      default: return "\(value.literal) is out of \(range)"
      }
    case .missingRequired:
      return "missing; the schema requires it"
    }
  }

  public var description: String { "\(path): \(message)" }
}

extension Schema {
  /// The findings for a domain's contents, in schema order then domain order.
  public func check(_ contents: PrefDictionary, at path: PrefKeyPath = PrefKeyPath()) -> [SchemaFinding] {
    var findings: [SchemaFinding] = []
    for key in keys {
      let keyPath = path.appending(key: key.name)
      guard let stored = contents[key.name] else {
        if key.isRequired { findings.append(SchemaFinding(path: keyPath, problem: .missingRequired)) }
        continue
      }
      findings += key.check(stored, at: keyPath)
    }
    for (name, stored) in contents where self.key(name) == nil && !dynamicKeys.contains(where: { $0.matches(name) }) {
      let keyPath = path.appending(key: name)
      if let otherKey {
        findings += otherKey.check(stored, at: keyPath)
      } else if !allowsOtherKeys {
        findings.append(
          SchemaFinding(
            path: keyPath, problem: .unknownKey(suggestion: Suggestions.closest(to: name, among: keys.map(\.name)))))
      }
    }
    for conflict in conflicts where contents[conflict.key] != nil {
      findings.append(SchemaFinding(path: path.appending(key: conflict.key), problem: .conflictingReads(conflict)))
    }
    return findings
  }
}

extension SchemaKey {
  /// What the app reads for `stored` on `platform`: the cast value, else the fallback.
  public func appReads(_ stored: PrefValue?, on platform: Platform) -> PrefValue? {
    if allowsAnyType { return stored ?? defaultValue }
    return TypedRead.read(stored, as: type, on: platform) ?? defaultValue
  }

  /// The findings for the value stored under this key: its type first (a value the
  /// app discards is not checked further), then its allowed values, its range, and
  /// what a dictionary or an array holds.
  func check(_ stored: PrefValue, at path: PrefKeyPath) -> [SchemaFinding] {
    if allowsAnyType { return [] }
    if Platform.allCases.contains(where: { TypedRead.read(stored, as: type, on: $0) == nil }) {
      return [
        SchemaFinding(
          path: path,
          problem: .typeMismatch(stored: stored, type: type, fallback: defaultValue))
      ]
    }
    if let values, !values.contains(stored) {
      return [SchemaFinding(path: path, problem: .notAllowed(stored, allowed: values))]
    }
    if let range, !range.contains(stored) {
      return [SchemaFinding(path: path, problem: .outOfRange(stored, range: range))]
    }
    if let keys, case .dictionary(let nested) = stored {
      return keys.check(nested, at: path)
    }
    if case .data(let bytes) = stored, let failure = decodeFailure(of: bytes) {
      return [SchemaFinding(path: path, problem: .undecodable(failure, key: self))]
    }
    if let items, case .array(let elements) = stored {
      return elements.enumerated().flatMap { items.check($1, at: path.appending(index: $0)) }
    }
    return []
  }
}
