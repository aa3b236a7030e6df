/// Where in an input a problem was found.
public enum SourcePosition: Sendable, Equatable {
  /// 1-based line and column (text formats).
  case lineColumn(line: Int, column: Int)
  /// 0-based byte offset (binary plists).
  case byteOffset(Int)

}

/// Every error `PrefsKit` throws: what failed (its ``kind``, from which the category
/// and the message follow), and where known the file and position it concerns.
public struct PrefsError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, broadly; the command maps each to a `sysexits` status.
  public enum Category: Sendable, Equatable {
    /// The command was called wrongly.
    case usage
    /// The input is malformed, or holds a value outside the model or the target format.
    case badInput
    /// A file, domain or key that must exist does not.
    case noInput
    /// An output file could not be created.
    case cannotCreate
    /// Reading or writing failed.
    case io
    /// A temporary condition, such as a lock held too long by another process.
    case temporary
  }

  /// What failed, for a caller to switch on.
  public var kind: Kind
  /// The file (or domain, or `-`) the error is about, when known.
  public var file: String?
  /// Where in the file, when known.
  public var position: SourcePosition?
  /// Extra lines that help fix the problem.
  public var hints: [String]

  /// An error of `kind`, about `file` at `position` when known.
  public init(_ kind: Kind, file: String? = nil, position: SourcePosition? = nil, hints: [String] = []) {
    self.kind = kind
    self.file = file
    self.position = position
    self.hints = hints
  }

  /// What went wrong, broadly, as the kind says.
  public var category: Category { kind.category }

  /// The one-line message, as the kind words it.
  public var message: String { kind.message }

  /// This error attributed to `file`, unless it already names one.
  public func inFile(_ file: String) -> PrefsError {
    var copy = self
    if copy.file == nil { copy.file = file }
    return copy
  }

  /// The error in the one grammar: `FILE:LINE:COL: message`, `FILE: at byte N: message`
  /// or `FILE: message`.
  public var description: String { Self.located(message, file: file, position: position) }

  /// `message` after `file` and `position` in the one grammar of every error,
  /// warning and finding.
  public static func located(_ message: String, file: String?, position: SourcePosition?) -> String {
    var prefix = ""
    switch (file, position) {
    case (let file?, .lineColumn(let line, let column)?): prefix = "\(file):\(line):\(column): "
    case (let file?, .byteOffset(let offset)?): prefix = "\(file): at byte \(offset): "
    case (let file?, nil): prefix = "\(file): "
    case (nil, .lineColumn(let line, let column)?): prefix = "\(line):\(column): "
    case (nil, .byteOffset(let offset)?): prefix = "at byte \(offset): "
    case (nil, nil): prefix = ""
    }
    return prefix + message
  }
}

/// A warning: something was changed or left out on purpose and the user should know
/// (a date fraction XML cannot hold, a dropped null).
public struct PrefsWarning: Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public var file: String?
  public var position: SourcePosition?
  /// What the reader would have refused had an option not let it pass (a null it
  /// dropped, a duplicate key it kept last); nil for other warnings.
  public var refused: PrefsError.Kind?

  public init(
    _ message: String, file: String? = nil, position: SourcePosition? = nil, refused: PrefsError.Kind? = nil
  ) {
    self.message = message
    self.file = file
    self.position = position
    self.refused = refused
  }

  public var description: String { PrefsError.located(message, file: file, position: position) }
}

extension PrefsError {
  /// What went wrong, in words, for an error of any kind: a system error as the C
  /// library words it (`No such file or directory`), with its file when it has one.
  /// (`localizedDescription` would link all of Foundation into the binary.)
  public static func text(of error: any Error) -> String {
    switch error {
    case let error as PrefsError: return error.description
    case let error as POSIXError: return systemErrorText(error.code.rawValue)
    case let error as CocoaError:
      let reason = (error.underlying as? POSIXError).map { systemErrorText($0.code.rawValue) }
      return [error.filePath, reason ?? "error \(error.code.rawValue)"].compactMap { $0 }.joined(separator: ": ")
    default: return String(describing: error)
    }
  }
}

/// Collects the warnings of one read or write; the library never prints them itself.
public final class Warnings: @unchecked Sendable {
  private let lock = Lock()
  private var items: [PrefsWarning] = []

  public init() {}

  /// Records a warning.
  public func add(_ warning: PrefsWarning) {
    lock.withLock { items.append(warning) }
  }

  /// Records a warning from its parts.
  public func add(_ message: String, position: SourcePosition? = nil, refused: PrefsError.Kind? = nil) {
    add(PrefsWarning(message, position: position, refused: refused))
  }

  /// The warnings so far, in order.
  public var all: [PrefsWarning] { lock.withLock { items } }
}

/// The C library's text for an error number (`errno` by default), for messages: the one
/// place that calls strerror(3).
package func systemErrorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
