import PrefsKit

/// The option glossary: each option declared once, with the
/// one meaning it has in every command that lists it.
enum Options {
  static let from = OptionSpec(
    "from", long: ["from"], arity: .one, kind: .format(writable: false),
    help: "Input format: \(Format.namesList()) (default: from the extension, else the content).")
  /// The output format, spelled alike in every command that writes one document:
  /// `--to`, `--format`, `-f`.
  static let to = OptionSpec(
    "to", long: ["to", "format"], short: ["f"], arity: .one, kind: .format(writable: true),
    help: "Output format: \(Format.namesList(writableOnly: true)) (default: from -o's extension, else yaml).")
  static let output = OptionSpec(
    "output", long: ["output"], short: ["o"], arity: .one, kind: .path,
    help: "Write to FILE, atomically (- is standard output, the default).")
  static let document = OptionSpec(
    "document", long: ["document"], arity: .one, kind: .text(placeholder: "N|KIND/NAME"),
    help: "In a YAML stream of several documents, the one to use: its index from 0 (-1 is the last), "
      + "or its kind and metadata.name (Deployment/web).")
  static let sortKeys = OptionSpec(
    "sort-keys", long: ["sort-keys"], help: "Sort dictionary keys by code point.")
  static let plain = OptionSpec(
    "plain", long: ["plain"],
    help: "Ordinary JSON: dates as ISO 8601 strings, data as base64, no typed objects.")
  static let compact = OptionSpec("compact", long: ["compact"], help: "One-line JSON.")
  static let quiet = OptionSpec(
    "quiet", long: ["quiet"], short: ["q"],
    help: "No warnings about plain YAML scalars that YAML 1.1 and 1.2 read differently (yes, off, 0755).")
  static let dropNulls = OptionSpec(
    "drop-nulls", long: ["drop-nulls"],
    help: "Where a property list is written, leave YAML/JSON nulls out, with a warning, instead of failing.")
  static let color = OptionSpec(
    "color", long: ["color"], arity: .one,
    kind: .choice(ColorChoice.allCases.map(\.rawValue), placeholder: "WHEN", noun: "colour choice"),
    help: "Colour output: auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always or never.")
  /// Options every command takes, also before the command's name.
  static let global = [color]
  static let yamlVersion = OptionSpec(
    "yaml-version", long: ["yaml-version"], arity: .one,
    kind: .choice(YAMLVersion.allCases.map(\.rawValue), placeholder: "VERSION", noun: "YAML version"),
    help: "Resolve plain YAML scalars as YAML 1.2 (default) or 1.1 (yes/no are booleans, 0755 is octal).")
  static let allowDuplicateKeys = OptionSpec(
    "allow-duplicate-keys", long: ["allow-duplicate-keys"],
    help: "Read a dictionary that gives a key twice, keeping the last value, with a warning (default: refuse it).")
}

extension ParsedArguments {
  /// `--from`: the format parsing read from the format table.
  func inputFormat() throws -> Format? { format(Options.from) }

  /// `--to` (or another option naming an output format): parsing checked that it
  /// can be written.
  func outputFormat(_ option: OptionSpec = Options.to) throws -> Format? { format(option) }

  /// The reading options: `--yaml-version`, `--allow-duplicate-keys`.
  func readOptions() throws -> ReadOptions {
    var options = ReadOptions()
    // Commands that move YAML into other formats say what YAML 1.1 tools read otherwise.
    options.warnsOfYAMLAmbiguities = declares(Options.quiet) && !has(Options.quiet)
    options.allowDuplicateKeys = has(Options.allowDuplicateKeys)
    // Parsing checked the version against `YAMLVersion`.
    if let version = value(Options.yamlVersion).flatMap(YAMLVersion.init(rawValue:)) {
      options.yamlVersion = version
    }
    return options
  }

  /// The writing options for output in `format`: `--sort-keys`, `--plain`,
  /// `--compact`, `--expand-data`, `--drop-nulls`. `--plain` and `--compact` shape JSON only, so
  /// with any other output they are refused rather than silently ignored.
  func writeOptions(for format: Format) throws -> WriteOptions {
    for option in [Options.plain, Options.compact] where has(option) && format != .json {
      throw PrefsError(
        .usage("--\(option.long[0]) shapes JSON output, and this output is \(format.name)"),
        hints: ["ask for JSON (--to json, or --format json for export), or leave --\(option.long[0]) out"])
    }
    return WriteOptions(
      sortKeys: has(Options.sortKeys), plainJSON: has(Options.plain), compact: has(Options.compact),
      expandData: has(Options.expandData), dropNulls: dropsNulls)
  }

  /// `--drop-nulls`: where a plist is written, nulls are left out with a warning.
  var dropsNulls: Bool { has(Options.dropNulls) }
}

extension Options {
  static let defaultsDir = OptionSpec(
    "defaults-dir", long: ["defaults-dir"], arity: .one, kind: .directory,
    help: "The domain store's folder (default: $PREFS_DEFAULTS_DIR, else where UserDefaults keeps domains).")
  static let currentHost = OptionSpec(
    "current-host", long: ["current-host"], words: ["currentHost"],
    help:
      "The current host's domains, as defaults -currentHost: in a folder, ByHost/DOMAIN.UUID.plist (the UUID "
      + "of --host-uuid, else the one the folder's ByHost files name); on macOS, CFPreferences' current host.")
  static let hostUUID = OptionSpec(
    "host-uuid", long: ["host-uuid"], arity: .one, kind: .hostUUID,
    help: "The host whose ByHost files a folder's domains are (implies -currentHost; not for CFPreferences).")
  static let remoteHost = OptionSpec(
    "host", words: ["host"], arity: .one, kind: .text(placeholder: "NAME"),
    refusal:
      "-host NAME reaches another Mac's preferences through cfprefsd, which prefs cannot; "
      + "-currentHost or --host-uuid UUID address a folder's ByHost files",
    help: "Refused: another Mac's preferences; a folder's ByHost files are -currentHost or --host-uuid UUID.")
  /// The options that choose the domain store and whose domains it holds, taken by
  /// every command that addresses domains of the store.
  static let store = [defaultsDir, currentHost, hostUUID, remoteHost]
  /// The options that may also come before the command's name, as `defaults` takes
  /// `-currentHost` and `-host` there: those of the store.
  static let beforeCommand = store
  static let exclude = OptionSpec(
    "exclude", long: ["exclude"], arity: .repeatable, kind: .keyGlob,
    help:
      "Leave out key paths matching KEY-GLOB, a shell pattern matched against the path as typed "
      + "('SULast*', 'com.apple.*'); repeatable.")
  static let force = OptionSpec(
    "force", long: ["force"],
    help:
      "Replace a domain file that does not parse, keeping a copy of it as FILE.bak; also a read-only file "
      + "(keeping its mode) or one whose owner cannot be kept.")
  static let type = OptionSpec(
    "type", long: ["type"], short: ["t"], arity: .one, kind: .typeName,
    help:
      "The value's type: \(ValueText.TypeName.allCases.map(\.rawValue).joined(separator: ", ")) (data in base64; -data takes hex)."
  )
  /// The type `--type` names, or a usage error listing the types.
  static func typeName(_ text: String) throws -> ValueText.TypeName {
    guard let type = ValueText.TypeName.named(text) else {
      throw PrefsError(
        .usage("unknown type '\(text)'"),
        hints: ["types: \(ValueText.TypeName.allCases.map(\.rawValue).joined(separator: ", "))"])
    }
    return type
  }

  /// The `defaults`-style type words: `-string`, `-int`, … `-dict-add`.
  static let typeWords: [OptionSpec] = [
    OptionSpec("word-string", words: ["string"], help: "The value is a string."),
    OptionSpec("word-integer", words: ["int", "integer"], help: "The value is an integer."),
    OptionSpec("word-real", words: ["float", "real"], help: "The value is a real number."),
    OptionSpec("word-bool", words: ["bool", "boolean"], help: "The value is a boolean (true/false, yes/no, 1/0)."),
    OptionSpec("word-date", words: ["date"], help: "The value is an ISO 8601 date."),
    OptionSpec("word-data", words: ["data"], help: "The value is data, in hex (as defaults takes it)."),
    OptionSpec("word-array", words: ["array"], help: "The values form an array (replacing the old value)."),
    OptionSpec("word-array-add", words: ["array-add"], help: "Append the values to the array."),
    OptionSpec("word-dict", words: ["dict"], help: "KEY VALUE pairs form a dictionary (replacing the old value)."),
    OptionSpec("word-dict-add", words: ["dict-add"], help: "Add KEY VALUE pairs to the dictionary."),
  ]

  /// The type words of one scalar value, which `set` takes beside `--type`.
  static let scalarTypeWords = Array(typeWords.prefix(6))
}

extension ParsedArguments {
  /// The domain store: `--defaults-dir`, else the environment's, holding the domains
  /// of the host ``host`` names.
  func store() -> any DomainStore {
    defaultDomainStore(directory: value(Options.defaultsDir), host: host)
  }

  /// Whose domains: the host `--host-uuid` names, the current host with
  /// `-currentHost`, else any host's.
  var host: PreferenceHost {
    if let uuid = value(Options.hostUUID) { return .current(uuid: uuid) }
    return has(Options.currentHost) ? .current(uuid: nil) : .any
  }

  /// The `--exclude` patterns.
  func excludes() -> [KeyGlob] { all(Options.exclude).map(KeyGlob.init) }
}

extension Options {
  static let schema = OptionSpec(
    "schema", long: ["schema"], arity: .one, kind: .schema,
    help:
      "A schema file (prefs' own YAML or JSON, Apple's device-management YAML, a ProfileManifests manifest, "
      + "a JSON Schema) "
      + "or a built-in schema (\(Schema.builtInNames.joined(separator: ", "))).")
  static let schemaDir = OptionSpec(
    "schema-dir", long: ["schema-dir"], arity: .one, kind: .directory,
    help: "A folder of device-management or ProfileManifests schemas: the one whose payload type is the domain is used."
  )
  static let strict = OptionSpec(
    "strict", long: ["strict"],
    help: "With --schema: refuse (exit 65) any value of the wrong type instead of coercing it.")
  static let expandData = OptionSpec(
    "expand-data", long: ["expand-data"],
    help: "Show data that holds JSON or a binary plist as structure (YAML !json/!plist, JSON $json/$plist); "
      + "reading turns it back into the same bytes.")
  static let effective = OptionSpec(
    "effective", long: ["effective"],
    help: "With --schema: the values as the app reads them on this platform, fallbacks filled in.")
}

extension ParsedArguments {
  /// Whether a schema is asked for, by `--schema` or `--schema-dir`.
  var asksForSchema: Bool { value(Options.schema) != nil || value(Options.schemaDir) != nil }

  /// `--schema-dir`: the folder of schemas; refused beside `--schema`.
  func schemaDirectory() throws -> SchemaDirectory? {
    guard let folder = value(Options.schemaDir) else { return nil }
    if value(Options.schema) != nil {
      throw PrefsError(
        .usage("--schema and --schema-dir cannot be used together"),
        hints: ["--schema names one schema; --schema-dir finds each domain's own"])
    }
    return SchemaDirectory(path: folder)
  }

  /// The schema for `domain` (a name, or a file whose name gives it): `--schema`,
  /// else the schema `--schema-dir` holds for it, else nil.
  func schema(for domain: String) throws -> Schema? {
    guard let directory = try schemaDirectory() else { return try schema() }
    let isFile = DomainName.isPath(domain)
    guard let schema = try isFile ? directory.schema(forFile: domain) : directory.schema(for: domain) else {
      let name = isFile ? SchemaDirectory.domainName(ofFile: domain) : domain
      throw PrefsError(.notFound(.schema(domain: name)), file: directory.path)
    }
    return schema
  }

  /// `--schema`: a built-in name, else a file (YAML, JSON or any format of the table).
  func schema() throws -> Schema? {
    try value(Options.schema).map(Self.schema(named:))
  }

  /// The schema an argument names: a built-in name, else a file (the schema format in
  /// any format of the table, or a JSON Schema).
  static func schema(named argument: String) throws -> Schema {
    if !DomainName.isPath(argument) {
      guard let schema = Schema.builtIn(argument) else {
        throw PrefsError(
          .usage("unknown schema '\(argument)'"),
          hints: [
            "built-in schemas: \(Schema.builtInNames.joined(separator: ", ")); a schema file needs a '/' or an extension"
          ])
      }
      return schema
    }
    let data: Data
    do {
      data = try InputFile.read(argument)
    } catch let error as PrefsError {
      throw error.inFile(displayName(argument))
    }
    return try Schema.read(data, path: argument == "-" ? nil : argument)
  }
}
