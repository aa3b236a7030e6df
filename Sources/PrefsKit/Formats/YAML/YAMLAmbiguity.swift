internal import CYaml
import Foundation

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
          let old = YAMLResolver.resolve(bytes, version: .v1_1)
          let new = YAMLResolver.resolve(bytes, version: .v1_2)
          if old != new {
            let mark = YAMLMark(event.pointee.start_mark)
            found.append(
              YAMLAmbiguity(
                text: String(decoding: bytes, as: UTF8.self), position: mark.position,
                yaml11: old.summary,
                yaml12: new.summary))
          }
        default:
          continue
        }
      }
    }
  }
}
