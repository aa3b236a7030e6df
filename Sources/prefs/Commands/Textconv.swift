import PrefsKit

/// `prefs textconv FILE`: canonical YAML for `git diff`.
enum Textconv {
  static let spec = CommandSpec(
    name: "textconv",
    summary: "Print any preference file as canonical YAML, for git's textconv.",
    discussion: """
      With 'git config diff.plist.textconv "prefs textconv"' and '*.plist diff=plist' \
      in .gitattributes, git diff shows binary plists as readable YAML. The same \
      value always gives the same bytes.
      """,
    arguments: [ArgumentSpec(name: "FILE", help: "The file, or - for standard input.")],
    options: [Options.exclude, Options.from, Options.yamlVersion],
    examples: [("prefs textconv com.example.app.plist", "Show a binary plist as canonical YAML.")],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let (value, _) = try Documents.read(arguments.positionals[0], arguments: arguments, console: console)
    try Documents.write(
      value.excluding(arguments.excludes()), format: .yaml, to: nil, options: WriteOptions(sortKeys: true),
      console: console)
    return Console.Status.success
  }
}
