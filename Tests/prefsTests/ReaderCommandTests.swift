import Foundation
import PrefsTestSupport
import Testing

/// How the commands read what other tools wrote: duplicate keys, sniffing.
@Suite struct ReaderCommandTests {
  /// An AutoPkg-style recipe that gives `Processor` twice.
  static let recipe = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>Processor</key>
    \t<string>URLDownloader</string>
    \t<key>Processor</key>
    \t<string>EndOfCheckPhase</string>
    </dict>
    </plist>

    """

  /// A byte order mark alone is an empty dictionary for every command, `convert` and
  /// `set` alike.
  @Test func aByteOrderMarkAloneIsEmptyEverywhere() throws {
    let folder = try TestFolder()
    try Data([0xEF, 0xBB, 0xBF]).write(to: folder.url.appendingPathComponent("bom.plist"))
    #expect(
      try TestSupport.prefs(["convert", "bom.plist", "--to", "json", "--compact"], in: folder.url).stdout == "{}\n")
    let set = try TestSupport.prefs(["set", "bom.plist", "a", "1", "--type", "integer"], in: folder.url)
    #expect(set.status == 0, "\(set.stderr)")
    #expect(try TestSupport.prefs(["get", "bom.plist", "a"], in: folder.url).stdout == "1\n")
  }

  /// A real too small for a Double is out of range, as one too large is: never a
  /// silent 0.0, in any reader; the smallest subnormals still read.
  @Test(arguments: [
    ("r.yaml", "a: 1e-400\n"), ("r.json", #"{"a": 1e-400}"#),
    ("r.plist", "<plist><dict><key>a</key><real>1e-400</real></dict></plist>"),
  ])
  func aRealThatUnderflowsIsOutOfRange(name: String, text: String) throws {
    let folder = try TestFolder()
    try folder.write(name, text)
    let result = try TestSupport.prefs(["convert", name], in: folder.url)
    #expect(result.status == 65)
    #expect(result.stderr.contains("out of range"), "\(result.stderr)")
    try folder.write("tiny.json", #"{"a": 5e-324, "b": 0e-400}"#)
    #expect(
      try TestSupport.prefs(["convert", "tiny.json", "--to", "json", "--compact"], in: folder.url).stdout
        == #"{"a":5.0e-324,"b":0.0}"# + "\n")
  }

  /// A scalar's tag on a collection names the tag and the place, as !!map on a
  /// sequence does; `+1` is no array index; a domain name that is not UTF-8 is listed
  /// by its bytes and can be named back.
  @Test func readersAndKeyPathsSayWhatIsWrong() throws {
    let folder = try TestFolder()
    try folder.write("t.yaml", "a: !!str {b: 1}\n")
    let tag = try TestSupport.prefs(["convert", "t.yaml"], in: folder.url)
    #expect(tag.stderr == "prefs: error: t.yaml:1:4: !!str tag on a mapping\n")
    try folder.write("l.yaml", "l: [a, b, c]\n")
    let plus = try TestSupport.prefs(["get", "l.yaml", "l.+1"], in: folder.url)
    #expect(plus.status == 66)
    #expect(plus.stderr.hasPrefix("prefs: error: l.yaml: '+1' is not an index of l"), "\(plus.stderr)")
    let store = folder.url.appendingPathComponent("store")
    #expect(try TestSupport.prefs(["write", "com.bad\u{FF}name", "k", "v"], store: store).status == 0)
    try FileManager.default.moveItem(
      atPath: store.appendingPathComponent("com.bad\u{FF}name.plist").path,
      toPath: store.appendingPathComponent("placeholder").path)
    // The file named by the byte 0xFF alone, which no String spells.
    let raw = Array("\(store.path)/com.bad".utf8) + [0xFF] + Array("name.plist".utf8) + [0]
    #expect(rename(store.appendingPathComponent("placeholder").path, raw.map { CChar(bitPattern: $0) }) == 0)
    #expect(try TestSupport.prefs(["domains"], store: store).stdout == "com.bad\\xFFname\n")
  }

  @Test(arguments: [
    ["convert", "r.plist", "--to", "json", "--compact"], ["diff", "r.plist", "r.plist"], ["lint", "r.plist"],
    ["textconv", "r.plist"], ["get", "r.plist", "Processor"],
  ])
  func everyReadingCommandTakesAllowDuplicateKeys(arguments: [String]) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(Self.recipe.utf8).write(to: folder.appendingPathComponent("r.plist"))
    let refused = try TestSupport.prefs(arguments, in: folder)
    #expect((refused.stdout + refused.stderr).contains("6:2: duplicate key \"Processor\""))
    let allowed = try TestSupport.prefs(arguments + ["--allow-duplicate-keys"], in: folder)
    #expect(!(allowed.stdout + allowed.stderr).contains("error"))
    #expect(
      (allowed.stdout + allowed.stderr).contains("r.plist:6:2: duplicate key \"Processor\": the last value is kept"))
    if arguments[0] == "convert" {
      #expect(allowed.status == 0)
      #expect(allowed.stdout == #"{"Processor":"EndOfCheckPhase"}"# + "\n")
    }
  }

  @Test func diffTellsKeysThatDifferInScalarsApart() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("caf\u{E9}: 1\n".utf8).write(to: folder.appendingPathComponent("a.yaml"))
    try Data("cafe\u{301}: 1\n".utf8).write(to: folder.appendingPathComponent("b.yaml"))
    let result = try TestSupport.prefs(["diff", "a.yaml", "b.yaml"], in: folder)
    #expect(result.status == 1)
  }

  @Test func jsonFromStandardInputKeepsItsError() throws {
    let text = Data(#"{"t":{"$date":"2023-02-30T00:00:00Z"}}"#.utf8)
    let piped = try TestSupport.prefs(["convert", "-", "--to", "json"], input: text)
    #expect(piped.status == 65)
    #expect(piped.stdout == "")
    #expect(piped.stderr.hasPrefix("prefs: error: <stdin>:1:6: \"$date\" needs an ISO 8601 date"))
  }

  /// Changing a file that gives a key twice: refused without the option; with it,
  /// the file is written anew, each key once with its last value, and says so.
  @Test(arguments: [
    (["set", "r.yaml", "b", "4"], "Processor: EndOfCheckPhase\nb: 4\n"),
    (["write", "r.yaml", "b", "-int", "4"], "Processor: EndOfCheckPhase\nb: 4\n"),
    (["remove", "r.yaml", "b"], "Processor: EndOfCheckPhase\n"),
    (["rename", "r.yaml", "b", "c"], "Processor: EndOfCheckPhase\nc: 3\n"),
    (["delete", "r.yaml", "b"], "Processor: EndOfCheckPhase\n"),
  ])
  func everyChangingCommandTakesAllowDuplicateKeys(arguments: [String], expected: String) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("r.yaml")
    let text = "# a recipe\nProcessor: URLDownloader  # first\nb: 3\nProcessor: EndOfCheckPhase\n"
    try Data(text.utf8).write(to: file)
    let refused = try TestSupport.prefs(arguments, in: folder)
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("prefs: error: r.yaml:4:1: duplicate key \"Processor\"\n"))
    #expect(try String(contentsOf: file, encoding: .utf8) == text)

    let allowed = try TestSupport.prefs(arguments + ["--allow-duplicate-keys"], in: folder)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(
      allowed.stderr == """
        prefs: warning: r.yaml:4:1: duplicate key "Processor": the last value is kept
        prefs: warning: r.yaml: written anew without its duplicate keys (the last value of each kept); \
        its comments and layout were not kept

        """)
    #expect(try String(contentsOf: file, encoding: .utf8) == expected)
  }

  @Test func aChangeThatChangesNothingLeavesDuplicateKeysAlone() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("r.plist")
    try Data(Self.recipe.utf8).write(to: file)
    let result = try TestSupport.prefs(
      ["set", "r.plist", "Processor", "EndOfCheckPhase", "--allow-duplicate-keys"], in: folder)
    #expect(result.status == 0)
    #expect(result.stderr == "prefs: warning: r.plist:6:2: duplicate key \"Processor\": the last value is kept\n")
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.recipe)
  }

  @Test(.enabled(if: TestSupport.executable(named: "sed") != nil, "sed is the scripted editor"))
  func editTakesAllowDuplicateKeysAndKeepsTheTextAsEdited() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("r.yaml")
    try Data("a: 1\na: 2\n".utf8).write(to: file)
    let environment = ["EDITOR": "sed -i s/2/3/", "VISUAL": ""]
    let refused = try TestSupport.prefs(["edit", "r.yaml"], in: folder, environment: environment)
    #expect(refused.status == 65)
    #expect(try String(contentsOf: file, encoding: .utf8) == "a: 1\na: 2\n")
    let allowed = try TestSupport.prefs(
      ["edit", "r.yaml", "--allow-duplicate-keys"], in: folder, environment: environment)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    // A YAML file is edited as its own text: the user's duplicate stays theirs.
    #expect(try String(contentsOf: file, encoding: .utf8) == "a: 1\na: 3\n")
  }

  @Test(arguments: [["read", "r"], ["read-type", "r", "Processor"], ["export", "r"], ["get", "r", "Processor"]])
  func domainReadingCommandsTakeAllowDuplicateKeys(arguments: [String]) throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    try Data(Self.recipe.utf8).write(to: store.appendingPathComponent("r.plist"))
    let refused = try TestSupport.prefs(arguments, store: store)
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("6:2: duplicate key \"Processor\""))
    let allowed = try TestSupport.prefs(arguments + ["--allow-duplicate-keys"], store: store)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(allowed.stderr.contains("r.plist:6:2: duplicate key \"Processor\": the last value is kept"))
    #expect(allowed.stdout.contains(arguments[0] == "read-type" ? "string" : "EndOfCheckPhase"))
  }
}
