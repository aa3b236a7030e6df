import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// What an operation did to a domain, or in a dry run would do.
public struct DomainChange: Sendable, Equatable {
  /// The contents before (nil: there was no such domain).
  public var before: PrefDictionary?
  /// The contents after (nil: there is no such domain, or no more).
  public var after: PrefDictionary?

  /// A change from `before` to `after`.
  public init(before: PrefDictionary?, after: PrefDictionary?) {
    self.before = before
    self.after = after
  }

  /// The differences, as `prefs diff` shows them.
  public var changes: [PrefChange] {
    StructuralDiff.changes(from: .dictionary(before ?? PrefDictionary()), to: .dictionary(after ?? PrefDictionary()))
  }

  /// Whether the domain changes: a value differs, or the domain is made or removed.
  public var changesDomain: Bool { !changes.isEmpty || (before == nil) != (after == nil) }
}

extension Warnings {
  /// Adds each of `other`'s warnings, naming `file` where it names none.
  package func add(_ other: Warnings, file: String) {
    for var warning in other.all {
      if warning.file == nil { warning.file = file }
      add(warning)
    }
  }
}
