import PrefsKit

/// One option of the command table: every spelling, whether it takes a value, and
/// its help line. Each option is declared once (see `Options`) and listed by the
/// commands that accept it, so it means the same everywhere.
struct OptionSpec: Sendable {
  /// The canonical name, used to look the option up after parsing (`output`).
  let name: String
  /// `--long` spellings (without the dashes).
  let long: [String]
  /// `-x` single-letter spellings.
  let short: [Character]
  /// `-word` spellings as `defaults` has them (`string`, `array-add`).
  let words: [String]
  /// The placeholder of the value (`FILE`), or nil for a flag.
  let valueName: String?
  /// Whether it may be given more than once.
  let repeatable: Bool
  let help: String

  init(
    _ name: String, long: [String] = [], short: [Character] = [], words: [String] = [], value: String? = nil,
    repeatable: Bool = false, help: String
  ) {
    self.name = name
    self.long = long
    self.short = short
    self.words = words
    self.valueName = value
    self.repeatable = repeatable
    self.help = help
  }

  /// The spellings as help shows them: `-o, --output FILE`.
  var synopsis: String {
    let spellings = short.map { "-\($0)" } + long.map { "--\($0)" } + words.map { "-\($0)" }
    return spellings.joined(separator: ", ") + (valueName.map { " \($0)" } ?? "")
  }

  /// The shortest spelling, for usage lines.
  var primarySpelling: String {
    if let s = short.first { return "-\(s)" }
    if let l = long.first { return "--\(l)" }
    return "-\(words[0])"
  }
}

/// A positional argument of a command, for help text and arity checks.
struct ArgumentSpec: Sendable {
  let name: String
  let help: String
  var optional = false
  /// Takes every remaining argument (at least one unless `optional`).
  var variadic = false
}

/// One subcommand: what help shows and what parsing needs, and the code that runs it.
struct CommandSpec: Sendable {
  let name: String
  /// One sentence for the OVERVIEW and the command list.
  let summary: String
  /// More paragraphs for the OVERVIEW, if any.
  var discussion: String = ""
  let arguments: [ArgumentSpec]
  let options: [OptionSpec]
  /// `(command line, what it does)`, shown under EXAMPLES and run by the tests.
  let examples: [(String, String)]
  let run: @Sendable (ParsedArguments, Console) throws -> Int32

  /// The options the command takes: its own, then the global ones.
  var accepted: [OptionSpec] { options + Options.global }

  /// The USAGE line: `prefs convert IN [-o OUT] [--to FMT]`.
  var usage: String {
    var parts = ["prefs", name]
    for argument in arguments {
      var text = argument.name + (argument.variadic ? "..." : "")
      if argument.optional { text = "[\(text)]" }
      parts.append(text)
    }
    for option in options {
      parts.append("[\(option.primarySpelling)\(option.valueName.map { " \($0)" } ?? "")]")
    }
    return parts.joined(separator: " ")
  }
}

/// What the parser found: positionals in order, option values by canonical name.
struct ParsedArguments: Sendable {
  var positionals: [String] = []
  var values: [String: [String]] = [:]
  /// Arguments and options in the order given, for commands where order matters
  /// (`write d k -array -int 1 -string a`).
  var sequence: [Token] = []
  /// The names of the options the command declares.
  var declared: Set<String> = []

  /// One element of ``sequence``.
  enum Token: Sendable, Equatable {
    case positional(String)
    case option(name: String, value: String)
  }

  func has(_ option: OptionSpec) -> Bool { values[option.name] != nil }
  func value(_ option: OptionSpec) -> String? { values[option.name]?.last }
  func all(_ option: OptionSpec) -> [String] { values[option.name] ?? [] }
  /// Whether the command takes `option` at all.
  func declares(_ option: OptionSpec) -> Bool { declared.contains(option.name) }
}
