/// Reading and changing values deep inside a ``PrefValue`` by key path, as
/// `prefs get`, `set` and `remove` do (`plutil`'s `-extract`, `-replace`, `-remove`).
///
/// Keys may hold dots (macOS keys are full of them: `com.apple.swipescrolldirection`).
/// At each dictionary, the parts of the path name the longest existing key they
/// spell when joined by dots, else the first part alone; `\.` always keeps a dot
/// inside one key. An array index may be negative, counting from the end (`-1`).
extension PrefValue {
  /// The value at `path` (text components, as ``PrefKeyPath/parse(_:)`` gives them).
  public func value(at path: [String]) throws -> PrefValue {
    try value(at: path[...], walked: PrefKeyPath())
  }

  /// The value at `path`, for a value that stands at `walked` (which errors name).
  package func value(at path: ArraySlice<String>, walked: PrefKeyPath) throws -> PrefValue {
    var current = self
    var rest = path
    var walked = walked
    while !rest.isEmpty {
      let (next, step, used) = try current.child(rest, at: walked)
      current = next
      walked = walked.appending(step)
      rest = rest.dropFirst(used)
    }
    return current
  }

  /// A copy with `newValue` at `path`. Missing dictionaries on the way are created
  /// when `createMissing` (never beside a key with dots that the path would have
  /// named, such as `com.apple.x` for `com.apple.y`); an array index equal to the
  /// count appends. With `depthLimit` (the readers' nesting limit), a path that
  /// could nest the value deeper than that is refused before anything is walked, so
  /// that no document is made that no reader would take back.
  public func setting(
    _ newValue: PrefValue, at path: [String], createMissing: Bool = false, depthLimit: Int? = nil
  ) throws -> PrefValue {
    if let depthLimit, path.count + newValue.containerDepth > depthLimit {
      throw PrefsError(.tooDeep(limit: depthLimit, detail: "the key path has \(path.count) parts"))
    }
    return try setting(newValue, at: path[...], walked: PrefKeyPath(), createMissing: createMissing)
  }

  /// How many arrays and dictionaries nest in the value, itself included (0 for a scalar).
  package var containerDepth: Int {
    switch self {
    case .array(let items): 1 + (items.map(\.containerDepth).max() ?? 0)
    case .dictionary(let dict): 1 + (dict.values.map(\.containerDepth).max() ?? 0)
    default: 0
    }
  }

  /// A copy without the value at `path`.
  public func removing(at path: [String]) throws -> PrefValue {
    try removing(at: path[...], walked: PrefKeyPath())
  }

  // MARK: Steps

  /// The existing child the first parts of `path` name, its step, and how many parts it took.
  package func child(_ path: ArraySlice<String>, at walked: PrefKeyPath) throws -> (
    PrefValue, PrefKeyPath.Component, Int
  ) {
    switch self {
    case .dictionary(let dict):
      guard let (key, used) = Self.existingKey(in: dict, for: path) else {
        throw Self.missing(path, at: walked, in: dict)
      }
      return (dict[key]!, .key(key), used)
    case .array(let items):
      let index = try Self.index(path.first!, in: items, at: walked, allowingEnd: false)
      return (items[index], .index(index), 1)
    default:
      throw PrefsError(.notAContainer(at: walked, kind: kind, key: path.first!))
    }
  }

  /// ``setting(_:at:createMissing:depthLimit:)`` for a value that stands at `walked`
  /// (which errors name), without the depth check.
  package func setting(
    _ newValue: PrefValue, at path: ArraySlice<String>, walked: PrefKeyPath, createMissing: Bool
  ) throws -> PrefValue {
    guard let part = path.first else { return newValue }
    switch self {
    case .dictionary(var dict):
      if let (key, used) = Self.existingKey(in: dict, for: path) {
        let rest = path.dropFirst(used)
        dict[key] = try dict[key]!.setting(
          newValue, at: rest, walked: walked.appending(key: key), createMissing: createMissing)
        return .dictionary(dict)
      }
      let rest = path.dropFirst()
      if !rest.isEmpty {
        // A missing dictionary on the way: created only with -p, and never where
        // the path most likely names a key with dots that does not exist yet.
        guard createMissing, Self.dottedKeys(in: dict, startingWith: part).isEmpty else {
          throw Self.missing(path, at: walked, in: dict, creating: true)
        }
      }
      dict[part] = try PrefValue.dictionary(PrefDictionary()).setting(
        newValue, at: rest, walked: walked.appending(key: part), createMissing: createMissing)
      return .dictionary(dict)
    case .array(var items):
      let index = try Self.index(part, in: items, at: walked, allowingEnd: true)
      let step = walked.appending(index: index)
      let rest = path.dropFirst()
      if index == items.count {
        guard rest.isEmpty || createMissing else {
          // Only a new last item can be appended: the end is no item to go into.
          _ = try Self.index(part, in: items, at: walked, allowingEnd: false)
          return self
        }
        items.append(
          try PrefValue.dictionary(PrefDictionary()).setting(
            newValue, at: rest, walked: step, createMissing: createMissing))
      } else {
        items[index] = try items[index].setting(newValue, at: rest, walked: step, createMissing: createMissing)
      }
      return .array(items)
    default:
      throw PrefsError(.notAContainer(at: walked, kind: kind, key: part))
    }
  }

  /// ``removing(at:)`` for a value that stands at `walked` (which errors name).
  package func removing(at path: ArraySlice<String>, walked: PrefKeyPath) throws -> PrefValue {
    guard !path.isEmpty else { return self }
    let (found, step, used) = try child(path, at: walked)
    let rest = path.dropFirst(used)
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

  // MARK: Keys with dots, indexes, messages

  /// The longest run of `path`'s first parts that, joined by dots, is a key of
  /// `dict`, and how many parts it takes; nil when not even the first part is one.
  static func existingKey(in dict: PrefDictionary, for path: ArraySlice<String>) -> (String, Int)? {
    var joined = ""
    var found: (String, Int)?
    for (count, part) in path.enumerated() {
      joined = count == 0 ? part : joined + "." + part
      if dict[joined] != nil { found = (joined, count + 1) }
    }
    return found
  }

  /// The keys of `dict` that begin with `part` and a dot (`com.apple.x` for `com`).
  static func dottedKeys(in dict: PrefDictionary, startingWith part: String) -> [String] {
    dict.map(\.key).filter { $0.hasPrefix(part + ".") }
  }

  /// The array index `part` names in `items` (negative counts from the end), or the
  /// one error every command gives for a bad index. `allowingEnd`: the count itself
  /// (appending) is valid.
  static func index(_ part: String, in items: [PrefValue], at walked: PrefKeyPath, allowingEnd: Bool) throws -> Int {
    let count = items.count
    // Digits, with a minus for counting from the end: `+1` is no index (Int takes it).
    guard part.first != "+", let number = Int(part) else {
      throw PrefsError(.noSuchIndex(in: walked, index: part, count: count))
    }
    let index = number < 0 ? count + number : number
    guard index >= 0, index < count || (allowingEnd && index == count) else {
      throw PrefsError(.noSuchIndex(in: walked, index: part, count: count))
    }
    return index
  }

  /// A missing key: names the first part, suggests a near key and, where the parts
  /// could be one key with dots, how to write it.
  static func missing(
    _ path: ArraySlice<String>, at walked: PrefKeyPath, in dict: PrefDictionary, creating: Bool = false
  ) -> PrefsError {
    let part = path.first!
    let whole = path.joined(separator: ".")
    let keys = dict.map(\.key)
    var hints: [String] = []
    var needsParents = false
    if let guess = Suggestions.closest(to: whole, among: keys) ?? Suggestions.closest(to: part, among: keys) {
      hints.append("did you mean '\(walked.appending(key: guess))'?")
    }
    if path.count > 1 {
      let dotted = dottedKeys(in: dict, startingWith: part)
      let asOneKey = walked.appending(key: whole).description
      if creating, !dotted.isEmpty {
        hints.append(
          "'\(part)' is not a dictionary here, but keys such as '\(dotted[0])' are: "
            + "write '\(asOneKey)' to set the key '\(whole)'")
      } else {
        hints.append("a key with dots in its name is written with \\. ('\(asOneKey)')")
        needsParents = creating
      }
    }
    return PrefsError(
      .noSuchKey(in: walked, key: part, dotted: path.count > 1 ? whole : nil, needsParents: needsParents), hints: hints)
  }
}

extension PrefValue.Kind {
  /// `a` or `an`, for messages.
  public var article: String { self == .integer || self == .array ? "an" : "a" }
}

// MARK: By components

extension PrefValue {
  /// The value at `path`, step by step (no dotted keys are looked for), if there is one.
  package func existingValue(at path: PrefKeyPath) -> PrefValue? {
    existingValue(at: path.components[...])
  }

  private func existingValue(at path: ArraySlice<PrefKeyPath.Component>) -> PrefValue? {
    guard let first = path.first else { return self }
    switch (self, first) {
    case (.dictionary(let dict), .key(let key)): return dict[key]?.existingValue(at: path.dropFirst())
    case (.array(let items), .index(let index)) where items.indices.contains(index):
      return items[index].existingValue(at: path.dropFirst())
    default: return nil
    }
  }

  /// A copy with `newValue` at `path` (nil: without the value there), step by step;
  /// nil when a container on the way is missing. A key not yet in its dictionary is
  /// added at its end, an index equal to an array's count appends.
  package func replacingValue(at path: PrefKeyPath, with newValue: PrefValue?) -> PrefValue? {
    replacingValue(at: path.components[...], with: newValue)
  }

  private func replacingValue(at path: ArraySlice<PrefKeyPath.Component>, with newValue: PrefValue?) -> PrefValue? {
    guard let first = path.first else { return newValue }
    let rest = path.dropFirst()
    switch (self, first) {
    case (.dictionary(var dict), .key(let key)):
      if rest.isEmpty {
        dict[key] = newValue
      } else {
        guard let child = dict[key]?.replacingValue(at: rest, with: newValue) else { return nil }
        dict[key] = child
      }
      return .dictionary(dict)
    case (.array(var items), .index(let index)) where index >= 0 && index <= items.count:
      if rest.isEmpty {
        if let newValue {
          if index == items.count { items.append(newValue) } else { items[index] = newValue }
        } else if index < items.count {
          items.remove(at: index)
        }
      } else {
        guard index < items.count, let child = items[index].replacingValue(at: rest, with: newValue) else {
          return nil
        }
        items[index] = child
      }
      return .array(items)
    default: return nil
    }
  }
}
