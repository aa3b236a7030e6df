import PrefsKit

/// `prefs export DOMAIN [-o OUT] [--to|--format FMT]`, `export D1 D2… -o FILE` (a settings
/// file), and `export --all -o DIR`.
enum Export {
  static let all = OptionSpec(
    "all", long: ["all"], help: "Export every domain of the store, one file each, into the folder given by -o.")
  static let update = OptionSpec(
    "update", long: ["update"],
    help: "Refresh the existing -o file in place: only what changed changes; its comments and key order stay.")

  static let force = OptionSpec(
    "force", long: ["force"],
    help: "Write the -o file anew though it holds text of its own (comments, a layout) that --update would keep.")

  static let spec = CommandSpec(
    name: "export",
    summary: "Write a domain out as YAML, JSON or a plist, in canonical key order.",
    discussion: """
      Keys are sorted by code point, so the same settings always give the same \
      bytes: good for version control. A DOMAIN that contains '/' or ends in a \
      format's extension is a file. With --schema (or --schema-dir, whose schema for \
      the domain is used), what the app would discard is \
      reported on standard error; with --effective as well, the output holds the \
      values as the app reads them, fallbacks filled in (a missing domain reads \
      as empty, as it does for the app). With --update, an existing -o file (or each \
      file of --all) is patched rather than written anew: a YAML export kept in git \
      keeps its comments, blank lines and key order, and new keys go after their \
      neighbours; the file keeps its own format. Without --update, an -o file that \
      holds text of its own (comments, blank lines, a key order or layout an export \
      would not write) is not overwritten: the export stops with the --update hint, \
      and --force writes it anew. export --all --exclude records the \
      globs in the folder's file .prefs-excluded, so that import --all of the folder \
      leaves those keys alone rather than removing them. With several \
      DOMAINs the output is one settings file whose top-level keys are the domains, \
      as prefs apply takes it. The output is only ever named with -o: 'export D \
      out.plist', where out.plist does not exist, is refused with that hint. With \
      --expand-data, a blob is shown as structure only when reading it back gives the \
      same bytes; each other blob that holds JSON or a binary plist, or only starts as \
      one does, stays data with a warning naming its key path and why.
      """,
    arguments: [
      ArgumentSpec(
        name: "DOMAIN", help: "Domain names (com.example.app, -g) or files.", optional: true, variadic: true)
    ],
    options: [
      Options.output, Options.to, all, update, force, Options.exclude, Options.plain, Options.compact,
      Options.expandData,
      Options.dropNulls, Options.schema, Options.schemaDir,
      Options.effective, Options.allowDuplicateKeys,
    ] + Options.store,
    examples: [
      ("prefs export com.example.app", "Show a domain as YAML."),
      ("prefs export com.example.app --format json -o app.json", "Save it as JSON."),
      ("prefs export --all -o backup/ --exclude 'SULast*'", "Back up every domain, one YAML file each."),
      ("prefs export com.example.app -o app.yaml --update", "Refresh a commented export kept in git."),
      ("prefs export com.example.app -g -o settings.yaml", "Two domains as one settings file for prefs apply."),
      ("prefs export com.example.app --schema user-settings --effective", "What the tutorial's app reads."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let format = try arguments.outputFormat() ?? Documents.outputFormat(arguments: arguments)
    let store = arguments.store()
    var options = try arguments.writeOptions(for: format)
    options.sortKeys = true
    let export = DomainExport(
      format: format, options: options, excluding: arguments.excludes(), updating: arguments.has(update),
      askedFormat: try arguments.outputFormat())

    _ = try arguments.schemaDirectory()
    let wantsSchema = arguments.asksForSchema
    if arguments.has(Options.effective), !wantsSchema {
      throw ArgumentParser.usageError(
        "--effective needs --schema or --schema-dir, which say what the app reads", spec)
    }
    if arguments.has(all) {
      guard !wantsSchema else {
        throw ArgumentParser.usageError("--schema describes one app's domain; give one DOMAIN instead of --all", spec)
      }
      guard arguments.positionals.isEmpty else {
        throw ArgumentParser.usageError("--all exports every domain; give no DOMAIN", spec)
      }
      guard let folder = arguments.value(Options.output), folder != "-" else {
        throw ArgumentParser.usageError("--all needs -o DIR, the folder to write into", spec)
      }
      let existing = isFolder(folder)
      if existing == false {
        throw ArgumentParser.usageError("--all writes one file per domain into a folder; '\(folder)' is a file", spec)
      }
      // `-o backup.json` is a file name: making a folder of that name would surprise.
      if existing == nil, let named = Format.forPath(folder) {
        throw ArgumentParser.usageError(
          "--all writes one file per domain into a folder, and '\(folder)' is named like a \(named.name) file;"
            + " give a folder such as 'backup/', and the format with --format", spec)
      }
      let names = try store.domainNames()
      let progress = ProgressLine(total: names.count)
      let warnings = Warnings()
      do {
        defer { console.report(warnings) }
        try withUsageHints {
          try export.export(
            names, of: store, into: folder, readOptions: try arguments.readOptions(), warnings: warnings,
            willExport: progress.step)
        }
      }
      progress.finish("exported \(names.count) domains to \(folder)")
      return Console.Status.success
    }

    guard let argument = arguments.positionals.first else {
      throw ArgumentParser.usageError("missing argument DOMAIN", spec)
    }
    if arguments.positionals.count == 2, arguments.value(Options.output) == nil, let last = arguments.positionals.last,
      Format.forPath(last) != nil
    {
      // `export D out.plist` reads as "export D into out.plist" (defaults export D
      // PATH), whether the file is there or not; the output is only ever -o.
      let exists = FileManager.default.fileExists(atPath: last)
      var error = ArgumentParser.usageError(
        exists
          ? "'\(last)' names a file, which export does not write without -o"
          : "'\(last)' is neither a domain nor a file to export; the file to write is given with -o", spec)
      error.hints.insert("to write the export to it: prefs export \(argument) -o \(last)", at: 0)
      if exists {
        error.hints.insert("to export both into one settings file: prefs export \(argument) \(last) -o FILE", at: 1)
      }
      throw error
    }
    if arguments.positionals.count > 1 {
      guard !wantsSchema else {
        throw ArgumentParser.usageError("--schema describes one app's domain; give one DOMAIN", spec)
      }
      return try exportSettings(arguments, format: format, store: store, options: options, console: console)
    }
    let schema = try arguments.schema(for: argument)
    let (found, name) = try Documents.readDomain(argument, arguments: arguments, console: console)
    let effective = arguments.has(Options.effective)
    guard var contents = found ?? (effective ? PrefDictionary() : nil) else {
      throw missingDomain(try resolveDomain(argument, in: store), in: store)
    }
    if let schema {
      for finding in schema.check(contents) {
        console.err("prefs: \(finding.isError ? "error" : "warning"): \(name): \(finding)")
      }
      if effective { contents = schema.effective(contents) }
    }
    let value = export.exported(contents)
    let output = arguments.value(Options.output)
    if arguments.has(update), output == nil || output == "-" {
      throw ArgumentParser.usageError("--update refreshes a file: give it with -o FILE", spec)
    }
    guard let path = output, export.updates(path) else {
      if let path = output, path != "-", !arguments.has(force), export.overwriteLosesText(at: path) {
        throw PrefsError(
          .usage("holds text of its own (comments, a layout) that writing the export anew would lose"),
          file: displayName(path),
          hints: [
            "to refresh it, keeping its text: prefs export \(argument) -o \(path) --update",
            "to write it anew: add --force",
          ])
      }
      try Documents.write(
        value, format: format, to: output, options: options, console: console,
        mode: argument == "-" ? nil : try resolveDomain(argument, in: store).fileMode)
      return Console.Status.success
    }
    try withUsageHints {
      try reportingWarnings(of: FileDomain(path: path), console) { warnings in
        try export.update(path, with: value, options: try arguments.readOptions(), warnings: warnings)
      }
    }
    return Console.Status.success
  }

  /// `body`, its usage errors (an export's refusals, such as an --update asked for
  /// another format than the file's) with the command's usage hints.
  @discardableResult
  static func withUsageHints<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as PrefsError where error.category == .usage && error.hints.isEmpty {
      throw ArgumentParser.usageError(error.message, spec)
    }
  }

  /// Several domains as one settings file: each domain's contents under its name.
  static func exportSettings(
    _ arguments: ParsedArguments, format: Format, store: any DomainStore, options: WriteOptions, console: Console
  ) throws -> Int32 {
    var entries: [SettingsFile.Entry] = []
    var locations: [String] = []
    for argument in arguments.positionals {
      let domain = try resolveDomain(argument, in: store)
      locations.append(domain.location)
      guard let contents = try domain.read(options: ReadOptions()) else { throw missingDomain(domain, in: store) }
      let settings = PrefValue.dictionary(contents).excluding(arguments.excludes())
      entries.append(SettingsFile.Entry(target: domain.name, settings: settings, source: domain.name))
    }
    let output = arguments.value(Options.output)
    let name = output.map(displayName) ?? "<stdout>"
    let warnings = Warnings()
    defer { console.report(warnings, file: name) }
    do {
      let data = try SettingsFile(entries: entries).encoded(as: format, options: options, warnings: warnings)
      if let output, output != "-" {
        try AtomicFile.write(data, to: output, keepingModeOf: locations)
      } else {
        try console.outData(data)
      }
    } catch let error as PrefsError {
      throw error.inFile(name)
    }
    return Console.Status.success
  }
}
