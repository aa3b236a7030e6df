import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// Why a key's data does not decode as the app's `Codable` type, and where in the
/// decoded value: the first problem, as the app's decoder stops at it.
public struct DecodeFailure: Sendable, Equatable {
  /// What is wrong.
  public enum Reason: Sendable, Equatable {
    /// The bytes are not JSON, or not a property list: the reader's message.
    case unreadable(String)
    /// A field the type does not declare optional is missing (or null).
    case missingField(String)
    /// A value of another kind than the type's property.
    case wrongType(expected: ValueText.TypeName, found: PrefValue)
  }

  /// Where: `item 2 of 3`, `field 'owner'`, outermost first.
  public var place: [String]
  public var reason: Reason

  public init(place: [String], reason: Reason) {
    self.place = place
    self.reason = reason
  }

  /// `does not decode as [Item]: item 2 of 3 has no field 'description' (JSONDecoder
  /// fails; the app reads [] instead, and its next save of items drops every stored item)`.
  public func message(for key: SchemaKey) -> String {
    let typeName = key.content?.swiftType ?? "the app's type"
    let decoder = (key.encoding ?? .json).decoderName
    let whereText = place.isEmpty ? "" : place.joined(separator: ", ") + " "
    let problem: String
    switch reason {
    case .unreadable(let detail):
      problem = "is not \(key.encoding == .plist ? "a property list" : "JSON"): \(detail)"
    case .missingField(let name):
      problem = "\(whereText)has no field '\(name)'"
    case .wrongType(let expected, let found):
      problem = "\(whereText)holds \(found.summary) where the app has \(expected.kind.article) \(expected.rawValue)"
    }
    var consequence = "\(decoder) fails"
    if let fallback = key.decodeFallback {
      let empty = fallback == .array([]) || fallback == .dictionary(PrefDictionary())
      // Empty as Swift writes it, `[]` or `[:]`.
      let spelled = empty ? (fallback == .array([]) ? "[]" : "[:]") : fallback.literal
      consequence += "; the app reads \(spelled) instead"
      if empty, !key.writtenAt.isEmpty {
        consequence += ", and its next save of \(key.name) drops every stored item"
      }
    }
    return "does not decode as \(typeName): \(problem) (\(consequence))"
  }
}

extension SchemaKey {
  /// Why `data` does not decode as this key's ``content``; nil when it does, or
  /// when the schema says nothing of what the data holds.
  public func decodeFailure(of data: Data) -> DecodeFailure? {
    guard let encoding, let content else { return nil }
    let value: PrefValue
    do {
      // The app's decoder takes a null for a missing value: both fail a field that is
      // not optional, neither fails one that is.
      value = try (encoding == .json ? Format.json : Format.xml).decode(data, options: ReadOptions())
        .droppingNulls(warnings: Warnings())
    } catch let error as PrefsError {
      let position: String
      switch error.position {
      case .lineColumn(let line, let column)?: position = " (line \(line), column \(column))"
      case .byteOffset(let offset)?: position = " (at byte \(offset))"
      case nil: position = ""
      }
      return DecodeFailure(place: [], reason: .unreadable(error.message + position))
    } catch {
      return DecodeFailure(place: [], reason: .unreadable("\(error)"))
    }
    return content.failure(of: value, place: [])
  }
}

extension SchemaContent {
  /// The first place where `value` does not fit this shape, as the decoder meets it.
  func failure(of value: PrefValue, place: [String]) -> DecodeFailure? {
    guard let type else { return nil }
    switch (type, value) {
    case (.integer, .integer), (.integer, .unsignedInteger), (.real, .integer), (.real, .unsignedInteger),
      (.real, .real):
      return nil
    case (.integer, .real(let real)) where real.rounded() == real:
      return nil
    case (.array, .array(let elements)):
      guard let items else { return nil }
      for (index, element) in elements.enumerated() {
        if let failure = items.failure(of: element, place: place + ["item \(index + 1) of \(elements.count)"]) {
          return failure
        }
      }
      return nil
    case (.dict, .dictionary(let dict)):
      for field in fields ?? [] {
        guard let fieldValue = dict[field.name] else {
          if field.content.isOptional { continue }
          return DecodeFailure(place: place, reason: .missingField(field.name))
        }
        if let failure = field.content.failure(of: fieldValue, place: place + ["field '\(field.name)'"]) {
          return failure
        }
      }
      return nil
    default:
      return value.kind == type.kind
        ? nil : DecodeFailure(place: place, reason: .wrongType(expected: type, found: value))
    }
  }
}
