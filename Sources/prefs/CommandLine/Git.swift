import PrefsKit

/// Runs `git` from the PATH.
struct Git {
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

// MARK: Merging as git does

extension Git {
  /// `git merge-file -p` of the three files with these labels (CURRENT's, BASE's,
  /// OTHER's) and marker size: the merged bytes and the number of conflicts (git's
  /// exit status: at most 127). git reads `merge.conflictStyle` itself (diff3, zdiff3).
  func mergeFile(current: String, base: String, other: String, labels: [String], markerSize: Int) throws -> (
    data: Data, conflicts: Int32
  ) {
    let arguments =
      [executable, "merge-file", "-p", "-q", "--marker-size=\(markerSize)"]
      + labels.flatMap { ["-L", $0] } + [current, base, other]
    let (outcome, output) = try ChildProcess.output(of: arguments)
    guard case .exited(let status) = outcome, status < 128 else {
      throw PrefsError(.other(.io, "git merge-file failed"))
    }
    return (output, status)
  }

  /// The branch a `git merge` is merging, as git (before 2.44, whose merge drivers get
  /// no labels) names it in its conflict markers: the one git set in
  /// `GITHEAD_<commit>` for the merge, with that commit. Nil when no merge named one.
  static func mergedBranch() -> (name: String, commit: String)? {
    let heads = ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("GITHEAD_") }
    guard heads.count == 1, let (key, name) = heads.first else { return nil }
    return (name, String(key.dropFirst("GITHEAD_".count)))
  }

  /// What git's markers call the base of a merge of `commit` into HEAD: the merge
  /// base's short name, or "merged common ancestors" when there are several.
  func mergeBaseLabel(with commit: String) throws -> String? {
    let bases = try run(["merge-base", "--all", "HEAD", commit])?.split(separator: "\n") ?? []
    switch bases.count {
    case 0: return nil
    case 1: return try run(["rev-parse", "--short", String(bases[0])])
    default: return "merged common ancestors"
    }
  }
}
