import PrefsKit

/// The key path argument shared by `get`, `set` and `remove`.
private let keyPathArgument = ArgumentSpec(
  name: "KEYPATH", help: "Keys and array indexes joined by dots (a.b.0.c); \\. is a literal dot.")
private let fileArgument = ArgumentSpec(name: "FILE", help: "A preference file (or a domain name).")

/// `prefs get FILE KEYPATH`.
enum GetValue {
  static let spec = CommandSpec(
    name: "get",
    summary: "Print the value at a key path, like plutil -extract.",
    discussion: "A scalar is printed raw, a dictionary or array as YAML. A missing key exits 66.",
    arguments: [fileArgument, keyPathArgument],
    options: [Options.from, Options.yamlVersion, Options.allowDuplicateKeys, Options.defaultsDir],
    examples: [("prefs get Samples/Items.yaml items.0.name", "Print the first item's name.")],
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
    try Documents.show(value, sortKeys: false, console: console)
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
      order and layout stay. Without --type the value is a string; an index equal \
      to an array's length appends.
      """,
    arguments: [fileArgument, keyPathArgument, ArgumentSpec(name: "VALUE", help: "The new value.")],
    options: [Options.type, createParents, Options.force, Options.defaultsDir],
    examples: [
      ("prefs set settings.plist window.width 1024 --type integer", "Set a nested integer."),
      ("prefs set settings.yaml a.b.c on -p", "Create a and b as needed; stores the string \"on\"."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let type = try arguments.value(Options.type).map(Options.typeName)
    let value = try ValueText.parse(arguments.positionals[2], as: type ?? .string)
    let path = PrefKeyPath.parse(arguments.positionals[1])
    try editFile(arguments, console: console) { root in
      try root.setting(value, at: path, createMissing: arguments.has(createParents))
    }
    return Console.Status.success
  }
}

/// `prefs remove FILE KEYPATH`.
enum RemoveValue {
  static let spec = CommandSpec(
    name: "remove",
    summary: "Remove the value at a key path, like plutil -remove.",
    arguments: [fileArgument, keyPathArgument],
    options: [Options.force, Options.defaultsDir],
    examples: [("prefs remove settings.json items.2", "Remove the third item.")],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let path = PrefKeyPath.parse(arguments.positionals[1])
    try editFile(arguments, console: console) { root in try root.removing(at: path) }
    return Console.Status.success
  }
}

/// Changes the domain or file of `arguments`' first argument under its lock.
private func editFile(_ arguments: ParsedArguments, console: Console, _ change: (PrefValue) throws -> PrefValue) throws
{
  let domain = try resolveDomain(arguments.positionals[0], in: arguments.store())
  try changeDomain(domain, arguments, console: console) { contents in
    guard let current = contents else { throw missingDomain(domain) }
    do {
      contents = try change(.dictionary(current)).dictionaryValue
    } catch let error as PrefsError {
      throw error.inFile(domain.name)
    }
  }
}
