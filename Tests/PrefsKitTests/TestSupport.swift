import Foundation
import Testing

@testable import PrefsKit

/// Paths and helpers shared by the library tests.
enum TestSupport {
  /// The package root (the folder holding Package.swift).
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/corpus` relative to the package root, or nil (with a visible note) when absent.
  static func corpus(_ subfolder: String) -> URL? {
    let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/\(subfolder)")
    if FileManager.default.fileExists(atPath: url.path) { return url }
    print("note: corpus folder \(url.path) is absent; skipping the tests that read it")
    return nil
  }

  /// The files of a folder, sorted by name.
  static func files(in folder: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { folder.appendingPathComponent($0) }
  }

  /// A fresh temporary folder, removed by the caller with `removeItem`.
  static func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

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

extension TestSupport {
  /// The output of a finished process.
  struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `executable` with `arguments` and optional standard input, and waits.
  static func run(_ executable: URL, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil)
    throws -> ProcessResult
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    if let input { inPipe.fileHandleForWriting.write(input) }
    try inPipe.fileHandleForWriting.close()
    // Read both pipes while the process runs, so that neither fills up.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// `python3` on the PATH, or nil with a visible note.
  static func python() -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("python3")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    print("note: python3 is not on the PATH; skipping the cross-checks against Python")
    return nil
  }
}
