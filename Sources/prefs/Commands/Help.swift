import PrefsKit

/// `prefs help [COMMAND [SUBCOMMAND]]`, and the text behind every `--help`.
enum Help {
  static let spec = CommandSpec(
    name: "help",
    summary: "Show help for prefs or one of its commands.",
    arguments: [
      ArgumentSpec(name: "COMMAND", help: "The command to explain.", optional: true),
      ArgumentSpec(name: "SUBCOMMAND", help: "One of its subcommands (prefs help schema export).", optional: true),
    ],
    options: [],
    examples: [("prefs help convert", "Explain the convert command.")],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    guard let name = arguments.positionals.first else {
      try console.out(overview())
      return Console.Status.success
    }
    guard var command = Commands.named(name) else { throw Commands.unknownCommand(name) }
    if arguments.positionals.count > 1 {
      let word = arguments.positionals[1]
      guard let subcommand = command.subcommand(word) else {
        throw ArgumentParser.unknownSubcommand(word, of: command)
      }
      command = subcommand
    }
    try console.out(text(for: command))
    return Console.Status.success
  }

  /// The help of one command: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, EXAMPLES.
  static func text(for command: CommandSpec) -> String {
    var lines = ["OVERVIEW: \(command.summary)"]
    if !command.discussion.isEmpty { lines += ["", wrap(command.discussion, indent: 0)] }
    lines += ["", "USAGE: \(command.usage)"]
    if !command.arguments.isEmpty {
      lines += ["", "ARGUMENTS:"]
      lines += command.arguments.map { row($0.name, $0.help) }
    }
    if !command.subcommands.isEmpty {
      lines += ["", "SUBCOMMANDS:"]
      lines += command.subcommands.map { row(String($0.name.split(separator: " ").last!), $0.summary) }
    }
    lines += ["", "OPTIONS:"]
    lines += command.options.map { row($0.synopsis, $0.help) }
    lines.append(row("-h, --help", "Show this help."))
    lines += Options.global.map { row($0.synopsis, $0.help) }
    if !command.examples.isEmpty {
      lines += ["", "EXAMPLES:"]
      for (commandLine, what) in command.examples {
        lines += ["  \(commandLine)", "      \(what)"]
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `prefs --help`: what the tool is and its subcommands.
  static func overview() -> String {
    var lines =
      [
        "OVERVIEW: Move preference domains between plist, JSON and YAML without losing a type.",
        "",
        "USAGE: prefs COMMAND [ARGUMENTS] [OPTIONS]",
        "",
        "OPTIONS:",
        row("-h, --help", "Show help (prefs help COMMAND for one command)."),
        row("--version", "Show the version."),
      ] + Options.global.map { row($0.synopsis, $0.help) } + [
        "",
        "SUBCOMMANDS:",
      ]
    lines += Commands.all.map { row($0.name, $0.summary) }
    lines += ["", "FORMATS:"]
    lines += Format.all.map { format in
      let spellings = ([format.name] + format.aliases).joined(separator: ", ")
      let extensions = format.extensions.map { ".\($0)" }.joined(separator: " ")
      return row(spellings, format.summary + (extensions.isEmpty ? "" : " (\(extensions))"))
    }
    lines += ["", "See 'prefs help COMMAND' for one command, and prefs(1) for the whole manual."]
    return lines.joined(separator: "\n") + "\n"
  }

  /// `  name                 help`, wrapped at 80 columns.
  static func row(_ name: String, _ help: String) -> String {
    let column = 26
    let head = "  " + name
    let body = wrap(help, indent: column)
    if head.count < column - 1 {
      return head + String(repeating: " ", count: column - head.count) + body.dropFirst(column)
    }
    return head + "\n" + body
  }

  /// Wraps `text` at 80 columns, every line indented by `indent` spaces.
  static func wrap(_ text: String, indent: Int) -> String {
    let width = 80 - indent
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty, current.count + 1 + word.count > width {
        lines.append(current)
        current = String(word)
      } else {
        current += (current.isEmpty ? "" : " ") + word
      }
    }
    if !current.isEmpty { lines.append(current) }
    let pad = String(repeating: " ", count: indent)
    return lines.map { pad + $0 }.joined(separator: "\n")
  }
}
