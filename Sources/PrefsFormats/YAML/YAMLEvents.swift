internal import CYaml
import PrefsModel
import PrefsText

/// A 1-based line and column in a YAML input (libyaml's marks are 0-based).
struct YAMLMark: Equatable {
  var line: Int
  var column: Int

  init(_ mark: yaml_mark_t) {
    line = Int(mark.line) + 1
    column = Int(mark.column) + 1
  }

  init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// A composer error here: the events make no value.
  func error(_ message: String, hints: [String] = []) -> PrefsError {
    error(.syntax(format: "yaml", stage: .composer, problem: message), hints: hints)
  }

  func error(_ kind: PrefsError.Kind, hints: [String] = []) -> PrefsError {
    PrefsError(kind, position: position, hints: hints)
  }

  var position: SourcePosition { .lineColumn(line: line, column: column) }
}

/// libyaml's event parser over a byte buffer that the caller keeps alive.
/// Each event stays valid until the next call to ``next()``.
final class YAMLEventStream {
  private let parser: UnsafeMutablePointer<yaml_parser_t>
  private let event: UnsafeMutablePointer<yaml_event_t>
  private var holdsEvent = false
  private let input: UnsafeRawBufferPointer
  /// libyaml asserts on a null input pointer; an empty document reads from here.
  nonisolated(unsafe) private static let empty: UnsafeMutablePointer<UInt8> = {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    p.initialize(to: 0)
    return p
  }()

  init(_ input: UnsafeRawBufferPointer) throws {
    self.input = input
    parser = .allocate(capacity: 1)
    event = .allocate(capacity: 1)
    guard yaml_parser_initialize(parser) == 1 else {
      parser.deallocate()
      event.deallocate()
      throw PrefsError(.outOfMemory(doing: "starting the YAML parser"))
    }
    let start = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(Self.empty)
    yaml_parser_set_input_string(parser, start, input.count)
  }

  deinit {
    if holdsEvent { yaml_event_delete(event) }
    yaml_parser_delete(parser)
    parser.deallocate()
    event.deallocate()
  }

  /// The next event, borrowed until the next call.
  func next() throws -> UnsafePointer<yaml_event_t> {
    if holdsEvent {
      yaml_event_delete(event)
      holdsEvent = false
    }
    guard yaml_parser_parse(parser, event) == 1 else { throw parserError() }
    holdsEvent = true
    return UnsafePointer(event)
  }

  /// libyaml's error as one positioned line: `problem (context at line L, column C)`,
  /// its stage told by libyaml's error type.
  private func parserError() -> PrefsError {
    let p = parser.pointee
    let problem = p.problem.map { String(cString: $0) } ?? "unknown YAML error"
    func syntax(_ message: String, _ stage: PrefsError.SyntaxStage, at mark: YAMLMark) -> PrefsError {
      mark.error(.syntax(format: "yaml", stage: stage, problem: message))
    }
    switch p.error {
    case YAML_MEMORY_ERROR:
      return PrefsError(.outOfMemory(doing: "reading YAML"))
    case YAML_READER_ERROR:
      // Reader errors (bad UTF-8, control characters) carry a byte offset only.
      var message = problem
      if p.problem_value != -1 {
        message +=
          " (0x" + String(UInt32(truncatingIfNeeded: p.problem_value), radix: 16, uppercase: true)
          + ")"
      }
      return syntax(message, .reader, at: Self.mark(atByte: p.problem_offset, in: input))
    default:
      let stage: PrefsError.SyntaxStage = p.error == YAML_SCANNER_ERROR ? .scanner : .parser
      // The scanner stops at a tab where indentation is read, at the tab itself or
      // (a tab before a plain scalar) at the scalar after it; either way the tab in
      // the line's indentation is what to point at.
      if p.error == YAML_SCANNER_ERROR {
        var offsets = YAMLOffsets(input)
        if let tab = Self.indentingTab(before: offsets.byteOffset(p.problem_mark), in: input) {
          return syntax("tabs cannot indent YAML; use spaces", .scanner, at: Self.mark(atByte: tab, in: input))
        }
      }
      var message = problem
      if let context = p.context {
        let c = YAMLMark(p.context_mark)
        message += " (\(String(cString: context)) at line \(c.line), column \(c.column))"
      }
      return syntax(message, stage, at: YAMLMark(p.problem_mark))
    }
  }

  /// The byte offset of the first tab in the indentation of the line that holds byte
  /// `offset`, when that tab is at or before it.
  static func indentingTab(before offset: Int, in bytes: UnsafeRawBufferPointer) -> Int? {
    let offset = min(offset, bytes.count)
    var index = offset
    while index > 0, bytes[index - 1] != UInt8(ascii: "\n"), bytes[index - 1] != UInt8(ascii: "\r") { index -= 1 }
    while index <= offset, index < bytes.count,
      bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")
    {
      if bytes[index] == UInt8(ascii: "\t") { return index }
      index += 1
    }
    return nil
  }

  /// The line and column of a byte offset.
  static func mark(atByte offset: Int, in bytes: UnsafeRawBufferPointer) -> YAMLMark {
    guard case .lineColumn(let line, let column) = SourcePosition.of(offset: offset, in: bytes) else {
      return YAMLMark(line: 1, column: 1)
    }
    return YAMLMark(line: line, column: column)
  }

}

/// Turns libyaml's marks, which count characters, into byte offsets of the UTF-8
/// input. Marks arrive in document order, so a cursor walks forward through the
/// bytes once; ASCII input needs no walk at all.
struct YAMLOffsets {
  private let bytes: UnsafeRawBufferPointer?
  private let isASCII: Bool
  /// libyaml does not count a byte order mark.
  private let start: Int
  private var character = 0
  private var byte = 0

  init(_ bytes: UnsafeRawBufferPointer?) {
    self.bytes = bytes
    let start = bytes.map { TextEncoding.utf8MarkLength($0) } ?? 0
    self.start = start
    isASCII =
      bytes.map { raw in
        UTF8Text.isASCII(UnsafeBufferPointer(rebasing: raw.assumingMemoryBound(to: UInt8.self)[start...]))
      } ?? true
    byte = start
  }

  /// The byte offset of `mark`.
  mutating func byteOffset(_ mark: yaml_mark_t) -> Int {
    let target = Int(mark.index)
    guard let bytes, !isASCII else { return start + target }
    if target < character {
      character = 0
      byte = start
    }
    while character < target, byte < bytes.count {
      byte += 1
      while byte < bytes.count, bytes[byte] & 0xC0 == 0x80 { byte += 1 }
      character += 1
    }
    return byte
  }
}
