import Foundation
import PrefsKit
import Testing

@testable import PrefsModel

/// The error type itself: each kind gives its category and its message, and no
/// message names a command-line option.
@Suite struct PrefsErrorTests {
  /// One error of each kind, with the category it maps to.
  static let everyKind: [(PrefsError.Kind, PrefsError.Category)] = [
    (.syntax(format: "json", stage: .parser, problem: "unterminated string"), .badInput),
    (.duplicateKey("a"), .badInput),
    (.tooDeep(limit: 512), .badInput),
    (.aliasBudget(limit: 1_000_000), .badInput),
    (.inputTooLarge(size: 19, limit: 16), .badInput),
    (.null(path: PrefKeyPath([.key("a")])), .badInput),
    (.jsonInPlistFile(cause: .syntax(format: "xml", stage: .parser, problem: "expected '<plist>'")), .badInput),
    (.domainNotDictionary(holds: .array), .badInput),
    (.unreadableDomain(backup: "d.plist.bak", cause: .duplicateKey("a")), .badInput),
    (.unrepresentable(format: "openstep", kind: .bool, path: PrefKeyPath([.key("flag")]), problem: "no"), .badInput),
    (.nonFiniteReal(.infinity, path: PrefKeyPath([.key("x")])), .badInput),
    (.writerFailed(writer: "YAML writer", problem: "invalid"), .badInput),
    (.invalidValue(text: "x", expected: "an integer (64 bits)"), .badInput),
    (.typeMismatch(text: "maybe", key: "k", holds: .bool), .badInput),
    (.invalidData(text: "AAE=", expected: .hex, readsAsOther: true), .badInput),
    (.invalidData(text: "0a1", expected: .base64, readsAsOther: false), .badInput),
    (.ambiguousData(text: "0a1b", base64: Data([0xD1, 0xAD, 0x5B])), .badInput),
    (.noSuchKey(in: PrefKeyPath(), key: "a", dotted: "a.b", needsParents: true), .noInput),
    (.noSuchIndex(in: PrefKeyPath([.key("list")]), index: "5", count: 2), .noInput),
    (.notAContainer(at: PrefKeyPath([.key("a")]), kind: .string, key: "b"), .noInput),
    (.notFound(.file), .noInput),
    (.notFound(.folder), .noInput),
    (.notFound(.domain(location: "/home/u/.config/prefs/com.example.plist")), .noInput),
    (.notFound(.snapshot(id: "2024")), .noInput),
    (.isDirectory(writing: false), .noInput),
    (.isDirectory(writing: true), .cannotCreate),
    (.io(.status, errno: EACCES), .noInput),
    (.io(.status, errno: EIO), .io),
    (.io(.open, errno: EACCES), .noInput),
    (.io(.openForLock, errno: EACCES), .noInput),
    (.io(.openForLock, errno: EIO), .io),
    (.io(.openForWriting, errno: EACCES), .cannotCreate),
    (.io(.read, errno: EIO), .io),
    (.io(.write, errno: ENOSPC), .io),
    (.io(.sync, errno: EIO), .io),
    (.io(.close, errno: EIO), .io),
    (.io(.delete, errno: EACCES), .io),
    (.io(.createFile(in: "/nonexistent"), errno: ENOENT), .cannotCreate),
    (.io(.createFolder("the folder"), errno: ENOTDIR), .cannotCreate),
    (.io(.replace, errno: EXDEV), .cannotCreate),
    (.io(.markSnapshotUndone, errno: EACCES), .io),
    (.lockTimeout(seconds: 10), .temporary),
    (.notAPreferenceFile, .badInput),
    (.invalidDomainName("a/b", problem: "it contains '/'"), .usage),
    (.standardInputNotChangeable, .usage),
    (.invalidHostUUID("../x"), .usage),
    (.noHostUUID(folder: "/prefs/ByHost"), .noInput),
    (.severalHostUUIDs(["001B63A7C1E5", "00000000-0000-1000-8000-001B63A7C1E5"]), .usage),
    (.otherHost(uuid: "00000000-0000-1000-8000-001B63A7C1E5"), .usage),
    (.notSaved, .io),
    (.outOfMemory(doing: "reading YAML"), .io),
    (.unknownFormat("jsn", suggestion: "json"), .usage),
    (.schema(path: PrefKeyPath([.key("keys")]), problem: "unknown field"), .badInput),
    (.settings(problem: "d: !replace of a domain takes a dictionary"), .badInput),
    (.notASnapshot, .badInput),
    (.ambiguousSnapshot(id: "20", count: 2), .usage),
    (.conflictMarkers(format: "yaml"), .badInput),
    (
      .changedSinceApply([PrefsError.ChangedKeys(domain: "a", paths: [PrefKeyPath([.key("k")]), PrefKeyPath()])]),
      .badInput
    ),
    (.usage("unknown option '--x'"), .usage),
    (.other(.io, "python failed"), .io),
  ]

  @Test func eachKindHasItsCategory() {
    for (kind, category) in Self.everyKind {
      #expect(PrefsError(kind).category == category, "\(kind)")
    }
  }

  @Test func noLibraryMessageNamesAnOption() {
    // Usage errors are the program's own words, which may name its options.
    for (kind, _) in Self.everyKind where kind.name != "usage" {
      let message = PrefsError(kind).message
      #expect(!message.isEmpty, "\(kind)")
      // An option is a word that starts with a dash (`--plain`, `-p`); `-1` is a number.
      #expect(!message.contains(/(^|[\s(])--?[a-z]/), "\(kind): \(message)")
      #expect(!message.contains("\n"), "\(kind): \(message)")
    }
  }

  @Test func messagesAreDerivedFromTheKind() {
    #expect(PrefsError(.duplicateKey("a")).message == "duplicate key \"a\"")
    // The wait is prefs' own; how long the other process holds the lock, no one knows.
    #expect(
      PrefsError(.lockTimeout(seconds: 10)).message
        == "gave up after waiting 10 seconds for the lock, which another process holds")
    #expect(PrefsError(.notAPreferenceFile).message == "not a plist, JSON or YAML file")
    #expect(
      PrefsError(.tooDeep(limit: 4, detail: "alias *a holds 2 levels")).message
        == "nesting deeper than 4 levels (alias *a holds 2 levels)")
    #expect(
      PrefsError(.inputTooLarge(size: nil, limit: 8)).message
        == "input of more than 8 bytes is larger than the limit of 8 bytes")
    #expect(
      PrefsError(.noSuchKey(in: PrefKeyPath(), key: "a", dotted: "a.b")).message
        == "no key 'a' or 'a.b' in the top level")
    #expect(
      PrefsError(.noSuchIndex(in: PrefKeyPath([.key("l")]), index: "x", count: 0)).message
        == "'x' is not an index of l, an array (it is empty)")
    #expect(
      PrefsError(.noSuchIndex(in: PrefKeyPath([.key("l")]), index: "5", count: 1)).message
        == "no index 5 in l (it has 1 item: 0 to 0, or -1 to -1)")
    #expect(PrefsError(.io(.open, errno: EACCES)).message == "cannot open: permission denied")
    #expect(PrefsError(.io(.write, errno: ENOSPC)).message == "write failed: No space left on device")
    #expect(PrefsError(.io(.status, errno: EIO)).message == "input/output error")
    #expect(
      PrefsError(.invalidDomainName("a\u{1}", problem: "it contains a control character")).message
        == "invalid domain name 'a?': it contains a control character")
  }

  @Test func aWrappingKindTakesItsCausesMessageAndCategory() {
    let cause = PrefsError.Kind.io(.status, errno: EACCES)
    let wrapped = PrefsError.Kind.jsonInPlistFile(cause: .unreadableDomain(backup: "x.bak", cause: cause))
    #expect(wrapped.message == cause.message)
    #expect(wrapped.category == .noInput)
    #expect(wrapped.cause == cause)
  }

  @Test func theOneGrammarPlacesFileAndPosition() {
    let error = PrefsError(.duplicateKey("a"), file: "f.json", position: .lineColumn(line: 2, column: 3))
    #expect(error.description == "f.json:2:3: duplicate key \"a\"")
    #expect(PrefsError(.duplicateKey("a"), position: .byteOffset(9)).description == "at byte 9: duplicate key \"a\"")
    #expect(PrefsError(.notFound(.file)).inFile("x").inFile("y").description == "x: no such file")
    #expect(PrefsWarning("w", file: "f", position: .byteOffset(1)).description == "f: at byte 1: w")
  }

  /// libyaml's errors are told apart by its own error type, whatever their words.
  @Test(arguments: [
    ("a: x\u{0}y\n", PrefsError.SyntaxStage.reader),
    ("a: \"open\n", .scanner),
    ("a:\n\tb: 1\n", .scanner),
    ("a: [1, 2\n", .parser),
    ("k: !foo x", .composer),
  ])
  func yamlErrorsKnowTheirStage(text: String, stage: PrefsError.SyntaxStage) throws {
    let error = try #require(throws: PrefsError.self) { try Format.read(Data(text.utf8), declared: .yaml) }
    #expect(error.kind.syntax?.format == "yaml")
    #expect(error.kind.syntax?.stage == stage, "\(error)")
  }

  @Test(arguments: [
    (Data([0x22, 0xFF, 0x22]), PrefsError.SyntaxStage.reader),
    (Data("\"abc".utf8), .scanner),
    (Data("[1,]".utf8), .parser),
    (Data(#"{"$date": "yesterday"}"#.utf8), .composer),
  ])
  func jsonErrorsKnowTheirStage(data: Data, stage: PrefsError.SyntaxStage) throws {
    let error = try #require(throws: PrefsError.self) { try Format.read(data, declared: .json) }
    #expect(error.kind.syntax?.format == "json")
    #expect(error.kind.syntax?.stage == stage, "\(error)")
  }

  @Test func readersGiveTheSameKindForTheSameFailure() throws {
    var options = ReadOptions()
    options.maxDepth = 1
    let texts: [(Format, String)] = [
      (.json, "[[1]]"), (.yaml, "[[1]]"), (.xml, "<plist><array><array/></array></plist>"), (.openStep, "((1))"),
    ]
    for (format, text) in texts {
      let error = try #require(throws: PrefsError.self) {
        try Format.read(Data(text.utf8), declared: format, options: options)
      }
      #expect(error.kind == .tooDeep(limit: 1), "\(format): \(error)")
    }
  }

  @Test func aWarningSaysWhatItLetPass() throws {
    var options = ReadOptions()
    options.allowDuplicateKeys = true
    let json = Warnings()
    let value = try Format.read(
      Data(#"{"a": null, "b": 1, "b": 2}"#.utf8), declared: .json, options: options, warnings: json
    ).value
    #expect(json.all.map(\.refused) == [.duplicateKey("b")])
    // A null is read as it is; a plist writer told to drop it says what it refused.
    for format in [Format.xml, .binary, .openStep] {
      let dropped = Warnings()
      _ = try? format.encode(value, options: WriteOptions(dropNulls: true), warnings: dropped)
      #expect(dropped.all.map(\.refused) == [.null(path: PrefKeyPath([.key("a")]))], "\(format)")
    }
  }

  @Test func lintPointsOutNullsOnlyInAFileMeantForADomain() {
    let text = Data("nothing: ~\nalso: null\n".utf8)
    #expect(Lint.check(text, file: "a.yaml", path: "a.yaml").isEmpty)
    let findings = Lint.check(text, file: "a.yaml", path: "a.yaml", schema: .userSettings)
    let nulls = findings.filter { if case .null? = $0.kind { true } else { false } }
    #expect(
      nulls.map(\.kind) == [.null(path: PrefKeyPath([.key("nothing")])), .null(path: PrefKeyPath([.key("also")]))])
    #expect(nulls.allSatisfy { $0.severity == .warning })
    #expect(nulls.map(\.position) == [.lineColumn(line: 1, column: 1), .lineColumn(line: 2, column: 1)])
  }

  @Test func aPlistNamedFileHoldingJSONSaysSo() throws {
    let error = try #require(throws: PrefsError.self) {
      try Format.read(Data(#"{"a": 1}"#.utf8), path: "settings.plist")
    }
    if case .jsonInPlistFile(let cause) = error.kind {
      #expect(cause.syntax?.format == "openstep" || cause.syntax?.format == "xml", "\(cause)")
    } else {
      Issue.record("\(error)")
    }
    #expect(error.hints.allSatisfy { !$0.contains("--") })
  }
}
