import PrefsKit

/// `prefs git-setup [--global] [--remove] [EXT...]`: the textconv diff driver, the
/// merge driver and the `.gitattributes` lines that route preference files to them.
enum GitSetup {
  static let global = OptionSpec(
    "global", long: ["global"],
    help: "Set up git for the user (git config --global, git's global attributes file) instead of this repository.")
  static let remove = OptionSpec("remove", long: ["remove"], help: "Undo what git-setup added.")

  static let spec = CommandSpec(
    name: "git-setup",
    summary: "Make git diff and merge preference files with prefs.",
    discussion: """
      Sets diff.prefs.textconv to 'prefs textconv' and merge.prefs.driver to \
      'prefs merge %A %O %B' in the repository's git config (with --global, the \
      user's), and adds '*.plist diff=prefs merge=prefs', the same for *.pbxproj and \
      for each EXT named, to .gitattributes at the repository's root (with --global, \
      to core.attributesFile, else $XDG_CONFIG_HOME/git/attributes, else \
      ~/.config/git/attributes). Running it again changes nothing; it prints each \
      change it makes. --remove takes out exactly those settings and lines (only \
      those of the EXTs named, when some are).
      """,
    arguments: [
      ArgumentSpec(
        name: "EXT", help: "More extensions to diff and merge with prefs (yaml, json, …).", optional: true,
        variadic: true)
    ],
    options: [global, remove],
    examples: [
      ("prefs git-setup", "Set up the repository in the current folder for plists and Xcode projects."),
      ("prefs git-setup --global yaml json", "Set up every repository of the user, also for YAML and JSON."),
      ("prefs git-setup --remove", "Undo it."),
    ],
    run: run)

  /// What git-setup writes into git's config.
  static let settings: [(key: String, value: String)] = [
    ("diff.prefs.textconv", "prefs textconv"),
    ("merge.prefs.name", "prefs: structural merge of plists, YAML and JSON"),
    ("merge.prefs.driver", "prefs merge %A %O %B"),
  ]
  static let defaultExtensions = ["plist", "pbxproj"]

  /// The attributes line for files ending in `.ext`.
  static func attributesLine(_ ext: String) -> String { "*.\(ext) diff=prefs merge=prefs" }

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
    var changes: [String] = []

    if arguments.has(remove) {
      let lines = named.isEmpty ? nil : Set(named.map(attributesLine))
      changes += try removeLines(lines, from: attributes)
      // The drivers stay while attribute lines of other extensions still use them.
      if named.isEmpty {
        for (key, value) in settings where try git.config(scope, ["--get", key]) == value {
          _ = try git.config(scope, ["--unset", key])
          changes.append("removed \(key) from \(scopeName)")
        }
        for section in ["diff.prefs", "merge.prefs"]
        where try git.config(scope, ["--get-regexp", "^" + section.replacingAll(".", with: "\\.") + "\\."])
          == nil
        {
          _ = try git.config(scope, ["--remove-section", section])
        }
      }
    } else {
      for (key, value) in settings where try git.config(scope, ["--get", key]) != value {
        guard try git.config(scope, [key, value]) != nil else {
          throw PrefsError(.other(.cannotCreate, "git config \(scope) \(key) failed"))
        }
        changes.append("set \(key) = \(value) in \(scopeName)")
      }
      var extensions = defaultExtensions
      for ext in named where !extensions.contains(ext) { extensions.append(ext) }
      changes += try addLines(extensions.map(attributesLine), to: attributes)
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

  static func addLines(_ lines: [String], to path: String) throws -> [String] {
    var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let present = Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces })
    let missing = lines.filter { !present.contains($0) }
    guard !missing.isEmpty else { return [] }
    if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
    text += missing.map { $0 + "\n" }.joined()
    let folder = path.deletingLastPathComponent
    if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    try AtomicFile.write(Data(text.utf8), to: path)
    return missing.map { "added '\($0)' to \(path)" }
  }

  /// Removes `lines`, or (nil) every line of git-setup's form.
  static func removeLines(_ lines: Set<String>?, from path: String) throws -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    var removed: [String] = []
    var kept: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingSpaces
      let ours =
        lines.map { $0.contains(trimmed) }
        ?? (trimmed.hasPrefix("*.") && attributesLine(String(trimmed.dropFirst(2).prefix { $0 != " " })) == trimmed)
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

/// Runs `git` from the PATH.
private struct Git {
  /// git's path.
  let executable: String

  init() throws {
    guard let found = ChildProcess.onPath("git") else {
      throw PrefsError(.other(.noInput, "git is not on the PATH"))
    }
    executable = found
  }

  /// Runs git; its standard output without the final line break, or nil when it fails.
  func run(_ arguments: [String]) throws -> String? {
    let (outcome, output) = try ChildProcess.output(of: [executable] + arguments)
    guard outcome == .exited(0) else { return nil }
    var text = String(decoding: output, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
  }

  /// `git config SCOPE ARGUMENTS`.
  func config(_ scope: String, _ arguments: [String]) throws -> String? {
    try run(["config", scope] + arguments)
  }

  func repositoryRoot() throws -> String {
    guard let root = try run(["rev-parse", "--show-toplevel"]), !root.isEmpty else {
      throw PrefsError(
        .usage("not inside a git repository (or a bare one)"),
        hints: ["run it inside a repository's work tree, or set git up for every repository with --global"])
    }
    return root
  }

  /// core.attributesFile, else `$XDG_CONFIG_HOME/git/attributes`, else `~/.config/git/attributes`.
  func globalAttributesFile() throws -> String {
    let environment = ProcessInfo.processInfo.environment
    let home = homeFolder(in: environment)
    if let configured = try config("--global", ["--get", "core.attributesFile"]), !configured.isEmpty {
      return configured.hasPrefix("~/") ? home + configured.dropFirst() : configured
    }
    return XDGFolder.config.path(in: environment) + "/git/attributes"
  }
}
