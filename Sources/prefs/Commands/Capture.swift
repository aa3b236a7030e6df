import PrefsKit

/// `prefs capture DOMAIN... [-o FILE] [--for SECONDS] [--since SNAPSHOT]`.
enum Capture {
  static let duration = OptionSpec(
    "for", long: ["for"], arity: .one, kind: .seconds, help: "Stop watching after SECONDS (default: at Ctrl-C).")
  static let since = OptionSpec(
    "since", long: ["since"], arity: .one, kind: .text(placeholder: "SNAPSHOT"),
    help: "Do not watch: the changes from a snapshot of prefs apply (see prefs snapshots) to now.")

  static let spec = CommandSpec(
    name: "capture",
    summary: "Record what a program changes in domains, as a settings file for prefs apply.",
    discussion: """
      Reads the domains, then watches their files (inotify on Linux, polling where \
      it is missing) while you change settings in a program; on Ctrl-C, or after \
      --for SECONDS, writes the changes as a settings file: changed and new keys with \
      their exact types, nested dictionaries as nested keys, removed keys as \
      !delete, items added at the end of an array as those items, other array \
      changes as !replace. Applying the file to the domains as they were gives them \
      as they are. With --since, the changes are those from a snapshot to now \
      (without DOMAIN, every domain of the snapshot). A domain that cannot be read \
      at the end (its file no longer a dictionary, say) is named on standard error \
      and the exit status is its failure's; the changes of the others are still \
      written.
      """,
    arguments: [
      ArgumentSpec(name: "DOMAIN", help: "Domain names (com.example.app, -g) or files.", optional: true, variadic: true)
    ],
    options: [Options.output, Options.to, duration, since, Options.dropNulls] + Options.store,
    examples: [
      ("prefs capture com.example.app -o changes.yaml", "Record changes until Ctrl-C."),
      ("prefs capture com.example.app -g --for 60", "Record a minute of changes, printed as YAML."),
      ("prefs capture --since 20261130T120102.345Z-4242", "What changed since that apply."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let format = try arguments.outputFormat() ?? Documents.outputFormat(arguments: arguments)
    let store = arguments.store()
    var domains = try arguments.positionals.map { try resolveDomain($0, in: store) }
    var old: [PrefDictionary?] = []

    if let id = arguments.value(since) {
      if arguments.has(duration) { throw ArgumentParser.usageError("--since does not watch: drop --for", spec) }
      let snapshot = try SnapshotStore().snapshot(named: id)
      if domains.isEmpty {
        domains = try snapshot.domains.map { try $0.domain(in: store) }
      }
      for domain in domains {
        guard let saved = snapshot.domains.first(where: { $0.path == domain.location }) else {
          throw PrefsError(
            .other(.noInput, "snapshot \(snapshot.id) does not hold this domain"), file: domain.name,
            hints: ["'prefs snapshots' lists the domains of each snapshot"])
        }
        old.append(try saved.saved.contents(name: "\(snapshot.id): \(domain.name)"))
      }
    } else {
      guard !domains.isEmpty else { throw ArgumentParser.usageError("missing argument DOMAIN", spec) }
      let seconds = arguments.seconds(duration)
      old = try domains.map(readSettled)
      try watch(domains, baseline: old, seconds: seconds, console: console)
    }

    var entries: [SettingsFile.Entry] = []
    // A domain that cannot be read at the end is reported; the others are still written.
    var failures: [PrefsError] = []
    for (domain, before) in zip(domains, old) {
      let now: PrefDictionary?
      do {
        // A domain caught in the middle of a write reads again a moment later.
        now = try readSettled(domain)
      } catch let error as PrefsError {
        failures.append(error.inFile(domain.name))
        continue
      }
      if let settings = SettingsCapture.settings(from: before, to: now) {
        entries.append(SettingsFile.Entry(target: domain.name, settings: settings, source: domain.name))
      }
    }
    let data = try SettingsFile(entries: entries).encoded(
      as: format, options: WriteOptions(sortKeys: true, dropNulls: arguments.dropsNulls))
    try Documents.write(
      data, to: arguments.value(Options.output), console: console, keepingModeOf: domains.map(\.location))
    console.err("prefs: captured changes in \(Apply.count(entries.count, "domain"))")
    for error in failures { console.report(error) }
    return failures.first.map(Console.status(for:)) ?? Console.Status.success
  }

  /// Watches until Ctrl-C or the end of `seconds`, showing on a terminal what changed so far.
  static func watch(
    _ domains: [any PreferenceDomain], baseline: [PrefDictionary?], seconds: Double?, console: Console
  ) throws {
    let watcher = DomainWatcher(paths: domains.map(\.location))
    console.err(
      "prefs: watching \(Apply.count(domains.count, "domain")) (\(watcher.usesNotifications ? "inotify" : "polling")); "
        + (seconds.map {
          "stopping after \($0 == $0.rounded() && $0 < 1e15 ? String(Int($0)) : String($0)) s or at Ctrl-C"
        } ?? "press Ctrl-C to stop"))
    let deadline = seconds.map { Date().addingTimeInterval($0) }
    let progress = ProgressLine(total: domains.count)
    var changed = Set<String>()
    // Ctrl-C ends the watch, not the command: the changes are still written.
    SignalScope.interceptingStops { stopped in
      while !stopped() {
        let remaining = deadline.map { $0.timeIntervalSinceNow } ?? 0.25
        if remaining <= 0 { break }
        for path in watcher.changes(waitingUpTo: min(0.25, remaining)) {
          guard let index = domains.firstIndex(where: { $0.location == path }) else { continue }
          let now = try? domains[index].read(options: ReadOptions())
          if let now, now != baseline[index] {
            changed.insert(domains[index].name)
          } else if now != nil {
            changed.remove(domains[index].name)
          }
          progress.show("changed so far: \(changed.isEmpty ? "nothing" : changed.sorted().joined(separator: ", "))")
        }
      }
    }
    progress.clear()
  }

  /// A domain's contents, read again after a moment when a writer that truncates in
  /// place (as UserDefaults does on Linux) was caught half way.
  static func readSettled(_ domain: any PreferenceDomain) throws -> PrefDictionary? {
    for _ in 0..<10 {
      do {
        return try domain.read(options: ReadOptions())
      } catch {
        usleep(50_000)
      }
    }
    return try domain.read(options: ReadOptions())
  }
}
