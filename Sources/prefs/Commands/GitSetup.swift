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
      those of the EXTs named, when some are). The attributes file is edited as \
      bytes, keeping every line whatever its encoding; one that cannot be read is \
      refused, and so is a .gitattributes that is a symbolic link, which git does \
      not follow in a work tree.
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
    // Checked before git's config is touched: a file that cannot be edited stops it all.
    _ = try attributesBytes(attributes, refusingSymlink: !isGlobal)
    var changes: [String] = []

    if arguments.has(remove) {
      let lines = named.isEmpty ? nil : Set(named.map(attributesLine))
      changes += try removeLines(lines, from: attributes, refusingSymlink: !isGlobal)
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
      changes += try addLines(extensions.map(attributesLine), to: attributes, refusingSymlink: !isGlobal)
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

  /// A line of the file without the spaces around it, when it is text.
  private static func trimmedLine(_ line: ArraySlice<UInt8>) -> String? {
    String(validating: line, as: UTF8.self)?.trimmingSpaces
  }

  static func addLines(_ lines: [String], to path: String, refusingSymlink: Bool) throws -> [String] {
    var bytes = try attributesBytes(path, refusingSymlink: refusingSymlink) ?? []
    let present = Set(bytes.split(separator: UInt8(ascii: "\n")).compactMap(trimmedLine))
    let missing = lines.filter { !present.contains($0) }
    guard !missing.isEmpty else { return [] }
    if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    bytes += Array(missing.map { $0 + "\n" }.joined().utf8)
    let folder = path.deletingLastPathComponent
    if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    try AtomicFile.write(Data(bytes), to: path)
    return missing.map { "added '\($0)' to \(path)" }
  }

  /// Removes `lines`, or (nil) every line of git-setup's form.
  static func removeLines(_ lines: Set<String>?, from path: String, refusingSymlink: Bool) throws -> [String] {
    guard let bytes = try attributesBytes(path, refusingSymlink: refusingSymlink) else { return [] }
    var removed: [String] = []
    var kept: [ArraySlice<UInt8>] = []
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      let ours =
        trimmedLine(line).map { trimmed in
          lines.map { $0.contains(trimmed) }
            ?? (trimmed.hasPrefix("*.")
              && attributesLine(String(trimmed.dropFirst(2).prefix { $0 != " " })) == trimmed)
        } ?? false
      if ours, let trimmed = trimmedLine(line) { removed.append(trimmed) } else { kept.append(line) }
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

/// Runs `git` from the PATH.
private struct Git {
  /// git's path.
  let executable: String

  init() throws {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      let found = path.split(separator: ":").map({ String($0).appendingPathComponent("git") })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
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
