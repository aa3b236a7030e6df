import PrefsKit

/// `prefs schema SUBCOMMAND`: where schemas come from and where they go.
enum SchemaCommand {
  /// The subcommands, in the order help lists them; adding one is one line here.
  static let subcommands: [CommandSpec] = [SchemaScan.spec, SchemaExport.spec, SchemaInfer.spec]

  static let spec = CommandSpec(
    name: "schema",
    summary: "Make and convert schemas: scanned from Swift sources, JSON Schema for editors, inferred from domains.",
    discussion: """
      A schema lists the keys an app reads, each with its type and fallback. \
      'prefs help schema SUBCOMMAND' explains each subcommand.
      """,
    arguments: [
      ArgumentSpec(
        name: "SUBCOMMAND", help: subcommands.map { $0.name.split(separator: " ").last! }.joined(separator: ", ") + ".")
    ],
    options: [],
    examples: subcommands.flatMap(\.examples),
    subcommands: subcommands,
    run: run)

  /// Never reached: the command line names a subcommand, or parsing stops at the
  /// missing one (`runPrefs` refuses a word that names none).
  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    throw ArgumentParser.unknownSubcommand(arguments.positionals[0], of: spec)
  }
}

/// `prefs schema export SCHEMA [--json-schema [--settings --domain NAME]] [-o FILE]`.
enum SchemaExport {
  static let jsonSchema = OptionSpec(
    "json-schema", long: ["json-schema"],
    help: "Write JSON Schema (draft 2020-12), for editors to complete and check files, instead of the schema itself.")
  static let settings = OptionSpec(
    "settings", long: ["settings"],
    help: "With --json-schema: describe a settings file whose --domain entry holds the schema's keys.")
  static let domain = OptionSpec(
    "domain", long: ["domain"], arity: .one, kind: .text(placeholder: "NAME"), completion: .domainsOrFiles,
    help: "With --settings: the domain (or file) the schema's keys are for (default: the one the schema names).")

  static let spec = CommandSpec(
    name: "schema export",
    summary: "Write a schema as a schema document, or as JSON Schema for editors.",
    discussion: """
      SCHEMA is what --schema takes: a schema file (the schema format, or a JSON \
      Schema) or a built-in name. Without --json-schema the schema is written in \
      its own document format (YAML unless --to or -o's extension says otherwise), \
      so a JSON Schema converts to one. With --json-schema it is written as JSON \
      Schema for a domain file: each key with its type, description and default, \
      in both the spellings a YAML file and a JSON file use (a date is a timestamp \
      in YAML and {"$date": ...} in JSON; data is !!binary or {"$data": ...}; a \
      real that is not finite is {"$real": "inf"}). Only the keys the schema requires \
      are required, as an app reads a missing key as its fallback, and keys the \
      schema does not list are allowed. With --settings the JSON Schema is for a settings file (prefs apply): \
      the entry of --domain (by default the domain the schema names, as a \
      device-management schema does) holds a part of the keys at any depth, and \
      none is required; each key may be \
      !replace or !delete (an editor sees !delete as null; JSON spells them \
      {"$replace": ...} and {"$delete": true}), and other entries may hold settings \
      for any domain. A YAML file names the JSON Schema in a first-line comment, \
      '# yaml-language-server: $schema=FILE'; yaml-language-server needs the tags \
      listed in its yaml.customTags setting ("!replace mapping", "!replace \
      sequence", "!delete scalar").
      """,
    arguments: [ArgumentSpec(name: "SCHEMA", help: "A schema file, or a built-in schema's name.")],
    options: [jsonSchema, settings, domain, Options.output, Options.to],
    examples: [
      (
        "prefs schema export user-settings --json-schema -o user-settings.schema.json",
        "JSON Schema of the tutorial's domain."
      ),
      (
        "prefs schema export user-settings --json-schema --settings --domain com.example.app -o settings.schema.json",
        "JSON Schema of a settings file for it."
      ),
      ("prefs schema export user-settings.schema.json", "A JSON Schema as a schema document, in YAML."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let wantsJSONSchema = arguments.has(jsonSchema)
    if arguments.has(settings), !wantsJSONSchema {
      throw ArgumentParser.usageError("--settings shapes the JSON Schema; give --json-schema too", spec)
    }
    if arguments.has(domain), !arguments.has(settings) {
      throw ArgumentParser.usageError("--domain names the entry of a settings file; give --settings too", spec)
    }
    if wantsJSONSchema, arguments.has(Options.to) {
      throw ArgumentParser.usageError("JSON Schema is JSON; leave --to out", spec)
    }
    let schema = try ParsedArguments.schema(named: arguments.positionals[0])
    let output = arguments.value(Options.output)
    if wantsJSONSchema {
      var document = JSONSchema.forDomain(schema)
      if arguments.has(settings) {
        guard let name = arguments.value(domain) ?? schema.domain else {
          throw ArgumentParser.usageError(
            "--settings needs --domain NAME, the domain the schema's keys are for: the schema names none", spec)
        }
        document = JSONSchema.forSettings(schema, domain: name)
      }
      try Documents.write(document, format: .json, to: output, options: JSONSchema.writeOptions, console: console)
    } else {
      let format = try Documents.outputFormat(arguments: arguments)
      try Documents.write(schema.documentValue, format: format, to: output, options: WriteOptions(), console: console)
    }
    return Console.Status.success
  }
}

/// `prefs schema infer DOMAIN|FILE... [-o FILE]`: the types some domains hold.
enum SchemaInfer {
  static let spec = CommandSpec(
    name: "schema infer",
    summary: "Write a schema of the types the given domains or files hold.",
    discussion: """
      For a domain with no code to scan and no published schema. Each key gets the \
      type it holds; nested dictionaries become nested keys, and an array's items \
      a schema of their own. No default is invented. A string or integer key lists \
      its values when it holds between 2 and \(SchemaInference.maxValues) distinct \
      values and one of them repeats (across the inputs, or across an array's \
      items): a single input lists none. A key that holds different types across \
      the inputs is reported on standard error, and takes the type seen most often. \
      The schema is written in the schema format (YAML unless --to or -o's \
      extension says otherwise), which --schema reads back.
      """,
    arguments: [
      ArgumentSpec(name: "DOMAIN", help: "Domain names, files, or - for standard input.", variadic: true)
    ],
    options: [Options.output, Options.to, Options.from] + Options.store,
    examples: [
      ("prefs schema infer com.example.app -o app.schema.yaml", "A first schema of a domain, to edit."),
      ("prefs schema infer old/app.plist new/app.plist", "The types two versions hold, and where they disagree."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let format = try Documents.outputFormat(arguments: arguments)
    var inputs: [(name: String, contents: PrefDictionary)] = []
    for argument in arguments.positionals {
      let (contents, name) = try Documents.readDomain(argument, arguments: arguments, console: console)
      guard let contents else {
        throw missingDomain(try resolveDomain(argument, in: arguments.store()), in: arguments.store())
      }
      inputs.append((name, contents))
    }
    let inferred = SchemaInference.infer(inputs)
    for conflict in inferred.conflicts { console.err("prefs: warning: \(conflict)") }
    try Documents.write(
      inferred.schema.documentValue, format: format, to: arguments.value(Options.output), options: WriteOptions(),
      console: console)
    return Console.Status.success
  }
}
