import PrefsKit

/// `prefs rename DOMAIN OLD NEW`.
enum Rename {
  static let spec = CommandSpec(
    name: "rename",
    summary: "Rename a key of a domain, keeping its value and place.",
    arguments: [
      ArgumentSpec(name: "DOMAIN", help: "A domain name (com.example.app, -g) or a file."),
      ArgumentSpec(name: "OLD", help: "The key to rename."),
      ArgumentSpec(name: "NEW", help: "Its new name, which must not exist yet."),
    ],
    options: [Options.force, Options.allowDuplicateKeys] + Options.store,
    examples: [("prefs rename com.example.app tone ringtone", "Rename the key tone to ringtone.")],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let domain = try resolveDomain(arguments.positionals[0], in: arguments.store())
    let (old, new) = (arguments.positionals[1], arguments.positionals[2])
    try changeDomain(domain, arguments, console: console) { contents in
      guard var dict = contents else { throw missingDomain(domain, in: arguments.store()) }
      guard dict.contains(old) else {
        throw PrefsError(.other(.noInput, "no key '\(old)' in the domain"), file: domain.name)
      }
      guard dict.renameKey(old, to: new) else {
        throw PrefsError(.other(.badInput, "key '\(new)' exists already; delete it first"), file: domain.name)
      }
      contents = dict
    }
    return Console.Status.success
  }
}
