/// Reading and changing values deep inside a ``PrefValue`` by key path, as
/// `prefs get`, `set` and `remove` do (`plutil`'s `-extract`, `-replace`, `-remove`).
extension PrefValue {
  /// The value at `path` (text components, as ``PrefKeyPath/parse(_:)`` gives them).
  public func value(at path: [String]) throws -> PrefValue {
    var current = self
    var walked = PrefKeyPath()
    for part in path {
      let (next, step) = try current.child(part, at: walked)
      guard let next else { throw missing(part, at: walked) }
      current = next
      walked = walked.appending(step)
    }
    return current
  }

  /// A copy with `newValue` at `path`. Missing dictionaries on the way are created
  /// when `createMissing`; an array index equal to the count appends.
  public func setting(_ newValue: PrefValue, at path: [String], createMissing: Bool = false) throws -> PrefValue {
    try setting(newValue, at: path[...], walked: PrefKeyPath(), createMissing: createMissing)
  }

  /// A copy without the value at `path`.
  public func removing(at path: [String]) throws -> PrefValue {
    try removing(at: path[...], walked: PrefKeyPath())
  }

  // MARK: Steps

  private func child(_ part: String, at walked: PrefKeyPath) throws -> (PrefValue?, PrefKeyPath.Component) {
    switch self {
    case .dictionary(let dict):
      return (dict[part], .key(part))
    case .array(let items):
      guard let index = Int(part), index >= 0 else {
        throw PrefsError(.badInput, "'\(part)' is not an array index at \(Self.name(walked))")
      }
      return (index < items.count ? items[index] : nil, .index(index))
    default:
      throw PrefsError(
        .badInput, "\(Self.name(walked)) is \(kind.article) \(kind.rawValue), which has no '\(part)'")
    }
  }

  private func setting(
    _ newValue: PrefValue, at path: ArraySlice<String>, walked: PrefKeyPath, createMissing: Bool
  ) throws -> PrefValue {
    guard let part = path.first else { return newValue }
    let rest = path.dropFirst()
    switch self {
    case .dictionary(var dict):
      let step = walked.appending(key: part)
      let existing: PrefValue
      if let found = dict[part] {
        existing = found
      } else if rest.isEmpty {
        existing = newValue
      } else if createMissing {
        existing = .dictionary(PrefDictionary())
      } else {
        throw missing(part, at: walked, hint: "-p creates missing dictionaries on the way")
      }
      dict[part] = try existing.setting(newValue, at: rest, walked: step, createMissing: createMissing)
      return .dictionary(dict)
    case .array(var items):
      guard let index = Int(part), index >= 0, index <= items.count else {
        throw PrefsError(
          .noInput, "no index \(part) in \(Self.name(walked)) (it has \(items.count) items)")
      }
      let step = walked.appending(index: index)
      if index == items.count {
        guard rest.isEmpty || createMissing else { throw missing(part, at: walked) }
        items.append(
          try PrefValue.dictionary(PrefDictionary()).setting(
            newValue, at: rest, walked: step, createMissing: createMissing))
      } else {
        items[index] = try items[index].setting(newValue, at: rest, walked: step, createMissing: createMissing)
      }
      return .array(items)
    default:
      throw PrefsError(
        .badInput, "\(Self.name(walked)) is \(kind.article) \(kind.rawValue), which has no '\(part)'")
    }
  }

  private func removing(at path: ArraySlice<String>, walked: PrefKeyPath) throws -> PrefValue {
    guard let part = path.first else { return self }
    let rest = path.dropFirst()
    let (found, step) = try child(part, at: walked)
    guard let found else { throw missing(part, at: walked) }
    switch (self, step) {
    case (.dictionary(var dict), .key(let key)):
      dict[key] = rest.isEmpty ? nil : try found.removing(at: rest, walked: walked.appending(step))
      return .dictionary(dict)
    case (.array(var items), .index(let index)):
      if rest.isEmpty {
        items.remove(at: index)
      } else {
        items[index] = try found.removing(at: rest, walked: walked.appending(step))
      }
      return .array(items)
    default:
      return self
    }
  }

  private func missing(_ part: String, at walked: PrefKeyPath, hint: String? = nil) -> PrefsError {
    PrefsError(.noInput, "no key '\(part)' in \(Self.name(walked))", hints: hint.map { [$0] } ?? [])
  }

  /// How messages name a path: `the top level` for the root.
  static func name(_ path: PrefKeyPath) -> String {
    path.components.isEmpty ? "the top level" : path.description
  }
}

extension PrefValue.Kind {
  /// `a` or `an`, for messages.
  public var article: String { self == .integer || self == .array ? "an" : "a" }
}
