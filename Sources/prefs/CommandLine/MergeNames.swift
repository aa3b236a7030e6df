import PrefsKit

/// What a merge calls its three sides: the labels of its conflict markers, and the
/// names its messages give CURRENT and OTHER.
struct MergeNames {
  /// After `<<<<<<<`: CURRENT's label.
  let current: String
  /// After `|||||||` (diff3 style): BASE's label.
  let base: String
  /// After `>>>>>>>`: OTHER's label.
  let other: String
  /// Whether the sides have names of their own (from `-L`, or git's when it runs the
  /// merge), which messages then use instead of "current" and "other".
  let named: Bool

  /// The names `-L` gives (CURRENT's, BASE's, OTHER's); the rest as git names them when
  /// it runs the merge (`asDriver`), else the files' names. A label git left as
  /// written (`%X`, `%S`, `%Y`, which git expands only from 2.44 on) is no label.
  init(_ labels: [String], paths: (current: String, base: String, other: String), asDriver: Bool) throws {
    let given = labels.map { $0.count == 2 && $0.hasPrefix("%") ? nil : $0 }
    func label(_ index: Int) -> String? { index < given.count ? given[index] : nil }
    let fromGit = asDriver && (label(1) == nil || label(2) == nil) ? try? Git().mergeLabels() : nil
    current = label(0) ?? (asDriver ? "HEAD" : displayName(paths.current))
    base = label(1) ?? (asDriver ? fromGit?.base ?? "base" : displayName(paths.base))
    other = label(2) ?? (asDriver ? fromGit?.other ?? "theirs" : displayName(paths.other))
    named = asDriver || given.contains { $0 != nil }
  }

  /// CURRENT in messages.
  var currentSide: String { named ? current : "current" }
  /// OTHER in messages.
  var otherSide: String { named ? other : "other" }
  /// The side whose values a file without markers keeps.
  var keptSide: String { named ? current : "CURRENT" }
  /// ` between HEAD and topic`, when the sides have names.
  var between: String { named ? " between \(current) and \(other)" : "" }
}
