import PrefsKit

/// `prefs merge CURRENT BASE OTHER [-o OUT]`: git's merge driver, structurally.
enum Merge {
  static let arrayKey = OptionSpec(
    "array-key", long: ["array-key"], arity: .repeatable, kind: .text(placeholder: "KEYPATH=FIELD"),
    help: "Match the dictionaries of the arrays at KEYPATH (a key-glob) by FIELD (a key path in each item); "
      + "repeatable.")
  static let conflictsFile = OptionSpec(
    "conflicts", long: ["conflicts"], arity: .one, kind: .path,
    help: "Also write the conflicts to FILE as YAML: each key path with its base, current and other values.")
  static let label = OptionSpec(
    "label", long: ["label"], short: ["L"], arity: .repeatable, kind: .text(placeholder: "LABEL"),
    help: "Name CURRENT, then BASE, then OTHER in the conflict markers, as git merge-file -L does "
      + "(default: the file names).")

  static let spec = CommandSpec(
    name: "merge",
    summary: "Merge the changes from BASE to OTHER into CURRENT, setting by setting.",
    discussion: """
      Arguments come in git merge-file's order, so that 'git config merge.prefs.driver \
      "prefs merge %A %O %B"' makes it git's merge driver ('prefs git-setup' sets \
      that up). Dictionaries merge key by key; arrays merge by a three-way diff of \
      their items, or by an identity field (--array-key, else the first of id, \
      identifier, uuid, CFBundleIdentifier, name, key that every item has). The \
      result is written into CURRENT (or OUT) in CURRENT's format, changing only \
      the bytes of what changed. Where both sides changed the same thing \
      differently, a text file gets git's conflict markers around the smallest \
      region of whole lines holding it, and a binary plist keeps CURRENT's value; \
      each conflict is listed on standard error. Exits 0 when the merge is clean, 1 \
      when there are conflicts.
      """,
    arguments: [
      ArgumentSpec(name: "CURRENT", help: "Our version; the result is written here unless -o."),
      ArgumentSpec(name: "BASE", help: "The common ancestor."),
      ArgumentSpec(name: "OTHER", help: "Their version, whose changes are merged in."),
    ],
    options: [Options.output, arrayKey, conflictsFile, label, Options.dropNulls, Options.yamlVersion],
    examples: [
      ("prefs merge ours.plist base.plist theirs.plist", "Merge their changes into ours.plist."),
      (
        "prefs merge Dock.plist base.plist other.plist --array-key 'persistent-apps=tile-data.bundle-identifier'",
        "Match Dock tiles by their bundle identifier."
      ),
      (
        "prefs merge a.yaml base.yaml b.yaml -o merged.yaml --conflicts conflicts.yaml",
        "Write the merge and its conflicts to files, leaving a.yaml as it is."
      ),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let (currentPath, basePath, otherPath) = (
      arguments.positionals[0], arguments.positionals[1], arguments.positionals[2]
    )
    var options = ThreeWayMerge.Options()
    for text in arguments.all(arrayKey) {
      guard let key = ThreeWayMerge.Options.arrayKey(text) else {
        throw ArgumentParser.usageError("--array-key takes KEYPATH=FIELD, not '\(text)'", spec)
      }
      options.arrayKeys.append(key)
    }
    let labels = arguments.all(label)
    guard labels.count <= 3 else { throw ArgumentParser.usageError("-L is given more than three times", spec) }

    let readOptions = try arguments.readOptions()
    let currentName = displayName(currentPath)
    let current: PrefValue
    let format: Format
    let document: TextDocument?
    let warnings = Warnings()
    do {
      let data = try InputFile.read(currentPath, limit: readOptions.maxInputBytes)
      (current, format, document) = try TextDocument.read(
        data, path: currentPath == "-" ? nil : currentPath, options: readOptions, warnings: warnings)
    } catch let error as PrefsError {
      throw error.inFile(currentName)
    }
    console.report(warnings, file: currentName)
    let (base, _) = try Documents.read(basePath, arguments: arguments, console: console)
    let (other, _) = try Documents.read(otherPath, arguments: arguments, console: console)

    var result = ThreeWayMerge.merge(base: base, current: current, other: other, options: options)
    let output = arguments.value(Options.output) ?? currentPath
    let outputName = output == "-" ? "<stdout>" : output
    let writeWarnings = Warnings()
    defer { console.report(writeWarnings, file: outputName) }
    if format.isPlist, arguments.dropsNulls {
      // A plist holds no null: asked to, the merge leaves out what the other sides brought.
      result.value = result.value.droppingNulls(warnings: writeWarnings)
    }

    let merged: Data?
    var hasMarkers = false
    if let document {
      let marked = try ConflictMarkers.text(
        of: document, merged: result,
        labels: ConflictMarkers.Labels(
          current: labels.first ?? currentName, other: labels.count == 3 ? labels[2] : displayName(otherPath)),
        warnings: writeWarnings)
      for note in marked.patch.notes { writeWarnings.add(note) }
      merged = marked.data
      hasMarkers = true
    } else if result.value == current, output == currentPath {
      // Nothing changed: nothing to write.
      merged = nil
    } else {
      // A binary plist has no text to patch: it is written whole.
      merged = try format.codec.encode(result.value, options: WriteOptions(), warnings: writeWarnings)
    }
    if let merged {
      do {
        if output == "-" {
          try console.outData(merged)
        } else {
          try AtomicFile.write(merged, to: output)
        }
      } catch let error as PrefsError {
        throw error.inFile(outputName)
      }
    }

    for conflict in result.conflicts {
      func shown(_ value: PrefValue?) -> String { value?.inlineText() ?? "(none)" }
      console.err(
        "prefs: conflict: \(outputName): \(conflict.location): base \(shown(conflict.base)), "
          + "current \(shown(conflict.current)), other \(shown(conflict.other))")
    }
    if !result.conflicts.isEmpty {
      let count = result.conflicts.count == 1 ? "1 conflict" : "\(result.conflicts.count) conflicts"
      console.err(
        hasMarkers
          ? "prefs: \(outputName): \(count), marked with <<<<<<< and >>>>>>>"
          : "prefs: \(outputName): \(count); a \(format.name) file cannot hold conflict markers, so CURRENT's values were kept"
      )
    }
    if let file = arguments.value(conflictsFile) {
      try Documents.write(
        conflictList(result.conflicts), format: .yaml, to: file, options: WriteOptions(), console: console)
    }
    return result.conflicts.isEmpty ? Console.Status.success : Console.Status.different
  }

  /// The conflicts as a YAML list: each with its key path and the values the sides have.
  static func conflictList(_ conflicts: [MergeConflict]) -> PrefValue {
    .array(
      conflicts.map { conflict in
        var entry: PrefDictionary = ["path": .string(conflict.location)]
        if let base = conflict.base { entry["base"] = base }
        if let current = conflict.current { entry["current"] = current }
        if let other = conflict.other { entry["other"] = other }
        return .dictionary(entry)
      })
  }
}
