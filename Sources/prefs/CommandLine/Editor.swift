import PrefsKit

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
  /// Returns how it ended, and the stop signal that interrupted it, if any: a SIGTERM
  /// or SIGHUP that arrived while it ran, or the signal that killed it (Ctrl-C in an
  /// editor that does not catch it). After an interruption further stop signals are
  /// ignored, so that a late one cannot cut short the removal of what the editor left
  /// (such as vi's swap file) before the caller dies by it.
  static func run(_ editor: String, on file: String) throws -> (
    outcome: ChildProcess.Outcome, interruption: Int32?
  ) {
    var attributes = ChildProcess.newAttributes
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The editor starts with the default action for the signals prefs handles or
    // ignores, and with nothing blocked.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in SignalScope.stopSignals + [SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let (outcome, stoppedBy) = try SignalScope.whileChildRuns { () throws -> ChildProcess.Outcome in
      let pid = try ChildProcess.spawn(
        ["/bin/sh", "-c", "\(editor) \"$1\"", "sh", file], what: "the editor '\(editor)'", attributes: &attributes)
      guard let outcome = ChildProcess.wait(for: pid) else {
        throw PrefsError(.other(.io, "cannot wait for the editor '\(editor)': \(systemErrorText())"))
      }
      return outcome
    }
    if let stoppedBy { return (outcome, stoppedBy) }
    if case .killed(let killer) = outcome, SignalScope.stopSignals.contains(killer) {
      SignalScope.ignoreStops()
      return (outcome, killer)
    }
    return (outcome, nil)
  }
}

/// A private temporary folder (`mkdtemp`, mode 0700) holding the file being edited.
/// It goes on every way out: when this object goes, and on a stop signal (through
/// ``SignalScope``), after which prefs dies by that signal as it would have.
final class EditFolder {
  /// The folder's path.
  let path: String
  /// The edited file in it.
  let file: String
  private var kept = false
  private var cleanups: [SignalScope.Cleanup] = []

  /// Creates the folder, and has a stop signal remove it and the file.
  init(fileName: String) throws {
    let base = FileManager.default.temporaryDirectory.path.appendingPathComponent("prefs-edit-XXXXXX")
    var template = Array(base.utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      throw PrefsError(.other(.cannotCreate, "cannot create a temporary folder: \(systemErrorText())"))
    }
    path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    file = path.appendingPathComponent(fileName)
    cleanups = [SignalScope.push(file, removing: .file), SignalScope.push(path, removing: .folder)]
  }

  /// Keeps the folder and the edit in it; returns the edited file's path.
  func keepFile() -> String {
    kept = true
    forget()
    return file
  }

  /// Removes the folder now.
  func remove() {
    if !kept { try? FileManager.default.removeItem(atPath: path) }
    forget()
  }

  /// Removes the folder and dies by `number`, so that the shell sees the interruption.
  func die(by number: Int32) -> Never {
    remove()
    SignalScope.die(by: number)
  }

  private func forget() {
    cleanups.forEach(SignalScope.pop)
    cleanups = []
  }

  deinit { remove() }
}
