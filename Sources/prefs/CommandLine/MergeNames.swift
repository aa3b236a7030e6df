import PrefsKit

/// What a merge calls its three sides: the labels of its conflict markers, and the
/// names its messages give CURRENT and OTHER.
struct MergeNames {
  /// After `<<<<<<<`: CURRENT's label.
  let current: String
  /// After `|||||||` (diff3 style): BASE's label, when `-L` gives it or git is not
  /// running the merge (see ``base()``).
  private let givenBase: String?
  /// The commit git is merging, whose merge base names BASE.
  private let mergedCommit: String?
  /// After `>>>>>>>`: OTHER's label.
  let other: String
  /// Whether the sides have names of their own (from `-L`, or git's when it runs the
  /// merge), which messages then use instead of "current" and "other".
  let named: Bool

  /// The names `-L` gives (CURRENT's, BASE's, OTHER's); the rest as git names them when
  /// it runs the merge (`asDriver`), else the files' names. A label git left as
  /// written (`%X`, `%S`, `%Y`, which git expands only from 2.44 on) is no label.
  init(_ labels: [String], paths: (current: String, base: String, other: String), asDriver: Bool) {
    let given = labels.map { $0.count == 2 && $0.hasPrefix("%") ? nil : $0 }
    func label(_ index: Int) -> String? { index < given.count ? given[index] : nil }
    let merged = asDriver ? Git.mergedBranch() : nil
    current = label(0) ?? (asDriver ? "HEAD" : displayName(paths.current))
    other = label(2) ?? (asDriver ? merged?.name ?? "theirs" : displayName(paths.other))
    givenBase = label(1) ?? (asDriver ? nil : displayName(paths.base))
    mergedCommit = merged?.commit
    named = asDriver || given.contains { $0 != nil }
  }

  /// BASE's label; only a line merge shows it, so git is asked for it only then.
  func base() -> String {
    if let givenBase { return givenBase }
    return mergedCommit.flatMap { commit in (try? Git().mergeBaseLabel(with: commit)).flatMap { $0 } } ?? "base"
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
