import Foundation

/// Progress of long work on standard error, shown only when it is a terminal.
final class ProgressLine {
  private let total: Int
  private let console: Console
  private let enabled: Bool
  private var done = 0

  init(total: Int, console: Console) {
    self.total = total
    self.console = console
    enabled = isatty(2) == 1
  }

  /// Marks the start of one more item.
  func step(_ label: String) {
    done += 1
    guard enabled else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K[\(done)/\(total)] \(label)".utf8))
  }

  /// Clears the progress line and says what was done.
  func finish(_ summary: String) {
    guard enabled else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K\(summary)\n".utf8))
  }
}
