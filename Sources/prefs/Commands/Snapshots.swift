import PrefsKit

/// `prefs snapshots`: what `apply` saved before each run.
enum Snapshots {
  static let spec = CommandSpec(
    name: "snapshots",
    summary: "List the snapshots prefs apply saved before changing domains.",
    discussion: """
      One line per snapshot, oldest first: its name (when it was taken, UTC), the \
      domains it holds, the settings files that were applied, and 'undone' once \
      'prefs apply --undo' has restored it. Snapshots live in \
      $XDG_STATE_HOME/prefs/snapshots (else ~/.local/state/prefs/snapshots), a \
      folder made 0700 and refused when it is a symbolic link, another user's or \
      open to others. Each apply keeps the last 50 ($PREFS_SNAPSHOTS_KEEP sets how \
      many).
      """,
    arguments: [],
    options: [],
    examples: [("prefs snapshots", "What apply --undo would restore (the last line not undone).")],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    for snapshot in try SnapshotStore().list() {
      let names = snapshot.domains.map(\.name).joined(separator: ", ")
      var line = "\(snapshot.id)  \(Apply.count(snapshot.domains.count, "domain")) (\(names))"
      if !snapshot.sources.isEmpty { line += "  from \(snapshot.sources.joined(separator: ", "))" }
      if snapshot.undone { line += "  undone" }
      try console.out(line + "\n")
    }
    return Console.Status.success
  }
}
