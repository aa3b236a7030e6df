import PrefsKit

/// `prefs profile SETTINGS|DOMAIN... -o OUT.mobileconfig` and `prefs profile --extract P`:
/// configuration profiles for MDM, and back.
enum ProfileCommand {
  static let identifier = OptionSpec(
    "identifier", long: ["identifier"], arity: .one, kind: .text(placeholder: "ID"),
    help: "The profile's PayloadIdentifier; each payload's is ID.DOMAIN (default: the first domain and .profile).")
  static let organization = OptionSpec(
    "organization", long: ["organization"], arity: .one, kind: .text(placeholder: "NAME"),
    help: "The profile's PayloadOrganization.")
  static let name = OptionSpec(
    "display-name", long: ["display-name"], arity: .one, kind: .text(placeholder: "NAME"),
    help: "The profile's PayloadDisplayName (default: the identifier).")
  static let manage = OptionSpec(
    "manage", long: ["manage"], arity: .one,
    kind: .choice(ProfileManagement.allCases.map(\.rawValue), placeholder: "HOW", noun: "management"),
    help: "Custom Settings payloads: forced (default; the user cannot change them), once (Set-Once) or often.")
  static let extract = OptionSpec(
    "extract", long: ["extract"],
    help: "Read the profile IN (signed or not) and write what it sets as a settings file for prefs apply.")

  static let spec = CommandSpec(
    name: "profile",
    summary: "Make a configuration profile (.mobileconfig) for MDM from settings, or settings from one.",
    discussion: """
      Writes an XML plist profile (PayloadType Configuration) with one payload per \
      domain of the settings files and domains given: a Custom Settings payload \
      (com.apple.ManagedClient.preferences, its values under Forced, Set-Once or \
      Often as --manage says), or, when --schema-dir holds a device-management schema \
      for the domain, a payload whose type is the domain, its values checked against \
      the schema first (a wrong type, a value out of range or not allowed, a required \
      key missing: refused at its line and column, exit 65). Every value keeps its \
      type. PayloadUUIDs are name-based on the identifier and the content, so the same \
      input gives the same bytes. With --extract, IN is a profile, signed (CMS) or not, \
      and the output is a settings file that prefs apply and apply --check take; the \
      signature of a signed profile is verified with openssl when it is installed, \
      and said to be not verified otherwise.
      """,
    arguments: [
      ArgumentSpec(name: "IN", help: "Settings files or domain names; with --extract, one profile.", variadic: true)
    ],
    options: [
      Options.output, identifier, organization, name, manage, Options.schemaDir, extract, Options.to,
    ] + Options.store,
    examples: [
      ("prefs profile settings.yaml -o Settings.mobileconfig --identifier com.example.settings", "A profile."),
      (
        "prefs profile com.apple.dock -o Dock.mobileconfig --schema-dir device-management/mdm/profiles",
        "A native Dock payload, checked against Apple's schema."
      ),
      ("prefs profile --extract Settings.mobileconfig -o settings.yaml", "What a profile sets, to apply --check."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    if arguments.has(extract) {
      guard arguments.positionals.count == 1 else {
        throw ArgumentParser.usageError("--extract reads one profile", spec)
      }
      let file = arguments.positionals[0]
      let (value, _) = try Documents.read(file, arguments: arguments, console: console)
      let format = try arguments.outputFormat() ?? Documents.outputFormat(arguments: arguments)
      let data = try inFile(displayName(file)) {
        try ConfigurationProfile(value).settingsFile(source: displayName(file))
          .encoded(as: format, options: WriteOptions(sortKeys: false))
      }
      try Documents.write(data, to: arguments.value(Options.output), console: console)
      return Console.Status.success
    }
    if let format = try arguments.outputFormat(), format != .xml {
      throw ArgumentParser.usageError("a profile is an XML plist; --to names the format of --extract's output", spec)
    }
    var inputs: [ProfileInput] = []
    for argument in arguments.positionals {
      if namesFile(argument) {
        let data = try InputFile.read(argument)
        inputs += try ProfileInput.settingsFile(
          data, name: displayName(argument), path: argument == "-" ? nil : argument,
          options: try arguments.readOptions())
      } else {
        let domain = try resolveDomain(argument, in: arguments.store())
        guard let contents = try Documents.readDomain(domain, arguments: arguments, console: console) else {
          throw missingDomain(domain, in: arguments.store())
        }
        let document = try? TextDocument.read(InputFile.read(domain.location), path: domain.location).document
        inputs.append(ProfileInput(domain: argument, settings: contents, file: domain.location, document: document))
      }
    }
    let request = ProfileRequest(
      identifier: arguments.value(identifier) ?? "\(inputs.first?.domain ?? "prefs").profile",
      organization: arguments.value(organization), displayName: arguments.value(name),
      management: arguments.value(manage).flatMap(ProfileManagement.init(rawValue:)) ?? .forced,
      schemas: try arguments.schemaDirectory())
    let warnings = Warnings()
    defer { console.report(warnings) }
    let profile = try ConfigurationProfile.build(inputs, request: request, warnings: warnings)
    let output = arguments.value(Options.output)
    let data = try inFile(output.map(displayName) ?? "<stdout>") { try profile.encoded(warnings: warnings) }
    try Documents.write(data, to: output, console: console)
    return Console.Status.success
  }
}
