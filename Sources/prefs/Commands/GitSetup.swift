import PrefsKit

/// `prefs git-setup [--global] [--remove] [EXT...]`: the textconv diff driver, the
/// merge driver and the `.gitattributes` lines that route preference files to them.
enum GitSetup {
  static let global = OptionSpec(
    "global", long: ["global"],
    help: "Set up git for the user (git config --global, git's global attributes file) instead of this repository.")
  static let remove = OptionSpec("remove", long: ["remove"], help: "Undo what git-setup added.")
  static let textconv = OptionSpec(
    "textconv", long: ["textconv"],
    help: "Diff the files of the EXTs named as canonical YAML (prefs textconv) instead of as their own text.")

  static let spec = CommandSpec(
    name: "git-setup",
    summary: "Make git merge preference files with prefs, and diff binary plists as YAML.",
    discussion: """
      Sets merge.prefs.driver to '\(driver)' and diff.prefs.textconv to \
      '\(binaryTextconv)' in the repository's git config (with --global, the user's; \
      when prefs is not on the PATH, git could not find it there, so both name this \
      binary by its absolute path instead, with a warning that says so), \
      and adds '*.plist diff=prefs merge=prefs', '*.pbxproj merge=prefs' and \
      '*.EXT merge=prefs' for each EXT named to .gitattributes at the repository's \
      root (with --global, to core.attributesFile, else \
      $XDG_CONFIG_HOME/git/attributes, else ~/.config/git/attributes). So git merges \
      preference files by value, falling back to its own line merge where a file \
      cannot be merged by value; binary plists diff as YAML, and text formats \
      (XML plists too) diff as the text they are. With --textconv, the EXTs named \
      diff as canonical YAML instead ('*.EXT diff=prefs-yaml merge=prefs', \
      diff.prefs-yaml.textconv set to 'prefs textconv --expand-data'; an Xcode project keeps its \
      objects' names as comments). Running it again changes nothing; it prints each \
      change it makes. It also upgrades what an older git-setup wrote: a text format \
      set to 'diff=prefs', which showed only canonical YAML and hid comment and order \
      changes, diffs as text again. --remove takes out exactly those settings and \
      lines (only those of the EXTs named, when some are). The attributes file is \
      edited as bytes, keeping every line whatever its encoding; one that cannot be \
      read is refused, and so is a .gitattributes that is a symbolic link, which git \
      does not follow in a work tree.
      """,
    arguments: [
      ArgumentSpec(
        name: "EXT", help: "More extensions to merge with prefs (yaml, json, strings, …).", optional: true,
        variadic: true)
    ],
    options: [global, remove, textconv],
    examples: [
      ("prefs git-setup", "Set up the repository in the current folder for plists and Xcode projects."),
      ("prefs git-setup --global yaml json", "Set up every repository of the user, also for YAML and JSON."),
      ("prefs git-setup --textconv pbxproj", "Diff Xcode projects as canonical YAML, sorted by key."),
      ("prefs git-setup --remove", "Undo it."),
    ],
    run: run)

  /// The merge driver: the path and git's labels (%X %S %Y, which git expands from
  /// 2.44 on; older gits leave them as written, and prefs merge then asks git) name
  /// the file and the sides; %L is the marker size. Data holding JSON or a binary
  /// plist merges as its structure (`--expand-data`): it changes only where both
  /// sides changed it, which would otherwise conflict whole, and an unchanged blob
  /// keeps its bytes.
  static let driver = "prefs merge %A %O %B --path %P --marker-size %L -L %X -L %S -L %Y --expand-data"
  /// textconv for `diff=prefs`: only what git takes for binary becomes YAML, data
  /// holding JSON or a binary plist shown as its structure (a blob whose bytes the
  /// structure would not give back is noted by size and digest, so no change hides).
  static let binaryTextconv = "prefs textconv --binary-only --expand-data"

  /// What git-setup writes into git's config.
  static let settings: [(key: String, value: String)] = [
    ("diff.prefs.textconv", binaryTextconv),
    ("merge.prefs.name", "prefs: structural merge of plists, YAML and JSON"),
    ("merge.prefs.driver", driver),
  ]
  /// What `--textconv` adds to ``settings``.
  static let yamlTextconv: (key: String, value: String) = (
    "diff.prefs-yaml.textconv", "prefs textconv --expand-data"
  )
  /// Values an older git-setup wrote, which it upgrades and `--remove` takes out.
  static let olderValues: [String: [String]] = [
    "diff.prefs.textconv": ["prefs textconv", "prefs textconv --binary-only"],
    "diff.prefs-yaml.textconv": ["prefs textconv"],
    "merge.prefs.driver": [
      "prefs merge %A %O %B", "prefs merge %A %O %B --path %P --marker-size %L -L %X -L %S -L %Y",
    ],
  ]
  static let defaultExtensions = ["plist", "pbxproj"]

  /// How the drivers name prefs: `prefs` when git will find it on the PATH it runs
  /// drivers with (this one's), else this binary's own path, quoted for the shell
  /// git runs them through.
  static func program() -> String {
    guard ChildProcess.onPath("prefs") == nil, let own = ChildProcess.ownPath() else { return "prefs" }
    let plain = own.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._+-".contains($0)) }
    return plain ? own : "'" + own.replacingAll("'", with: "'\\''") + "'"
  }

  /// A setting's value (written for `prefs`) naming prefs as `program` does, when
  /// the value is a command.
  static func naming(_ value: String, _ program: String) -> String {
    value.hasPrefix("prefs ") ? program + value.dropFirst("prefs".count) : value
  }

  /// Whether `set` is `value` (or the older form of it) naming prefs in any way:
  /// `prefs`, or a path to a binary called prefs, quoted or not.
  static func isOurs(_ set: String, key: String, value: String) -> Bool {
    ([value] + (olderValues[key] ?? [])).contains { ours in
      let tail = ours.dropFirst("prefs".count)
      guard set.hasSuffix(tail) else { return false }
      var named = set.dropLast(tail.count)
      if named.count >= 2, named.hasPrefix("'"), named.hasSuffix("'") { named = named.dropFirst().dropLast() }
      return named == "prefs" || named.hasSuffix("/prefs")
    }
  }

  /// The attributes line for files ending in `.ext`: plists (binary or not) diff through
  /// textconv, which leaves text as it is; other formats are text and diff as text,
  /// unless `asYAML`.
  static func attributesLine(_ ext: String, asYAML: Bool = false) -> String {
    asYAML
      ? "*.\(ext) diff=prefs-yaml merge=prefs"
      : ext == "plist" ? "*.plist diff=prefs merge=prefs" : "*.\(ext) merge=prefs"
  }

  /// Every line git-setup writes or wrote for `.ext`; the first is the older form of a text format.
  static func ourLines(_ ext: String) -> [String] {
    ["*.\(ext) diff=prefs merge=prefs", "*.\(ext) merge=prefs", "*.\(ext) diff=prefs-yaml merge=prefs"]
  }

  /// The extension of a line of git-setup's forms; nil for any other line.
  static func extensionOfOurLine(_ line: String) -> String? {
    guard line.hasPrefix("*.") else { return nil }
    let ext = String(line.dropFirst(2).prefix { $0 != " " })
    return ourLines(ext).contains(line) ? ext : nil
  }

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let git = try Git()
    let isGlobal = arguments.has(global)
    let scope = isGlobal ? "--global" : "--local"
    let scopeName = isGlobal ? "the global git config" : "the repository's git config"
    let attributes = try isGlobal ? git.globalAttributesFile() : git.repositoryRoot() + "/.gitattributes"
    let named = arguments.positionals.map(normalizedExtension)
    if let bad = named.first(where: { $0.isEmpty || $0.contains("/") || $0.contains(" ") }) {
      throw ArgumentParser.usageError("'\(bad)' is not a file extension", spec)
    }
    let asYAML = arguments.has(textconv)
    if asYAML, named.isEmpty || arguments.has(remove) {
      throw ArgumentParser.usageError("--textconv applies to the EXTs named, and only when setting up", spec)
    }
    // Checked before git's config is touched: a file that cannot be edited stops it all.
    _ = try attributesBytes(attributes, refusingSymlink: !isGlobal)
    var changes: [String] = []

    if arguments.has(remove) {
      let lines = named.isEmpty ? nil : Set(named.flatMap(ourLines))
      changes += try removeLines(lines, from: attributes, refusingSymlink: !isGlobal)
      // The drivers stay while attribute lines of other extensions still use them.
      if named.isEmpty {
        for (key, value) in settings + [yamlTextconv] {
          guard let set = try git.config(scope, ["--get", key]), isOurs(set, key: key, value: value) else {
            continue
          }
          _ = try git.config(scope, ["--unset", key])
          changes.append("removed \(key) from \(scopeName)")
        }
        for section in ["diff.prefs", "diff.prefs-yaml", "merge.prefs"]
        where try git.config(scope, ["--get-regexp", "^" + section.replacingAll(".", with: "\\.") + "\\."])
          == nil
        {
          _ = try git.config(scope, ["--remove-section", section])
        }
      }
    } else {
      let program = program()
      for (key, written) in settings + (asYAML ? [yamlTextconv] : [])
      where try git.config(scope, ["--get", key]) != naming(written, program) {
        let value = naming(written, program)
        guard try git.config(scope, [key, value]) != nil else {
          throw PrefsError(.other(.cannotCreate, "git config \(scope) \(key) failed"))
        }
        changes.append("set \(key) = \(value) in \(scopeName)")
      }
      var lines = defaultExtensions.filter { !named.contains($0) }.map {
        (ext: $0, line: attributesLine($0), named: false)
      }
      for ext in named where !lines.contains(where: { $0.ext == ext }) {
        lines.append((ext, attributesLine(ext, asYAML: asYAML), true))
      }
      changes += try setLines(lines, in: attributes, refusingSymlink: !isGlobal)
    }
    try console.out(changes.isEmpty ? "nothing to change\n" : changes.map { $0 + "\n" }.joined())
    if !arguments.has(remove), program() != "prefs" {
      console.err(
        "prefs: warning: prefs is not on the PATH git runs its drivers with, so they name this binary by its path, "
          + "\(TerminalText.escaped(program(), keepingLineBreaks: false)); once prefs is on the PATH, run "
          + "'prefs git-setup' again to name it 'prefs'")
    }
    return Console.Status.success
  }

  /// `.yaml`, `*.yaml` and `yaml` are one extension.
  static func normalizedExtension(_ text: String) -> String {
    var ext = Substring(text)
    if ext.hasPrefix("*") { ext = ext.dropFirst() }
    if ext.hasPrefix(".") { ext = ext.dropFirst() }
    return String(ext)
  }

  // MARK: The attributes file

  /// The attributes file's bytes (nil when there is none), edited as bytes so that
  /// every line survives whatever its encoding. A file that cannot be read is
  /// refused, never taken for an empty one; in a repository a symlink is refused too,
  /// as git does not follow one there.
  static func attributesBytes(_ path: String, refusingSymlink: Bool) throws -> [UInt8]? {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw PrefsError(.io(.status, errno: errno), file: path)
    }
    if refusingSymlink, (info.st_mode & S_IFMT) == S_IFLNK {
      throw PrefsError(
        .other(.cannotCreate, "is a symbolic link, which git does not follow in a work tree"), file: path)
    }
    return Array(try InputFile.read(path))
  }

  /// The file's lines, without their line breaks; a line that is not UTF-8 is kept as it is.
  private static func splitLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// A line without the spaces around it, when it is text.
  private static func trimmedLine(_ line: ArraySlice<UInt8>) -> String? {
    String(validating: line, as: UTF8.self)?.trimmingSpaces
  }

  /// Adds each line whose extension has none of git-setup's lines yet; replaces the
  /// line of an extension named (`named`) when it differs, and the older form of any
  /// text format's line (`diff=prefs`) always.
  static func setLines(
    _ wanted: [(ext: String, line: String, named: Bool)], in path: String, refusingSymlink: Bool
  ) throws -> [String] {
    var lines = try attributesBytes(path, refusingSymlink: refusingSymlink).map(splitLines) ?? []
    var changes: [String] = []
    for want in wanted {
      guard let index = lines.firstIndex(where: { trimmedLine($0).flatMap(extensionOfOurLine) == want.ext }) else {
        lines.append(ArraySlice(want.line.utf8))
        changes.append("added '\(want.line)' to \(path)")
        continue
      }
      let present = trimmedLine(lines[index]) ?? ""
      guard present != want.line, want.named else { continue }
      lines[index] = ArraySlice(want.line.utf8)
      changes.append("changed '\(present)' to '\(want.line)' in \(path)")
    }
    // The older form of a text format's line, whichever extensions are named.
    for (index, line) in lines.enumerated() {
      guard let present = trimmedLine(line), let ext = extensionOfOurLine(present), ext != "plist",
        present == ourLines(ext)[0]
      else { continue }
      let replacement = attributesLine(ext)
      lines[index] = ArraySlice(replacement.utf8)
      changes.append("changed '\(present)' to '\(replacement)' in \(path) (a text format diffs as text)")
    }
    guard !changes.isEmpty else { return [] }
    let folder = path.deletingLastPathComponent
    if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    try AtomicFile.write(Data(lines.flatMap { Array($0) + [UInt8(ascii: "\n")] }), to: path)
    return changes
  }

  /// Removes `lines`, or (nil) every line of git-setup's forms.
  static func removeLines(_ lines: Set<String>?, from path: String, refusingSymlink: Bool) throws -> [String] {
    guard let bytes = try attributesBytes(path, refusingSymlink: refusingSymlink) else { return [] }
    var removed: [String] = []
    var kept: [ArraySlice<UInt8>] = []
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      let trimmed = trimmedLine(line)
      let ours = trimmed.map { trimmed in lines.map { $0.contains(trimmed) } ?? (extensionOfOurLine(trimmed) != nil) }
      if ours == true, let trimmed { removed.append(trimmed) } else { kept.append(line) }
    }
    guard !removed.isEmpty else { return [] }
    let rest = Array(kept.joined(separator: [UInt8(ascii: "\n")]))
    var changes = removed.map { "removed '\($0)' from \(path)" }
    if rest.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
      guard unlink(path) == 0 else {
        throw PrefsError(.other(.io, "cannot delete: \(systemErrorText(errno).lowercased())"), file: path)
      }
      changes.append("deleted \(path), which is now empty")
    } else {
      try AtomicFile.write(Data(rest), to: path)
    }
    return changes
  }
}
