import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// One row of a ``SettingsForm``: a key (or an array's item), what is stored there,
/// what the app reads, and what is wrong with it.
public struct FormRow: Sendable, Equatable {
  /// Where the value is, from the domain's top (through data shown as structure).
  public var path: PrefKeyPath
  /// The key, or the item's number (`1`) in a list.
  public var name: String
  /// What the row is labelled with: the schema's description, else the name.
  public var label: String
  /// The type the app reads the value as; nil for a value of no such type (a uid).
  public var type: ValueText.TypeName?
  /// The control the row shows, as its type, values and range call for.
  public var control: FormControl
  /// The stored value; nil when the key is missing.
  public var stored: PrefValue?
  /// What the app reads: the stored value cast, else the fallback (nil: nothing).
  public var appReads: PrefValue?
  /// The fallback, when the schema gives one.
  public var fallback: PrefValue?
  /// Why the stored value is wrong (the app falls back, or it is not allowed).
  public var problem: String?
  /// The value ``SettingsForm/fix(_:)`` stores for a wrong one: what it meant, by the
  /// rules of ``CoercionRule``, else the nearest end of its range, else the fallback.
  public var fix: PrefValue?
  /// Whether the schema lists the key (always true without a schema).
  public var isKnown: Bool
  /// For a key the schema does not list: that the app does not read it, and the
  /// listed key it may be a typo of.
  public var note: String?
  /// Whether the value differs from what the domain held when the form opened.
  public var isChanged: Bool

  /// The row for the schema key `key` holding `stored`, read on `platform`.
  init(
    path: PrefKeyPath, name: String, key: SchemaKey, stored: PrefValue?, original: PrefValue?, isKnown: Bool,
    embedded: Bool, platform: Platform
  ) {
    self.path = path
    self.name = name
    let description = key.description.flatMap { $0.isEmpty ? nil : $0 }
    label = description ?? name
    type = key.type
    control = FormControl.for(key.type, values: key.values, range: key.range)
    if embedded || (key.type == .data && stored.flatMap(Self.embeddedKind) != nil) {
      // Data shown as structure is still data to the app.
      type = .data
      control = .data(opens: true)
    }
    self.stored = stored
    fallback = key.defaultValue
    // Data shown as structure is read by the app as data.
    appReads = embedded ? stored : key.appReads(stored, on: platform)
    self.isKnown = isKnown
    isChanged = stored != original
    let finding = embedded ? nil : stored.flatMap { key.check($0, at: path).first { $0.path == path } }
    problem = finding?.message
    fix = finding.flatMap { Self.fix(for: $0, key: key) }
  }

  /// The row for a value of no schema key's type (a uid): shown, never changed.
  init(path: PrefKeyPath, name: String, readOnly stored: PrefValue, isKnown: Bool) {
    self.path = path
    self.name = name
    label = name
    type = nil
    control = .readOnly
    self.stored = stored
    appReads = nil
    self.isKnown = isKnown
    isChanged = false
  }

  /// What a finding's value should have been: the coerced value when a rule gives one
  /// the schema allows, a number moved into its range, else the fallback.
  static func fix(for finding: SchemaFinding, key: SchemaKey) -> PrefValue? {
    func allowed(_ value: PrefValue) -> Bool {
      (key.values?.contains(value) ?? true) && (key.range?.contains(value) ?? true)
    }
    switch finding.problem {
    case .typeMismatch(let stored, _, _):
      if let (value, _) = Schema.coerced(stored, to: key.type), allowed(value) { return value }
    case .outOfRange(let stored, let range):
      return nearestEnd(of: range, to: stored)
    default:
      break
    }
    return key.defaultValue.flatMap { allowed($0) ? $0 : nil }
  }

  /// The end of `range` nearest to `value`, which lies outside it, as the key's type
  /// (a real bound for an integer key is kept only when it is whole).
  static func nearestEnd(of range: SchemaRange, to value: PrefValue) -> PrefValue? {
    let belowMin = range.min.map { !SchemaRange(min: $0).contains(value) } ?? false
    guard let end = belowMin ? range.min : range.max else { return nil }
    switch (value, end) {
    case (.real, .integer(let n)): return Double(exactly: n).map(PrefValue.real)
    case (.integer, .real(let r)): return Int64(exactly: r).map(PrefValue.integer)
    default: return end
    }
  }

  /// What data holds when it opens as a page: JSON or a binary plist.
  static func embeddedKind(_ value: PrefValue) -> EmbeddedData.Kind? {
    guard case .data(let data) = value else { return nil }
    return EmbeddedData.expand(data)?.kind
  }
}
