/// Finding and leaving out the nulls of a value: a YAML or JSON null has no property
/// list form, so whatever writes a plist either refuses the first null, by its key
/// path, or (asked to) writes the value without them.
extension PrefValue {
  /// Whether the value is null or holds a null anywhere inside.
  public var containsNull: Bool { firstNullPath != nil }

  /// The key path of the first null in the value, depth first in its order (the
  /// empty path when the value itself is null); nil when it holds none.
  public var firstNullPath: PrefKeyPath? {
    var found: PrefKeyPath?
    var path: [PrefKeyPath.Component] = []
    _ = Self.visitNulls(in: self, path: &path) {
      found = PrefKeyPath($0)
      return false
    }
    return found
  }

  /// The key paths of every null in the value, depth first in its order.
  public var nullPaths: [PrefKeyPath] {
    var paths: [PrefKeyPath] = []
    var path: [PrefKeyPath.Component] = []
    _ = Self.visitNulls(in: self, path: &path) {
      paths.append(PrefKeyPath($0))
      return true
    }
    return paths
  }

  /// Calls `visit` with the path of each null in `value`, depth first, while it returns
  /// true; returns false once it has returned false.
  private static func visitNulls(
    in value: PrefValue, path: inout [PrefKeyPath.Component], _ visit: ([PrefKeyPath.Component]) -> Bool
  ) -> Bool {
    switch value {
    case .null: return visit(path)
    case .array(let items):
      for (index, item) in items.enumerated() {
        path.append(.index(index))
        defer { path.removeLast() }
        guard visitNulls(in: item, path: &path, visit) else { return false }
      }
      return true
    case .dictionary(let dict):
      for (key, item) in dict {
        path.append(.key(key))
        defer { path.removeLast() }
        guard visitNulls(in: item, path: &path, visit) else { return false }
      }
      return true
    case .string, .integer, .unsignedInteger, .real, .bool, .date, .data, .uid: return true
    }
  }

  /// The error for the first null in the value, as a plist writer refuses it; nil
  /// when it holds none.
  public var nullRefusal: PrefsError? { firstNullPath.map { PrefsError(.null(path: $0)) } }

  /// The value without its nulls (a dictionary without the keys that hold one, an
  /// array without the items that are one), each recorded in `warnings` by its key path
  /// with the refusal it escaped; a value that is itself null stays null.
  public func droppingNulls(warnings: Warnings) -> PrefValue {
    guard containsNull else { return self }
    var path: [PrefKeyPath.Component] = []
    return Self.dropping(self, path: &path, warnings: warnings) ?? .null
  }

  private static func dropping(_ value: PrefValue, path: inout [PrefKeyPath.Component], warnings: Warnings)
    -> PrefValue?
  {
    switch value {
    case .null:
      let at = PrefKeyPath(path)
      warnings.add("dropped null at \(at.nameInMessages)", refused: .null(path: at))
      return nil
    case .array(let items):
      var kept: [PrefValue] = []
      kept.reserveCapacity(items.count)
      for (index, item) in items.enumerated() {
        path.append(.index(index))
        if let item = dropping(item, path: &path, warnings: warnings) { kept.append(item) }
        path.removeLast()
      }
      return .array(kept)
    case .dictionary(let dict):
      var kept = PrefDictionary()
      for (key, item) in dict {
        path.append(.key(key))
        if let item = dropping(item, path: &path, warnings: warnings) { _ = kept.insertNew(key, item) }
        path.removeLast()
      }
      return .dictionary(kept)
    case .string, .integer, .unsignedInteger, .real, .bool, .date, .data, .uid: return value
    }
  }
}

extension PrefDictionary {
  /// The dictionary without its nulls, as ``PrefValue/droppingNulls(warnings:)`` leaves them out.
  public func droppingNulls(warnings: Warnings) -> PrefDictionary {
    PrefValue.dictionary(self).droppingNulls(warnings: warnings).dictionaryValue ?? self
  }
}
