import PrefsKit

/// `prefs find WORD`: the domains whose keys or values hold WORD, as `defaults find`
/// prints them.
enum Find {
  static let spec = CommandSpec(
    name: "find",
    summary: "Find the domains whose keys or values hold WORD, in any case, as defaults find does.",
    discussion: """
      Each domain that holds WORD prints "Found N keys in domain 'NAME': " and its \
      top-level entries that hold it, in their key or anywhere in their value, as an \
      OpenStep dictionary. The exit status is 0 when anything is found, 1 when not.
      """,
    arguments: [ArgumentSpec(name: "WORD", help: "The text to look for, in any case.")],
    options: Options.store,
    examples: [("prefs find ringtone", "Which domains hold a ringtone, and where.")],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    guard arguments.positionals.count == 1 else {
      throw ArgumentParser.usageError(
        arguments.positionals.isEmpty ? "missing argument WORD" : "find takes one WORD", spec)
    }
    let warnings = Warnings()
    defer { console.report(warnings) }
    let found = try DomainFind(arguments.positionals[0]).search(
      arguments.store(), options: try arguments.readOptions(), warnings: warnings)
    for domain in found {
      let text = try Format.openStep.codec.encode(
        DomainFind.openStepForm(.dictionary(domain.entries)), options: WriteOptions(sortKeys: true))
      let dictionary = String(decoding: text, as: UTF8.self)
      let name = TerminalText.escaped(RawPath.display(domain.domain), keepingLineBreaks: false)
      try console.out(
        "Found \(domain.entries.count) keys in domain '\(name)': "
          + (dictionary.hasSuffix("\n") ? dictionary : dictionary + "\n"))
    }
    return found.isEmpty ? Console.Status.different : Console.Status.success
  }
}
