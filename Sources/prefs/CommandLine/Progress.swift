import PrefsKit

/// Progress of long work on standard error, shown only when it is a terminal (and
/// so never in pipes, logs or tests that capture it).
final class ProgressLine {
  private let total: Int
  private let enabled: Bool
  private var done = 0

  /// Progress over `total` items.
  init(total: Int) {
    self.total = total
    enabled = isatty(2) == 1
  }

  /// Marks the start of one more item.
  func step(_ label: String) {
    done += 1
    show("[\(done)/\(total)] \(label)")
  }

  /// Clears the progress line and says what was done.
  func finish(_ summary: String) {
    guard enabled else { return }
    Console.writeError("\r\u{1B}[K\(summary)\n")
  }

  /// Clears the progress line.
  func clear() {
    guard enabled else { return }
    Console.writeError("\r\u{1B}[K")
  }

  /// Replaces the progress line with `text`.
  func show(_ text: String) {
    guard enabled else { return }
    Console.writeError("\r\u{1B}[K\(text)")
  }

  /// Inputs at least this large show what phase a conversion is in.
  static let largeInput = 4 << 20

  /// `12.3 MB`.
  static func size(_ bytes: Int) -> String {
    let tenths = (bytes + 50_000) / 100_000
    return "\(tenths / 10).\(tenths % 10) MB"
  }
}
