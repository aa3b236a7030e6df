import PrefsKit

/// `prefs domains`: the names of the domains in the store.
enum Domains {
  static let spec = CommandSpec(
    name: "domains",
    summary: "List the domains in the store, one per line.",
    arguments: [],
    options: Options.store,
    examples: [
      ("prefs domains", "List every domain."),
      ("prefs domains -currentHost", "List the current host's domains (ByHost files, in a folder)."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let names = try arguments.store().domainNames()
    // A name that is not UTF-8 shows each such byte as \xFF (bash's $'…' gives it back).
    if !names.isEmpty {
      try console.out(
        names.map { TerminalText.escaped(RawPath.display($0), keepingLineBreaks: false) }.joined(separator: "\n") + "\n"
      )
    }
    return Console.Status.success
  }
}
