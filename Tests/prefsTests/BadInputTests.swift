import Foundation
import PrefsTestSupport
import Testing

/// The bad-input matrix: each hostile or broken input gets one error line in the
/// grammar `prefs: error: FILE…: message`, its documented exit status, no signal
/// death, and no output file.
@Suite struct BadInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let file: String
    let bytes: [UInt8]
    let status: Int32
    /// What the error line says after `prefs: error: FILE`.
    let message: String
    var testDescription: String { name }
  }

  static func text(_ s: String) -> [UInt8] { Array(s.utf8) }

  /// A small valid binary plist (`{"a": [1, "x"]}`), to break in several ways.
  static let validBinary: [UInt8] = [
    0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xD1, 0x01, 0x02, 0x51, 0x61, 0xA2, 0x03, 0x04,
    0x10, 0x01, 0x51, 0x78, 0x08, 0x0B, 0x0D, 0x10, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14,
  ]

  static let cases: [Case] = [
    Case(
      name: "truncated binary plist", file: "t.plist", bytes: Array(validBinary.prefix(30)), status: 65,
      message: ": at byte "),
    Case(
      name: "binary plist with an offset past the end", file: "o.plist",
      bytes: Array(validBinary.prefix(21)) + [0xF0] + Array(validBinary.dropFirst(22)), status: 65,
      message: ": at byte "),
    Case(
      name: "XML plist with an unknown tag", file: "u.plist",
      bytes: text("<?xml version=\"1.0\"?>\n<plist><dict><key>a</key><number>1</number></dict></plist>"),
      status: 65, message: ":2:"),
    Case(
      name: "XML plist with an entity declaration", file: "e.plist",
      bytes: text("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY x \"y\">]>\n<plist><string>&x;</string></plist>"),
      status: 65, message: ":2:"),
    Case(
      name: "invalid UTF-8 in YAML", file: "u.yaml", bytes: text("a: ") + [0xFF] + text("\n"), status: 65,
      message: ":1:4: "),
    Case(
      name: "invalid UTF-8 in JSON", file: "u.json", bytes: text("{\"a\": \"") + [0xC3, 0x28] + text("\"}"), status: 65,
      message: ":1:8: invalid UTF-8"),
    Case(
      name: "NUL byte in YAML", file: "n.yaml", bytes: text("a: 1") + [0] + text("\n"), status: 65, message: ":1:5: "),
    Case(
      name: "NUL byte in JSON", file: "n.json", bytes: text("{\"a\": \"x") + [0] + text("\"}"), status: 65,
      message: ":1:9: control character U+0000"),
    Case(
      name: "100,000-deep JSON", file: "d.json", bytes: Array(repeating: 0x5B, count: 100_000), status: 65,
      message: ":1:513: nesting deeper than 512 levels"),
    Case(
      name: "100,000-deep YAML", file: "d.yaml", bytes: Array(repeating: 0x5B, count: 100_000), status: 65,
      message: ":1:513: nesting deeper than 512 levels"),
    Case(
      name: "100,000-deep XML plist", file: "d.plist",
      bytes: text("<plist>" + String(repeating: "<array>", count: 100_000)), status: 65, message: ":1:"),
    Case(
      name: "YAML alias bomb", file: "bomb.yaml",
      bytes: text(
        (0..<9).map { level in
          level == 0
            ? "l0: &l0 [x, x, x, x, x, x, x, x, x]"
            : "l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ") + "]"
        }.joined(separator: "\n") + "\n"), status: 65, message: ":7:10: aliases expand to more than 1000000 nodes"),
    Case(
      name: "YAML aliases nested past the depth limit", file: "nested.yaml",
      bytes: text(
        (0..<30).map { k in
          "a\(k): &a\(k) " + String(repeating: "[", count: 500) + (k == 0 ? "1" : "*a\(k - 1)")
            + String(repeating: "]", count: 500)
        }.joined(separator: "\n") + "\n"), status: 65,
      message: ":2:509: nesting deeper than 512 levels (alias *a0 holds 500 levels)"),
    Case(
      name: "integer past UInt64 in JSON", file: "i.json", bytes: text("[18446744073709551616]"), status: 65,
      message: ":1:2: integer 18446744073709551616 is out of range (64 bits)"),
    Case(
      name: "integer past UInt64 in YAML", file: "i.yaml", bytes: text("a: 18446744073709551616\n"), status: 65,
      message: ":1:4: integer out of range"),
    Case(
      name: "integer past UInt64 in XML", file: "i.plist",
      bytes: text("<plist><integer>18446744073709551616</integer></plist>"), status: 65, message: ":1:"),
    Case(
      name: "1e400 in JSON", file: "r.json", bytes: text("[1e400]"), status: 65,
      message: ":1:2: number 1e400 is out of range for a real"),
    Case(
      name: "1e400 in YAML", file: "r.yaml", bytes: text("a: 1e400\n"), status: 65, message: ":1:4: real out of range"),
    Case(
      name: "duplicate key in JSON", file: "k.json", bytes: text("{\"a\": 1, \"a\": 2}"), status: 65,
      message: ":1:10: duplicate key \"a\""),
    Case(
      name: "duplicate key in YAML", file: "k.yaml", bytes: text("a: 1\na: 2\n"), status: 65,
      message: ":2:1: duplicate key \"a\""),
    Case(
      name: "duplicate key in XML", file: "k.plist",
      bytes: text("<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>"), status: 65, message: ":1:"),
    Case(
      name: "invalid UTF-8 in XML plist", file: "u8.plist",
      bytes: text("<plist><string>") + [0xFF, 0xFE] + text("</string></plist>"), status: 65, message: ":"),
    Case(
      name: "NUL byte in XML plist", file: "n.plist", bytes: text("<plist><string>a") + [0] + text("</string></plist>"),
      status: 65, message: ":1:"),
    Case(
      name: "2,000-digit number in JSON", file: "long.json",
      bytes: text("[" + String(repeating: "7", count: 2000) + "]"),
      status: 65, message: ":1:2: number of 2000 characters is longer than the limit of 1024"),
    Case(
      name: "2,000-digit real in YAML", file: "long.yaml",
      bytes: text("a: 0." + String(repeating: "7", count: 1998) + "\n"),
      status: 65, message: ":1:4: number of 2000 characters is longer than the limit of 1024"),
    Case(
      name: "2,000-digit real in XML plist", file: "long.plist",
      bytes: text("<plist><real>" + String(repeating: "7", count: 2000) + "</real></plist>"), status: 65,
      message: ":1:8: number of 2000 characters is longer than the limit of 1024"),
    Case(name: "empty JSON", file: "empty.json", bytes: [], status: 65, message: ":1:1: empty input"),
    Case(name: "empty YAML", file: "empty.yaml", bytes: [], status: 65, message: ":1:1: empty document"),
    Case(name: "empty plist", file: "empty.plist", bytes: [], status: 65, message: ""),
  ]

  @Test(arguments: cases)
  func badInputGetsOneErrorLineAndNoOutput(_ testCase: Case) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent(testCase.file)
    let output = folder.appendingPathComponent("out.json")
    try Data(testCase.bytes).write(to: input)
    let result = try TestSupport.prefs(["convert", input.path, "-o", output.path])
    #expect(result.status == testCase.status, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("prefs: error: \(input.path)\(testCase.message)"), "\(result.stderr)")
    let errorLines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("hint: ") }
    #expect(errorLines.count == 1, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [testCase.file])
  }

  @Test func byteOrderMarksAndCRLFAreAccepted() throws {
    let yaml = try TestSupport.prefs(
      ["convert", "-", "--to", "json", "--compact"],
      input: Data([0xEF, 0xBB, 0xBF] + Self.text("a: 1\r\nb: [x, \"y\"]\r\n")))
    #expect(yaml.status == 0, "\(yaml.stderr)")
    #expect(yaml.stdout == #"{"a":1,"b":["x","y"]}"# + "\n")
    let json = try TestSupport.prefs(
      ["convert", "-", "--from", "json", "--to", "json", "--compact"],
      input: Data([0xEF, 0xBB, 0xBF] + Self.text("{\"a\":\r\n 1}")))
    #expect(json.stdout == #"{"a":1}"# + "\n")
    let xml = try TestSupport.prefs(
      ["convert", "-", "--to", "json", "--compact"],
      input: Data(
        [0xEF, 0xBB, 0xBF]
          + Self.text("<?xml version=\"1.0\"?>\r\n<plist><dict><key>a</key><integer>1</integer></dict></plist>\r\n")))
    #expect(xml.stdout == #"{"a":1}"# + "\n", "\(xml.stderr)")
  }

  @Test func anInputOverOneGiBIsRefusedBeforeReading() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A sparse file: its size is checked before a byte is read.
    let input = folder.appendingPathComponent("huge.json").path
    #expect(FileManager.default.createFile(atPath: input, contents: nil))
    #expect(truncate(input, (1 << 30) + 1) == 0)
    let output = folder.appendingPathComponent("out.yaml").path
    let result = try TestSupport.prefs(["convert", input, "-o", output])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "prefs: error: \(input): input of 1073741825 bytes is larger than the limit of 1073741824 bytes\n")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func aDateNoTextCanHoldIsRefusedAndNoOutputWritten() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = TestSupport.packageRoot.appendingPathComponent(
      "Tests/Fixtures/fuzz/binary/date-out-of-text-range.bplist")
    let output = folder.appendingPathComponent("out.json").path
    let result = try TestSupport.prefs(["convert", input.path, "-o", output])
    #expect(result.status == 65)
    // Refused where it is read: no writer could write it.
    #expect(result.stderr.hasPrefix("prefs: error: \(input.path): at byte "), "\(result.stderr)")
    #expect(result.stderr.contains("is outside the years 0001 to 9999"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func aDirectoryAsInputExits66() throws {
    let result = try TestSupport.prefs(["convert", NSTemporaryDirectory()])
    #expect(result.status == 66)
    #expect(result.stderr == "prefs: error: \(NSTemporaryDirectory()): is a directory\n")
  }

  @Test func aFIFOIsReadLikeAPipe() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let writer = Thread {
      let handle = FileHandle(forWritingAtPath: fifo)
      handle?.write(Data(#"{"a": 1}"#.utf8))
      try? handle?.close()
    }
    writer.start()
    let result = try TestSupport.prefs(["convert", fifo, "--to", "json", "--compact"])
    #expect(result.status == 0)
    #expect(result.stdout == #"{"a":1}"# + "\n")
  }

  /// A stream whose first bytes no reader takes is refused there, not read to the
  /// input limit first (a gigabyte of memory for /dev/zero).
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/zero"), "/dev/zero is absent"))
  func aStreamOfNULsIsRefusedAtItsFirstBytes() throws {
    let result = try TestSupport.prefs(["convert", "/dev/zero"])
    #expect(result.status == 65)
    #expect(result.stderr == "prefs: error: /dev/zero: not a plist, JSON or YAML file\n")
    let text = try TestSupport.prefs(["convert", "/dev/stdin"], input: Data("a: 1\n".utf8) + Data(count: 100_000))
    #expect(text.status == 65)
    #expect(text.stderr == "prefs: error: /dev/stdin:2:1: control characters are not allowed (0x0)\n")
  }

  @Test(
    .enabled(
      if: geteuid() != 0 || TestSupport.executable(named: "setpriv") != nil,
      "running as root, which reads anything, without setpriv to drop to nobody"))
  func anUnreadableFileExits66() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("secret.json")
    try Data("{}".utf8).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
    var command = [TestSupport.prefsBinary.path, "convert", file.path]
    // Root reads anything: drop to nobody where that is possible.
    if geteuid() == 0 {
      let setpriv = try #require(TestSupport.executable(named: "setpriv"))
      command = [setpriv.path, "--reuid=65534", "--regid=65534", "--clear-groups"] + command
    }
    let result = try TestSupport.run(URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
    #expect(result.status == 66)
    #expect(result.stderr == "prefs: error: \(file.path): cannot open: permission denied\n")
  }

  @Test func aReadErrorExits74() throws {
    // Reading /proc/self/mem from offset 0 fails with EIO: an I/O error on input.
    let result = try TestSupport.prefs(["convert", "/proc/self/mem", "--from", "json"])
    #expect(result.status == 74)
    #expect(result.stderr.hasPrefix("prefs: error: /proc/self/mem: read failed"))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full is absent"))
  func aFullDiskAsOutputFileExits74() throws {
    let result = try TestSupport.prefs(["convert", "-", "--to", "json", "-o", "/dev/full"], input: Data("[1]".utf8))
    #expect(result.status == 74)
    #expect(result.stderr == "prefs: error: /dev/full: write failed: No space left on device\n")
  }
}

extension BadInputTests {
  /// A plainly binary file that is no plist (an executable: the prefs binary itself,
  /// an image) is named for what it is, whether from a file or a pipe, not taken for
  /// text with a control character at 1:1.
  @Test func aBinaryThatIsNoPlistIsNotAPlistJSONOrYAMLFile() throws {
    let binary = TestSupport.prefsBinary.path
    for arguments in [["convert", binary], ["diff", binary, binary], ["get", binary, "a"]] {
      let result = try TestSupport.prefs(arguments)
      #expect(result.status == 65, "\(arguments)")
      #expect(result.stdout == "")
      #expect(result.stderr.hasPrefix("prefs: error: \(binary): not a plist, JSON or YAML file\n"), "\(arguments)")
    }
    // lint reports it as a finding.
    let lint = try TestSupport.prefs(["lint", binary])
    #expect(lint.status == 1)
    #expect(lint.stdout == "prefs: error: \(binary): not a plist, JSON or YAML file\n")
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]
    let piped = try TestSupport.prefs(["convert", "-"], input: Data(png))
    #expect(piped.status == 65)
    #expect(piped.stderr == "prefs: error: <stdin>: not a plist, JSON or YAML file\n")
  }
}
