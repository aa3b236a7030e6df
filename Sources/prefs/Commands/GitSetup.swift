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
      '\(binaryTextconv)' in the repository's git config (with --global, the user's), \
      and adds '*.plist diff=prefs merge=prefs', '*.pbxproj merge=prefs' and \
      '*.EXT merge=prefs' for each EXT named to .gitattributes at the repository's \
      root (with --global, to core.attributesFile, else \
      $XDG_CONFIG_HOME/git/attributes, else ~/.config/git/attributes). So git merges \
      preference files by value, falling back to its own line merge where a file \
      cannot be merged by value; binary plists diff as YAML, and text formats \
      (XML plists too) diff as the text they are. With --textconv, the EXTs named \
      diff as canonical YAML instead ('*.EXT diff=prefs-yaml merge=prefs', \
      diff.prefs-yaml.textconv set to 'prefs textconv'; an Xcode project keeps its \
      objects' names as comments). Running it again changes nothing; it prints each \
      change it makes. It also upgrades what an older git-setup wrote: a text format \
      set to 'diff=prefs', which showed only canonical YAML and hid comment and order \
      changes, diffs as text again. --remove takes out exactly those settings and \
      lines (only those of the EXTs named, when some are).
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
  /// the file and the sides; %L is the marker size.
  static let driver = "prefs merge %A %O %B --path %P --marker-size %L -L %X -L %S -L %Y"
  /// textconv for `diff=prefs`: only what git takes for binary becomes YAML.
  static let binaryTextconv = "prefs textconv --binary-only"

  /// What git-setup writes into git's config.
  static let settings: [(key: String, value: String)] = [
    ("diff.prefs.textconv", binaryTextconv),
    ("merge.prefs.name", "prefs: structural merge of plists, YAML and JSON"),
    ("merge.prefs.driver", driver),
  ]
  /// What `--textconv` adds to ``settings``.
  static let yamlTextconv: (key: String, value: String) = ("diff.prefs-yaml.textconv", "prefs textconv")
  /// Values an older git-setup wrote, which it upgrades and `--remove` takes out.
  static let olderValues: [String: String] = [
    "diff.prefs.textconv": "prefs textconv", "merge.prefs.driver": "prefs merge %A %O %B",
  ]
  static let defaultExtensions = ["plist", "pbxproj"]

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
    var changes: [String] = []

    if arguments.has(remove) {
      let lines = named.isEmpty ? nil : Set(named.flatMap(ourLines))
      changes += try removeLines(lines, from: attributes)
      // The drivers stay while attribute lines of other extensions still use them.
      if named.isEmpty {
        for (key, value) in settings + [yamlTextconv] {
          guard let set = try git.config(scope, ["--get", key]), set == value || set == olderValues[key] else {
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
      for (key, value) in settings + (asYAML ? [yamlTextconv] : [])
      where try git.config(scope, ["--get", key]) != value {
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
      changes += try setLines(lines, in: attributes)
    }
    try console.out(changes.isEmpty ? "nothing to change\n" : changes.map { $0 + "\n" }.joined())
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

  /// Adds each line whose extension has none of git-setup's lines yet; replaces the
  /// line of an extension named (`named`) when it differs, and the older form of any
  /// text format's line (`diff=prefs`) always.
  static func setLines(_ wanted: [(ext: String, line: String, named: Bool)], in path: String) throws -> [String] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    var lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    var changes: [String] = []
    for want in wanted {
      guard let index = lines.firstIndex(where: { extensionOfOurLine($0.trimmingSpaces) == want.ext }) else {
        lines.append(want.line)
        changes.append("added '\(want.line)' to \(path)")
        continue
      }
      let present = lines[index].trimmingSpaces
      guard present != want.line, want.named else { continue }
      lines[index] = want.line
      changes.append("changed '\(present)' to '\(want.line)' in \(path)")
    }
    // The older form of a text format's line, whichever extensions are named.
    for (index, line) in lines.enumerated() {
      let present = line.trimmingSpaces
      guard let ext = extensionOfOurLine(present), ext != "plist", present == ourLines(ext)[0] else { continue }
      lines[index] = attributesLine(ext)
      changes.append("changed '\(present)' to '\(lines[index])' in \(path) (a text format diffs as text)")
    }
    guard !changes.isEmpty else { return [] }
    let folder = path.deletingLastPathComponent
    if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    try AtomicFile.write(Data(lines.map { $0 + "\n" }.joined().utf8), to: path)
    return changes
  }

  /// Removes `lines`, or (nil) every line of git-setup's forms.
  static func removeLines(_ lines: Set<String>?, from path: String) throws -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    var removed: [String] = []
    var kept: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingSpaces
      let ours = lines.map { $0.contains(trimmed) } ?? (extensionOfOurLine(trimmed) != nil)
      if ours { removed.append(trimmed) } else { kept.append(line) }
    }
    guard !removed.isEmpty else { return [] }
    let rest = kept.joined(separator: "\n")
    var changes = removed.map { "removed '\($0)' from \(path)" }
    if rest.allSatisfy(\.isWhitespace) {
      guard unlink(path) == 0 else {
        throw PrefsError(.other(.io, "cannot delete: \(systemErrorText(errno).lowercased())"), file: path)
      }
      changes.append("deleted \(path), which is now empty")
    } else {
      try AtomicFile.write(Data(rest.utf8), to: path)
    }
    return changes
  }
}
