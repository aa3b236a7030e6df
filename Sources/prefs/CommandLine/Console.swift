import PrefsKit

/// Standard output and error, and the exit statuses (`sysexits`, listed in the manual).
struct Console: Sendable {
  /// `--color`: whether output may be coloured (see `ColorChoice`).
  var color = ColorChoice.auto

  /// `sysexits` statuses.
  enum Status {
    static let success: Int32 = 0
    static let different: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
    static let temporaryFailure: Int32 = 75
    /// Standard output's reader went away: what a shell reports for a tool that
    /// SIGPIPE killed (128 + 13), without dying of the signal.
    static let brokenPipe: Int32 = 141
  }

  /// The status an error maps to.
  static func status(for error: PrefsError) -> Int32 {
    switch error.category {
    case .usage: Status.usage
    case .badInput: Status.dataError
    case .noInput: Status.noInput
    case .cannotCreate: Status.cannotCreate
    case .io: Status.ioError
    case .temporary: Status.temporaryFailure
    }
  }

  /// Thrown when standard output's reader has gone (`prefs … | head`): the command
  /// stops quietly, as a tool killed by SIGPIPE does, with status ``Status/brokenPipe``.
  struct BrokenPipe: Error {}

  /// Writes `text` to standard output.
  func out(_ text: String) throws {
    var text = text
    try text.withUTF8 { try Self.writeOut(UnsafeRawBufferPointer($0)) }
  }

  /// Writes `data` to standard output.
  func outData(_ data: Data) throws {
    try data.withUnsafeBytes { try Self.writeOut($0) }
  }

  /// The one way bytes reach standard output. write(2) itself, because Foundation's
  /// `FileHandle.write` traps on an error (a full disk, a closed descriptor); a failed
  /// write is an I/O error (74), and a reader that has gone is ``BrokenPipe``.
  private static func writeOut(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let n = write(1, base + offset, bytes.count - offset)
      if n < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EPIPE { throw BrokenPipe() }
        throw PrefsError(.io(.write, errno: code), file: "<stdout>")
      }
      offset += n
    }
  }

  /// Writes `text` and a line break to standard error, its control characters
  /// escaped (``TerminalText``).
  func err(_ text: String) {
    Self.writeError(TerminalText.escaped(text, keepingLineBreaks: true) + "\n")
  }

  /// Writes to standard error, ignoring failures: there is nowhere left to report them.
  static func writeError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
      }
    }
  }

  /// `prefs: error: …` plus hint lines, the command's own advice (``ErrorAdvice``) last.
  func report(_ error: PrefsError) {
    // One line each, whatever a message quotes from the input.
    let located = PrefsError.located(ErrorAdvice.message(of: error), file: error.file, position: error.position)
    err("prefs: error: " + TerminalText.escaped(located, keepingLineBreaks: false))
    for hint in error.hints + ErrorAdvice.hints(for: error.kind) {
      let line = TerminalText.escaped(hint, keepingLineBreaks: hint.hasPrefix("Usage:"))
      err(hint.hasPrefix("Usage:") || hint.hasPrefix("See ") ? line : "hint: \(line)")
    }
  }

  /// `prefs: warning: …` for each warning, attributed to `file` when they name none.
  func report(_ warnings: Warnings, file: String? = nil) {
    for var warning in warnings.all {
      if warning.file == nil { warning.file = file }
      err("prefs: warning: " + TerminalText.escaped("\(warning)", keepingLineBreaks: false))
    }
  }
}

/// How an input path is named in messages (`-` is standard input).
func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : RawPath.display(path) }
