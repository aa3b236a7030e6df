/// A shell-style pattern (`SULastCheckTime`, `NSWindow Frame *`, `*.lastOpened`,
/// `com.apple.*`) matched against key paths as a user types them: keys joined by
/// dots, a dot inside a key left as it is (``PrefKeyPath/plainText``), as
/// `--exclude` takes it. So `com.apple.*` matches the key `com.apple.x` and the
/// key `x` inside a dictionary `com.apple`; `*` also crosses dots.
public struct KeyGlob: Sendable, Hashable, CustomStringConvertible {
  public let pattern: String

  public init(_ pattern: String) { self.pattern = pattern }

  public var description: String { pattern }

  /// Whether the key path (as ``PrefKeyPath/plainText`` writes it) matches.
  public func matches(_ path: String) -> Bool {
    fnmatch(pattern, path, 0) == 0
  }

  /// Whether any of `globs` matches `path`.
  public static func any(_ globs: [KeyGlob], match path: PrefKeyPath) -> Bool {
    guard !globs.isEmpty else { return false }
    let text = path.plainText
    return globs.contains { $0.matches(text) }
  }
}

extension PrefValue {
  /// This value without the parts whose key paths match one of `globs`.
  public func excluding(_ globs: [KeyGlob], at path: PrefKeyPath = PrefKeyPath()) -> PrefValue {
    guard !globs.isEmpty else { return self }
    switch self {
    case .dictionary(let dict):
      var kept = PrefDictionary()
      for (key, value) in dict {
        let childPath = path.appending(key: key)
        if !KeyGlob.any(globs, match: childPath) { kept.insertNew(key, value.excluding(globs, at: childPath)) }
      }
      return .dictionary(kept)
    case .array(let items):
      var kept: [PrefValue] = []
      for (index, item) in items.enumerated() {
        let childPath = path.appending(index: index)
        if !KeyGlob.any(globs, match: childPath) { kept.append(item.excluding(globs, at: childPath)) }
      }
      return .array(kept)
    default:
      return self
    }
  }

  /// The parts of this value whose key paths match one of `globs` (dictionaries
  /// only), as a sparse copy: what an import with `--exclude` must keep from the old domain.
  public func onlyMatching(_ globs: [KeyGlob], at path: PrefKeyPath = PrefKeyPath()) -> PrefDictionary {
    guard case .dictionary(let dict) = self else { return PrefDictionary() }
    var kept = PrefDictionary()
    for (key, value) in dict {
      let childPath = path.appending(key: key)
      if KeyGlob.any(globs, match: childPath) {
        kept.insertNew(key, value)
      } else {
        let inner = value.onlyMatching(globs, at: childPath)
        if !inner.isEmpty { kept.insertNew(key, .dictionary(inner)) }
      }
    }
    return kept
  }

  /// This dictionary with `overlay` merged in, recursively: dictionaries merge,
  /// anything else in `overlay` replaces what is here.
  public func merging(_ overlay: PrefDictionary) -> PrefValue {
    guard case .dictionary(var dict) = self else { return .dictionary(overlay) }
    for (key, value) in overlay {
      if case .dictionary(let inner) = value, let existing = dict[key], case .dictionary = existing {
        dict[key] = existing.merging(inner)
      } else {
        dict[key] = value
      }
    }
    return .dictionary(dict)
  }
}
