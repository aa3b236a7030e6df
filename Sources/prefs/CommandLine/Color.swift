import PrefsKit

/// `--color=auto|always|never`: whether output is coloured.
enum ColorChoice: String, CaseIterable, Sendable {
  /// On a terminal, unless `NO_COLOR` is set (and not empty) or `TERM` is `dumb`.
  case auto
  case always
  case never

  /// The choice `--color` names, or a usage error listing the choices.
  static func named(_ text: String) throws -> ColorChoice {
    guard let choice = ColorChoice(rawValue: text) else {
      throw PrefsError(
        .usage("unknown colour choice '\(text)'"),
        hints: ["choices: \(allCases.map(\.rawValue).joined(separator: ", "))"])
    }
    return choice
  }

  /// Whether output to `descriptor` is coloured under this choice.
  func colors(
    _ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    switch self {
    case .always: return true
    case .never: return false
    case .auto:
      // NO_COLOR counts when present and not empty (no-color.org).
      return isatty(descriptor) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
  }
}

extension Console {
  /// Whether standard output is coloured.
  var colorsOutput: Bool { color.colors(1) }

  /// `text` in the SGR colour `code` (`31` red), when standard output is coloured.
  func paint(_ text: some StringProtocol, _ code: String) -> String {
    colorsOutput ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : String(text)
  }
}
