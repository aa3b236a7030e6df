import PrefsKit

/// `prefs delete DOMAIN [KEY]`.
enum Delete {
  static let spec = CommandSpec(
    name: "delete",
    summary: "Delete one key of a domain, or the whole domain.",
    arguments: [
      ArgumentSpec(name: "DOMAIN", help: "A domain name (com.example.app, -g) or a file."),
      ArgumentSpec(name: "KEY", help: "The key to delete (default: the whole domain).", optional: true),
    ],
    options: [Options.force, Options.allowDuplicateKeys] + Options.store,
    examples: [
      ("prefs delete com.example.app ringtone", "Remove one key."),
      ("prefs delete com.example.app", "Remove the whole domain."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let domain = try resolveDomain(arguments.positionals[0], in: arguments.store())
    let key = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
    try changeDomain(domain, arguments, console: console) { contents in
      guard var dict = contents else { throw missingDomain(domain, in: arguments.store()) }
      if let key {
        guard dict[key] != nil else {
          throw PrefsError(.other(.noInput, "no key '\(key)' in the domain"), file: domain.name)
        }
        dict[key] = nil
        contents = dict
      } else {
        contents = nil
      }
    }
    return Console.Status.success
  }
}
