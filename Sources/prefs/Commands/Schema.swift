import PrefsKit

/// `prefs schema SUBCOMMAND ...`: schemas made from what an app's code says.
enum SchemaCommand {
  /// The subcommands, by name: each parses what follows its name.
  static let subcommands: [(name: String, summary: String, run: @Sendable (ParsedArguments, Console) throws -> Int32)] =
    [("scan", SchemaScan.summary, SchemaScan.run)]

  static let spec = CommandSpec(
    name: "schema",
    summary: "Make a schema: scan an app's Swift sources for every key it reads.",
    discussion: "SUBCOMMANDS: 'scan': " + SchemaScan.summary + " " + SchemaScan.discussion,
    arguments: [
      ArgumentSpec(name: "SUBCOMMAND", help: "scan."),
      ArgumentSpec(name: "PATH", help: "Swift files, or folders searched for .swift files.", variadic: true),
    ],
    options: [Options.output, Options.to],
    examples: SchemaScan.examples,
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let name = arguments.positionals[0]
    guard let subcommand = subcommands.first(where: { $0.name == name }) else {
      var error = ArgumentParser.usageError("unknown subcommand '\(name)' of schema", spec)
      if let guess = Suggestions.closest(to: name, among: subcommands.map(\.name)) {
        error.kind = .usage(error.message + "; did you mean '\(guess)'?")
      }
      throw error
    }
    var rest = arguments
    rest.positionals.removeFirst()
    return try subcommand.run(rest, console)
  }
}
