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
}
