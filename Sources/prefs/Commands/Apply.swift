import PrefsKit

/// `prefs apply FILE... [--dry-run | --check | --undo]`: settings files into the store.
enum Apply {
  static let check = OptionSpec(
    "check", long: ["check"],
    help: "Change nothing; print what differs and exit 1 when anything would change, 0 when all matches.")
  static let undo = OptionSpec(
    "undo", long: ["undo"],
    help:
      "Restore the domains as the last apply found them, byte for byte; refused (exit 65) when one changed since, "
      + "unless --force.")

  static let allowTypeChanges = OptionSpec(
    "allow-type-changes", long: ["allow-type-changes"],
    help: "Apply a value of another type than the key holds (the string \"yes\" over a bool), with a warning.")

  /// From this many domains, a terminal shows which one is being applied.
  static let progressFrom = 10

  static let spec = CommandSpec(
    name: "apply",
    summary: "Apply settings files (top-level keys: domains or files) to the store.",
    discussion: """
      A settings file (YAML, JSON or plist) maps domain names (-g and NSGlobalDomain \
      included) or file paths to the settings to hold there (a relative path is \
      taken from the settings file's folder). Dictionaries merge deeply \
      into what is there; listed array items are made present (an item matches by \
      value, or by an identity field such as id or name when every item is a \
      dictionary holding one) and added at the end when missing; scalars are set \
      with their exact type. '!replace' (JSON {"$replace": ...}) makes a dictionary \
      or array exactly the one given; '!delete' (JSON {"$delete": true}) removes a \
      key, or the whole domain. Nothing is written when nothing changes. Before \
      writing, the affected domains are saved as a snapshot (prefs snapshots lists \
      them; --undo restores the last one, and when a domain changed after the apply \
      wrote it, lists the changed key paths and restores nothing, exit 65, unless \
      --force). A plain YAML scalar that YAML 1.1 tools read otherwise (yes, off, \
      0755) is warned of, as import and lint do (-q: not). A value of another type than \
      the key holds is a warning; where that type rests on the YAML version (the plain \
      yes over a bool, a string in YAML 1.2) the domain fails, naming each key, unless \
      the value is quoted or tagged (!!str yes), --schema converts it to the type the \
      app reads, or --allow-type-changes applies it. Each domain changes atomically under its \
      lock; when some fail, the others are still applied, each failure is named, and \
      the exit status is that of the first failure.
      """,
    arguments: [
      ArgumentSpec(name: "FILE", help: "Settings files, or - for standard input.", optional: true, variadic: true)
    ],
    options: [
      Import.dryRun, check, undo, Options.schema, allowTypeChanges, Options.force, Options.from, Options.dropNulls,
      Options.yamlVersion, Options.quiet,
    ] + Options.store,
    examples: [
      ("prefs apply settings.yaml --dry-run", "See what applying would change, domain by domain."),
      ("prefs apply settings.yaml", "Apply it; a second run changes nothing."),
      ("prefs apply settings.yaml --check", "In CI: exit 1 when the machine has drifted."),
      ("prefs apply --undo", "Put back what the last apply changed."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let modes = [Import.dryRun, check, undo].filter { arguments.has($0) }
    if modes.count > 1 {
      throw ArgumentParser.usageError(
        "\(modes.map(\.primarySpelling).joined(separator: " and ")) cannot be used together", spec)
    }
    if arguments.has(undo) {
      guard arguments.positionals.isEmpty else {
        throw ArgumentParser.usageError("--undo takes no FILE: it restores the last snapshot", spec)
      }
      return try undoLast(in: arguments.store(), force: arguments.has(Options.force), console)
    }
    guard !arguments.positionals.isEmpty else { throw ArgumentParser.usageError("missing argument FILE", spec) }
    let options = try arguments.readOptions()
    var files: [SettingsFile] = []
    // The same files as YAML 1.1 tools read them: a value the two readings disagree
    // on is a plain scalar whose type rests on the YAML version (yes, off, 0755).
    var filesAsYAML11: [SettingsFile] = []
    for path in arguments.positionals {
      let (file, data) = try readSettings(path, arguments: arguments, console: console)
      files.append(file)
      guard options.yamlVersion == .v1_2 else { continue }
      var asYAML11 = options
      asYAML11.yamlVersion = .v1_1
      asYAML11.warnsOfYAMLAmbiguities = false
      if let other = try? SettingsFile.read(
        data, name: displayName(path), path: path == "-" ? nil : path, declared: try arguments.inputFormat(),
        options: asYAML11, warnings: Warnings())
      {
        filesAsYAML11.append(other)
      }
    }
    let store = arguments.store()
    let schema = try arguments.schema()
    var steps = SettingsApply.plan(
      files, store: store, schema: schema, force: arguments.has(Options.force), options: options)
    refuseTypeChanges(
      in: &steps, allowed: schema != nil || arguments.has(allowTypeChanges), readingAsYAML11: filesAsYAML11, console)
    for step in steps {
      for coercion in step.coercions { console.err("prefs: warning: \(step.name): \(coercion)") }
    }
    for typo in SettingsTypos.warnings(for: steps, in: store) { console.err("prefs: warning: \(typo)") }
    let changing = steps.filter(\.changesAnything)

    if arguments.has(check) || arguments.has(Import.dryRun) {
      let failures = steps.compactMap(\.error)
      try console.out(plan(changing, console))
      for error in failures { console.report(error) }
      if let first = failures.first { return Console.status(for: first) }
      // --dry-run means one thing in every verb: exit 1 when it would change something.
      return changing.isEmpty ? Console.Status.success : Console.Status.different
    }

    let progress = changing.count >= progressFrom ? ProgressLine(total: changing.count) : nil
    let warnings = Warnings()
    let outcome = try SettingsApply.apply(
      steps, sources: arguments.positionals.map(displayName), snapshots: SnapshotStore(),
      force: arguments.has(Options.force), options: options, dropNulls: arguments.dropsNulls, warnings: warnings
    ) { step in progress?.step(step.name) }
    progress?.clear()
    console.report(warnings)
    if let snapshot = outcome.snapshot {
      let applied = outcome.applied
      try console.out(plan(applied, console))
      console.err(
        "prefs: applied \(count(applied.count, "domain")); snapshot \(snapshot.id) ('prefs apply --undo' restores it)")
    }
    let failures = outcome.failures
    for failure in failures { console.report(failure.error) }
    guard let first = failures.first?.error else { return Console.Status.success }
    let names = failures.map(\.name)
    console.err(
      "prefs: error: \(failures.count) of \(steps.count) domains failed (\(names.joined(separator: ", "))); "
        + "the others were applied")
    return Console.status(for: first)
  }

  /// A key given another type than it holds is a warning, as import's are; but where
  /// the new type rests on how the YAML version reads a plain scalar (`yes` is a string
  /// in YAML 1.2, a bool in 1.1: the two readings, `filesAsYAML11` the second, give
  /// the key different values) it fails its domain, naming the keys, unless `allowed`
  /// (`--schema` converted the values, or `--allow-type-changes`). A quoted or tagged
  /// value, or one from JSON or a plist, says its type.
  static func refuseTypeChanges(
    in steps: inout [ApplyStep], allowed: Bool, readingAsYAML11 filesAsYAML11: [SettingsFile], _ console: Console
  ) {
    for index in steps.indices where steps[index].error == nil {
      let step = steps[index]
      let changes = step.typeChanges
      let otherReadings = filesAsYAML11.flatMap(\.entries).filter { $0.target == step.target }.map(\.settings.value)
      let implied = changes.filter { change in
        otherReadings.contains { reading in value(at: change.path, in: reading).map { $0 != change.new } ?? false }
      }
      guard !implied.isEmpty, !allowed else {
        for change in changes { console.err("prefs: warning: \(step.name): type changed: \(change.line)") }
        continue
      }
      let listed = implied.map { change in
        "\(change.path.nameInMessages) holds \(change.old!.kind.article) \(change.old!.kind.rawValue), "
          + "the settings give \(change.new!.kind.article) \(change.new!.kind.rawValue) \(change.new!.inlineText())"
      }
      steps[index].error = PrefsError(
        .settings(problem: "would change the type of a key: " + listed.joined(separator: "; ")),
        file: step.name,
        hints: [
          "write the value in the type the key holds; to change it on purpose, quote or tag it (!!str yes), "
            + "or give --allow-type-changes (--schema converts it to the type the app reads)"
        ])
    }
  }

  /// The value at `path` in `value`, if there is one.
  static func value(at path: PrefKeyPath, in value: PrefValue) -> PrefValue? {
    var found = value
    for component in path.components {
      switch (component, found) {
      case (.key(let key), .dictionary(let dict)):
        guard let next = dict[key] else { return nil }
        found = next
      case (.index(let index), .array(let items)) where items.indices.contains(index):
        found = items[index]
      default: return nil
      }
    }
    return found
  }

  /// The plan as `prefs diff` prints it, under each domain's name.
  static func plan(_ steps: [ApplyStep], _ console: Console) -> String {
    var text = ""
    for step in steps {
      let changes = step.changes
      if changes.isEmpty && !(step.before != nil && step.after == nil) && !step.replacesUnreadable { continue }
      text += TerminalText.escaped(step.name, keepingLineBreaks: false) + ":\n"
      if step.before != nil, step.after == nil {
        text += "  " + Diff.colorize("- (domain deleted)", unified: false, console) + "\n"
        continue
      }
      if step.replacesUnreadable {
        text +=
          "  "
          + Diff.colorize("~ (a file that does not parse, replaced; a copy is kept as .bak)", unified: false, console)
          + "\n"
      } else if step.before == nil {
        let what = DomainName.isPath(step.target) ? "new file" : "new domain"
        text += "  " + Diff.colorize("+ (\(what))", unified: false, console) + "\n"
      }
      for change in changes {
        text +=
          "  " + Diff.colorize(TerminalText.escaped(change.line, keepingLineBreaks: false), unified: false, console)
          + "\n"
      }
    }
    return text
  }

  /// Reads one settings file (`-` is standard input); returns it and its bytes.
  static func readSettings(_ path: String, arguments: ParsedArguments, console: Console) throws -> (
    SettingsFile, Data
  ) {
    let name = displayName(path)
    let options = try arguments.readOptions()
    let data: Data
    do {
      data = try InputFile.read(path, limit: options.maxInputBytes)
    } catch let error as PrefsError {
      throw error.inFile(name)
    }
    let warnings = Warnings()
    defer { console.report(warnings, file: name) }
    let file = try SettingsFile.read(
      data, name: name, path: path == "-" ? nil : path, declared: try arguments.inputFormat(), options: options,
      warnings: warnings)
    return (file, data)
  }

  static func undoLast(in store: any DomainStore, force: Bool, _ console: Console) throws -> Int32 {
    let snapshots = SnapshotStore()
    guard let last = try snapshots.list().last(where: { !$0.undone }) else {
      throw PrefsError(
        .other(.noInput, "no snapshot to undo"), file: snapshots.directory,
        hints: ["prefs apply saves one before each run that changes something"])
    }
    try snapshots.restore(last, in: store, force: force)
    console.err("prefs: restored \(count(last.domains.count, "domain")) from snapshot \(last.id)")
    return Console.Status.success
  }

  /// `1 domain`, `3 domains`.
  static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
