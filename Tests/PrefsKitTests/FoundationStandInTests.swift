import Dispatch
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

/// The small pieces that stand in for Foundation API that FoundationEssentials lacks
/// (the release binary links FoundationEssentials alone), each checked against the
/// Foundation API it replaces where Foundation gets it right.
@Suite struct FoundationStandInTests {
  @Test func pathArithmeticIsNSStringsOnMacOS() {
    // (path, last component, without it, extension, without the extension); Linux's
    // NSString traps on `deletingLastPathComponent` of a bare name, so this is a table.
    let table: [(String, String, String, String, String)] = [
      ("", "", "", "", ""),
      ("/", "/", "/", "", "/"),
      ("a", "a", "", "", "a"),
      ("a/", "a", "", "", "a"),
      ("/a", "a", "/", "", "/a"),
      ("/a/b", "b", "/a", "", "/a/b"),
      ("a//b", "b", "a", "", "a//b"),
      ("a/b/", "b", "a", "", "a/b"),
      ("/x/y.plist", "y.plist", "/x", "plist", "/x/y"),
      ("x.tar.gz", "x.tar.gz", "", "gz", "x.tar"),
      (".bashrc", ".bashrc", "", "", ".bashrc"),
      ("/home/u/.config", ".config", "/home/u", "", "/home/u/.config"),
      ("dir.d/file", "file", "dir.d", "", "dir.d/file"),
      ("a.", "a.", "", "", "a."),
    ]
    for (path, last, parent, ext, withoutExtension) in table {
      #expect(path.lastPathComponent == last, "\(path)")
      #expect(path.deletingLastPathComponent == parent, "\(path)")
      #expect(path.pathExtension == ext, "\(path)")
      #expect(path.deletingPathExtension == withoutExtension, "\(path)")
    }
    let joins: [(String, String, String)] = [
      ("", "x", "x"), ("/", "x", "/x"), ("a", "x", "a/x"), ("a/", "x", "a/x"), ("a", "/x", "a/x"),
      ("a", "", "a"), ("a/", "", "a"), ("/tmp", "prefs-edit-XXXXXX", "/tmp/prefs-edit-XXXXXX"),
    ]
    for (path, component, joined) in joins {
      #expect(path.appendingPathComponent(component) == joined, "\(path) + \(component)")
      // Linux's NSString keeps `a//x` and `a/`.
      if !path.isEmpty, !component.isEmpty, !component.hasPrefix("/") {
        #expect((path as NSString).appendingPathComponent(component) == joined, "Foundation: \(path) + \(component)")
      }
    }
  }

  @Test func replacingAllMatchesScalarsAsNSStringDoes() {
    let cases: [(String, String, String)] = [
      ("a-b-c", "-", "_"), ("line\r\nnext", "\n", " "), ("say \"hi\"", "\"", "\\\""), ("\\", "\\", "\\\\"),
      ("aaa", "aa", "b"), ("café", "é", "e"), ("", "x", "y"), ("x", "", "y"),
    ]
    for (text, target, replacement) in cases where !target.isEmpty {
      #expect(
        text.replacingAll(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement),
        "\(text)")
    }
    #expect("x".replacingAll("", with: "y") == "x")
    // By scalars, a quote before a combining mark is still a quote to escape (NSString
    // compares by canonical equivalence, and would leave it).
    #expect("\"\u{301}".replacingAll("\"", with: "\\\"") == "\\\"\u{301}")
    #expect("a-b"[...].replacingAll("-", with: "+") == "a+b")
  }

  @Test func trimmingSpacesIsTrimmingWhitespaces() {
    for text in ["  a b  ", "\t x\t", "\u{A0}nbsp\u{3000}", "\nkeeps line breaks\n", "", "   ", "a"] {
      #expect(text.trimmingSpaces == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
    }
  }

  @Test func hexDigitsAreStringFormats() {
    for value in [0, 5, 0x1F, 0xABC, 0xFFFF, 0x10000] {
      #expect(hexDigits(value, width: 2) == String(format: "%02x", value))
      #expect(hexDigits(value, width: 4, uppercase: true) == String(format: "%04X", value))
    }
    for value in [0, 7, 42, 999, 12_345] {
      #expect(decimalDigits(value, width: 3) == String(format: "%03d", value))
    }
    let bytes: [UInt8] = [0x00, 0x0A, 0x1B, 0xFF]
    #expect(hexBytes(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
    #expect(hexBytes([]) == "")
  }

  @Test func hexDigitValueReadsWhatUIntReads() {
    for byte in UInt8.min...UInt8.max {
      let text = String(UnicodeScalar(byte))
      let expected = text.count == 1 && text != "+" && text != "-" ? UInt8(text, radix: 16) : nil
      #expect(hexDigitValue(byte) == expected, "byte \(byte)")
    }
    #expect(lowercaseHexDigits == Array("0123456789abcdef".utf8))
  }

  @Test func base64IsFoundationsBase64() {
    var generator = SeededGenerator(state: 21)
    let mime: Data.Base64EncodingOptions = [.lineLength76Characters, .endLineWithLineFeed]
    for count in Array(0...80) + [114, 171, 228, 1000] {
      let data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
      #expect(Base64.encode(data) == data.base64EncodedString(), "\(count) bytes")
      #expect(Base64.encodedLines(data, lineLength: 76) == data.base64EncodedString(options: mime), "\(count) bytes")
      // The XML writer's line lengths, and each line a whole number of groups.
      for lineLength in [76, 68, 12] {
        var lines: [String] = []
        Base64.encode(data, lineLength: lineLength) { lines.append(String(decoding: $0, as: UTF8.self)) }
        #expect(lines.joined() == data.base64EncodedString())
        #expect(lines.dropLast().allSatisfy { $0.utf8.count == lineLength })
        #expect(lines.last.map { $0.utf8.count <= lineLength && $0.utf8.count % 4 == 0 } ?? (count == 0))
        #expect((try? Base64.decode(lines.joined(separator: "\n"))) == data)
      }
    }
  }

  @Test func compactTimestampIsTheSnapshotFormatOfDateFormatter() {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
    let seconds: [Double] = [0, 0.5, 1.25, 123_456_789.75, -1.5, -978_307_200, 817_776_000.125, 3_000_000_000]
    for second in seconds {
      let date = Date(timeIntervalSinceReferenceDate: second)
      #expect(TextForms.compactTimestamp(date) == formatter.string(from: date), "\(second)")
    }
    #expect(TextForms.compactTimestamp(Date(timeIntervalSinceReferenceDate: 0)) == "20010101T000000.000Z")
  }

  @Test func errorTextIsTheSystemsWording() throws {
    #expect(PrefsError.text(of: POSIXError(.ENOENT)) == "No such file or directory")
    let missing = "/nonexistent-\(UUID().uuidString)/x"
    let error = #expect(throws: (any Error).self) { try Data(contentsOf: URL(fileURLWithPath: missing)) }
    #expect(PrefsError.text(of: try #require(error)) == "\(missing): No such file or directory")
    #expect(
      PrefsError.text(of: PrefsError(.io(.write, errno: ENOSPC), file: "f"))
        == "f: write failed: No space left on device")
  }

  @Test func makeFoldersMakesEveryMissingFolderOrSaysWhichItCouldNot() throws {
    let folder = try TestFolder()
    let nested = folder.path("a/b/c")
    try makeFolders(nested, mode: 0o700, what: "the folder")
    #expect(isFolder(nested) == true)
    let mode = try FileManager.default.attributesOfItem(atPath: folder.path("a"))[.posixPermissions] as? Int
    #expect(mode == 0o700)
    // Again: nothing to do.
    try makeFolders(nested, mode: 0o700, what: "the folder")

    let file = try folder.write("file", "x")
    #expect(isFolder(file) == false)
    #expect(isFolder(folder.path("none")) == nil)
    let error = #expect(throws: PrefsError.self) { try makeFolders(file + "/sub", mode: 0o700, what: "the folder") }
    #expect(error?.kind == .io(.createFolder("the folder"), errno: ENOTDIR))
    #expect(error?.file == "\(file)/sub")
    #expect(error?.category == .cannotCreate)
  }

  /// The release binary is built without the FullFoundation trait: a file imports
  /// Foundation only behind that trait, on macOS, or where FoundationEssentials is
  /// missing. (MemberImportVisibility keeps Foundation's members out of the others.)
  @Test func sourcesImportFoundationOnlyWhereTheReleaseBinaryDoesNot() throws {
    var found: [String] = []
    let sources = TestSupport.packageRoot.appendingPathComponent("Sources")
    let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0 != "CYaml" }
    #expect(targets.count >= 9, "one folder per target")
    for target in targets.map({ "Sources/" + $0 }) {
      let folder = TestSupport.packageRoot.appendingPathComponent(target)
      let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
      #expect(files.contains { $0.hasSuffix(".swift") }, "\(target)")
      for name in files where name.hasSuffix(".swift") {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        // The conditions around each line: `FullFoundation`, or `!canImport(FoundationEssentials)` in an #else.
        var conditions: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
          let line = raw.trimmingCharacters(in: .whitespaces)
          if line.hasPrefix("#if ") {
            conditions.append(String(line.dropFirst(4)))
          } else if line == "#else", let last = conditions.popLast() {
            conditions.append("!" + last)
          } else if line.hasPrefix("#endif") {
            _ = conditions.popLast()
          } else if let imported = line.split(separator: " ").drop(while: { $0.hasPrefix("@") }).dropFirst().first,
            line.split(separator: " ").contains("import"), imported == "Foundation"
          {
            let allowed = conditions.contains {
              $0 == "FullFoundation" || $0 == "canImport(Darwin)" || $0 == "!canImport(FoundationEssentials)"
            }
            if !allowed { found.append("\(target)/\(name):\(number + 1)") }
          }
        }
      }
    }
    #expect(
      found == [], "import FoundationEssentials, with Foundation only in the #else of canImport(FoundationEssentials)")
  }

  @Test func lockKeepsCountsExact() {
    final class Counter: @unchecked Sendable {
      let lock = Lock()
      var value = 0
    }
    let counter = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { counter.lock.withLock { counter.value += 1 } }
    }
    #expect(counter.value == 80_000)
  }
}
