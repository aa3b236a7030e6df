import PrefsKit

/// `prefs merge CURRENT BASE OTHER [-o OUT]`: git's merge driver, structurally.
enum Merge {
  static let arrayKey = OptionSpec(
    "array-key", long: ["array-key"], arity: .repeatable, kind: .text(placeholder: "KEYPATH=FIELD"),
    help: "Match the dictionaries of the arrays at KEYPATH (a key-glob) by FIELD (a key path in each item); "
      + "repeatable.")
  static let conflictsFile = OptionSpec(
    "conflicts", long: ["conflicts"], arity: .one, kind: .path,
    help:
      "Also write the conflicts to FILE as YAML: each key path with its base, current and other values, and the reason when the values do not say it."
  )
  static let label = OptionSpec(
    "label", long: ["label"], short: ["L"], arity: .repeatable, kind: .text(placeholder: "LABEL"),
    help: "Name CURRENT, then BASE, then OTHER in the conflict markers, as git merge-file -L does "
      + "(default: the file names).")

  static let path = OptionSpec(
    "path", long: ["path"], arity: .one, kind: .text(placeholder: "PATH"),
    help: "The file's path in the repository, as git's %P gives it: messages name it, its extension decides "
      + "the format, and the repository's .prefs-merge file gives its arrays' identity fields.")
  static let expandData = OptionSpec(
    Options.expandData.name, long: Options.expandData.long,
    help:
      "Merge data that holds JSON or a binary plist, where both sides changed it, as the structure it holds "
      + "(items by id); a conflict inside marks the whole data entry and names the key path inside.")
  static let markerSize = OptionSpec(
    "marker-size", long: ["marker-size"], arity: .one, kind: .text(placeholder: "N"),
    help: "Make conflict markers N characters long, as git's %L says (default: 7).")

  static let spec = CommandSpec(
    name: "merge",
    summary: "Merge the changes from BASE to OTHER into CURRENT, setting by setting.",
    discussion: """
      Arguments come in git merge-file's order, so that 'git config merge.prefs.driver \
      "prefs merge %A %O %B --path %P --marker-size %L -L %X -L %S -L %Y --expand-data"' \
      makes it git's merge driver ('prefs git-setup' sets that up); --path names the file, \
      and messages and markers name it and the sides (git 2.44 and later expand \
      %X %S %Y; with an older git, prefs asks git for HEAD, the branch merged and \
      the merge base). Dictionaries merge key by key; arrays merge by a three-way \
      diff of their items, or by an identity field (--array-key, else the \
      repository's .prefs-merge for the file --path names, else the Dock's \
      persistent-apps and persistent-others by tile-data.bundle-identifier then \
      GUID, a profile's PayloadContent by PayloadIdentifier then PayloadUUID, \
      else the first of id, identifier, uuid, GUID, CFBundleIdentifier, name, key, \
      path, URL that every item has); an item a side added after all the others stays at \
      the end. The result is written into CURRENT (or OUT) in CURRENT's format, \
      changing only the bytes of what changed. Where both sides changed the same \
      thing differently, a text file gets git's conflict markers around the \
      smallest region of whole lines holding it, and a binary plist keeps \
      CURRENT's value; each conflict is listed on standard error. When a file \
      cannot be merged by value (a reader refuses it, or the result cannot be \
      written in its format), its lines are merged by git merge-file, as git \
      would without the driver (a binary file keeps CURRENT, with a conflict), \
      and one line on standard error says why. With --expand-data, data both \
      sides changed that holds JSON or a binary plist of one kind on every side \
      merges as that structure, written as CURRENT's data changed only where the \
      structure changed; a conflict inside marks the whole data entry (markers \
      cannot stand inside base64) and names the key path inside it, and data left \
      as data says why. Exits 0 when the merge is clean, 1 when there are \
      conflicts (after a line merge, their number).
      """,
    arguments: [
      ArgumentSpec(name: "CURRENT", help: "Our version; the result is written here unless -o."),
      ArgumentSpec(name: "BASE", help: "The common ancestor."),
      ArgumentSpec(name: "OTHER", help: "Their version, whose changes are merged in."),
    ],
    options: [
      Options.output, arrayKey, conflictsFile, label, path, markerSize, expandData, Options.dropNulls,
      Options.yamlVersion,
    ],
    examples: [
      ("prefs merge ours.plist base.plist theirs.plist", "Merge their changes into ours.plist."),
      (
        "prefs merge Dock.plist base.plist other.plist --array-key 'persistent-apps=tile-data.bundle-identifier'",
        "Match Dock tiles by their bundle identifier."
      ),
      (
        "prefs merge a.yaml base.yaml b.yaml --path config/app.yaml -L HEAD -L base -L topic",
        "Merge as git's driver does: messages and markers name config/app.yaml, HEAD and topic."
      ),
      (
        "prefs merge a.yaml base.yaml b.yaml -o merged.yaml --conflicts conflicts.yaml",
        "Write the merge and its conflicts to files, leaving a.yaml as it is."
      ),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let paths = (current: arguments.positionals[0], base: arguments.positionals[1], other: arguments.positionals[2])
    var options = ThreeWayMerge.Options(expandData: arguments.has(expandData))
    for text in arguments.all(arrayKey) {
      guard let key = ThreeWayMerge.Options.arrayKey(text) else {
        throw ArgumentParser.usageError("--array-key takes KEYPATH=FIELD, not '\(text)'", spec)
      }
      options.arrayKeys.append(key)
    }
    guard arguments.all(label).count <= 3 else {
      throw ArgumentParser.usageError("-L is given more than three times", spec)
    }
    var size = 7
    if let text = arguments.value(markerSize) {
      guard let number = Int(text), (1...200).contains(number) else {
        throw ArgumentParser.usageError("--marker-size takes a number from 1 to 200, not '\(text)'", spec)
      }
      size = number
    }
    let realPath = arguments.value(path)
    // Messages name the file by its path in the repository when git gives it.
    let name = realPath ?? displayName(paths.current)
    let names = MergeNames(arguments.all(label), paths: paths, asDriver: realPath != nil)
    if let realPath { options.arrayKeys += repositoryArrayKeys(for: realPath, console: console) }

    let readOptions = try arguments.readOptions()
    func version(_ file: String, side: String) throws -> FileMerge.Version {
      let data = try inFile(displayName(file)) { try InputFile.read(file, limit: readOptions.maxInputBytes) }
      return FileMerge.Version(
        data, path: realPath ?? (file == "-" ? nil : file),
        name: realPath.map { "\($0) (\(side))" } ?? displayName(file))
    }
    let versions = (
      current: try version(paths.current, side: names.current), base: try version(paths.base, side: "base"),
      other: try version(paths.other, side: names.other)
    )
    let output = arguments.value(Options.output) ?? paths.current
    let outputName = output == "-" ? "<stdout>" : realPath ?? output
    let writeWarnings = Warnings()
    let outcome = try FileMerge.merge(
      current: versions.current, base: versions.base, other: versions.other, readOptions: readOptions,
      options: options, labels: ConflictMarkers.Labels(current: names.current, other: names.other, markerSize: size),
      dropNulls: arguments.dropsNulls, warnings: writeWarnings)
    for version in [versions.current, versions.base, versions.other] {
      console.report(version.warnings, file: version.name)
    }
    defer { console.report(writeWarnings, file: outputName) }
    func write(_ data: Data) throws {
      do {
        if output == "-" {
          try console.outData(data)
        } else {
          try AtomicFile.write(data, to: output, keepingModeOf: [paths.current])
        }
      } catch let error as PrefsError {
        throw error.inFile(outputName)
      }
    }

    guard case .merged(let merged) = outcome else {
      guard case .byLines(let refusal) = outcome else { preconditionFailure("a merge is by value or by lines") }
      return try mergeLines(
        refusal, versions: versions, paths: paths, names: names, markerSize: size, name: name,
        arguments: arguments, console: console, write: write)
    }
    for note in merged.notes { writeWarnings.add(note) }
    if merged.hasMarkers || merged.data != versions.current.data || output != paths.current {
      try write(merged.data)
    }
    // A conflict inside data holding a blob is told by its key path inside.
    let conflicts = merged.result.conflicts.flatMap(\.reported)
    // A conflict is in the file being merged, wherever the result is written.
    let conflictFile = output == "-" ? name : outputName
    for conflict in conflicts {
      func shown(_ value: PrefValue?) -> String { value?.inlineText() ?? "(none)" }
      if let reason = conflict.reason {
        console.err("prefs: conflict: \(outputName): \(conflict.location): \(reason)")
        continue
      }
      console.err(
        "prefs: conflict: \(conflictFile): \(conflict.location): base \(shown(conflict.base)), "
          + "\(names.currentSide) \(shown(conflict.current)), \(names.otherSide) \(shown(conflict.other))")
    }
    if !conflicts.isEmpty {
      let count = (conflicts.count == 1 ? "1 conflict" : "\(conflicts.count) conflicts") + names.between
      console.err(
        merged.hasMarkers
          ? "prefs: \(conflictFile): \(count), marked with \(String(repeating: "<", count: size)) and "
            + String(repeating: ">", count: size)
          : "prefs: \(conflictFile): \(count); a \(merged.format.name) file cannot hold conflict markers, "
            + "so \(names.keptSide)'s values were kept")
    }
    if let file = arguments.value(conflictsFile) {
      try Documents.write(
        conflictList(conflicts, file: conflictFile, names: names), format: .yaml, to: file,
        options: WriteOptions(), console: console, mode: AtomicFile.sharedMode(of: [paths.current]))
    }
    return conflicts.isEmpty ? Console.Status.success : Console.Status.different
  }

  /// The merge git itself would make when the values cannot be merged: `git merge-file`
  /// for text, and for a binary file CURRENT kept with a conflict, as git keeps ours.
  static func mergeLines(
    _ refusal: FileMerge.Refusal,
    versions: (current: FileMerge.Version, base: FileMerge.Version, other: FileMerge.Version),
    paths: (current: String, base: String, other: String), names: MergeNames, markerSize: Int, name: String,
    arguments: ParsedArguments, console: Console, write: (Data) throws -> Void
  ) throws -> Int32 {
    let reason = refusal.error.inFile(name)
    if [versions.current, versions.base, versions.other].contains(where: { FileMerge.isBinary($0.data) }) {
      if arguments.value(Options.output) != nil { try write(versions.current.data) }
      console.err(
        "prefs: \(reason); a binary file cannot be merged line by line either, so \(names.keptSide)'s version "
          + "was kept with a conflict, as git keeps it")
      return Console.Status.different
    }
    guard let git = try? Git(), ![paths.current, paths.base, paths.other].contains("-") else {
      throw PrefsError(
        refusal.error.kind, file: reason.file, position: reason.position,
        hints: ["the lines cannot be merged instead, as git merge-file would, without git on the PATH and three files"])
    }
    let (data, conflicts) = try git.mergeFile(
      current: paths.current, base: paths.base, other: paths.other, labels: [names.current, names.base(), names.other],
      markerSize: markerSize)
    try write(data)
    let count = conflicts == 0 ? "" : conflicts == 1 ? ", with 1 conflict" : ", with \(conflicts) conflicts"
    console.err("prefs: \(reason); merged line by line, as git does\(count)")
    if let file = arguments.value(conflictsFile) {
      try Documents.write(
        lineConflictList(data, markerSize: markerSize, file: name), format: .yaml, to: file, options: WriteOptions(),
        console: console, mode: AtomicFile.sharedMode(of: [paths.current]))
    }
    return conflicts
  }

  /// The array identity fields the repository's `.prefs-merge` gives the file at
  /// `path`; none without one. A file that does not read is reported and left out.
  static func repositoryArrayKeys(for path: String, console: Console) -> [(array: KeyGlob, field: [String])] {
    let root = (try? Git().run(["rev-parse", "--show-toplevel"])).flatMap { $0 } ?? "."
    let file = root + "/" + MergeIdentityFile.name
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
    do {
      return try MergeIdentityFile(text, file: file).arrayKeys(for: path)
    } catch let error as PrefsError {
      console.err("prefs: warning: \(error); merging without it")
      return []
    } catch {
      return []
    }
  }

  /// The conflicts as a YAML list: each with the file, its key path, the values the
  /// sides have, and the sides' names when they have their own.
  static func conflictList(_ conflicts: [MergeConflict], file: String, names: MergeNames) -> PrefValue {
    .array(
      conflicts.map { conflict in
        var entry: PrefDictionary = ["file": .string(file), "path": .string(conflict.location)]
        if let reason = conflict.reason { entry["reason"] = .string(reason) }
        if let base = conflict.base { entry["base"] = base }
        if let current = conflict.current { entry["current"] = current }
        if let other = conflict.other { entry["other"] = other }
        if names.named {
          entry["current-label"] = .string(names.current)
          entry["other-label"] = .string(names.other)
        }
        return .dictionary(entry)
      })
  }

  /// The conflicts of a line merge as a YAML list: the file and the line of each `<<<<<<<`.
  static func lineConflictList(_ data: Data, markerSize: Int, file: String) -> PrefValue {
    let open = Array(String(repeating: "<", count: markerSize).utf8)
    var entries: [PrefValue] = []
    for (index, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
    where line.starts(with: open) && (line.count == open.count || line[line.startIndex + open.count] == 0x20) {
      entries.append(.dictionary(["file": .string(file), "line": .integer(Int64(index + 1))]))
    }
    return .array(entries)
  }
}
