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
