import Foundation
import PrefsTestSupport
import Testing

/// An interactive shell in a detached tmux session of its own (a private server
/// socket), driven by keys and read from the screen, as a person at a terminal is.
struct TerminalSession {
  static let tmux = TestSupport.executable(named: "tmux")
  let socket: String

  /// Starts `bash -i` with `environment` added to the test's, on a terminal of
  /// `columns` by `rows`.
  init(folder: URL, environment: [String: String], columns: Int = 100, rows: Int = 30) throws {
    socket = folder.appendingPathComponent("tmux.sock").path
    let settings = environment.map { "\($0.key)=\($0.value)" }
    let arguments =
      ["tmux", "-S", socket, "new-session", "-d", "-x", String(columns), "-y", String(rows), "--", "env"] + settings + [
        // No history file: bash would write it into the folder as the test removes it.
        "PS1=$ ", "HISTFILE=", "bash", "--norc", "--noprofile", "-i",
      ]
    guard Self.spawnDetached(Self.tmux!.path, arguments) == 0 else { throw CocoaError(.featureUnsupported) }
  }

  /// Runs a program that leaves a server behind, and waits for it. `Process` cannot:
  /// it waits until every copy of its descriptors is closed, and the server would keep
  /// them (and every other descriptor open in the tests) until it ends. Here the
  /// program gets /dev/null and nothing else.
  static func spawnDetached(_ path: String, _ arguments: [String]) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in 0...2 {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    // glibc's closefrom action (2.34 and later), which Swift does not import.
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return -1 }
    _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    // Nothing blocked: a test thread's mask would otherwise block SIGHUP in the shell.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigfillset(&signals)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    guard posix_spawn(&pid, path, &actions, &attributes, &argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return status
  }

  @discardableResult
  func run(_ arguments: [String]) throws -> TestSupport.ProcessResult {
    try TestSupport.run(Self.tmux!, ["-S", socket] + arguments)
  }

  /// Types `keys` (tmux key names such as `Enter`, `Escape`, `C-c`).
  func send(_ keys: String...) throws { try run(["send-keys"] + keys) }

  /// Types `text` literally.
  func type(_ text: String) throws { try run(["send-keys", "-l", text]) }

  /// The screen, as soon as it shows `text` (or after `timeout` seconds, as it is then).
  func screen(showing text: String, timeout: Double = 15) throws -> String {
    try screen(timeout: timeout) { $0.contains(text) }
  }

  /// The screen, as soon as `done` holds for it (or after `timeout` seconds).
  func screen(timeout: Double = 15, until done: (String) -> Bool) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let screen = try run(["capture-pane", "-p"]).stdout
      if done(screen) || Date() > deadline { return screen }
      Thread.sleep(forTimeInterval: 0.1)
    }
  }

  /// The screen once the shell has printed `EXIT=N`, which the commands typed end with.
  func exitStatus() throws -> String {
    try screen { $0.contains(/EXIT=\d/) }
  }

  func close() { _ = try? run(["kill-server"]) }
}

/// `prefs edit` with a real terminal editor: the editor must own the terminal
/// (as under `git commit`), and Ctrl-C must leave nothing behind.
@Suite(.serialized) struct EditTerminalTests {
  static let vi = TestSupport.executable(named: "vi")

  /// A store with the tutorial's domain, a private TMPDIR, and a shell in tmux.
  func setUp(editor: String) throws -> (folder: URL, session: TerminalSession) {
    let folder = try TestSupport.temporaryFolder()
    let store = folder.appendingPathComponent("store")
    let tmp = folder.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    _ = try TestSupport.prefs(["write", "com.example.app", "ringtone", "Chimes"], store: store)
    _ = try TestSupport.prefs(["write", "com.example.app", "isAccountPrivate", "-bool", "true"], store: store)
    let session = try TerminalSession(
      folder: folder,
      environment: [
        "PREFS_DEFAULTS_DIR": store.path, "TMPDIR": tmp.path, "HOME": folder.path, "EDITOR": editor,
        "VISUAL": "",
      ])
    return (folder, session)
  }

  func domainFile(_ folder: URL) -> URL { folder.appendingPathComponent("store/com.example.app.plist") }

  func leftovers(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("tmp").path)
  }

  @Test(
    .enabled(if: TerminalSession.tmux != nil, "tmux is not installed"),
    .enabled(if: vi != nil, "vi is not installed"))
  func viEditsADomainOnATerminalAndCtrlCIsTheEditors() throws {
    let (folder, session) = try setUp(editor: "vi")
    defer {
      session.close()
      try? FileManager.default.removeItem(at: folder)
    }
    try session.type("\(TestSupport.prefsBinary.path) edit com.example.app; echo \"EXIT=$?\"")
    try session.send("Enter")
    let opened = try session.screen(showing: "ringtone: Chimes")
    #expect(opened.contains("isAccountPrivate: true"), "the editor never drew its screen:\n\(opened)")
    // Ctrl-C in the editor is the editor's: prefs keeps waiting.
    try session.send("C-c")
    #expect(try session.screen(showing: ":qa").contains("to exit Vim"))
    try session.type("/Chimes")
    try session.send("Enter")
    try session.type("cwWaves")
    try session.send("Escape")
    #expect(try session.screen(showing: "ringtone: Waves").contains("ringtone: Waves"))
    try session.type(":wq")
    try session.send("Enter")
    let done = try session.exitStatus()
    #expect(done.contains("EXIT=0"), "\(done)")
    let store = folder.appendingPathComponent("store")
    #expect(try TestSupport.prefs(["read", "com.example.app", "ringtone"], store: store).stdout == "Waves\n")
    #expect(
      try TestSupport.prefs(["read-type", "com.example.app", "isAccountPrivate"], store: store).stdout
        == "Type is boolean\n")
    #expect(try leftovers(folder) == [])
  }

  @Test(.enabled(if: TerminalSession.tmux != nil, "tmux is not installed"))
  func ctrlCWhileTheEditorRunsLeavesNoTemporaryFileAndTheDomainUnchanged() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // An editor that takes the default action on SIGINT, as most programs do.
    let editor = folder.appendingPathComponent("editor.sh")
    try Data("#!/bin/sh\necho EDITING \"$1\"\nsleep 60\n".utf8).write(to: editor)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
    let (base, session) = try setUp(editor: editor.path)
    defer {
      session.close()
      try? FileManager.default.removeItem(at: base)
    }
    let before = try Data(contentsOf: domainFile(base))
    try session.type("\(TestSupport.prefsBinary.path) edit com.example.app")
    try session.send("Enter")
    let editing = try session.screen(showing: "EDITING")
    #expect(editing.contains("/prefs-edit-"), "\(editing)")
    #expect(!editing.contains("//prefs-edit-"), "\(editing)")
    #expect(try leftovers(base).count == 1)
    try session.send("C-c")
    let aborted = try session.screen(showing: "edit aborted")
    #expect(aborted.contains("prefs: edit aborted: the editor was interrupted; nothing was changed"), "\(aborted)")
    try session.type("echo \"EXIT=$?\"")
    try session.send("Enter")
    #expect(try session.exitStatus().contains("EXIT=130"))
    #expect(try leftovers(base) == [])
    #expect(try Data(contentsOf: domainFile(base)) == before)
  }

  @Test(
    .enabled(if: TerminalSession.tmux != nil, "tmux is not installed"),
    .enabled(if: vi != nil, "vi is not installed"))
  func closingTheTerminalLeavesNoTemporaryFileAndTheDomainUnchanged() throws {
    let (folder, session) = try setUp(editor: "vi")
    defer {
      session.close()
      try? FileManager.default.removeItem(at: folder)
    }
    let before = try Data(contentsOf: domainFile(folder))
    try session.type("\(TestSupport.prefsBinary.path) edit com.example.app")
    try session.send("Enter")
    #expect(try session.screen(showing: "ringtone: Chimes").contains("isAccountPrivate: true"))
    try session.type("ggdG")
    #expect(try leftovers(folder).count == 1)
    // The terminal goes away (SIGHUP) in the middle of an edit: vi keeps a swap
    // file beside the edit, and both must go.
    session.close()
    let deadline = Date().addingTimeInterval(10)
    while try !leftovers(folder).isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    #expect(try leftovers(folder) == [])
    #expect(try Data(contentsOf: domainFile(folder)) == before)
  }

  /// `edit --expand-data` on a terminal, with an editor script that shows what it was
  /// given and renames one item: the items blob opens as structure, and only that
  /// item's name changes in the domain.
  @Test(.enabled(if: TerminalSession.tmux != nil, "tmux is not installed"))
  func editingWithDataExpandedRenamesOneItemOfTheBlob() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let editor = folder.appendingPathComponent("editor.sh")
    try Data("#!/bin/sh\nhead -n 4 \"$1\"\nsed -i 's/name: Groceries/name: Shopping/' \"$1\"\n".utf8).write(to: editor)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
    let (base, session) = try setUp(editor: editor.path)
    defer {
      session.close()
      try? FileManager.default.removeItem(at: base)
    }
    let items = TestSupport.packageRoot.appendingPathComponent("Samples/Items.plist").path
    let store = base.appendingPathComponent("store")
    #expect(try TestSupport.prefs(["import", "com.example.items", items], store: store).status == 0)
    try session.type("\(TestSupport.prefsBinary.path) edit com.example.items --expand-data; echo \"EXIT=$?\"")
    try session.send("Enter")
    let done = try session.exitStatus()
    #expect(done.contains("EXIT=0"), "\(done)")
    #expect(done.contains("items: !json\n- description: Milk, eggs and bread / butter\n"), "\(done)")
    let diff = try TestSupport.prefs(
      ["diff", items, store.appendingPathComponent("com.example.items.plist").path, "--expand-data"])
    #expect(diff.stdout == "~ items.0.name: \"Groceries\" -> \"Shopping\"\n", "\(diff.stderr)")
    #expect(try leftovers(base) == [])
  }
}
