import PrefsKit

/// The key path argument shared by `get`, `set` and `remove`.
private let keyPathArgument = ArgumentSpec(
  name: "KEYPATH",
  help:
    "Keys and array indexes joined by dots (a.b.0.c, items.-1); a key with dots that exists is found "
    + "(com.apple.x); \\. is a literal dot.")
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
      A missing key exits 66.
      """,
    arguments: [fileArgument, keyPathArgument],
    options: [
      Options.to, Options.output, Options.from, Options.dropNulls, Options.yamlVersion, Options.allowDuplicateKeys,
      Options.defaultsDir,
    ],
    examples: [
      ("prefs get Samples/UserSettings.yaml ringtone", "Print one value (Chimes)."),
      ("prefs get Samples/UserSettings.plist isAccountPrivate --to json", "Print a value as JSON."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let source = arguments.positionals[0]
    let root = try Documents.readFileOrDomain(source, arguments: arguments, console: console)
    let value: PrefValue
    do {
      value = try root.value(at: PrefKeyPath.parse(arguments.positionals[1]))
    } catch let error as PrefsError {
      throw error.inFile(displayName(source))
    }
    if let format = try arguments.outputFormat() {
      try Documents.write(
        value, format: format, to: arguments.value(Options.output),
        options: WriteOptions(dropNulls: arguments.dropsNulls),
        console: console)
    } else {
      try Documents.show(value, sortKeys: false, booleanWords: true, console: console)
    }
    return Console.Status.success
  }
}

/// `prefs set FILE KEYPATH VALUE [--type T] [-p]`.
enum SetValue {
  static let createParents = OptionSpec(
    "parents", long: ["parents"], short: ["p"], help: "Create missing dictionaries on the way.")

  static let spec = CommandSpec(
    name: "set",
    summary: "Set the value at a key path, keeping the file's format and key order.",
    discussion: """
      The file keeps its format, and only the bytes of the value change: comments, \
      order and layout stay. Without --type the value keeps the type of the value \
      it replaces (and is refused when its text is not of that type); a new key is a \
      string. An index equal to an array's length appends.
      """,
    arguments: [fileArgument, keyPathArgument, ArgumentSpec(name: "VALUE", help: "The new value.")],
    options: [
      Options.type, createParents, Options.force, Options.dropNulls, Options.allowDuplicateKeys, Options.defaultsDir,
    ],
    examples: [
      ("prefs set settings.plist window.width 1024 --type integer", "Set a nested integer."),
      ("prefs set settings.yaml a.b.c on -p", "Create a and b as needed; stores the string \"on\"."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let type = arguments.typeName(Options.type)
    let text = arguments.positionals[2]
    let typed = try type.map { try ValueText.parse(text, as: $0) }
    let path = PrefKeyPath.parse(arguments.positionals[1])
    var warning: String?
    try editFile(arguments, console) { root in
      // Without --type, the value keeps the type of what it replaces (never a silent "false").
      var value = typed
      if value == nil {
        let readsAs: PrefValue?
        (value, readsAs) = try ValueText.parseUntyped(
          text, existing: try? root.value(at: path), key: arguments.positionals[1])
        warning = readsAs.map { ErrorAdvice.storedAsString(text, at: arguments.positionals[1], readsAs: $0) }
      }
      return try root.setting(value!, at: path, createMissing: arguments.has(createParents))
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
    arguments: [fileArgument, keyPathArgument],
    options: [Options.force, Options.dropNulls, Options.allowDuplicateKeys, Options.defaultsDir],
    examples: [("prefs remove settings.json items.2", "Remove the third item.")],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let path = PrefKeyPath.parse(arguments.positionals[1])
    try editFile(arguments, console) { root in try root.removing(at: path) }
    return Console.Status.success
  }
}

/// Changes the domain or file of `arguments`' first argument under its lock; `-`
/// reads standard input and writes the result to standard output, in its format.
private func editFile(
  _ arguments: ParsedArguments, _ console: Console, _ change: (PrefValue) throws -> PrefValue
) throws {
  if arguments.positionals[0] == "-" {
    let (value, format) = try Documents.read("-", arguments: arguments, console: console)
    let changed: PrefValue
    do {
      changed = try change(value)
    } catch let error as PrefsError {
      throw error.inFile(displayName("-"))
    }
    try Documents.write(
      changed, format: format.isWritable ? format : .xml, to: nil,
      options: WriteOptions(dropNulls: arguments.dropsNulls),
      console: console)
    return
  }
  let domain = try arguments.fileOrDomain(arguments.positionals[0])
  try changeDomain(domain, arguments, console: console) { contents in
    guard let current = contents else { throw missingDomain(domain, in: arguments.store()) }
    do {
      contents = try change(.dictionary(current)).dictionaryValue
    } catch let error as PrefsError {
      throw error.inFile(domain.name)
    }
  }
}
