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
      not) differ payload by payload. YAML streams of several documents are \
      compared document by document, lined up by kind and metadata.name when every \
      document has them (Kubernetes manifests), else by position; each line names \
      its document ('~ [Deployment/web] spec.replicas: 2 -> 3', '~ [1] …'), and a \
      document only one side has is one '+' or '-' line. Exits 0 when the two are the same, 1 when they differ.
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
    let old = try Documents.readDocumentsOfFileOrDomain(a, arguments: arguments, console: console)
    let new = try Documents.readDocumentsOfFileOrDomain(b, arguments: arguments, console: console)
    let excludes = arguments.excludes()
    if arguments.has(unified) {
      let (oldText, newText) = try canonicalTexts(old, new, excluding: excludes)
      let text = LineDiff.unified(old: oldText, new: newText, oldName: a, newName: b)
      try console.out(colorize(text, unified: true, console))
      return text.isEmpty ? Console.Status.success : Console.Status.different
    }
    // Two single documents are compared as values; streams document by document.
    let lines =
      old.count == 1 && new.count == 1
      ? StructuralDiff.changes(from: old[0], to: new[0], excluding: excludes).map(\.line)
      : StructuralDiff.changes(fromDocuments: old, to: new, excluding: excludes).map {
        $0.change.line(inDocument: $0.document)
      }
    // One line per change, whatever line breaks a key holds.
    let text = lines.map { TerminalText.escaped($0, keepingLineBreaks: false) + "\n" }.joined()
    try console.out(colorize(text, unified: false, console))
    return lines.isEmpty ? Console.Status.success : Console.Status.different
  }

  /// The canonical texts `--unified` compares. Two single documents are their
  /// canonical YAML; streams are their documents lined up (``DocumentAlignment``),
  /// each after a `--- # [label]` line that names it as the plain diff does: the
  /// second text in the first's order, with what only it has at the end.
  static func canonicalTexts(_ old: [PrefValue], _ new: [PrefValue], excluding excludes: [KeyGlob]) throws -> (
    String, String
  ) {
    if old.count == 1, new.count == 1 {
      return (try canonicalYAML(old[0].excluding(excludes)), try canonicalYAML(new[0].excluding(excludes)))
    }
    var texts = ("", "")
    for pair in DocumentAlignment(old, new).pairs {
      let header = "--- # \(pair.label)\n"
      if let i = pair.old { texts.0 += header + (try canonicalYAML(old[i].excluding(excludes))) }
      if let j = pair.new { texts.1 += header + (try canonicalYAML(new[j].excluding(excludes))) }
    }
    return texts
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
