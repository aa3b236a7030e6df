import PrefsFormats
import PrefsModel

/// How the documents of two YAML streams line up, for `diff` and `merge`: by name
/// (`Kind/name`, from `kind` and `metadata.name`) when every document of both has one
/// and no two of a stream share it, as Kubernetes manifests do; else by position.
public struct DocumentAlignment: Sendable, Equatable {
  /// One document of either stream, and its counterpart in the other.
  public struct Pair: Sendable, Equatable {
    /// The document's index in the first stream; nil when only the second has it.
    public let old: Int?
    /// The document's index in the second stream; nil when only the first has it.
    public let new: Int?
    /// How messages name the document, in brackets: `[Kind/name]`, or its index (the
    /// second stream's, or the first's for a document only it has): `[2]`.
    public let label: String
  }

  /// The pairs: the first stream's documents in order, then those only the second has.
  public let pairs: [Pair]
  /// Whether the documents were lined up by name.
  public let byName: Bool

  /// Lines up the documents `old` and `new`.
  public init(_ old: [PrefValue], _ new: [PrefValue]) {
    if let oldNames = YAMLStream.uniqueNames(of: old), let newNames = YAMLStream.uniqueNames(of: new) {
      let newIndex = Dictionary(uniqueKeysWithValues: newNames.enumerated().map { ($1, $0) })
      let oldSet = Set(oldNames)
      pairs =
        oldNames.enumerated().map { Pair(old: $0, new: newIndex[$1], label: "[\($1)]") }
        + newNames.enumerated().filter { !oldSet.contains($1) }.map { Pair(old: nil, new: $0, label: "[\($1)]") }
      byName = true
    } else {
      pairs = (0..<max(old.count, new.count)).map { index in
        Pair(old: index < old.count ? index : nil, new: index < new.count ? index : nil, label: "[\(index)]")
      }
      byName = false
    }
  }
}

extension StructuralDiff {
  /// The changes that turn the documents `old` into the documents `new`, document by
  /// document as ``DocumentAlignment`` lines them up, each with its document's label;
  /// a document only one side has is one change at its top level. `expandingData`
  /// and `warnings` are those of ``changes(from:to:excluding:expandingData:warnings:)``.
  public static func changes(
    fromDocuments old: [PrefValue], to new: [PrefValue], excluding: [KeyGlob] = [], expandingData: Bool = false,
    warnings: (old: Warnings, new: Warnings) = (Warnings(), Warnings())
  ) -> [(document: String, change: PrefChange)] {
    DocumentAlignment(old, new).pairs.flatMap { pair -> [(document: String, change: PrefChange)] in
      switch (pair.old, pair.new) {
      case (let i?, let j?):
        return changes(
          from: old[i], to: new[j], excluding: excluding, expandingData: expandingData, warnings: warnings
        ).map { (pair.label, $0) }
      case (let i?, nil):
        return [(pair.label, PrefChange(kind: .removed, path: PrefKeyPath(), old: old[i], new: nil))]
      case (nil, let j?):
        return [(pair.label, PrefChange(kind: .added, path: PrefKeyPath(), old: nil, new: new[j]))]
      case (nil, nil):
        return []
      }
    }
  }
}
