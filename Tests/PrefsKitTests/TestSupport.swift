import Foundation
import PrefsKit
@_exported import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

extension TestSupport {
  /// Encodes with `format` and reads back with the same format.
  static func roundTrip(_ value: PrefValue, through format: Format, options: WriteOptions = WriteOptions())
    throws -> PrefValue
  {
    let data = try format.codec.encode(value, options: options)
    return try format.codec.decode(data)
  }

  /// A value holding every kind of the model, for round-trip tests.
  static let everyKind: PrefValue = .dictionary([
    "string": .string("Chimes"),
    "empty": .string(""),
    "unicode": .string("caf\u{E9} \u{1F600} \u{4E2D}"),
    "int": .integer(42),
    "negative": .integer(-1),
    "min": .integer(.min),
    "max": .integer(.max),
    "big": .unsignedInteger(UInt64.max),
    "real": .real(1.0),
    "tenth": .real(0.1),
    "tiny": .real(1e-7),
    "huge": .real(1e20),
    "negativeZero": .real(-0.0),
    "yes": .bool(true),
    "no": .bool(false),
    "date": .date(Date(timeIntervalSinceReferenceDate: 721_692_800)),
    "data": .data(Data([0, 1, 2, 255])),
    "emptyData": .data(Data()),
    "array": .array([.integer(1), .real(1.0), .bool(true), .string("1")]),
    "emptyArray": .array([]),
    "dict": .dictionary(["nested": .dictionary(["deeper": .string("x")])]),
    "emptyDict": .dictionary([:]),
  ])
}

/// Conditions for tests that need a corpus or a tool: without it the test is skipped
/// with its reason, never passed without running.
extension Trait where Self == ConditionTrait {
  /// Runs the test only when `../shared/corpus/<subfolder>` is there.
  static func needsCorpus(_ subfolder: String) -> Self {
    .enabled(if: TestSupport.hasCorpus(subfolder), "the corpus folder ../shared/corpus/\(subfolder) is absent")
  }

  /// Runs the test only when python3 can import `module` (`nil`: python3 alone).
  static func needsPython(_ module: String? = nil) -> Self {
    .enabled(
      if: Python.has(module),
      module.map { "python3 with \($0) is not installed" } ?? "python3 is not installed")
  }
}

/// What library tests check of an error: its kind, never its words.
extension PrefsError.Kind {
  /// The case's name without its values (`tooDeep`), for tests that check what
  /// failed and not the details.
  var name: String { String(String(describing: cause).prefix { $0 != "(" }) }

  /// The format and stage of a syntax error (under any wrapping kind); nil for any
  /// other kind.
  var syntax: (format: String, stage: PrefsError.SyntaxStage)? {
    guard case .syntax(let format, let stage, _) = cause else { return nil }
    return (format, stage)
  }
}

extension PrefsError.Kind {
  /// A syntax error's problem (under any wrapping kind); nil for any other kind.
  var problem: String? {
    guard case .syntax(_, _, let problem) = cause else { return nil }
    return problem
  }
}

/// Expects `error` to be of `kind`, at `line` and `column` when given.
func expectError(
  _ error: PrefsError?, is kind: PrefsError.Kind, line: Int? = nil, column: Int? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(error?.kind == kind, sourceLocation: sourceLocation)
  if let line, let column {
    #expect(error?.position == .lineColumn(line: line, column: column), sourceLocation: sourceLocation)
  }
}

/// Expects `error` to be a syntax error of `format` about `problem`, at any stage, at
/// `line` and `column` when given.
func expectSyntaxError(
  _ error: PrefsError?, _ format: String, _ problem: String, line: Int? = nil, column: Int? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(error?.kind.syntax?.format == format, "\(String(describing: error))", sourceLocation: sourceLocation)
  #expect(error?.kind.problem == problem, sourceLocation: sourceLocation)
  if let line, let column {
    #expect(error?.position == .lineColumn(line: line, column: column), sourceLocation: sourceLocation)
  }
}
