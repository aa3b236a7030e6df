import PrefsKit
import Synchronization

/// The terminal an interactive command draws on, in VT100/ANSI and termios alone: raw
/// mode, the alternate screen, the keys typed (escape sequences decoded), its size,
/// and a resize (SIGWINCH) as one more key.
///
/// ``run(_:)`` enters raw mode and the alternate screen and always leaves them: when
/// its body returns or throws, and, through ``SignalScope``, when a stop signal ends
/// the process.
final class Terminal {
  /// A key typed, or the terminal resized.
  enum Key: Equatable {
    case character(Character)
    case up, down, left, right, home, end, pageUp, pageDown
    case tab, backTab, enter, backspace, delete, escape
    /// Ctrl and a letter (`control("s")` for Ctrl-S).
    case control(Character)
    case resize
  }

  let input: Int32
  let output: Int32
  private var saved = termios()
  private var raw = termios()
  private var undecoded: [UInt8] = []
  private var queued: [Key] = []

  /// What puts the terminal back: an escape sequence cut short by a signal cancelled
  /// (CAN), colours off, the cursor shown, the main screen.
  static let reset = Array("\u{18}\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

  init(input: Int32 = 0, output: Int32 = 1) {
    self.input = input
    self.output = output
  }

  /// Runs `body` in raw mode on the alternate screen, and restores both on every way out.
  func run<T>(_ body: () throws -> T) throws -> T {
    guard tcgetattr(input, &saved) == 0 else {
      throw PrefsError(.other(.io, "cannot read the terminal's settings: \(systemErrorText())"))
    }
    raw = saved
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_cflag |= tcflag_t(CS8)
    // No echo, no line editing, and Ctrl-C, Ctrl-Z and Ctrl-\ arrive as keys.
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    Resize.shared.start()
    defer { Resize.shared.stop() }
    return try SignalScope.restoringTerminal(output, to: saved, writing: Self.reset) {
      guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
        throw PrefsError(.other(.io, "cannot put the terminal in raw mode: \(systemErrorText())"))
      }
      defer {
        draw(String(decoding: Self.reset, as: UTF8.self))
        _ = tcsetattr(input, TCSAFLUSH, &saved)
      }
      draw(Self.enter)
      return try body()
    }
  }

  /// The alternate screen, cleared, and the cursor hidden.
  private static let enter = "\u{1B}[?1049h\u{1B}[H\u{1B}[2J\u{1B}[?25l"

  /// Ctrl-Z: gives the terminal back as the shell left it and stops the process, as
  /// the terminal would have outside raw mode; once continued (`fg`), takes raw mode
  /// and the alternate screen again. The caller draws the screen anew.
  func suspend() {
    draw(String(decoding: Self.reset, as: UTF8.self))
    _ = tcsetattr(input, TCSAFLUSH, &saved)
    // The whole process group stops, as the terminal's own Ctrl-Z stops it.
    kill(0, SIGTSTP)
    _ = tcsetattr(input, TCSAFLUSH, &raw)
    draw(Self.enter)
  }

  /// Rows and columns; 24 by 80 when the terminal does not say.
  var size: (rows: Int, columns: Int) {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else { return (24, 80) }
    return (Int(window.ws_row), Int(window.ws_col))
  }

  /// Writes `text` as it is (escape sequences included).
  func draw(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let n = write(output, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
      }
    }
  }

  /// The next key, waiting for one; a resize counts as one. Nil when the input ends.
  func nextKey() throws -> Key? {
    while queued.isEmpty {
      var descriptors = [
        pollfd(fd: input, events: Int16(POLLIN), revents: 0),
        pollfd(fd: Resize.shared.readEnd, events: Int16(POLLIN), revents: 0),
      ]
      if poll(&descriptors, 2, -1) < 0 {
        if errno == EINTR { continue }
        throw PrefsError(.other(.io, "cannot wait for the terminal: \(systemErrorText())"))
      }
      if descriptors[1].revents != 0, Resize.shared.drain() { queued.append(.resize) }
      if descriptors[0].revents != 0 {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = read(input, &buffer, buffer.count)
        if n < 0, errno == EINTR || errno == EAGAIN { continue }
        if n <= 0 { return nil }
        let (keys, rest) = Self.decode(undecoded + buffer[0..<n])
        queued += keys
        undecoded = rest
      }
    }
    return queued.removeFirst()
  }

  /// The keys in `bytes` as one read gave them, and the bytes of a key not yet whole
  /// (a UTF-8 character or an escape sequence cut short). An escape byte that ends
  /// the read is the Escape key: a sequence arrives in one piece.
  static func decode(_ bytes: [UInt8]) -> (keys: [Key], rest: [UInt8]) {
    var keys: [Key] = []
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      switch byte {
      case 0x1B:
        guard i + 1 < bytes.count else {
          keys.append(.escape)
          i += 1
          continue
        }
        let next = bytes[i + 1]
        guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
          keys.append(.escape)
          i += 1
          continue
        }
        // CSI or SS3: parameters, then a final byte from @ to ~.
        var end = i + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return (keys, Array(bytes[i...])) }
        let parameters = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
        if let key = sequenceKey(final: bytes[end], parameters: parameters) { keys.append(key) }
        i = end + 1
      case 0x0D, 0x0A:
        keys.append(.enter)
        i += 1
      case 0x09:
        keys.append(.tab)
        i += 1
      case 0x7F, 0x08:
        keys.append(.backspace)
        i += 1
      case 0x01...0x1A:
        keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        i += 1
      case 0x00, 0x1C...0x1F: i += 1
      case 0x20...0x7E:
        keys.append(.character(Character(Unicode.Scalar(byte))))
        i += 1
      default:
        // A UTF-8 sequence: its length from the lead byte.
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard i + length <= bytes.count else { return (keys, Array(bytes[i...])) }
        let text = String(decoding: bytes[i..<(i + length)], as: UTF8.self)
        for character in text where character != "\u{FFFD}" || length > 1 { keys.append(.character(character)) }
        i += length
      }
    }
    return (keys, [])
  }

  private static func sequenceKey(final: UInt8, parameters: String) -> Key? {
    switch Character(Unicode.Scalar(final)) {
    case "A": .up
    case "B": .down
    case "C": .right
    case "D": .left
    case "H": .home
    case "F": .end
    case "Z": .backTab
    case "~":
      switch parameters {
      case "1", "7": .home
      case "4", "8": .end
      case "3": .delete
      case "5": .pageUp
      case "6": .pageDown
      default: nil
      }
    default: nil
    }
  }
}

extension Terminal {
  /// `text` safe to draw: every character `TerminalText.mustEscape` names shown, never
  /// sent: line breaks and tabs as `\n`, `\r`, `\t`, other C0 controls and DEL as `^X`
  /// (as terminals echo them), the rest as `\u{HHHH}`.
  static func visible(_ text: some StringProtocol) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      guard TerminalText.mustEscape(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar.value {
      case 0x0A: result += "\\n"
      case 0x0D: result += "\\r"
      case 0x09: result += "\\t"
      case 0x00..<0x20: result += "^" + String(Character(Unicode.Scalar(UInt8(scalar.value) + 0x40)))
      case 0x7F: result += "^?"
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  /// How many columns `character` takes: 2 for East Asian wide and emoji ranges, 0 for
  /// combining marks, else 1.
  static func width(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return 2
    default: return 1
    }
  }

  /// `text` (already ``visible(_:)``) cut to `columns` with `…`, then padded with spaces
  /// to exactly `columns`.
  static func fit(_ text: String, _ columns: Int) -> String {
    guard columns > 0 else { return "" }
    var result = ""
    var used = 0
    let total = text.reduce(0) { $0 + width(of: $1) }
    let room = total > columns ? columns - 1 : columns
    for character in text {
      let w = width(of: character)
      if used + w > room { break }
      result.append(character)
      used += w
    }
    if total > columns {
      result += "…"
      used += 1
    }
    return result + String(repeating: " ", count: max(0, columns - used))
  }
}

/// SIGWINCH, turned into a byte on a pipe that ``Terminal/nextKey()`` waits on beside
/// the keyboard, so that no resize is lost between two waits.
final class Resize: @unchecked Sendable {
  static let shared = Resize()
  private(set) var readEnd: Int32 = -1
  private var previous = sigaction()

  func start() {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return }
    for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    readEnd = ends[0]
    resizeWriteEnd.store(ends[1], ordering: .sequentiallyConsistent)
    var action = sigaction()
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = resizeHandler
    #else
      action.__sigaction_u.__sa_handler = resizeHandler
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(SIGWINCH, &action, &previous)
  }

  func stop() {
    sigaction(SIGWINCH, &previous, nil)
    let writeEnd = resizeWriteEnd.exchange(-1, ordering: .sequentiallyConsistent)
    if writeEnd >= 0 { close(writeEnd) }
    if readEnd >= 0 { close(readEnd) }
    readEnd = -1
  }

  /// Empties the pipe; true when a resize was in it.
  func drain() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 64)
    var any = false
    while read(readEnd, &buffer, buffer.count) > 0 { any = true }
    return any
  }
}

private let resizeWriteEnd = Atomic<Int32>(-1)

private func resizeHandler(_: Int32) {
  let end = resizeWriteEnd.load(ordering: .sequentiallyConsistent)
  guard end >= 0 else { return }
  var byte: UInt8 = 1
  let saved = errno
  _ = write(end, &byte, 1)
  errno = saved
}
