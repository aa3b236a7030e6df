import PrefsKit

/// How many values an option takes.
enum Arity: Sendable, Equatable {
  /// No value; given at most once.
  case flag
  /// One value; given at most once.
  case one
  /// One value each time; may be given again.
  case repeatable
}

/// What a shell completes a value or an argument with.
enum CompletionKind: Sendable, Equatable {
  case none
  case files
  case directories
  /// Domain names from the store, and files.
  case domainsOrFiles
  /// Built-in schema names, and files.
  case schemasOrFiles
  case commands
  case shells
  /// These words.
  case words([String])
}

/// The kind of an option's value: its placeholder, how it is checked while the
/// command line is parsed, and what completes it.
enum ValueKind: Sendable, Equatable {
  /// No value (a flag).
  case none
  /// A format name of the format table; `writable` for outputs.
  case format(writable: Bool)
  /// A type name of `ValueText.TypeName`.
  case typeName
  /// A file, or `-` for standard input or output.
  case path
  case directory
  /// A schema file or the name of a built-in schema.
  case schema
  /// A number of seconds, not negative.
  case seconds
  /// A shell pattern matched against key paths.
  case keyGlob
  /// One of these words.
  case choice([String], placeholder: String, noun: String)
  /// Any text; `placeholder` names it.
  case text(placeholder: String)
  /// A host's UUID, as per-host (ByHost) file names carry it.
  case hostUUID

  /// The placeholder help shows: `FMT`, `FILE`.
  var placeholder: String? {
    switch self {
    case .none: nil
    case .format: "FMT"
    case .typeName: "TYPE"
    case .path: "FILE"
    case .directory: "DIR"
    case .schema: "SCHEMA"
    case .seconds: "SECONDS"
    case .keyGlob: "KEY-GLOB"
    case .choice(_, let placeholder, _): placeholder
    case .text(let placeholder): placeholder
    case .hostUUID: "UUID"
    }
  }

  /// What completes a value of this kind.
  var completion: CompletionKind {
    switch self {
    case .none, .text, .keyGlob, .seconds, .hostUUID: .none
    case .format(let writable): .words((writable ? Format.writable : Format.all).flatMap { [$0.name] + $0.aliases })
    case .typeName: .words(ValueText.TypeName.allCases.map(\.rawValue))
    case .path: .files
    case .directory: .directories
    case .schema: .schemasOrFiles
    case .choice(let words, _, _): .words(words)
    }
  }

  /// Reads `text` while parsing, so that a wrong value is a usage error naming its
  /// option, with a did-you-mean where the kind has a list of names; returns the
  /// value typed.
  func parse(_ text: String, spelled: String) throws -> OptionValue {
    switch self {
    case .format(let writable):
      guard let format = Format.named(text) else { throw Format.unknown(text, writableOnly: writable) }
      if writable, !format.isWritable {
        throw PrefsError(
          .usage("\(format.name) can be read but not written"),
          hints: ["formats that can be written: \(Format.namesList(writableOnly: true))"])
      }
      return .format(format)
    case .typeName:
      return .type(try Options.typeName(text))
    case .seconds:
      guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
        throw PrefsError(.usage("option '\(spelled)' takes a number of seconds, not '\(text)'"))
      }
      return .seconds(seconds)
    case .choice(let words, _, let noun):
      guard words.contains(text) else {
        var error = PrefsError(
          .usage("unknown \(noun) '\(text)'"), hints: ["choices: \(words.joined(separator: ", "))"])
        if let guess = Suggestions.closest(to: text, among: words, maximum: 1) {
          error.kind = .usage(error.message + "; did you mean '\(guess)'?")
        }
        throw error
      }
      return .text(text)
    case .hostUUID:
      return .text(try HostUUID.validated(text))
    case .none, .path, .directory, .schema, .keyGlob, .text:
      return .text(text)
    }
  }
}

/// An option's value as parsing read it, by its kind.
enum OptionValue: Sendable, Equatable {
  case text(String)
  case format(Format)
  case type(ValueText.TypeName)
  case seconds(Double)
}

/// One option of the command table: every spelling, its arity, the kind of its
/// value (which gives its placeholder, its check and its completion), and its help
/// line. Each option is declared once (see `Options`) and listed by the commands
/// that accept it, so it means the same everywhere.
///
/// The help line and the completion are made when asked for: every command line
/// builds the whole option table, and only `--help` and the completion scripts read
/// them (listing the format table's names in each help line cost a command's
/// start-up about a tenth of its time).
struct OptionSpec: Sendable {
  /// The canonical name, used to look the option up after parsing (`output`).
  let name: String
  /// `--long` spellings (without the dashes).
  let long: [String]
  /// `-x` single-letter spellings.
  let short: [Character]
  /// `-word` spellings as `defaults` has them (`string`, `array-add`, `currentHost`).
  let words: [String]
  let arity: Arity
  let kind: ValueKind
  /// Why the option is refused, for one `defaults` has and prefs cannot honour
  /// (`-host NAME`): given, it is a usage error in these words.
  let refusal: String?
  /// A completion other than the kind's, if the declaration gives one.
  private let declaredCompletion: CompletionKind?
  private let makeHelp: @Sendable () -> String

  init(
    _ name: String, long: [String] = [], short: [Character] = [], words: [String] = [], arity: Arity = .flag,
    kind: ValueKind = .none, completion: CompletionKind? = nil, refusal: String? = nil,
    help: @autoclosure @escaping @Sendable () -> String
  ) {
    precondition((arity == .flag) == (kind == .none), "a flag has no value kind; an option with a value has one")
    self.name = name
    self.long = long
    self.short = short
    self.words = words
    self.arity = arity
    self.kind = kind
    self.refusal = refusal
    self.declaredCompletion = completion
    self.makeHelp = help
  }

  /// What a shell completes the value with.
  var completion: CompletionKind { declaredCompletion ?? kind.completion }

  /// The help line.
  var help: String { makeHelp() }

  /// The placeholder of the value (`FILE`), or nil for a flag.
  var valueName: String? { kind.placeholder }

  /// The spellings as help shows them: `-o, --output FILE`.
  var synopsis: String {
    let spellings = short.map { "-\($0)" } + long.map { "--\($0)" } + words.map { "-\($0)" }
    return spellings.joined(separator: ", ") + (valueName.map { " \($0)" } ?? "")
  }

  /// Every spelling: `--output`, `-o`, `-string`.
  var spellings: [String] { long.map { "--\($0)" } + short.map { "-\($0)" } + words.map { "-\($0)" } }

  /// The spelling for usage lines: the first long one, else the short or word one.
  var primarySpelling: String {
    if let s = short.first, long.count <= 1 { return "-\(s)" }
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
  /// The subcommands (`schema export`), each named in full; the first argument picks one.
  var subcommands: [CommandSpec] = []
  let run: @Sendable (ParsedArguments, Console) throws -> Int32

  /// The options the command takes: its own, then the global ones.
  var accepted: [OptionSpec] { options + Options.global }

  /// The subcommand `word` names (`export` for `schema export`).
  func subcommand(_ word: String) -> CommandSpec? { subcommands.first { $0.name == "\(name) \(word)" } }

  /// The USAGE line: `prefs convert IN [-o OUT] [--to FMT]`.
  var usage: String {
    var parts = ["prefs", name]
    for argument in arguments {
      var text = argument.name + (argument.variadic ? "..." : "")
      if argument.optional { text = "[\(text)]" }
      parts.append(text)
    }
    // An option that is only refused is no part of how the command is used.
    for option in options where option.refusal == nil {
      parts.append("[\(option.primarySpelling)\(option.valueName.map { " \($0)" } ?? "")]")
    }
    return parts.joined(separator: " ")
  }
}

/// What the parser found: positionals and options in the order given.
///
/// Options are kept in a list, not dictionaries by name: a command line has a few,
/// and the first `Dictionary` keyed by `String` costs a command's start-up a search
/// of every protocol conformance in the binary.
struct ParsedArguments: Sendable {
  var positionals: [String] = []
  /// Arguments and options in the order given, for commands where order matters
  /// (`write d k -array -int 1 -string a`).
  var sequence: [Token] = []
  /// The options given, in order: a flag with an empty value.
  var given: [GivenOption] = []
  /// The names of the options the command declares.
  var declared: [String] = []
  /// `--help` or `-h` was given.
  var wantsHelp = false

  /// One element of ``sequence``.
  enum Token: Sendable, Equatable {
    case positional(String)
    case option(name: String, value: String)
  }

  /// One option as given: its canonical name, its value as written, and typed by the
  /// option's kind (nil for a flag).
  struct GivenOption: Sendable {
    let name: String
    let value: String
    let typed: OptionValue?
  }

  func has(_ option: OptionSpec) -> Bool { given.contains { $0.name == option.name } }
  func value(_ option: OptionSpec) -> String? { given.last { $0.name == option.name }?.value }
  func all(_ option: OptionSpec) -> [String] { given.filter { $0.name == option.name }.map(\.value) }
  /// The last typed value of `option`.
  private func typed(_ option: OptionSpec) -> OptionValue? { given.last { $0.name == option.name }?.typed }
  /// The format an option of kind `.format` names.
  func format(_ option: OptionSpec) -> Format? {
    guard case .format(let format)? = typed(option) else { return nil }
    return format
  }
  /// The type an option of kind `.typeName` names.
  func typeName(_ option: OptionSpec) -> ValueText.TypeName? {
    guard case .type(let type)? = typed(option) else { return nil }
    return type
  }
  /// The number of seconds an option of kind `.seconds` gives.
  func seconds(_ option: OptionSpec) -> Double? {
    guard case .seconds(let seconds)? = typed(option) else { return nil }
    return seconds
  }
  /// Whether the command takes `option` at all.
  func declares(_ option: OptionSpec) -> Bool { declared.contains(option.name) }
}
