internal import CYaml
import PrefsModel
import PrefsText

/// A plain scalar that YAML 1.1 and YAML 1.2 read differently (`yes`, `0755`, `1:20`,
/// `1e3`), found by ``YAMLCodec/ambiguities(in:)`` for `prefs lint`.
public struct YAMLAmbiguity: Sendable, Equatable, CustomStringConvertible {
  /// The scalar as written.
  public let text: String
  /// Where it starts (1-based line and column).
  public let position: SourcePosition
  /// How YAML 1.1 (PyYAML) reads it, e.g. `bool true`.
  public let yaml11: String
  /// How YAML 1.2 (core schema with timestamps) reads it, e.g. `string`.
  public let yaml12: String

  /// The ambiguity of a plain, untagged scalar, if YAML 1.1 and 1.2 read it differently.
  init?(plain bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) {
    let old = YAMLResolver.resolve(bytes, version: .v1_1)
    let new = YAMLResolver.resolve(bytes, version: .v1_2)
    guard old != new else { return nil }
    self.init(
      text: String(decoding: bytes, as: UTF8.self), position: position, yaml11: old.summary, yaml12: new.summary)
  }

  init(text: String, position: SourcePosition, yaml11: String, yaml12: String) {
    self.text = text
    self.position = position
    self.yaml11 = yaml11
    self.yaml12 = yaml12
  }

  /// What `prefs lint` says of it: `'off' is a string in YAML 1.2 but bool false in
  /// YAML 1.1 (PyYAML); quote it, or write false`.
  public var message: String {
    func value(_ summary: String) -> String? {
      let parts = summary.split(separator: " ", maxSplits: 1)
      // `error (…)` names a problem, not a value to write.
      return parts.count == 2 && !parts[1].hasPrefix("(") ? String(parts[1]) : nil
    }
    let text =
      "'\(self.text)' is \(yaml12 == "string" ? "a string" : yaml12) in YAML 1.2 but "
      + "\(yaml11 == "string" ? "a string" : yaml11) in YAML 1.1 (PyYAML)"
    let choices = [value(yaml12), value(yaml11)].compactMap { $0 }
    if choices.isEmpty { return text + "; quote it" }
    return text + "; quote it, or write " + choices.joined(separator: " or ")
  }

  public var description: String {
    let prefix: String
    if case .lineColumn(let line, let column) = position {
      prefix = "\(line):\(column): "
    } else {
      prefix = ""
    }
    return "\(prefix)'\(text)' is \(yaml11) in YAML 1.1 but \(yaml12) in YAML 1.2"
  }
}

extension YAMLCodec {
  /// Every untagged plain scalar, in every document of `data`, that YAML 1.1 and
  /// YAML 1.2 resolve differently, in document order. Throws on a syntax error.
  public static func ambiguities(in data: Data) throws -> [YAMLAmbiguity] {
    try data.withUnsafeBytes { raw in
      let stream = try YAMLEventStream(raw)
      var found: [YAMLAmbiguity] = []
      while true {
        let event = try stream.next()
        switch event.pointee.type {
        case YAML_STREAM_END_EVENT:
          return found
        case YAML_SCALAR_EVENT:
          let s = event.pointee.data.scalar
          guard s.tag == nil, s.style == YAML_PLAIN_SCALAR_STYLE else { continue }
          let bytes = UnsafeBufferPointer(start: s.value, count: s.length)
          if let ambiguity = YAMLAmbiguity(plain: bytes, at: YAMLMark(event.pointee.start_mark).position) {
            found.append(ambiguity)
          }
        default:
          continue
        }
      }
    }
  }
}
