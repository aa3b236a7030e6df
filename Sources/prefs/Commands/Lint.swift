import PrefsKit

/// `prefs lint FILE|DOMAIN... [--schema S]`: syntax, YAML 1.1/1.2 ambiguities, schema.
enum LintCommand {
  static let spec = CommandSpec(
    name: "lint",
    summary: "Check files or domains: syntax, ambiguous YAML, and with --schema the values the app would discard.",
    discussion: """
      Prints one line per finding on standard output: syntax errors of any format \
      with their line and column; every plain YAML scalar that YAML 1.1 and 1.2 \
      read differently (yes, off, 0755, 1:20) as a warning; and with --schema each \
      key whose stored type makes the app read its fallback, naming the platform \
      where Linux and macOS read differently, each value outside the schema's values, \
      each number outside its range, each required key that is missing, and \
      unknown keys as warnings; with --schema too, every null, as a warning: a domain \
      is a property list, which holds no null (import refuses it unless --drop-nulls, \
      which lint then takes to leave nulls unmentioned). With --schema-dir, each input is \
      checked against the schema in DIR whose payload type is its domain (a domain's name, \
      or a file's name less its extension; dock.plist finds com.apple.dock). A configuration \
      profile (.mobileconfig) is checked payload by payload, each domain it sets against \
      its own schema. Exits 1 when there is an error, 0 with warnings \
      alone; with several inputs every one is checked and the worst status wins.
      """,
    arguments: [
      ArgumentSpec(name: "FILE", help: "Files, domain names, or - for standard input.", variadic: true)
    ],
    options: [
      Options.schema, Options.schemaDir, Options.from, Options.dropNulls, Options.yamlVersion,
      Options.allowDuplicateKeys,
    ] + Options.store,
    examples: [
      ("prefs lint settings.yaml", "Syntax and YAML 1.1/1.2 ambiguities."),
      ("prefs lint com.example.app --schema user-settings", "Values the tutorial's app would silently replace."),
      ("prefs lint a.yaml b.plist --schema app.schema.yaml", "Several inputs against a schema file."),
      (
        "prefs lint dock.plist --schema-dir device-management/mdm/profiles",
        "The Dock's values against Apple's published schema."
      ),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let directory = try arguments.schemaDirectory()
    let schema = try arguments.schema()
    let declared = try arguments.inputFormat()
    let options = try arguments.readOptions()
    var status = Console.Status.success
    for argument in arguments.positionals {
      do {
        let (data, file, path) = try load(argument, arguments: arguments)
        var findings = PrefsKit.Lint.check(
          try ProfileSignature.unwrapped(data, name: file, console: console), file: file, path: path,
          declared: declared, options: options, schema: schema, schemas: directory,
          domain: namesFile(argument) ? nil : argument)
        if arguments.dropsNulls {
          // Checked as an import with --drop-nulls takes it: its nulls would be left out.
          findings.removeAll { if case .null? = $0.kind { true } else { false } }
        }
        for finding in findings {
          try console.out(
            "prefs: \(finding.severity.rawValue): " + TerminalText.escaped("\(finding)", keepingLineBreaks: false)
              + "\n")
          for hint in finding.hints + (finding.kind.map(ErrorAdvice.hints) ?? []) {
            try console.out("hint: " + TerminalText.escaped(hint, keepingLineBreaks: false) + "\n")
          }
        }
        if findings.contains(where: { $0.severity == .error }) { status = max(status, Console.Status.different) }
      } catch let error as PrefsError {
        console.report(error)
        status = max(status, Console.status(for: error))
      }
    }
    return status
  }

  /// The bytes to check, the name findings give them, and the path whose extension
  /// may decide the format: a file, standard input, or a domain's file.
  static func load(_ argument: String, arguments: ParsedArguments) throws -> (Data, String, String?) {
    if argument == "-" { return (try InputFile.read("-"), displayName("-"), nil) }
    if namesFile(argument) { return (try InputFile.read(argument), argument, argument) }
    let domain = try arguments.store().domain(named: argument)
    guard FileManager.default.fileExists(atPath: domain.location) else {
      throw missingDomain(domain, in: arguments.store())
    }
    return (try InputFile.read(domain.location), domain.location, domain.location)
  }
}
