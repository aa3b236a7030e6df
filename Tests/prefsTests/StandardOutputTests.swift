import Foundation
import PrefsTestSupport
import Testing

/// Standard output that cannot be written: a full disk or a closed descriptor is an
/// I/O error (74) with one message, and a reader that has gone a quiet exit (141),
/// never a trap or a death by signal.
@Suite struct StandardOutputTests {
  /// Runs `prefs arguments` through the shell with `redirect` on its standard output.
  static func prefs(_ arguments: [String], redirect: String, in folder: URL) throws -> TestSupport.ProcessResult {
    try TestSupport.run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "cd \"$0\" && \"$@\" \(redirect)", folder.path, TestSupport.prefsBinary.path] + arguments)
  }

  static let commands: [[String]] = [
    ["help"], ["get", "x.json", "a"], ["convert", "x.json", "--to", "json"], ["completions", "bash"],
  ]

  @Test(
    .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full is absent"),
    arguments: commands)
  func aFullStandardOutputExits74(_ arguments: [String]) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(#"{"a": 1}"#.utf8).write(to: folder.appendingPathComponent("x.json"))
    let result = try Self.prefs(arguments, redirect: ">/dev/full", in: folder)
    #expect(result.status == 74)
    #expect(result.stderr == "prefs: error: <stdout>: write failed: No space left on device\n")
  }

  @Test(arguments: commands)
  func aClosedStandardOutputExits74(_ arguments: [String]) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(#"{"a": 1}"#.utf8).write(to: folder.appendingPathComponent("x.json"))
    let result = try Self.prefs(arguments, redirect: ">&-", in: folder)
    #expect(result.status == 74)
    #expect(result.stderr == "prefs: error: <stdout>: write failed: Bad file descriptor\n")
  }

  @Test(arguments: commands)
  func aReaderThatHasGoneEndsTheCommandQuietly(_ arguments: [String]) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(#"{"a": 1}"#.utf8).write(to: folder.appendingPathComponent("x.json"))
    // A pipe whose read end is closed before prefs starts: its first write gets EPIPE.
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    close(ends[0])
    let process = Process()
    process.executableURL = TestSupport.prefsBinary
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    try (process.standardOutput as? FileHandle)?.close()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
    #expect(process.terminationStatus == 141)
    #expect(String(decoding: stderr, as: UTF8.self) == "")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full is absent"))
  func aFullStandardErrorDoesNotTrap() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The error cannot be shown; the status still says what happened.
    let result = try Self.prefs(["get", "missing.json", "a"], redirect: "2>/dev/full", in: folder)
    #expect(result.status == 66)
  }
}
