import PrefsKit

/// `prefs diff A B [--unified]`: structural comparison across formats.
enum Diff {
  static let unified = OptionSpec(
    "unified", long: ["unified"], short: ["u"],
    help: "Show a unified text diff of the canonical YAML of both instead.")

  static let spec = CommandSpec(
    name: "diff",
    summary: "Compare two files or domains, in any formats, value by value.",
    discussion: """
      Prints one line per difference: '~ path: old -> new' (with both types when \
      the type changed), '+ path: value', '- path: value'. An XML plist and its \
      YAML export are the same; two configuration profiles (.mobileconfig, signed or \
      not) differ payload by payload. Exits 0 when the two are the same, 1 when they differ.
      """,
    arguments: [
      ArgumentSpec(name: "A", help: "A file, domain name, or - for standard input."),
      ArgumentSpec(name: "B", help: "A file, domain name, or - for standard input."),
    ],
    options: [
      unified, Options.exclude, Options.from, Options.yamlVersion, Options.allowDuplicateKeys, Options.defaultsDir,
    ],
    examples: [
      ("prefs diff settings.plist settings.yaml", "Check that a conversion kept everything."),
      ("prefs diff com.example.app backup/com.example.app.yaml -u", "A unified diff against a backup."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let (a, b) = (arguments.positionals[0], arguments.positionals[1])
    if a == "-", b == "-" {
      throw ArgumentParser.usageError("standard input can be read once: give - for one of A and B", spec)
    }
    let old = try Documents.readFileOrDomain(a, arguments: arguments, console: console)
    let new = try Documents.readFileOrDomain(b, arguments: arguments, console: console)
    let excludes = arguments.excludes()
    if arguments.has(unified) {
      let oldText = try canonicalYAML(old.excluding(excludes))
      let newText = try canonicalYAML(new.excluding(excludes))
      let text = LineDiff.unified(old: oldText, new: newText, oldName: a, newName: b)
      try console.out(colorize(text, unified: true, console))
      return text.isEmpty ? Console.Status.success : Console.Status.different
    }
    let changes = StructuralDiff.changes(from: old, to: new, excluding: excludes)
    // One line per change, whatever line breaks a key holds.
    let text = changes.map { TerminalText.escaped($0.line, keepingLineBreaks: false) + "\n" }.joined()
    try console.out(colorize(text, unified: false, console))
    return changes.isEmpty ? Console.Status.success : Console.Status.different
  }

  /// The canonical text of a value: YAML with sorted keys, the same bytes every time.
  static func canonicalYAML(_ value: PrefValue) throws -> String {
    String(decoding: try Format.yaml.codec.encode(value, options: WriteOptions(sortKeys: true)), as: UTF8.self)
  }

  /// Each change line in its colour, when the console colours output.
  static func colorize(_ text: String, unified: Bool, _ console: Console) -> String {
    // Keys and values from the files are shown, never obeyed.
    let text = TerminalText.escaped(text, keepingLineBreaks: true)
    guard console.colorsOutput, !text.isEmpty else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let color: String? =
        switch line.first {
        case "+" where !line.hasPrefix("+++"): "32"
        case "-" where !line.hasPrefix("---"): "31"
        case "~": "33"
        case "@" where unified: "36"
        default: nil
        }
      return color.map { console.paint(line, $0) } ?? String(line)
    }.joined(separator: "\n")
  }
}
