import Foundation
import PrefsKit

/// Standard output and error, and the exit statuses of DESIGN.md section 7.
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

  func out(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  func outData(_ data: Data) throws {
    let writer = ByteWriter(fileDescriptor: 1)
    try writer.write(data)
    try writer.flush()
  }

  func err(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// `prefs: error: …` plus hint lines.
  func report(_ error: PrefsError) {
    err("prefs: error: \(error)")
    for hint in error.hints {
      err(hint.hasPrefix("Usage:") || hint.hasPrefix("See ") ? hint : "hint: \(hint)")
    }
  }

  /// `prefs: warning: …` for each warning, attributed to `file` when they name none.
  func report(_ warnings: Warnings, file: String? = nil) {
    for var warning in warnings.all {
      if warning.file == nil { warning.file = file }
      err("prefs: warning: \(warning)")
    }
  }
}

/// How an input path is named in messages (`-` is standard input).
func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
