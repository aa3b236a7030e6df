import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// One difference between two values, at a key path.
public struct PrefChange: Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    case added, removed, changed
  }

  public let kind: Kind
  public let path: PrefKeyPath
  /// The value in the first input (nil when added).
  public let old: PrefValue?
  /// The value in the second input (nil when removed).
  public let new: PrefValue?

  /// Whether the value changed kind (`"false"` to `false`), not just value.
  public var changesType: Bool {
    guard let old, let new else { return false }
    return old.kind != new.kind
  }
}

/// Structural comparison of two values, type-strict, regardless of the formats
/// they came from or their key order.
public enum StructuralDiff {
  /// The changes that turn `old` into `new`, in canonical key order; key paths
  /// matching `excluding` are not compared.
  ///
  /// With `expandingData`, two data values that both hold JSON, or both a binary plist
  /// (``EmbeddedData/inspect(_:)``, in any spacing or escaping), are compared by their
  /// structure, so a change inside a blob is named by its key path through it
  /// (`items.0.name`). Blobs whose structures are equal but whose bytes differ are one
  /// change of the data, as are a blob on one side only and a change of kind. A
  /// changed blob that stays data because it only looks like JSON or a plist is a
  /// warning in its side's `warnings`, naming its key path and why.
  public static func changes(
    from old: PrefValue, to new: PrefValue, excluding: [KeyGlob] = [], expandingData: Bool = false,
    warnings: (old: Warnings, new: Warnings) = (Warnings(), Warnings())
  ) -> [PrefChange] {
    var result: [PrefChange] = []
    let comparison = Comparison(excluding: excluding, expandingData: expandingData, warnings: warnings)
    comparison.compare(old, new, at: PrefKeyPath(), into: &result)
    return result
  }
}

/// One comparison's settings, which every level of it passes down.
private struct Comparison {
  let excluding: [KeyGlob]
  let expandingData: Bool
  let warnings: (old: Warnings, new: Warnings)

  func compare(_ old: PrefValue, _ new: PrefValue, at path: PrefKeyPath, into result: inout [PrefChange]) {
    switch (old, new) {
    case (.dictionary(let a), .dictionary(let b)):
      // Keys by their scalars: a `Set<String>` would merge canonically equal keys.
      let keys = Set(a.keys.map(ScalarKey.init)).union(b.keys.map(ScalarKey.init)).map(\.text)
        .sorted(by: PrefDictionary.codePointOrder)
      for key in keys {
        let child = path.appending(key: key)
        if KeyGlob.any(excluding, match: child) { continue }
        switch (a[key], b[key]) {
        case (let x?, let y?): compare(x, y, at: child, into: &result)
        case (let x?, nil): result.append(PrefChange(kind: .removed, path: child, old: x, new: nil))
        case (nil, let y?): result.append(PrefChange(kind: .added, path: child, old: nil, new: y))
        case (nil, nil): break
        }
      }
    case (.array(let a), .array(let b)):
      // Lined up as merge and the patcher line them up: removing one item is one change.
      // Removed items are named by their place in the first input, the others by
      // their place in the second. Items with an identity (a profile's payloads, the
      // Dock's tiles) are lined up by it, as merge matches them, so a change inside an
      // item that also moved shows as that change.
      for step in alignment(a, b, at: path) {
        switch step {
        case .same: break
        case .changed(let i, let j):
          let child = path.appending(index: j)
          if !KeyGlob.any(excluding, match: child) {
            compare(a[i], b[j], at: child, into: &result)
          }
        case .removed(let i):
          let child = path.appending(index: i)
          if !KeyGlob.any(excluding, match: child) {
            result.append(PrefChange(kind: .removed, path: child, old: a[i], new: nil))
          }
        case .inserted(let j):
          let child = path.appending(index: j)
          if !KeyGlob.any(excluding, match: child) {
            result.append(PrefChange(kind: .added, path: child, old: nil, new: b[j]))
          }
        }
      }
    default:
      guard old != new else { return }
      // The same structure in other bytes (spacing, escaping, key order) is still a
      // change of the data.
      if case .data(let a) = old, case .data(let b) = new, let (x, y) = structures(a, b, at: path), x != y {
        return compare(x, y, at: path, into: &result)
      }
      result.append(PrefChange(kind: .changed, path: path, old: old, new: new))
    }
  }

  /// The structures of two blobs at `path`, when data is expanded and both hold one
  /// of the same kind; a side that only looks like JSON or a plist is a warning of
  /// that side.
  private func structures(_ a: Data, _ b: Data, at path: PrefKeyPath) -> (PrefValue, PrefValue)? {
    guard expandingData else { return nil }
    let (old, new) = (EmbeddedData.inspect(a), EmbeddedData.inspect(b))
    for (contents, warnings) in [(old, warnings.old), (new, warnings.new)] {
      if case .leftAsData(_, let reason) = contents { warnings.add(EmbeddedData.leftAsDataWarning(at: path, reason)) }
    }
    guard case .structure(let oldKind, let x, _) = old, case .structure(let newKind, let y, _) = new,
      oldKind == newKind
    else { return nil }
    return (x, y)
  }

  /// The steps from `a` to `b`: by value, or by identity when every item of both has
  /// one (``ArrayIdentity``). An item kept by identity is compared with its
  /// counterpart; an item whose identity changed in place is compared too, as merge
  /// takes it for the same item renamed.
  private func alignment(_ a: [PrefValue], _ b: [PrefValue], at path: PrefKeyPath) -> [ArrayAlignment.Step] {
    guard let field = ArrayIdentity.field(in: [a, b], at: path),
      let old = ArrayIdentity.identities(a, field: field), let new = ArrayIdentity.identities(b, field: field)
    else { return ArrayAlignment.align(a, b) }
    return ArrayAlignment.align(old, new).map { step in
      guard case .same(let i, let j) = step, a[i] != b[j] else { return step }
      return .changed(i, j)
    }
  }
}
