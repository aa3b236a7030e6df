import PrefsDocument
import PrefsFormats
import PrefsModel

/// Key paths that go on into data holding a JSON document or a binary plist
/// (`items.0.name`, where `items` is the tutorial's JSON blob), as `get`, `set` and
/// `remove` walk them when asked to (`expandingData`).
///
/// A path that meets such data with parts left continues in the structure it holds
/// (``EmbeddedDocument``); a change there gives the data new bytes in the blob's own
/// style, changed only where the structure changed, so the file around it is patched
/// as for any other value. Data inside that structure holding a blob of its own opens
/// the same way. Data the path cannot go into says why: a blob left as data gives the
/// reason, and without `expandingData` a blob gives
/// ``PrefsError/Kind/embeddedStructure(format:cause:)``, so that the caller can say how
/// to go in.
extension PrefValue {
  /// The value at `path`; with `expandingData`, going on into the data that holds a
  /// JSON document or a binary plist on the way.
  public func value(at path: [String], expandingData: Bool) throws -> PrefValue {
    try value(at: path[...], walked: PrefKeyPath(), expandingData: expandingData)
  }

  /// A copy with `newValue` at `path` (as ``setting(_:at:createMissing:depthLimit:)``
  /// sets it); with `expandingData`, inside the data that holds a JSON document or a
  /// binary plist on the way, which takes the bytes of its changed structure.
  public func setting(
    _ newValue: PrefValue, at path: [String], createMissing: Bool = false, depthLimit: Int? = nil,
    expandingData: Bool
  ) throws -> PrefValue {
    guard expandingData else {
      return try explainingData {
        try setting(newValue, at: path, createMissing: createMissing, depthLimit: depthLimit)
      }
    }
    if let depthLimit, path.count + newValue.containerDepth > depthLimit {
      // The same check and error as without the blobs.
      return try setting(newValue, at: path, createMissing: createMissing, depthLimit: depthLimit)
    }
    return try changingInsideData(path[...], walked: PrefKeyPath()) { value, rest, walked in
      try value.setting(newValue, at: rest, walked: walked, createMissing: createMissing)
    }
  }

  /// A copy without the value at `path`; with `expandingData`, inside the data that
  /// holds a JSON document or a binary plist on the way.
  public func removing(at path: [String], expandingData: Bool) throws -> PrefValue {
    guard expandingData else { return try explainingData { try removing(at: path) } }
    return try changingInsideData(path[...], walked: PrefKeyPath()) { value, rest, walked in
      try value.removing(at: rest, walked: walked)
    }
  }

  // MARK: The walk

  private func value(at path: ArraySlice<String>, walked: PrefKeyPath, expandingData: Bool) throws -> PrefValue {
    guard expandingData else { return try explainingData { try value(at: path, walked: walked) } }
    guard let blob = blob(on: path, walked: walked) else { return try value(at: path, walked: walked) }
    let document = try Self.open(blob)
    return try document.value.value(at: blob.rest, walked: blob.at, expandingData: true)
  }

  /// `change` made where `path` leads, inside the data on the way that holds
  /// structure: the data then takes the bytes of its changed structure.
  private func changingInsideData(
    _ path: ArraySlice<String>, walked: PrefKeyPath,
    _ change: (PrefValue, ArraySlice<String>, PrefKeyPath) throws -> PrefValue
  ) throws -> PrefValue {
    guard let blob = blob(on: path, walked: walked) else { return try change(self, path, walked) }
    let document = try Self.open(blob)
    let changed = try document.value.changingInsideData(blob.rest, walked: blob.at, change)
    let bytes: Data
    do {
      bytes = try document.bytes(for: changed)
    } catch let error as PrefsError {
      guard case .unrepresentable(let format, let kind, nil, let problem) = error.kind else { throw error }
      throw PrefsError(
        .unrepresentable(
          format: format, kind: kind, path: blob.at, problem: "\(blob.at.nameInMessages): \(problem)"),
        hints: error.hints)
    }
    // The blob's place, from this value (which stands at `walked`).
    let place = PrefKeyPath(Array(blob.at.components.dropFirst(walked.components.count)))
    return replacingValue(at: place, with: .data(bytes)) ?? self
  }

  /// Where `path` meets data with parts left, walking the values that exist: the data,
  /// where it stands, and the parts left; nil when it meets none (or a part names
  /// nothing, which the walk of the values alone then reports).
  private func blob(on path: ArraySlice<String>, walked: PrefKeyPath) -> (
    data: Data, at: PrefKeyPath, rest: ArraySlice<String>
  )? {
    var current = self
    var rest = path
    var walked = walked
    while !rest.isEmpty {
      if case .data(let data) = current { return (data, walked, rest) }
      guard let (next, step, used) = try? current.child(rest, at: walked) else { return nil }
      current = next
      walked = walked.appending(step)
      rest = rest.dropFirst(used)
    }
    return nil
  }

  /// The blob opened, or the error of a path that goes into data: with the reason when
  /// the data starts as JSON or a binary plist does but is left as data.
  private static func open(_ blob: (data: Data, at: PrefKeyPath, rest: ArraySlice<String>)) throws
    -> EmbeddedDocument
  {
    if let document = EmbeddedDocument(blob.data) { return document }
    var hints: [String] = []
    if case .leftAsData(_, let reason) = EmbeddedData.inspect(blob.data) { hints.append("it stays data: \(reason)") }
    throw PrefsError(.notAContainer(at: blob.at, kind: .data, key: blob.rest.first!), hints: hints)
  }

  /// `walk`, whose error for going into data that holds structure says so.
  private func explainingData<T>(_ walk: () throws -> T) throws -> T {
    do {
      return try walk()
    } catch let error as PrefsError {
      guard case .notAContainer(let at, .data, _) = error.kind, case .data(let data)? = existingValue(at: at),
        let document = EmbeddedDocument(data)
      else { throw error }
      var wrapped = error
      wrapped.kind = .embeddedStructure(format: document.kind == .json ? "json" : "binary", cause: error.kind)
      throw wrapped
    }
  }
}
