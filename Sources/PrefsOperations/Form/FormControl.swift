import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// The control a row of a ``SettingsForm`` shows, as its key's type calls for.
public enum FormControl: Sendable, Equatable {
  /// A text field (a string).
  case text
  /// A toggle (a bool).
  case toggle
  /// A list to pick one of (a key whose schema gives its `values`).
  case picker([PrefValue])
  /// A number field holding an integer, within the range when there is one.
  case integer(SchemaRange?)
  /// A number field holding a real, within the range when there is one.
  case real(SchemaRange?)
  /// A date field, in ISO 8601.
  case date
  /// Data, shown by its size; data holding JSON or a binary plist opens as a page.
  case data(opens: Bool)
  /// An array, opened as a page of its items.
  case list
  /// A dictionary, opened as a page of its keys.
  case dictionary
  /// A value the form shows but cannot change (a keyed-archive uid).
  case readOnly

  /// The control for a key of `type`, restricted to `values` or `range`.
  static func `for`(_ type: ValueText.TypeName?, values: [PrefValue]?, range: SchemaRange?) -> FormControl {
    if let values, !values.isEmpty { return .picker(values) }
    switch type {
    case .string: return .text
    case .bool: return .toggle
    case .integer: return .integer(range)
    case .real: return .real(range)
    case .date: return .date
    case .data: return .data(opens: false)
    case .array: return .list
    case .dict: return .dictionary
    // A null (YAML and JSON only) is shown, not edited: it has no text of its own type.
    case .null, nil: return .readOnly
    }
  }

  /// Whether Enter edits the value as text in a field.
  public var isField: Bool {
    switch self {
    case .text, .integer, .real, .date: true
    default: false
    }
  }

  /// Whether Enter opens a page.
  public var opensPage: Bool {
    switch self {
    case .list, .dictionary, .data(opens: true): true
    default: false
    }
  }
}
