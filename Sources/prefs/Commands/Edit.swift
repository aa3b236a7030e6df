import PrefsKit

/// `prefs edit DOMAIN|FILE`: the value as YAML in `$VISUAL`/`$EDITOR`, validated,
/// written back atomically in its own format.
enum Edit {
  static let expandData = OptionSpec(
    Options.expandData.name, long: Options.expandData.long,
    help:
      "Open data that holds JSON or a binary plist, in any spacing or escaping, as structure (!json/!plist); "
      + "a blob left as it was keeps its bytes, a changed one is written in its own spacing and escaping.")

  static let spec = CommandSpec(
    name: "edit",
    summary: "Edit a domain or file as YAML in $VISUAL or $EDITOR, then write it back safely.",
    discussion: """
      The value opens as YAML, in its own key order (a YAML file opens as its own \
      text, comments and all, and is written back as edited); the editor owns the terminal, \
      as under git commit. On save it is read back: a mistake re-opens the editor \
      with the error on top (the same mistake saved again unchanged stops, keeping \
      the edit in a file it names, exit 65), an unchanged file writes nothing (exit 0), an emptied \
      one aborts (exit 1), and otherwise the domain or file is written back \
      atomically in the format it had. If it was changed by someone else meanwhile, \
      nothing is overwritten. A file under ~/Library/Preferences named by path gets \
      a warning: on macOS cfprefsd caches those files, so edit the domain by its name. \
      With --expand-data, data that holds JSON (in any spacing or escaping) or a binary \
      plist opens as structure under !json or !plist; on save a blob whose structure \
      is as it was keeps its very bytes, and a changed one is its old text patched, \
      its spacing, key order and escaped slashes kept (a binary plist is written \
      anew). A YAML file is edited as its own text, so it does not take --expand-data.
      """,
    arguments: [ArgumentSpec(name: "DOMAIN", help: "A domain name (com.example.app, -g) or a file.")],
    options: [Options.force, Options.dropNulls, expandData, Options.allowDuplicateKeys] + Options.store,
    examples: [
      ("prefs edit com.example.app", "Edit a domain in $VISUAL or $EDITOR."),
      ("prefs edit settings.bplist", "Edit a binary plist as YAML; it stays binary."),
      ("prefs edit com.example.items --expand-data", "Edit the items of a JSON blob one by one."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let domain = try resolveDomain(arguments.positionals[0], in: arguments.store())
    if domain is FileDomain, isUnderPreferencesFolder(domain.location) {
      console.err(
        "prefs: warning: \(domain.name) is in ~/Library/Preferences, whose files cfprefsd caches on macOS: "
          + "edit the domain by its name (prefs edit \(domain.location.lastPathComponent.deletingPathExtension))")
    }
    let options = try arguments.readOptions()
    // A file named by path may have any root (an array of snippets); a domain is a dictionary.
    let edit = try reportingWarnings(of: domain, console) { warnings in
      try DomainEdit(
        domain, options: options, anyRoot: namesFile(arguments.positionals[0]),
        expandingData: arguments.has(expandData), warnings: warnings)
    }
    let folder = try EditFolder(fileName: safeFileName(domain.name) + ".yaml")
    var presented = edit.initialText
    try presented.write(to: URL(fileURLWithPath: folder.file))
    let editor = Editor.command()
    // The last invalid text the editor gave back: when the same comes back again, the
    // editor (or the user) is not going to fix it.
    var lastInvalid: Data?

    while true {
      let (outcome, interruption) = try Editor.run(editor, on: folder.file)
      if let signal = interruption {
        folder.remove()
        // After a hangup there is no terminal left to tell.
        if signal != SIGHUP { console.err("prefs: edit aborted: the editor was interrupted; nothing was changed") }
        folder.die(by: signal)
      }
      guard outcome == .exited(0) else {
        let how = if case .exited(let status) = outcome { "exit status \(status)" } else { "killed by a signal" }
        throw PrefsError(.other(.io, "the editor '\(editor)' failed (\(how)); nothing was changed"))
      }
      let edited = try InputFile.read(folder.file)
      if isBlank(edited) {
        // As `git commit` does with an empty message: a deliberate abort, exit 1.
        console.err("prefs: edit aborted: the file is empty; nothing was changed")
        return Console.Status.different
      }
      do {
        let contents = try decodeDomain(edited, options: options, anyRoot: edit.anyRoot)
        let outcome = try reportingWarnings(of: domain, console) { warnings in
          try edit.writeBack(
            value: contents, text: withoutOldNote(edited), force: arguments.has(Options.force), options: options,
            dropNulls: arguments.dropsNulls, warnings: warnings)
        }
        switch outcome {
        case .unchanged:
          console.err("prefs: no changes; nothing was written")
        case .written:
          break
        case .changedMeanwhile:
          throw PrefsError(
            .other(.temporary, "it changed while you were editing; nothing was overwritten"), file: domain.name,
            hints: ["your edit is kept in \(folder.keepFile())"])
        }
        return Console.Status.success
      } catch let error as PrefsError where error.category == .badInput {
        let body = withoutOldNote(edited)
        if body == lastInvalid {
          // The same mistake saved again, unchanged: the edit is kept, and nothing written.
          console.err("prefs: edit aborted: \(error); nothing was changed")
          console.err("hint: your edit is kept in \(folder.keepFile())")
          return Console.Status.dataError
        }
        lastInvalid = body
        presented = note(for: body, error, options: options) + body
        try presented.write(to: URL(fileURLWithPath: folder.file))
      }
    }
  }

  /// The edited YAML as a domain's contents: a dictionary, or any value for a file
  /// whose root may be one (`anyRoot`).
  static func decodeDomain(_ data: Data, options: ReadOptions, anyRoot: Bool) throws -> PrefValue {
    let value = try Format.yaml.readValue(data, options: options, warnings: Warnings())
    if anyRoot { return value }
    guard case .dictionary = value else {
      throw PrefsError(.other(.badInput, "a domain is a dictionary, not \(value.kind.article) \(value.kind.rawValue)"))
    }
    return value
  }

  static let noteLines = ["# prefs: error: ", "# Fix the mistake and save, or empty the file to abort."]

  /// The note put above `body` when it has an error: two comment lines. The error is
  /// found again in `body` below two lines, so that its line numbers are those the
  /// user sees in the re-opened file.
  static func note(for body: Data, _ error: PrefsError, options: ReadOptions) -> Data {
    var shown = error
    do {
      _ = try decodeDomain(Data("#\n#\n".utf8) + body, options: options, anyRoot: true)
    } catch let again as PrefsError {
      shown = again
    } catch {}
    let message = String(describing: shown).replacingAll("\n", with: " ")
    return Data((noteLines[0] + message + "\n" + noteLines[1] + "\n").utf8)
  }

  /// Whether the text holds nothing but blank lines and comments, as an emptied
  /// file (perhaps still with the error note) does.
  static func isBlank(_ data: Data) -> Bool {
    String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).allSatisfy { line in
      let text = line.trimmingSpaces
      return text.isEmpty || text.hasPrefix("#")
    }
  }

  /// The edited text without the error note a previous round put on top.
  static func withoutOldNote(_ data: Data) -> Data {
    var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    while let first = lines.first, first.hasPrefix(noteLines[0]) || first == noteLines[1] {
      lines.removeFirst()
    }
    return Data(lines.joined(separator: "\n").utf8)
  }

  /// Whether `path` names a file in the user's `~/Library/Preferences` (or below it).
  static func isUnderPreferencesFolder(_ path: String) -> Bool {
    let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath.appendingPathComponent(path)
    return !home.isEmpty && absolute.hasPrefix(home.appendingPathComponent("Library/Preferences") + "/")
  }

  static func safeFileName(_ name: String) -> String {
    String(name.lastPathComponent.map { $0 == "/" ? "_" : $0 })
  }
}
