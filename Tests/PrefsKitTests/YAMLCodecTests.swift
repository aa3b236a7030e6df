import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

// MARK: - Helpers

let codec = YAMLCodec()

func read(_ text: String, _ version: YAMLVersion = .v1_2) throws -> PrefValue {
  try codec.decode(Data(text.utf8), options: ReadOptions(yamlVersion: version))
}

func written(_ value: PrefValue, sortKeys: Bool = false) throws -> String {
  String(
    decoding: try codec.encode(value, options: WriteOptions(sortKeys: sortKeys)), as: UTF8.self)
}

/// The error reading `text` throws (a failure is recorded when it reads).
func readError(
  _ text: String, _ version: YAMLVersion = .v1_2, options: ReadOptions? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) -> PrefsError? {
  var opts = options ?? ReadOptions(yamlVersion: version)
  if options == nil { opts.yamlVersion = version }
  do {
    let value = try codec.decode(Data(text.utf8), options: opts)
    Issue.record("expected an error, read \(value)", sourceLocation: sourceLocation)
    return nil
  } catch let error as PrefsError {
    return error
  } catch {
    Issue.record("unexpected error type \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

func date(_ text: String) -> PrefValue { .date(TextForms.parseDate(text)!) }

/// Every YAML suite lives in here, so that `swift test --filter YAMLCodecTests` runs them all.
@Suite("YAML codec")
struct YAMLCodecTests {}
