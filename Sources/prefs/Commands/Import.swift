import PrefsKit

/// `prefs import DOMAIN [IN] [--merge]`, and `import --all DIR`.
enum Import {
  static let merge = OptionSpec(
    "merge", long: ["merge"], help: "Add the input's keys to the domain instead of replacing the domain.")
  static let dryRun = OptionSpec(
    "dry-run", long: ["dry-run"], short: ["n"],
    help: "Change nothing; print what the import would change, as prefs diff does (exit 1 when it would).")
  static let all = OptionSpec(
    "all", long: ["all"], help: "Import every file in the folder IN, each into the domain its file name gives.")

  static let spec = CommandSpec(
    name: "import",
    summary: "Store a plist, JSON or YAML file in a domain, atomically.",
    discussion: """
      The domain is replaced by the input (a dictionary), or with --merge the \
      input's top-level keys are added to it. Keys matching --exclude are neither \
      imported nor removed. The domain file is written to a temporary file, synced \
      and renamed into place under a lock; one that does not parse is left alone \
      unless --force. With --schema, a value of the wrong type is coerced by the \
      documented rules (each coercion is reported on standard error) and nothing \
      is imported when a value would still be discarded by the app, lies outside \
      the schema's values or range, or a required key is missing; --schema-dir uses \
      the schema in DIR whose payload type is the domain; --strict \
      refuses every value of the wrong type instead (exit 65). A key whose value \
      changes type (8080 to "8080") is reported on standard error. --dry-run exits \
      1 when the import would change something, 0 when not, as diff does; with \
      --all, each domain's lines follow a '# DOMAIN' line. A backup made by export \
      --all --exclude records the keys it left out (the file .prefs-excluded in the \
      folder, one glob a line), and import --all leaves those keys alone in every \
      domain, as if given with --exclude; its --dry-run says so on a first \
      '# left alone' line.
      """,
    arguments: [
      ArgumentSpec(name: "DOMAIN", help: "A domain name (com.example.app, -g) or a file."),
      ArgumentSpec(name: "IN", help: "The input file (default: - for standard input).", optional: true),
    ],
    options: [
      merge, dryRun, all, Options.exclude, Options.schema, Options.schemaDir, Options.strict, Options.force,
      Options.from,
      Options.dropNulls, Options.yamlVersion, Options.allowDuplicateKeys, Options.quiet,
    ] + Options.store,
    examples: [
      ("prefs import com.example.app settings.yaml", "Replace a domain with a YAML file."),
      ("prefs import com.example.app extra.json --merge", "Add some keys."),
      ("prefs import com.example.app settings.yaml --dry-run", "See what an import would change."),
      ("prefs import --all backup/", "Restore every domain of a backup made with export --all."),
      ("prefs import com.example.app old.yaml --schema user-settings", "Store it as the app reads it, coercing."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let store = arguments.store()
    if arguments.has(all) {
      guard arguments.positionals.count == 1 else {
        throw ArgumentParser.usageError("--all takes one folder: prefs import --all DIR", spec)
      }
      let folder = arguments.positionals[0]
      let files = try DomainImport.backupFiles(in: folder)
      let importer = try Self.importer(arguments).restoring(from: folder)
      let kept = try DomainImport.backupExcludes(in: folder)
      if arguments.has(dryRun), !kept.isEmpty {
        try console.out("# left alone, as the backup left them out: \(kept.map(\.pattern).joined(separator: " "))\n")
      }
      let progress = ProgressLine(total: files.count)
      var changed = false
      for (name, file) in files {
        progress.step(name)
        changed =
          try importFile(
            file, into: try store.domain(named: name), arguments: arguments, console: console, label: name,
            importer: importer)
          || changed
      }
      progress.finish("imported \(files.count) domains from \(folder)")
      return arguments.has(dryRun) && changed ? Console.Status.different : Console.Status.success
    }
    let names = arguments.positionals
    if names.count == 2, DomainName.isPath(names[0]), !DomainName.isPath(names[1]),
      FileManager.default.fileExists(atPath: names[0]), !FileManager.default.fileExists(atPath: names[1])
    {
      // `import FILE DOMAIN`, the other way round.
      var error = ArgumentParser.usageError("'\(names[1])' is no file to import: the domain comes first", spec)
      error.hints.insert("prefs import \(names[1]) \(names[0])", at: 0)
      throw error
    }
    let domain = try resolveDomain(arguments.positionals[0], in: store)
    let changed = try importFile(
      arguments.positionals.count > 1 ? arguments.positionals[1] : "-", into: domain, arguments: arguments,
      console: console)
    return arguments.has(dryRun) && changed ? Console.Status.different : Console.Status.success
  }

  /// Reads `file` and stores it in `domain` by the rules of --merge and --exclude
  /// (or of `importer`, when given). Returns whether the domain changes (or with --dry-run, would). `label` heads the
  /// dry run's lines when several domains are imported.
  /// The import --merge and --exclude ask for.
  static func importer(_ arguments: ParsedArguments) -> DomainImport {
    DomainImport(mode: arguments.has(merge) ? .merge : .replace, excluding: arguments.excludes())
  }

  @discardableResult
  static func importFile(
    _ file: String, into domain: any PreferenceDomain, arguments: ParsedArguments, console: Console,
    label: String? = nil, importer: DomainImport? = nil
  ) throws -> Bool {
    if file == "-", isatty(0) == 1 {
      // Without IN, a bare `prefs import d` would otherwise just wait.
      console.err("prefs: reading the domain from standard input; end it with Ctrl-D")
    }
    let schema = try arguments.schema(for: domain.name)
    let (value, _, document) = try Documents.read(
      file, arguments: arguments, console: console, mapped: schema != nil)
    guard case .dictionary(let input) = value else {
      throw PrefsError(
        .other(.badInput, "a domain is a dictionary, but this file holds \(value.kind.article) \(value.kind.rawValue)"),
        file: displayName(file))
    }
    let importer = importer ?? Self.importer(arguments)
    var incoming = importer.incoming(input)
    if let schema {
      incoming = try fit(
        incoming, to: schema, file: displayName(file), document: document, strict: arguments.has(Options.strict),
        force: arguments.has(Options.force), console: console)
    }
    let dryRun = arguments.has(Import.dryRun)
    let change: DomainChange
    do {
      change = try reportingWarnings(of: domain, console) { warnings in
        try importer.run(
          incoming, into: domain, dryRun: dryRun, force: arguments.has(Options.force),
          options: try arguments.readOptions(), dropNulls: arguments.dropsNulls, warnings: warnings)
      }
    } catch var error as PrefsError {
      // A null is the input's: the error names the file the user can find it in.
      if case .null(let path) = error.kind.cause {
        error.file = displayName(file)
        error.position = document?.position(of: path)
      }
      throw error
    }
    let changes = change.changes
    if dryRun {
      if let label, !changes.isEmpty { try console.out("# \(label)\n") }
      try console.out(Diff.colorize(changes.map { $0.line + "\n" }.joined(), unified: false, console))
    } else {
      // A hand-edited file turns 8080 into "8080" without a word: say it.
      for change in changes where change.changesType {
        console.err("prefs: warning: \(domain.name): type changed: \(change.line)")
      }
    }
    return change.changesDomain
  }

  /// `input` with the schema's coercions, each reported; refuses (exit 65, nothing
  /// imported) when a value would still be discarded by the app, or under `strict`
  /// when any value has the wrong type.
  static func fit(
    _ input: PrefDictionary, to schema: Schema, file: String, document: TextDocument?, strict: Bool,
    force: Bool = false, console: Console
  ) throws -> PrefDictionary {
    let fit = DomainImport.fit(input, to: schema, strict: strict, acceptingUndecodableData: force)
    let refusals = fit.refusals
    // `FILE:LINE:COL: keypath: …` where the file has lines, else `FILE: keypath: …`.
    func report(_ severity: String, _ path: PrefKeyPath, _ text: String) {
      let finding = PrefsWarning(text, file: file, position: document?.position(of: path))
      console.err("prefs: \(severity): \(finding)")
    }
    for coercion in fit.coercions { report("warning", coercion.path, "\(coercion)") }
    for finding in fit.warnings { report("warning", finding.path, "\(finding)") }
    for finding in refusals { report("error", finding.path, "\(finding)") }
    guard refusals.isEmpty else {
      let count = refusals.count == 1 ? "1 value does" : "\(refusals.count) values do"
      throw PrefsError(
        .other(.badInput, "nothing imported: \(count) not fit the schema"), file: file,
        hints: [
          strict
            ? "without --strict, values a documented rule can convert are coerced (prefs(1), COERCION)"
            : "fix the values, or import without --schema to store them as they are"
        ]
          + (refusals.contains { if case .undecodable = $0.problem { true } else { false } }
            ? ["--force stores data the app cannot decode, with a warning"] : []))
    }
    return fit.fitted
  }
}
