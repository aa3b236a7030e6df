import PrefsKit

/// `prefs read DOMAIN [KEY]`: a value as `defaults read` shows it.
enum Read {
  static let spec = CommandSpec(
    name: "read",
    summary: "Print a domain, or one key's value.",
    discussion: """
      A scalar is printed raw, as defaults read prints it (a string as is, a \
      boolean as 1 or 0, data as hex); a dictionary or array as YAML.
      """,
    arguments: [
      ArgumentSpec(name: "DOMAIN", help: "A domain name (com.example.app, -g), a file, or - for standard input."),
      ArgumentSpec(name: "KEY", help: "A top-level key (default: the whole domain).", optional: true),
    ],
    options: [Options.allowDuplicateKeys] + Options.store,
    examples: [
      ("prefs read com.example.app ringtone", "Print one value: Chimes."),
      (
        "prefs -currentHost read com.apple.screensaver --defaults-dir ~/backup/Library/Preferences",
        "A copied Mac folder's ByHost/com.apple.screensaver.<UUID>.plist.",
      ),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    try Documents.show(try lookUp(arguments, console), sortKeys: true, console: console)
    return Console.Status.success
  }

  /// The domain (or its KEY) named by the arguments; missing ones exit 66.
  static func lookUp(_ arguments: ParsedArguments, _ console: Console) throws -> PrefValue {
    let argument = arguments.positionals[0]
    let (found, name) = try Documents.readDomain(argument, arguments: arguments, console: console)
    guard let contents = found else {
      throw missingDomain(try resolveDomain(argument, in: arguments.store()), in: arguments.store())
    }
    guard arguments.positionals.count > 1 else { return .dictionary(contents) }
    let key = arguments.positionals[1]
    guard let value = contents[key] else {
      let guess = Suggestions.closest(to: key, among: contents.map(\.key))
      throw PrefsError(
        .other(.noInput, "no key '\(key)' in the domain"), file: name,
        hints: guess.map { ["did you mean '\($0)'?"] } ?? [])
    }
    return value
  }
}

/// `prefs read-type DOMAIN KEY`: `Type is boolean`.
enum ReadType {
  static let spec = CommandSpec(
    name: "read-type",
    summary: "Print the type of one key's value, as defaults read-type does.",
    arguments: [
      ArgumentSpec(name: "DOMAIN", help: "A domain name (com.example.app, -g), a file, or - for standard input."),
      ArgumentSpec(name: "KEY", help: "A top-level key."),
    ],
    options: [Options.allowDuplicateKeys] + Options.store,
    examples: [("prefs read-type com.example.app isAccountPrivate", "Prints: Type is boolean")],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    try console.out("Type is \(try Read.lookUp(arguments, console).kind.defaultsName)\n")
    return Console.Status.success
  }
}
