import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// Inputs the fuzzers (`make fuzz`) found to crash or to break a round trip, kept in
/// `Tests/Fixtures/fuzz/<target>/`, and the limits that keep hostile input cheap.
@Suite struct FuzzRegressionTests {
  static let fixtures = TestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/fuzz")

  /// Every kept input, as (target, file).
  static let inputs: [String] = {
    TestSupport.files(in: fixtures).flatMap { folder in
      TestSupport.files(in: folder).map { "\(folder.lastPathComponent)/\($0.lastPathComponent)" }
    }
  }()

  /// Reads `data` the way the fuzz target `target` does.
  static func read(_ data: Data, target: String) throws -> PrefValue {
    switch target {
    case "json": try Format.json.codec.decode(data)
    case "yaml": try Format.yaml.codec.decode(data)
    case "binary":
      try { () throws -> PrefValue in
        var reader = BinaryPlistReader(
          data, maxDepth: ReadOptions().maxDepth, warnings: Warnings(), parallelism: .automatic)
        return try reader.read()
      }()
    case "xml":
      try { () throws -> PrefValue in
        var reader = XMLPlistReader(data, maxDepth: ReadOptions().maxDepth, parallelism: .automatic)
        return try reader.read()
      }()
    case "openstep": try OpenStepReader.read(data)
    default: try Format.read(data).value
    }
  }

  @Test func thereAreKeptInputs() {
    #expect(!Self.inputs.isEmpty)
  }

  /// Each input reads to a value or a clean error; a value re-encodes as JSON, YAML and
  /// binary and reads back equal, or (a date no ISO 8601 text holds exactly) a text
  /// writer refuses it with an error.
  @Test(arguments: inputs)
  func keptInputReadsCleanlyAndRoundTrips(_ input: String) throws {
    let target = String(input.split(separator: "/")[0])
    let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(input))
    let value: PrefValue?
    do {
      value = try Self.read(data, target: target)
    } catch is PrefsError {
      // A clean error is one of the two outcomes; there is no value to write.
      value = nil
    }
    if let value {
      for format in [Format.binary, .json, .yaml] {
        let encoded: Data
        do {
          encoded = try format.codec.encode(value)
        } catch let error as PrefsError {
          #expect(format != .binary, "\(error)")
          #expect(error.kind.name == "unrepresentable", "\(error)")
          continue
        }
        #expect(try format.codec.decode(encoded) == value, "\(format)")
      }
    }
  }

  @Test func aDateOutsideTheOneRangeIsRefusedByEveryWriter() throws {
    let far = PrefValue.dictionary(["d": .date(Date(timeIntervalSinceReferenceDate: 8.2e149))])
    for format in [Format.json, .yaml, .xml, .binary] {
      let error = #expect(throws: PrefsError.self) { try format.codec.encode(far) }
      guard case .unrepresentable(format.name, .date, _, let problem)? = error?.kind else {
        Issue.record("\(format): \(String(describing: error))")
        continue
      }
      #expect(problem.contains(TextForms.dateRangeProblem), "\(format)")
    }
  }

  @Test func tinyAndSignedZeroDatesAreExactOrRefused() throws {
    let smallest = Double.leastNonzeroMagnitude
    let tiny = Date(timeIntervalSinceReferenceDate: smallest)
    let text = try #require(TextForms.exactDate(tiny))
    #expect(TextForms.parseDate(text)?.timeIntervalSinceReferenceDate.bitPattern == smallest.bitPattern)
    #expect(TextForms.exactDate(Date(timeIntervalSinceReferenceDate: -0.0)) == nil)
    // Just before 2001: the fraction is the complement of the digits, read back exactly.
    let before = try #require(TextForms.exactDate(Date(timeIntervalSinceReferenceDate: -1e-300)))
    #expect(TextForms.parseDate(before)?.timeIntervalSinceReferenceDate == -1e-300)
    #expect(TextForms.exactDate(Date(timeIntervalSinceReferenceDate: 721_692_800.125)) == "2023-11-14T22:13:20.125Z")
    let error = try #require(throws: PrefsError.self) {
      try Format.json.codec.encode(.array([.date(Date(timeIntervalSinceReferenceDate: -0.0))]))
    }
    #expect(
      error.kind
        == .unrepresentable(
          format: "json", kind: .date, path: PrefKeyPath([.index(0)]),
          problem: "date 2001-01-01T00:00:00Z at 0 has no exact ISO 8601 form"))
  }

  // MARK: Limits

  @Test func inputsOverTheSizeLimitAreRefusedBeforeParsing() throws {
    var options = ReadOptions()
    options.maxInputBytes = 16
    let error = try #require(throws: PrefsError.self) {
      try Format.read(Data(#"{"a": "0123456789"}"#.utf8), options: options)
    }
    #expect(error.kind == .inputTooLarge(size: 19, limit: 16))
    #expect(error.category == .badInput)
    #expect(try Format.read(Data("{}".utf8), options: options).value == .dictionary([:]))
  }

  @Test func aFileOverTheSizeLimitIsRefusedBeforeReading() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("big.json").path
    try Data(repeating: 0x20, count: 100).write(to: URL(fileURLWithPath: file))
    let error = try #require(throws: PrefsError.self) { try InputFile.read(file, limit: 99) }
    #expect(error.kind == .inputTooLarge(size: 100, limit: 99))
    #expect(error.file == file)
    #expect(try InputFile.read(file, limit: 100).count == 100)
  }

  @Test(arguments: [
    (
      "json", "[" + String(repeating: "1", count: 2000) + "]",
      "1:2: number of 2000 characters is longer than the limit of 1024"
    ),
    (
      "json", "[0." + String(repeating: "1", count: 2000) + "]",
      "1:2: number of 2002 characters is longer than the limit of 1024"
    ),
    (
      "yaml", "a: 0." + String(repeating: "1", count: 2000) + "\n",
      "1:4: number of 2002 characters is longer than the limit of 1024: 0." + String(repeating: "1", count: 38) + "…"
    ),
    (
      "yaml", "a: " + String(repeating: "1", count: 2000) + "\n",
      "1:4: number of 2000 characters is longer than the limit of 1024: " + String(repeating: "1", count: 40) + "…"
    ),
    (
      "xml", "<plist><real>" + String(repeating: "1", count: 2000) + "</real></plist>",
      "1:8: number of 2000 characters is longer than the limit of 1024"
    ),
    (
      "xml", "<plist><integer>" + String(repeating: "1", count: 2000) + "</integer></plist>",
      "1:8: number of 2000 characters is longer than the limit of 1024"
    ),
  ])
  func longNumberLiteralsAreRefusedWithAPosition(_ format: String, _ text: String, _ message: String) throws {
    let error = try #require(throws: PrefsError.self) {
      try Format.named(format)!.codec.decode(Data(text.utf8))
    }
    #expect(PrefsError.located(error.kind.problem ?? "\(error.kind)", file: nil, position: error.position) == message)
  }
}
