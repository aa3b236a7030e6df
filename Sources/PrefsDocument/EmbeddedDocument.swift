import PrefsFormats
import PrefsModel

/// Data that holds a JSON document or a binary plist (the tutorial's `items`), opened
/// as a document of its own: the structure it holds, and the bytes that hold a new
/// structure in the blob's own style.
///
/// A blob is opened when ``EmbeddedData/inspect(_:)`` finds structure in it, JSON in
/// any spacing or escaping included. An unchanged structure gives the blob's very
/// bytes back. A changed JSON blob is patched as a JSON file is (``TextDocument``):
/// only the bytes of what changed change, so its spacing, indentation, key order and
/// escaping stay, a new or changed string escaping `/` as `\/` when the blob does (as
/// `JSONEncoder` writes by default). A binary plist has no text and is written anew.
/// A blob inside a blob is data in the outer structure: it opens as one of its own.
public struct EmbeddedDocument: Sendable {
  /// What the blob holds: JSON or a binary plist.
  public let kind: EmbeddedData.Kind
  /// The array or dictionary the blob holds.
  public let value: PrefValue
  /// The blob's bytes.
  public let data: Data
  /// Whether the blob is exactly what prefs writes for its structure, and so read
  /// with prefs' typed JSON (`$data`, `$date`); else it is read as plain JSON.
  private let exact: Bool

  /// The blob `data` opened; nil when it holds no structure (it is opaque, or left as
  /// data, as ``EmbeddedData/inspect(_:)`` says and why).
  public init?(_ data: Data) {
    guard case .structure(let kind, let value, let exact) = EmbeddedData.inspect(data) else { return nil }
    self.kind = kind
    self.value = value
    self.data = data
    self.exact = exact
  }

  /// The bytes of a blob like this one holding `newValue`: the blob's own bytes when
  /// `newValue` is its value, else its JSON text patched to `newValue`, or a binary
  /// plist of `newValue`. Throws when the blob cannot hold `newValue` (plain JSON has
  /// no date or data) or when `newValue` is no array or dictionary.
  public func bytes(for newValue: PrefValue) throws -> Data {
    if newValue == value { return data }
    guard newValue.kind == .array || newValue.kind == .dictionary else {
      throw refusal(newValue, problem: "it holds \(newValue.kind.article) \(newValue.kind.rawValue), not a collection")
    }
    switch kind {
    case .plist:
      return try EmbeddedData.bytes(newValue, kind: .plist)
    case .json:
      var options = ReadOptions()
      options.plainJSON = !exact
      guard let document = try TextDocument(data, format: .json, options: options) else {
        return try EmbeddedData.bytes(newValue, kind: .json)
      }
      let patched = try document.patched(to: newValue).data
      // What the blob's readers will read: the structure, as this blob was read.
      guard EmbeddedDocument(patched)?.value == newValue else {
        throw refusal(newValue, problem: "plain JSON cannot hold every value it holds (a date, data, a uid)")
      }
      return patched
    }
  }

  private func refusal(_ newValue: PrefValue, problem: String) -> PrefsError {
    PrefsError(
      .unrepresentable(
        format: kind == .json ? "json" : "binary", kind: newValue.kind, path: nil,
        problem: "the \(kind == .json ? "JSON" : "binary plist") data cannot hold the new value: \(problem)"))
  }
}
