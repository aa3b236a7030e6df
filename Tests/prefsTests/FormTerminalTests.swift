import Foundation
import PrefsTestSupport
import Testing

/// `prefs form` on a real terminal (tmux at 80 by 24): keys typed, the screen read,
/// the domain checked after saving, and the terminal as the shell had it after every
/// way out. Every step waits for the screen to show what it expects.
@Suite(.serialized) struct FormTerminalTests {
  /// A store, a shell in tmux, and the command line that runs the form and then says
  /// how it ended and whether the terminal's settings are as before.
  struct Setup {
    let folder: URL
    let session: TerminalSession
    var store: URL { folder.appendingPathComponent("store") }

    init() throws {
      folder = try TestSupport.temporaryFolder()
      session = try TerminalSession(
        folder: folder,
        environment: ["PREFS_DEFAULTS_DIR": folder.appendingPathComponent("store").path, "HOME": folder.path],
        columns: 80, rows: 24)
    }

    /// Writes a key of `domain` in the store, with `prefs write`'s arguments.
    func write(_ domain: String, _ arguments: String...) throws {
      let result = try TestSupport.prefs(["write", domain] + arguments, store: store)
      #expect(result.status == 0, "\(result.stderr)")
    }

    /// Starts the form with `arguments` and waits for it to draw.
    func start(_ arguments: String) throws -> String {
      let before = folder.appendingPathComponent("stty.before").path
      try session.type(
        "stty -g > '\(before)'; \(TestSupport.prefsBinary.path) form \(arguments); "
          + "echo \"EXIT=$? STTY=$( [ \"$(stty -g)\" = \"$(cat '\(before)')\" ] && echo same || echo changed)\"")
      try session.send("Enter")
      return try wait(for: "q quit")
    }

    /// The screen as soon as it shows `text`; a failure of the test when it does not
    /// within the session's deadline.
    @discardableResult
    func wait(for text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
      let screen = try session.screen(showing: text)
      #expect(screen.contains(text), "never showed \(text):\n\(screen)", sourceLocation: sourceLocation)
      return screen
    }

    /// The screen as soon as `done` holds for it; a failure of the test when it does not.
    @discardableResult
    func wait(
      _ what: String, sourceLocation: SourceLocation = #_sourceLocation, until done: (String) -> Bool
    ) throws -> String {
      let screen = try session.screen(until: done)
      #expect(done(screen), "never showed \(what):\n\(screen)", sourceLocation: sourceLocation)
      return screen
    }

    /// Presses `keys` (tmux key names), then waits for the screen to show `text`.
    @discardableResult
    func press(_ keys: String..., showing text: String, sourceLocation: SourceLocation = #_sourceLocation) throws
      -> String
    {
      try session.run(["send-keys"] + keys)
      return try wait(for: text, sourceLocation: sourceLocation)
    }

    /// Types `text` literally, then waits for the screen to show `shown`.
    @discardableResult
    func typing(_ text: String, showing shown: String, sourceLocation: SourceLocation = #_sourceLocation) throws
      -> String
    {
      try session.type(text)
      return try wait(for: shown, sourceLocation: sourceLocation)
    }

    /// The screen once the form has ended and the shell said how.
    func ended() throws -> String { try session.exitStatus() }

    /// Whether the pane is on the alternate screen, and whether its cursor is shown.
    func paneState() throws -> String {
      try session.run(["display-message", "-p", "#{alternate_on} #{cursor_flag}"]).stdout
    }

    func read(_ domain: String, _ key: String) throws -> String {
      try TestSupport.prefs(["read", domain, key], store: store).stdout
    }

    func type(_ domain: String, _ key: String) throws -> String {
      try TestSupport.prefs(["read-type", domain, key], store: store).stdout
    }

    func close() {
      session.close()
      try? FileManager.default.removeItem(at: folder)
    }
  }

  @Test(.enabled(if: TerminalSession.tmux != nil, "tmux is not installed"))
  func theTutorialFormTypesAUsernameTogglesPrivacyPicksWavesAndSaves() throws {
    let setup = try Setup()
    defer { setup.close() }
    try setup.write("com.example.app", "ringtone", "Chimes")
    try setup.write("com.example.app", "isAccountPrivate", "-bool", "true")
    let opened = try setup.start("com.example.app --schema user-settings")
    #expect(opened.contains(" username "), "\(opened)")
    #expect(opened.contains("[x] on"), "\(opened)")
    try setup.press("Enter", showing: "Enter confirm")
    try setup.session.type("ada")
    try setup.session.send("Enter")
    try setup.wait("the username ada") { !$0.contains("Enter confirm") && $0.contains(" ada ") }
    try setup.press("Down", "Space", showing: "[ ] off")
    try setup.press("Down", "Enter", showing: "Pick ringtone")
    try setup.press("Down", "Down", "Enter", showing: "< Waves >")
    let saved = try setup.press("C-s", showing: "Saved to")
    #expect(!saved.contains("[modified]"), "\(saved)")
    try setup.session.type("q")
    let ended = try setup.ended()
    #expect(ended.contains("EXIT=0 STTY=same"), "\(ended)")
    #expect(try setup.paneState() == "0 1\n")
    #expect(try setup.read("com.example.app", "username") == "ada\n")
    #expect(try setup.type("com.example.app", "username") == "Type is string\n")
    #expect(try setup.read("com.example.app", "isAccountPrivate") == "0\n")
    #expect(try setup.type("com.example.app", "isAccountPrivate") == "Type is boolean\n")
    #expect(try setup.read("com.example.app", "ringtone") == "Waves\n")
  }

  @Test(.enabled(if: TerminalSession.tmux != nil, "tmux is not installed"))
  func oneKeyFixesAStringFalseStoredForAPrivateAccount() throws {
    let setup = try Setup()
    defer { setup.close() }
    try setup.write("com.example.app", "isAccountPrivate", "-string", "false")
    _ = try setup.start("com.example.app --schema user-settings")
    let marked = try setup.press("Down", showing: "the app reads true (fallback)")
    #expect(marked.contains(">! isAccountPrivate"), "\(marked)")
    try setup.typing("f", showing: "[ ] off")
    try setup.press("C-s", showing: "Saved to")
    try setup.session.type("q")
    #expect(try setup.ended().contains("EXIT=0 STTY=same"))
    #expect(try setup.type("com.example.app", "isAccountPrivate") == "Type is boolean\n")
    #expect(try setup.read("com.example.app", "isAccountPrivate") == "0\n")
  }

  @Test func withoutATerminalTheFormIsAUsageErrorPointingToSet() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    let result = try TestSupport.prefs(["form", "com.example.app", "--schema", "user-settings"], store: store)
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("prefs: error: prefs form needs a terminal for its input and output\n"))
    #expect(result.stderr.contains("'prefs set FILE KEYPATH VALUE'"))
    #expect(result.stderr.contains("See 'prefs help form'."))
  }

  /// Apple's device-management schema of the Dock: its tile size is 16 to 128.
  static let dockSchema = TestSupport.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/device-management/mdm/profiles/com.apple.dock.yaml")

  @Test(
    .enabled(if: TerminalSession.tmux != nil, "tmux is not installed"),
    .enabled(if: TestSupport.hasCorpus("device-management"), "the device-management corpus is absent"))
  func theDockFormRefusesATileSizeOutsideItsRangeAndScrolls() throws {
    let setup = try Setup()
    defer { setup.close() }
    try setup.write("com.apple.dock", "tilesize", "-int", "64")
    let before = try Data(contentsOf: setup.store.appendingPathComponent("com.apple.dock.plist"))
    let opened = try setup.start("com.apple.dock --schema '\(Self.dockSchema.path)'")
    #expect(opened.contains("The tile size."), "\(opened)")
    try setup.press("Enter", showing: "tilesize (integer): 64")
    try setup.typing("x", showing: "tilesize takes an integer, not 'x'")
    try setup.session.send("C-u")
    try setup.session.type("300")
    let refused = try setup.press("Enter", showing: "'300' is not an integer from 16 to 128")
    #expect(refused.contains("tilesize (integer): 300"), "\(refused)")
    try setup.session.send("Escape")
    try setup.wait("the field closed") { !$0.contains("Enter confirm") && $0.contains("range 16...128") }
    // More keys than rows: the last one scrolls into view, and the first out.
    let end = try setup.press("End", showing: "persistent-others · array")
    #expect(!end.contains("The tile size."), "\(end)")
    try setup.session.type("q")
    #expect(try setup.ended().contains("EXIT=0 STTY=same"))
    #expect(try Data(contentsOf: setup.store.appendingPathComponent("com.apple.dock.plist")) == before)
  }

  @Test(.enabled(if: TerminalSession.tmux != nil, "tmux is not installed"))
  func theTerminalIsRestoredAfterAResizeCtrlCAndATermSignal() throws {
    let setup = try Setup()
    defer { setup.close() }
    try setup.write("com.example.app", "username", "ada")
    _ = try setup.start("com.example.app --schema user-settings")
    // A bigger terminal: the form draws its key line on the new last row.
    try setup.session.run(["resize-window", "-x", "100", "-y", "30"])
    let resized = try setup.wait("the key line on row 30") {
      $0.split(separator: "\n", omittingEmptySubsequences: false).dropLast().last?.contains("q quit") == true
        && $0.split(separator: "\n", omittingEmptySubsequences: false).count == 31
    }
    #expect(resized.contains("prefs form: com.example.app"), "\(resized)")
    try setup.press("Down", "Space", showing: "[modified]")
    try setup.press("C-c", showing: "Ctrl-C again")
    try setup.session.send("C-c")
    #expect(try setup.ended().contains("EXIT=130 STTY=same"))
    #expect(try setup.paneState() == "0 1\n")
    #expect(try setup.read("com.example.app", "username") == "ada\n")

    try setup.session.run(["send-keys", "clear", "Enter"])
    try setup.wait("a cleared screen") { !$0.contains("EXIT=") }
    _ = try setup.start("com.example.app --schema user-settings")
    let shell = try setup.session.run(["display-message", "-p", "#{pane_pid}"]).stdout.trimmingCharacters(
      in: .whitespacesAndNewlines)
    let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
    let form = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
    #expect(kill(form, SIGTERM) == 0)
    #expect(try setup.ended().contains("EXIT=143 STTY=same"))
    #expect(try setup.paneState() == "0 1\n")
  }

  /// Another program writes the domain while the form is open: the save is refused,
  /// `r` merges the form's change onto what the other program wrote, and the next save
  /// keeps both.
  @Test(.enabled(if: TerminalSession.tmux != nil, "tmux is not installed"))
  func aRefusedSaveMergesOntoAnotherProgramsChangeWithR() throws {
    let setup = try Setup()
    defer { setup.close() }
    try setup.write("com.example.app", "username", "ada")
    _ = try setup.start("com.example.app --schema user-settings")
    try setup.press("Down", "Space", showing: "[modified]")
    try setup.write("com.example.app", "ringtone", "Waves")
    let refused = try setup.press("C-s", showing: "Not saved")
    #expect(refused.contains("another program changed ringtone meanwhile"), "\(refused)")
    #expect(refused.contains("r merge"), "\(refused)")
    let merged = try setup.press("r", showing: "Took the other program's changes")
    #expect(merged.contains("Waves"), "\(merged)")
    try setup.press("C-s", showing: "Saved to")
    try setup.session.send("q")
    #expect(try setup.ended().contains("EXIT=0 STTY=same"))
    #expect(try setup.read("com.example.app", "isAccountPrivate") == "0\n")
    #expect(try setup.read("com.example.app", "ringtone") == "Waves\n")
  }

  /// Ctrl-Z gives the shell its terminal as it was (main screen, cursor shown, the
  /// settings before the form), and `fg` brings the form back with its unsaved change.
  @Test(.enabled(if: TerminalSession.tmux != nil, "tmux is not installed"))
  func ctrlZSuspendsAndFgComesBackToTheFormAsItWasLeft() throws {
    let setup = try Setup()
    defer { setup.close() }
    try setup.write("com.example.app", "username", "ada")
    _ = try setup.start("com.example.app --schema user-settings")
    try setup.press("Down", "Space", showing: "[modified]")
    try setup.session.send("C-z")
    // bash goes on with the command line when its job stops: the terminal is checked then.
    let stopped = try setup.ended()
    #expect(stopped.contains("Stopped") && stopped.contains("EXIT=148 STTY=same"), "\(stopped)")
    #expect(try setup.paneState() == "0 1\n")
    try setup.session.type("fg")
    try setup.session.send("Enter")
    let back = try setup.wait(for: "[modified]")
    #expect(back.contains(">* isAccountPrivate"), "\(back)")
    #expect(try setup.paneState() == "1 0\n")
    try setup.press("C-s", showing: "Saved to")
    try setup.session.send("q")
    // The form has ended when the shell prompts again after `fg`.
    try setup.wait("the prompt after fg") { screen in
      let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      return lines.firstIndex(of: "$ fg").map { lines[($0 + 1)...].contains("$") } ?? false
    }
    let before = setup.folder.appendingPathComponent("stty.before").path
    // Quotes split the word, so that only the answer shows it whole.
    try setup.session.type("[ \"$(stty -g)\" = \"$(cat '\(before)')\" ] && echo RE''STORED")
    try setup.session.send("Enter")
    try setup.wait(for: "RESTORED")
    #expect(try setup.paneState() == "0 1\n")
    #expect(try setup.read("com.example.app", "isAccountPrivate") == "0\n")
  }
}
