import PrefsKit

/// The key path argument shared by `get`, `set` and `remove`.
private let keyPathArgument = ArgumentSpec(
  name: "KEYPATH",
  help:
    "Keys and array indexes joined by dots (a.b.0.c, items.-1); a key with dots that exists is found "
    + "(com.apple.x); \\. is a literal dot.")
/// `--expand-data` as the key-path verbs take it.
private let expandData = OptionSpec(
  Options.expandData.name, long: Options.expandData.long,
  help:
    "Let the key path go on into data that holds JSON or a binary plist (items.0.name); a change there "
    + "changes the data's bytes only where its structure changed, in its own style.")
private let fileArgument = ArgumentSpec(
  name: "FILE",
  help: "A preference file (or a domain name); - is standard input (set and remove then write to standard output).")

/// `prefs get FILE KEYPATH`.
enum GetValue {
  static let spec = CommandSpec(
    name: "get",
    summary: "Print the value at a key path, like plutil -extract.",
    discussion: """
      A scalar is printed raw (booleans as true and false, data as hex, in lines on a \
      terminal), a dictionary or array as YAML; --to prints the value in that format. \
      -o FILE always writes the file, in the format --to or its extension gives. \
      A missing key exits 66. In a YAML stream of several documents, --document \
      picks one (its index from 0, or KIND/NAME); without it, get lists them and exits 65. \
      With --expand-data the key path goes on into data that holds JSON or a binary \
      plist, and such data is printed as the structure it holds.
      """,
    arguments: [fileArgument, keyPathArgument],
    options: [
      Options.to, Options.output, Options.from, Options.document, expandData, Options.dropNulls,
      Options.yamlVersion, Options.allowDuplicateKeys,
    ] + Options.store,
    examples: [
      ("prefs get Samples/UserSettings.yaml ringtone", "Print one value (Chimes)."),
      ("prefs get Samples/UserSettings.plist isAccountPrivate --to json", "Print a value as JSON."),
      ("prefs get Samples/Items.plist items.0.name --expand-data", "Print a name inside the JSON items data."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let source = arguments.positionals[0]
    let root = try Documents.readFileOrDomain(source, arguments: arguments, console: console)
    let expanding = arguments.has(expandData)
    var value: PrefValue
    do {
      value = try root.value(at: PrefKeyPath.parse(arguments.positionals[1]), expandingData: expanding)
    } catch let error as PrefsError {
      throw error.inFile(displayName(source))
    }
    if expanding, case .data(let data) = value, let blob = EmbeddedDocument(data) { value = blob.value }
    // -o always writes its file, in the format --to or its extension gives.
    let output = arguments.value(Options.output)
    let toFile = output != nil && output != "-"
    if let format = try arguments.outputFormat() ?? (toFile ? Documents.outputFormat(arguments: arguments) : nil) {
      try Documents.write(
        value, format: format, to: arguments.value(Options.output),
        options: WriteOptions(expandData: expanding, dropNulls: arguments.dropsNulls),
        console: console)
    } else {
      try Documents.show(value, sortKeys: false, booleanWords: true, expandData: expanding, console: console)
    }
    return Console.Status.success
  }
}

/// `prefs set FILE KEYPATH VALUE [--type T] [-p]`.
enum SetValue {
  static let createParents = OptionSpec(
    "parents", long: ["parents"], short: ["p"], help: "Create missing dictionaries on the way.")
  static let create = OptionSpec(
    "create", long: ["create"], help: "Create FILE when it does not exist, in the format its extension names.")

  static let spec = CommandSpec(
    name: "set",
    summary: "Set the value at a key path, keeping the file's format and key order.",
    discussion: """
      The file keeps its format, and only the bytes of the value change: comments, \
      order and layout stay. Without --type (or a type word of defaults: -string, \
      -int, -float, -bool, -date, -data in hex) the value keeps the type of the value \
      it replaces (and is refused when its text is not of that type); a new key is a \
      string. An index equal to an array's length appends. A key path that would \
      nest the value deeper than the readers' limit of 512 levels is refused. A \
      missing file is an error unless --create makes it (in the format of its \
      extension). FILE - patches standard input the same way onto standard output. \
      In a YAML stream of several documents, --document picks the one to change \
      (its index from 0, or KIND/NAME), and the other documents keep their bytes. \
      With --expand-data the key path goes on into data that holds JSON or a binary \
      plist: the data's JSON text changes only where its structure changed, keeping \
      its spacing, key order and escaping (a binary plist is written anew), and in \
      the file only the data's bytes change.
      """,
    arguments: [fileArgument, keyPathArgument, ArgumentSpec(name: "VALUE", help: "The new value.")],
    options: [Options.type] + Options.scalarTypeWords + [
      createParents, create, Options.document, expandData, Options.force, Options.dropNulls,
      Options.allowDuplicateKeys,
    ] + Options.store,
    examples: [
      ("prefs set settings.plist window.width 1024 --type integer", "Set a nested integer."),
      ("prefs set settings.plist window.width -int 1024", "The same, with the type word of defaults."),
      ("prefs set settings.yaml a.b.c on -p", "Create a and b as needed; stores the string \"on\"."),
      ("prefs set new.yaml name ada --create", "Make new.yaml holding name: ada."),
      (
        "prefs set Items.plist items.0.name Groceries --expand-data",
        "Rename the first item inside the JSON items data."
      ),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let text = arguments.positionals[2]
    // --type, or a defaults type word (-int 3, -data 0a1b in hex, as write takes them).
    let word = Options.scalarTypeWords.first { arguments.has($0) }
    if let word, arguments.has(Options.type) || Options.scalarTypeWords.filter({ arguments.has($0) }).count > 1 {
      throw ArgumentParser.usageError("give one type: \(word.primarySpelling) or --type, once", spec)
    }
    let type = arguments.typeName(Options.type) ?? word.flatMap { try? Write.typeName(ofOption: $0.name, value: "") }
    let typed = try type.map { try ValueText.parse(text, as: $0, hexData: word?.name == "word-data") }
    let path = PrefKeyPath.parse(arguments.positionals[1])
    let expanding = arguments.has(expandData)
    var warning: String?
    try editFile(arguments, console, creating: arguments.has(create)) { root in
      // Without --type, the value keeps the type of what it replaces (never a silent "false").
      var value = typed
      if value == nil {
        let readsAs: PrefValue?
        (value, readsAs) = try ValueText.parseUntyped(
          text, existing: try? root.value(at: path, expandingData: expanding), key: arguments.positionals[1])
        warning = readsAs.map { ErrorAdvice.storedAsString(text, at: arguments.positionals[1], readsAs: $0) }
      }
      return try root.setting(
        value!, at: path, createMissing: arguments.has(createParents), depthLimit: try arguments.readOptions().maxDepth,
        expandingData: expanding)
    }
    if let warning { console.err("prefs: warning: \(warning)") }
    return Console.Status.success
  }
}

/// `prefs remove FILE KEYPATH`.
enum RemoveValue {
  static let spec = CommandSpec(
    name: "remove",
    summary: "Remove the value at a key path, like plutil -remove.",
    discussion: """
      Only the bytes of the entry go: comments, order and layout stay. In a YAML \
      stream of several documents, --document picks the one to change (its index \
      from 0, or KIND/NAME), and the other documents keep their bytes. With \
      --expand-data the key path goes on into data that holds JSON or a binary \
      plist, which loses only the bytes of the entry.
      """,
    arguments: [fileArgument, keyPathArgument],
    options: [Options.document, expandData, Options.force, Options.dropNulls, Options.allowDuplicateKeys]
      + Options.store,
    examples: [
      ("prefs remove settings.json items.2", "Remove the third item."),
      ("prefs remove Items.plist items.1 --expand-data", "Remove the second item of the JSON items data."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let path = PrefKeyPath.parse(arguments.positionals[1])
    let expanding = arguments.has(expandData)
    try editFile(arguments, console) { root in try root.removing(at: path, expandingData: expanding) }
    return Console.Status.success
  }
}

/// Changes the domain or file of `arguments`' first argument under its lock; `-`
/// reads standard input and writes the result to standard output, patched as a file
/// is (only the bytes of what changed change). With `creating`, a missing file starts
/// as an empty dictionary.
private func editFile(
  _ arguments: ParsedArguments, _ console: Console, creating: Bool = false,
  _ change: (PrefValue) throws -> PrefValue
) throws {
  if arguments.positionals[0] == "-", let selector = arguments.value(Options.document) {
    return try editStandardInputDocument(selector, arguments, console, change)
  }
  if arguments.positionals[0] == "-" {
    let (value, format, document) = try Documents.read("-", arguments: arguments, console: console, mapped: true)
    let changed: PrefValue
    do {
      changed = try change(value)
    } catch let error as PrefsError {
      throw error.inFile(displayName("-"))
    }
    let warnings = Warnings()
    if let document, let patch = try? document.patched(to: changed, warnings: warnings) {
      console.report(warnings, file: displayName("-"))
      try console.outData(patch.data)
      return
    }
    try Documents.write(
      changed, format: format.isWritable ? format : .xml, to: nil,
      options: WriteOptions(dropNulls: arguments.dropsNulls),
      console: console)
    return
  }
  let domain = try arguments.fileOrDomain(arguments.positionals[0])
  if let file = domain as? FileDomain, namesFile(arguments.positionals[0]) {
    // A file named by path may have any root (a Munki catalog is an array): key paths
    // then start with an index (0.name); a domain is a dictionary.
    try reportingWarnings(of: file, console) { warnings in
      try file.modifyValue(
        force: arguments.has(Options.force), options: arguments.readOptions(), dropNulls: arguments.dropsNulls,
        warnings: warnings
      ) { value in
        guard let current = value ?? (creating ? .dictionary(PrefDictionary()) : nil) else {
          var error = missingDomain(file, in: arguments.store())
          error.hints.append("--create makes the file")
          throw error
        }
        value = try inFile(file.name) { try change(current) }
      }
    }
    return
  }
  try changeDomain(domain, arguments, console: console) { contents in
    guard let current = contents ?? (creating && domain.location == domain.name ? PrefDictionary() : nil) else {
      var error = missingDomain(domain, in: arguments.store())
      if domain.location == domain.name { error.hints.append("--create makes the file") }
      throw error
    }
    do {
      contents = try change(.dictionary(current)).dictionaryValue
    } catch let error as PrefsError {
      throw error.inFile(domain.name)
    }
  }
}

/// Changes the document `selector` picks in the YAML stream on standard input, and
/// writes the stream to standard output, the other documents byte for byte.
private func editStandardInputDocument(
  _ selector: String, _ arguments: ParsedArguments, _ console: Console, _ change: (PrefValue) throws -> PrefValue
) throws {
  let name = displayName("-")
  try inFile(name) {
    let options = try arguments.readOptions()
    let data = try InputFile.read("-", limit: options.maxInputBytes)
    let warnings = Warnings()
    defer { console.report(warnings, file: name) }
    guard let stream = try DocumentStream(data, options: options, warnings: warnings) else {
      throw PrefsError(.noSuchDocument(selector: selector, names: [nil]), hints: ["only UTF-8 YAML streams are edited"])
    }
    let index = try stream.index(of: selector)
    let patch = try stream.documents[index].patched(to: try change(stream.documents[index].value), warnings: warnings)
    for note in patch.notes { warnings.add(note) }
    try console.outData(stream.replacing([index: patch.data]))
  }
}
