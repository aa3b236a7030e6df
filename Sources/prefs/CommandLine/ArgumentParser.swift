import PrefsKit

/// Parses one command's arguments against its table entry.
///
/// Rules: `--name value` and `--name=value`; `-x value`; `-word` options as
/// `defaults` spells them (`-int`, `-currentHost`); `--` ends options; `-` alone is
/// an argument (stdin); `-g` is the global domain; a negative number (`-1`, `-0.5`,
/// `-inf`, `-nan`) is a value, not an option; `--=x` names no option and is a usage
/// error.
enum ArgumentParser {
  static func parse(_ arguments: [String], for command: CommandSpec) throws -> ParsedArguments {
    var result = ParsedArguments()
    result.declared = command.options.map(\.name)
    var k = 0
    var optionsEnded = false

    func take(_ option: OptionSpec, inline: String?, spelled: String) throws {
      // One line says why, and what to give instead.
      if let refusal = option.refusal { throw PrefsError(.usage(refusal)) }
      // A defaults type word types each value it comes before (-dict a -int 1 b -int 2).
      if option.arity != .repeatable, option.words.isEmpty, result.has(option) {
        throw usageError("option '\(spelled)' is given more than once", command)
      }
      guard let valueName = option.valueName else {
        if inline != nil { throw usageError("option '\(spelled)' takes no value", command) }
        result.given.append(.init(name: option.name, value: "", typed: nil))
        result.sequence.append(.option(name: option.name, value: spelled))
        return
      }
      let value: String
      if let inline {
        value = inline
      } else {
        k += 1
        guard k < arguments.count else {
          throw usageError("option '\(spelled)' needs a value (\(valueName))", command)
        }
        value = arguments[k]
      }
      result.given.append(.init(name: option.name, value: value, typed: try option.kind.parse(value, spelled: spelled)))
      result.sequence.append(.option(name: option.name, value: value))
    }

    while k < arguments.count {
      let argument = arguments[k]
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" || argument == "-g"
        || isNegativeNumber(argument)
      {
        result.positionals.append(argument)
        result.sequence.append(.positional(argument))
      } else if argument == "--" {
        optionsEnded = true
      } else if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let equals = body.firstIndex(of: "=")
        let name = String(body[..<(equals ?? body.endIndex)])
        let inline = equals.map { String(body[body.index(after: $0)...]) }
        if name.isEmpty {
          throw usageError("'\(argument)' names no option", command)
        } else if name == "help" {
          result.wantsHelp = true
        } else if let option = command.accepted.first(where: { $0.long.contains(name) }) {
          try take(option, inline: inline, spelled: "--\(name)")
        } else {
          throw unknownOption("--\(name)", command)
        }
      } else {
        let body = String(argument.dropFirst())
        if let option = command.accepted.first(where: { $0.words.contains(body) }) {
          try take(option, inline: nil, spelled: argument)
        } else if body == "h" {
          result.wantsHelp = true
        } else if body.count == 1, let option = command.accepted.first(where: { $0.short.contains(body.first!) }) {
          try take(option, inline: nil, spelled: argument)
        } else {
          throw unknownOption(argument, command)
        }
      }
      k += 1
    }
    if result.wantsHelp { return result }

    // Arity.
    // A variadic argument that is not optional takes at least one.
    let required = command.arguments.filter { !$0.optional }.count
    let variadic = command.arguments.contains { $0.variadic }
    if result.positionals.count < required {
      let missing = command.arguments.filter { !$0.optional }[result.positionals.count]
      throw usageError("missing argument \(missing.name)", command)
    }
    if !variadic, result.positionals.count > command.arguments.count {
      throw usageError("unexpected argument '\(result.positionals[command.arguments.count])'", command)
    }
    return result
  }

  /// The options before the command's name, and the rest: the global ones
  /// (`Options.global`), parsed, and the store's (`Options.beforeCommand`, as
  /// `defaults -currentHost read D` has `-currentHost`), left for the command's own
  /// parsing, which refuses them where the command does not take them.
  static func leadingOptions(_ arguments: [String]) throws -> (
    globals: ParsedArguments, forCommand: [String], rest: [String]
  ) {
    let globals = CommandSpec(name: "", summary: "", arguments: [], options: [], examples: []) { _, _ in 0 }
    var global: [String] = []
    var forCommand: [String] = []
    var k = 0
    while k < arguments.count, let option = leadingOption(arguments[k]) {
      // An option with a value takes the next argument, unless it is given inline (--color=never).
      let count = option.valueName != nil && !arguments[k].contains("=") ? 2 : 1
      let taken = arguments[k..<min(k + count, arguments.count)]
      if Options.global.contains(where: { $0.name == option.name }) {
        global += taken
      } else {
        forCommand += taken
      }
      k += count
    }
    do {
      return (try parse(global, for: globals), forCommand, Array(arguments[min(k, arguments.count)...]))
    } catch let error as PrefsError {
      // Before the command, the usage to show is prefs' own.
      throw usageError(error.message, nil)
    }
  }

  /// The option that may come before the command's name which `argument` spells.
  private static func leadingOption(_ argument: String) -> OptionSpec? {
    let leading = Options.global + Options.beforeCommand
    if argument.hasPrefix("--") {
      let name = argument.dropFirst(2).prefix { $0 != "=" }
      return leading.first { $0.long.contains(String(name)) }
    }
    guard argument.hasPrefix("-") else { return nil }
    return leading.first { $0.words.contains(String(argument.dropFirst())) }
  }

  /// `-1`, `-0.5`, `-1e3`, `-.5`, `-inf`, `-nan`: values that look like options.
  static func isNegativeNumber(_ text: String) -> Bool {
    let rest = text.dropFirst()
    guard text.hasPrefix("-"), let first = rest.first else { return false }
    if ["inf", "infinity", "nan"].contains(rest.lowercased()) { return true }
    return (first.isNumber || first == ".") && Double(rest) != nil
  }

  static func unknownOption(_ spelled: String, _ command: CommandSpec) -> PrefsError {
    let spellings = command.accepted.flatMap(\.spellings)
    var error = usageError("unknown option '\(spelled)'", command)
    if let guess = Suggestions.closest(to: spelled, among: spellings) {
      error.kind = .usage(error.message + "; did you mean '\(guess)'?")
    }
    return error
  }

  /// `word` names no subcommand of `command`; the closest is suggested.
  static func unknownSubcommand(_ word: String, of command: CommandSpec) -> PrefsError {
    let words = command.subcommands.compactMap { $0.name.split(separator: " ").last.map(String.init) }
    var message = "unknown \(command.name) subcommand '\(word)'"
    if let guess = Suggestions.closest(to: word, among: words) { message += "; did you mean '\(guess)'?" }
    return usageError(message, command)
  }

  static func usageError(_ message: String, _ command: CommandSpec?) -> PrefsError {
    var error = PrefsError(.usage(message))
    if let command {
      error.hints = ["Usage: \(command.usage)", "See 'prefs help \(command.name)'."]
    } else {
      error.hints = ["Usage: prefs COMMAND [ARGUMENTS] [OPTIONS]", "See 'prefs help'."]
    }
    return error
  }
}
