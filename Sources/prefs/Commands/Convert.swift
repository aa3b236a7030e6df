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
      content it signs (see prefs help profile). A YAML stream of several documents \
      stays a stream in YAML (documents after ---) and in JSON (one JSON document \
      after another, as yq -o json writes them); a property list holds one, which \
      --document picks. With --expand-data, a blob is shown as structure only when \
      reading it back gives the same bytes; each other blob that holds JSON or a \
      binary plist, or only starts as one does, stays data with a warning naming its \
      key path and why.
      """,
    arguments: [ArgumentSpec(name: "IN", help: "The input file, or - for standard input.")],
    options: [
      Options.output, Options.from, Options.to, Options.document, Options.sortKeys, Options.plain, Options.compact,
      Options.expandData, Options.dropNulls, Options.yamlVersion, Options.allowDuplicateKeys, Options.quiet,
    ],
    examples: [
      ("prefs convert Samples/UserSettings.plist", "Show a plist as YAML."),
      ("prefs convert Samples/UserSettings.yaml -o settings.plist", "YAML to an XML plist."),
      ("prefs convert settings.plist --to binary -o settings.bplist", "XML to a binary plist."),
      ("prefs convert Samples/UserSettings.plist --to json --plain", "Ordinary JSON for other tools."),
      ("prefs convert Samples/Items.plist --expand-data", "Show the JSON items blob as YAML structure."),
      ("prefs convert manifests.yaml --document Deployment/web -o web.plist", "One document of a stream, as a plist."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let format = try Documents.outputFormat(arguments: arguments)
    let input = arguments.positionals[0]
    let (documents, _) = try Documents.readDocuments(input, arguments: arguments, console: console)
    let output = arguments.value(Options.output)
    let options = try arguments.writeOptions(for: format)
    guard documents.count > 1 else {
      try Documents.write(
        documents[0], format: format, to: output, options: options, console: console,
        showProgress: Documents.isLarge(input), mode: AtomicFile.sharedMode(of: [input]))
      return Console.Status.success
    }
    // A stream stays a stream where the format has one: YAML documents after `---`,
    // JSON documents one after the other (as yq -o json writes them). A property
    // list holds one document.
    guard !format.isPlist else {
      throw PrefsError(
        .severalDocuments(names: documents.map(YAMLStream.name(of:)), target: format.name), file: displayName(input))
    }
    let warnings = Warnings()
    var data = Data()
    let name = output.map(displayName) ?? "<stdout>"
    try inFile(name) {
      for (index, document) in documents.enumerated() {
        if format == .yaml, index > 0 { data.append(contentsOf: Array("---\n".utf8)) }
        data.append(try format.encode(document, options: options, warnings: warnings))
      }
    }
    console.report(warnings, file: name)
    try Documents.write(data, to: output, console: console, keepingModeOf: [input])
    return Console.Status.success
  }
}
