import PrefsKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The user's editor, run the way `git commit` runs it: in prefs' own process group,
/// so that it owns the terminal, while prefs waits with SIGINT and SIGQUIT ignored.
///
/// Foundation's `Process` puts a child in a process group of its own, which a
/// terminal editor cannot use: it is stopped (SIGTTOU/SIGTTIN) the moment it
/// touches the terminal. So the editor is started with `posix_spawn` here.
enum Editor {
  /// `$VISUAL`, else `$EDITOR`, else `vi`.
  static func command(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
  }

  /// Runs `editor` on `file` through the shell (so that `code --wait` works) and waits.
  static func run(_ editor: String, on file: String) throws -> ChildProcess.Outcome {
    #if canImport(Darwin)
      var attributes: posix_spawnattr_t? = nil
    #else
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The editor starts with the default action for the signals prefs handles or
    // ignores, and with nothing blocked.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in EditFolder.handledSignals + [SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    // Until EditFolder.interruption(_:) has looked at how the editor ended, a
    // signal is recorded rather than acted on (see there).
    EditFolder.editorRunning = 1
    let pid: pid_t
    do {
      pid = try ChildProcess.spawn(
        ["/bin/sh", "-c", "\(editor) \"$1\"", "sh", file], what: "the editor '\(editor)'", attributes: &attributes)
    } catch {
      EditFolder.editorRunning = 0
      throw error
    }
    guard let outcome = ChildProcess.wait(for: pid) else {
      EditFolder.editorRunning = 0
      throw PrefsError(.io, "cannot wait for the editor '\(editor)': \(String(cString: strerror(errno)))")
    }
    return outcome
  }
}

/// A private temporary folder (`mkdtemp`, mode 0700) holding the file being edited.
/// It goes on every way out: when this object goes, and on SIGINT, SIGQUIT,
/// SIGTERM or SIGHUP, after which prefs dies by that signal as it would have.
/// While the editor runs, SIGINT and SIGQUIT are the editor's (prefs ignores
/// them, as git does); SIGTERM and SIGHUP wait until the editor has exited.
final class EditFolder {
  /// The folder's path.
  let path: String
  /// The edited file in it.
  let file: String
  private var kept = false

  static let handledSignals: [Int32] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

  // Read by the signal handler, which can only use globals and async-signal-safe calls.
  nonisolated(unsafe) fileprivate static var cleanupFile: UnsafeMutablePointer<CChar>?
  nonisolated(unsafe) fileprivate static var cleanupFolder: UnsafeMutablePointer<CChar>?
  nonisolated(unsafe) static var editorRunning: sig_atomic_t = 0
  nonisolated(unsafe) static var pendingSignal: sig_atomic_t = 0

  /// Creates the folder and installs the signal handlers.
  init(fileName: String) throws {
    let base = FileManager.default.temporaryDirectory.path.appendingPathComponent("prefs-edit-XXXXXX")
    var template = Array(base.utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      throw PrefsError(.cannotCreate, "cannot create a temporary folder: \(String(cString: strerror(errno)))")
    }
    path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    file = path.appendingPathComponent(fileName)
    Self.cleanupFile = strdup(file)
    Self.cleanupFolder = strdup(path)
    for number in Self.handledSignals { _ = signal(number, editFolderSignalHandler) }
  }

  /// Keeps the folder (and the edit in it); returns its path.
  func keep() -> String {
    kept = true
    forget()
    return path
  }

  /// Removes the folder now.
  func remove() {
    if !kept { try? FileManager.default.removeItem(atPath: path) }
    forget()
  }

  /// After the editor ran: the signal that interrupted it, one that arrived while
  /// it ran or the one that killed it (Ctrl-C in an editor that does not catch
  /// it), or nil. When there is one, the handled signals are ignored from then on:
  /// a late one (a shell passes a hangup on to its jobs) must not cut short the
  /// removal of what the editor left, such as vi's swap file.
  func interruption(_ outcome: ChildProcess.Outcome) -> Int32? {
    var found: Int32?
    if case .killed(let killer) = outcome, Self.handledSignals.contains(killer) { found = killer }
    if Self.pendingSignal != 0 { found = Self.pendingSignal }
    if found != nil {
      for number in Self.handledSignals { _ = signal(number, SIG_IGN) }
    }
    Self.editorRunning = 0
    // A signal recorded in between still counts.
    if found == nil, Self.pendingSignal != 0 {
      found = Self.pendingSignal
      for number in Self.handledSignals { _ = signal(number, SIG_IGN) }
    }
    return found
  }

  /// Removes the folder and dies by `number`, so that the shell sees the interruption.
  func die(by number: Int32) -> Never {
    remove()
    _ = signal(number, SIG_DFL)
    raise(number)
    exit(128 + number)
  }

  private func forget() {
    for number in Self.handledSignals { _ = signal(number, SIG_DFL) }
    free(Self.cleanupFile)
    free(Self.cleanupFolder)
    Self.cleanupFile = nil
    Self.cleanupFolder = nil
  }

  deinit { remove() }
}

private func editFolderSignalHandler(_ number: Int32) {
  if EditFolder.editorRunning != 0 {
    // The editor has the terminal and got the same signal; act once it exits.
    if number != SIGINT && number != SIGQUIT { EditFolder.pendingSignal = number }
    return
  }
  if let file = EditFolder.cleanupFile { unlink(file) }
  if let folder = EditFolder.cleanupFolder { rmdir(folder) }
  _ = signal(number, SIG_DFL)
  raise(number)
}
