import PrefsModel
import PrefsText

/// What a reader does with a key given twice in one dictionary: refuse it (the
/// default), or with ``ReadOptions/allowDuplicateKeys`` keep the last value, as
/// `plutil` and Python's `plistlib` do, with a warning naming the key and where it
/// stands. Every reader words both the same way.
struct DuplicateKeys {
  let allowed: Bool
  let warnings: Warnings

  init(_ options: ReadOptions, warnings: Warnings) {
    self.allowed = options.allowDuplicateKeys
    self.warnings = warnings
  }

  /// Refuses every duplicate.
  static let refused = DuplicateKeys(ReadOptions(), warnings: Warnings())

  /// Adds `key` to `dict`; a duplicate is the error `refusal` makes of its kind,
  /// or when allowed replaces the earlier value (keeping its place) with a warning
  /// at `position`.
  @inline(__always)
  func insert(
    _ key: String, _ value: PrefValue, into dict: inout PrefDictionary,
    position: () -> SourcePosition?, refusal: (PrefsError.Kind) -> PrefsError
  ) throws {
    if dict.insertNew(key, value) { return }
    guard allowed else { throw refusal(.duplicateKey(key)) }
    let refused = PrefsError.Kind.duplicateKey(key)
    warnings.add(refused.message + ": the last value is kept", position: position(), refused: refused)
    dict[key] = value
  }
}
