import PrefsKit

/// `prefs convert IN [-o OUT] [--from FMT] [--to FMT]`: any format to any other.
enum Convert {
  static let spec = CommandSpec(
    name: "convert",
    summary: "Convert a preference file between plist (XML, binary), JSON and YAML.",
    discussion: """
      Every value keeps its type: integers stay integers, reals stay reals, dates \
      and data survive JSON and YAML. The output format comes from --to, else from \
      -o's extension (.plist is XML; binary only with --to binary), else YAML. The \
      output file is written atomically: on any error nothing is written. A \
      configuration profile (.mobileconfig) reads as its plist; a signed one as the \
      content it signs (see prefs help profile).
      """,
    arguments: [ArgumentSpec(name: "IN", help: "The input file, or - for standard input.")],
    options: [
      Options.output, Options.from, Options.to, Options.sortKeys, Options.plain, Options.compact,
      Options.expandData, Options.dropNulls, Options.yamlVersion, Options.allowDuplicateKeys, Options.quiet,
    ],
    examples: [
      ("prefs convert Samples/UserSettings.plist", "Show a plist as YAML."),
      ("prefs convert Samples/UserSettings.yaml -o settings.plist", "YAML to an XML plist."),
      ("prefs convert settings.plist --to binary -o settings.bplist", "XML to a binary plist."),
      ("prefs convert Samples/UserSettings.plist --to json --plain", "Ordinary JSON for other tools."),
      ("prefs convert Samples/Items.plist --expand-data", "Show the JSON items blob as YAML structure."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let format = try Documents.outputFormat(arguments: arguments)
    let input = arguments.positionals[0]
    let (value, _) = try Documents.read(input, arguments: arguments, console: console)
    try Documents.write(
      value, format: format, to: arguments.value(Options.output), options: try arguments.writeOptions(for: format),
      console: console, showProgress: Documents.isLarge(input), mode: AtomicFile.sharedMode(of: [input]))
    return Console.Status.success
  }
}
