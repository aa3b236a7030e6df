import PrefsKit

/// `prefs diff A B [--unified]`: structural comparison across formats.
enum Diff {
  static let unified = OptionSpec(
    "unified", long: ["unified"], short: ["u"],
    help: "Show a unified text diff of the canonical YAML of both instead.")
  static let expandData = OptionSpec(
    Options.expandData.name, long: Options.expandData.long,
    help:
      "Compare data that holds JSON or a binary plist, in any spacing or escaping, by its structure: a change "
      + "inside it is named by its key path through it (items.0.name); with --unified both show it as structure.")

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
      document only one side has is one '+' or '-' line. Two folders (a store and \
      its backup) are compared file by file, as diff -r does, and their subfolders \
      too: a file is paired with the one of the same name, or of the same name in \
      another format (app.plist with app.yaml); each pair that differs is headed by a \
      'diff A/FILE B/FILE' line, and a file on one side alone is listed as 'Only in \
      FOLDER: FILE'; hidden files are left out. With --expand-data, data that holds \
      JSON or a binary plist (in any spacing or escaping) is compared by its \
      structure, items lined up by their identity as elsewhere: '~ items.0.name: \
      "a" -> "b"'; a blob on one side only, a blob of another kind, or the same \
      structure in other bytes is one change of the data, and a changed blob that \
      only looks like JSON or a plist stays data, with a warning saying why. With \
      --unified as well, both texts show their blobs as structure. Exits 0 when the two are the same, 1 \
      when they differ.
      """,
    arguments: [
      ArgumentSpec(name: "A", help: "A file, domain name, folder, or - for standard input."),
      ArgumentSpec(name: "B", help: "A file, domain name, folder, or - for standard input."),
    ],
    options: [
      unified, expandData, Options.exclude, Options.from, Options.yamlVersion, Options.allowDuplicateKeys,
    ] + Options.store,
    examples: [
      ("prefs diff settings.plist settings.yaml", "Check that a conversion kept everything."),
      ("prefs diff com.example.app backup/com.example.app.yaml -u", "A unified diff against a backup."),
      ("prefs diff ~/.config backup/", "Every domain against its backup, file by file."),
      ("prefs diff old/Items.plist Samples/Items.plist --expand-data", "Which item of a JSON blob changed."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let (a, b) = (arguments.positionals[0], arguments.positionals[1])
    if a == "-", b == "-" {
      throw ArgumentParser.usageError("standard input can be read once: give - for one of A and B", spec)
    }
    switch (isFolder(a), isFolder(b)) {
    case (true?, true?): return try compareFolders(a, b, arguments, console)
    case (true?, _), (_, true?):
      throw ArgumentParser.usageError("a folder is compared with a folder, file by file; give two folders", spec)
    default: break
    }
    let old = try Documents.readDocumentsOfFileOrDomain(a, arguments: arguments, console: console)
    let new = try Documents.readDocumentsOfFileOrDomain(b, arguments: arguments, console: console)
    let text = try differences(old, new, names: (a, b), arguments, console)
    try console.out(colorize(text, unified: arguments.has(unified), console))
    return text.isEmpty ? Console.Status.success : Console.Status.different
  }

  /// The differences between two files' documents as the command prints them: one
  /// line per change (two single documents compared as values, streams document by
  /// document), or with --unified a unified diff of their canonical YAML. With
  /// --expand-data, blobs are compared (or shown) as structure, and the command says
  /// which stayed data and why.
  static func differences(
    _ old: [PrefValue], _ new: [PrefValue], names: (String, String), _ arguments: ParsedArguments,
    _ console: Console
  ) throws -> String {
    let excludes = arguments.excludes()
    let expanding = arguments.has(expandData)
    // What stays data is told of each side, naming its file.
    let warnings = (Warnings(), Warnings())
    defer {
      console.report(warnings.0, file: displayName(names.0))
      console.report(warnings.1, file: displayName(names.1))
    }
    if arguments.has(unified) {
      let (oldText, newText) = try canonicalTexts(
        old, new, excluding: excludes, expandingData: expanding, warnings: warnings)
      return LineDiff.unified(old: oldText, new: newText, oldName: names.0, newName: names.1)
    }
    let lines =
      old.count == 1 && new.count == 1
      ? StructuralDiff.changes(
        from: old[0], to: new[0], excluding: excludes, expandingData: expanding, warnings: warnings
      ).map(\.line)
      : StructuralDiff.changes(
        fromDocuments: old, to: new, excluding: excludes, expandingData: expanding, warnings: warnings
      ).map { $0.change.line(inDocument: $0.document) }
    // One line per change, whatever line breaks a key holds.
    return lines.map { TerminalText.escaped($0, keepingLineBreaks: false) + "\n" }.joined()
  }

  /// Two folders compared file by file, as `diff -r` does: each pair that differs
  /// under a `diff A/FILE B/FILE` line, a file on one side alone as `Only in …`,
  /// subfolders in turn. A file that cannot be read is reported and the others are
  /// compared; the status is 1 when anything differs, else the worst error's.
  static func compareFolders(_ a: String, _ b: String, _ arguments: ParsedArguments, _ console: Console) throws
    -> Int32
  {
    var status = Console.Status.success
    for pair in try pairs(a, b) {
      switch pair {
      case (let name?, nil):
        try console.out("Only in \(TerminalText.escaped(a, keepingLineBreaks: false)): \(name)\n")
        status = max(status, Console.Status.different)
      case (nil, let name?):
        try console.out("Only in \(TerminalText.escaped(b, keepingLineBreaks: false)): \(name)\n")
        status = max(status, Console.Status.different)
      case (let old?, let new?):
        let (oldPath, newPath) = (a.appendingPathComponent(old), b.appendingPathComponent(new))
        if isFolder(oldPath) == true, isFolder(newPath) == true {
          status = max(status, try compareFolders(oldPath, newPath, arguments, console))
          continue
        }
        do {
          let text = try differences(
            try Documents.readDocuments(oldPath, arguments: arguments, console: console).documents,
            try Documents.readDocuments(newPath, arguments: arguments, console: console).documents,
            names: (oldPath, newPath), arguments, console)
          guard !text.isEmpty else { continue }
          try console.out(
            "diff \(TerminalText.escaped(oldPath, keepingLineBreaks: false)) "
              + "\(TerminalText.escaped(newPath, keepingLineBreaks: false))\n"
              + colorize(text, unified: arguments.has(unified), console))
          status = max(status, Console.Status.different)
        } catch let error as PrefsError {
          console.report(error)
          status = max(status, Console.status(for: error))
        }
      case (nil, nil): break
      }
    }
    return status
  }

  /// The entries of two folders paired by name, or by name less a format's extension
  /// when the other folder has no entry of the same name (`app.plist` and `app.yaml`),
  /// in code-point order; hidden entries are left out.
  static func pairs(_ a: String, _ b: String) throws -> [(String?, String?)] {
    func entries(_ folder: String) throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
    }
    func stem(_ name: String) -> String {
      Format.forPath(name) == nil ? name : name.deletingPathExtension
    }
    let (left, right) = (try entries(a), try entries(b))
    var unpaired = Set(right)
    var result: [(String?, String?)] = []
    for name in left {
      if unpaired.remove(name) != nil {
        result.append((name, name))
      } else if let other = right.first(where: { unpaired.contains($0) && stem($0) == stem(name) && $0 != stem($0) }),
        name != stem(name)
      {
        unpaired.remove(other)
        result.append((name, other))
      } else {
        result.append((name, nil))
      }
    }
    result += unpaired.map { (nil, $0) }
    func name(_ pair: (String?, String?)) -> String.UnicodeScalarView { (pair.0 ?? pair.1 ?? "").unicodeScalars }
    return result.sorted { name($0).lexicographicallyPrecedes(name($1)) { $0.value < $1.value } }
  }

  /// The canonical texts `--unified` compares. Two single documents are their
  /// canonical YAML; streams are their documents lined up (``DocumentAlignment``),
  /// each after a `--- # [label]` line that names it as the plain diff does: the
  /// second text in the first's order, with what only it has at the end. With
  /// `expandingData`, each text shows its blobs as structure, as a view does; what
  /// stays data is a warning of that side.
  static func canonicalTexts(
    _ old: [PrefValue], _ new: [PrefValue], excluding excludes: [KeyGlob], expandingData: Bool = false,
    warnings: (Warnings, Warnings) = (Warnings(), Warnings())
  ) throws -> (String, String) {
    func text(_ value: PrefValue, _ warnings: Warnings) throws -> String {
      try canonicalYAML(value.excluding(excludes), expandingData: expandingData, warnings: warnings)
    }
    if old.count == 1, new.count == 1 {
      return (try text(old[0], warnings.0), try text(new[0], warnings.1))
    }
    var texts = ("", "")
    for pair in DocumentAlignment(old, new).pairs {
      let header = "--- # \(pair.label)\n"
      if let i = pair.old { texts.0 += header + (try text(old[i], warnings.0)) }
      if let j = pair.new { texts.1 += header + (try text(new[j], warnings.1)) }
    }
    return texts
  }

  /// The canonical text of a value: YAML with sorted keys, the same bytes every time;
  /// with `expandingData`, blobs shown as structure, as a view shows them.
  static func canonicalYAML(_ value: PrefValue, expandingData: Bool = false, warnings: Warnings = Warnings()) throws
    -> String
  {
    var options = WriteOptions(sortKeys: true, expandData: expandingData)
    options.expansionMode = .view
    let text = String(decoding: try Format.yaml.encode(value, options: options, warnings: warnings), as: UTF8.self)
    // As textconv shows them: a change of a blob's bytes alone is a change of the text.
    return expandingData ? text + Textconv.inexactBlobNotes(value) : text
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
