import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// What `prefs apply` saved of the domains it was about to change: for each, its
/// ``DomainSnapshot`` (the exact bytes of a file domain, or that there was none), so
/// that `apply --undo` puts every byte back.
public struct Snapshot: Sendable {
  /// One domain as it was.
  public struct Domain: Sendable {
    /// The name messages use (`com.example.app`, or the path for a file).
    public var name: String
    /// Where the domain lives (``PreferenceDomain/location``).
    public var path: String
    /// What the domain held.
    public var saved: DomainSnapshot
    /// What the apply wrote to the domain, `.null` when it left none; nil when that
    /// is not known (the change failed, or the snapshot was saved by an older prefs).
    public var written: PrefValue? = nil

    /// What changed in the domain since the apply wrote it, given what it holds
    /// `now`: none when that is what the apply wrote, or not known.
    public func changes(since now: PrefDictionary?) -> [PrefChange] {
      guard let written else { return [] }
      return StructuralDiff.changes(from: written, to: now.map(PrefValue.dictionary) ?? .null)
    }

    /// The domain this entry was taken of, checked against what the entry says: a
    /// domain of `store` must be at ``path`` in it, and a file named by path must be
    /// where its name points (``SettingsApply/domain(for:in:relativeTo:environment:)``
    /// made that path), so that a snapshot file changed or planted in the folder cannot
    /// send its bytes anywhere else.
    public func domain(
      in store: any DomainStore, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> any PreferenceDomain {
      let mismatch = PrefsError(
        .untrusted(problem: "the snapshot puts '\(name)' at \(path), which is not where that domain is"))
      guard DomainName.isPath(name) else {
        let domain = try store.domain(named: name)
        guard domain.location == path else { throw mismatch }
        return domain
      }
      let expected: Bool
      if name.hasPrefix("/") {
        expected = path == name
      } else if name.hasPrefix("~/") {
        expected = path == homeFolder(in: environment).appendingPathComponent(String(name.dropFirst(2)))
      } else {
        expected = path.hasPrefix("/") && path.hasSuffix("/" + name)
      }
      guard expected else { throw mismatch }
      return FileDomain(path: path, name: name)
    }
  }

  /// The snapshot's name: when it was taken, sortable (`20261130T120102.345Z-4242`).
  public var id: String
  /// When it was taken.
  public var created: Date
  /// The settings files applied after it was taken.
  public var sources: [String]
  /// The domains it holds, in the order they were applied.
  public var domains: [Domain]
  /// Whether `apply --undo` has restored it already.
  public var undone: Bool
}

/// The folder of snapshots: `$XDG_STATE_HOME/prefs/snapshots` when that is an
/// absolute path, else `~/.local/state/prefs/snapshots`. One XML plist per snapshot.
public struct SnapshotStore: Sendable {
  /// The folder holding the snapshots (created on the first save, mode 0700).
  public let directory: String
  /// How many snapshots a save keeps, itself included: older ones are removed.
  public let keep: Int

  /// How many snapshots are kept when the environment does not say.
  public static let defaultKeep = 50

  /// The snapshots in `directory`, of which a save keeps the last `keep`.
  public init(directory: String, keep: Int = defaultKeep) {
    self.directory = directory
    self.keep = max(keep, 1)
  }

  /// The folder for this environment, keeping `$PREFS_SNAPSHOTS_KEEP` snapshots (a
  /// positive number; else ``defaultKeep``).
  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.init(
      directory: XDGFolder.state.path(in: environment).appendingPathComponent("prefs/snapshots"),
      keep: environment["PREFS_SNAPSHOTS_KEEP"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultKeep)
  }

  private static let undoneSuffix = ".undone.plist"

  /// Saves what the domains of `steps` hold before they are changed.
  @discardableResult
  public func save(_ steps: [ApplyStep], sources: [String], now: Date = Date()) throws -> Snapshot {
    var domains: [Snapshot.Domain] = []
    for step in steps {
      guard let domain = step.domain else { continue }
      domains.append(Snapshot.Domain(name: domain.name, path: domain.location, saved: try domain.snapshot()))
    }
    let id = "\(TextForms.compactTimestamp(now))-\(getpid())"
    let snapshot = Snapshot(id: id, created: now, sources: sources, domains: domains, undone: false)
    try makeFolders(directory, mode: 0o700, what: "the snapshot folder")
    try checkFolder()
    // Snapshots hold settings: readable by their owner only.
    try AtomicFile.write(try Self.encode(snapshot), to: path(of: id, undone: false), newFileMode: 0o600)
    prune()
    return snapshot
  }

  /// Removes all but the last ``keep`` snapshots, and the temporary files that a save
  /// killed half-way left (`.<id>.plist.XXXXXX`, once a minute old, as a live save
  /// writes its own within that).
  private func prune() {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
    let snapshots = names.filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }.sorted()
    for name in snapshots.dropLast(keep) {
      _ = unlink(directory.appendingPathComponent(name))
    }
    let cutoff = Date().addingTimeInterval(-60)
    for name in names where name.hasPrefix(".") && name.dropLast(7).hasSuffix(".plist") {
      let file = directory.appendingPathComponent(name)
      guard let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date,
        modified < cutoff
      else { continue }
      _ = unlink(file)
    }
  }

  /// Records in `snapshot` what the apply wrote to each domain (`written`, by the
  /// domain's ``PreferenceDomain/location``, nil for a domain it left none), so that
  /// an undo can tell what changed since; returns the snapshot as saved.
  @discardableResult
  public func record(written: [String: PrefDictionary?], in snapshot: Snapshot) throws -> Snapshot {
    var recorded = snapshot
    for index in recorded.domains.indices {
      guard let contents = written[recorded.domains[index].path] else { continue }
      recorded.domains[index].written = contents.map(PrefValue.dictionary) ?? .null
    }
    try AtomicFile.write(
      try Self.encode(recorded), to: path(of: snapshot.id, undone: snapshot.undone), newFileMode: 0o600)
    return recorded
  }

  /// Every snapshot, oldest first.
  public func list() throws -> [Snapshot] {
    guard try checkFolder(), let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return []
    }
    return try names.filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }.sorted().map { name in
      let file = directory.appendingPathComponent(name)
      do {
        // A snapshot is the user's own file, which no one else may have changed.
        try checkPrivate(file, type: S_IFREG, forbidden: 0o022)
        let undone = name.hasSuffix(Self.undoneSuffix)
        let snapshot = try Self.decode(try InputFile.read(file), undone: undone)
        guard path(of: snapshot.id, undone: undone) == file else { throw PrefsError(.notASnapshot) }
        return snapshot
      } catch let error as PrefsError {
        throw error.inFile(file)
      }
    }
  }

  /// Refuses the folder unless it is the user's own, mode 0700 at most, and no
  /// symbolic link: no one else can have put a snapshot there. False when there is
  /// no folder yet.
  @discardableResult
  private func checkFolder() throws -> Bool {
    try checkPrivate(directory, type: S_IFDIR, forbidden: 0o077)
  }

  /// The snapshot called `id` (a unique prefix will do).
  public func snapshot(named id: String) throws -> Snapshot {
    let matches = try list().filter { $0.id.hasPrefix(id) }
    guard matches.count == 1 else {
      throw PrefsError(
        matches.isEmpty ? .notFound(.snapshot(id: id)) : .ambiguousSnapshot(id: id, count: matches.count),
        file: directory, hints: ["'prefs snapshots' lists them"])
    }
    return matches[0]
  }

  /// Puts every domain of `snapshot` back as it was, through the domain itself
  /// (``PreferenceDomain/restore(_:)``: a file byte for byte, under its lock and
  /// atomically; a domain that did not exist is removed), then marks it undone.
  /// `store` is the store the domains were taken from. A domain changed since the
  /// apply wrote it (``Snapshot/Domain/changes(since:)``) refuses the restore, nothing
  /// put back, with ``PrefsError/Kind/changedSinceApply(_:)``; unless `force`, which
  /// puts it back all the same. A domain that does not read now is put back.
  public func restore(_ snapshot: Snapshot, in store: any DomainStore, force: Bool = false) throws {
    // Every entry is checked before the first is put back.
    let domains = try snapshot.domains.map { saved in
      do { return try saved.domain(in: store) } catch let error as PrefsError { throw error.inFile(directory) }
    }
    if !force {
      let changed = zip(snapshot.domains, domains).compactMap { saved, domain -> PrefsError.ChangedKeys? in
        guard saved.written != nil else { return nil }
        let now: PrefDictionary?
        do { now = try domain.read(options: ReadOptions()) } catch { return nil }
        return changedKeys(saved, now: now)
      }
      guard changed.isEmpty else { throw PrefsError(.changedSinceApply(changed)) }
    }
    for (saved, domain) in zip(snapshot.domains, domains) {
      try domain.restore(saved.saved)
    }
    if !snapshot.undone, rename(path(of: snapshot.id, undone: false), path(of: snapshot.id, undone: true)) != 0 {
      throw PrefsError(.io(.markSnapshotUndone, errno: errno), file: directory)
    }
  }

  private func changedKeys(_ saved: Snapshot.Domain, now: PrefDictionary?) -> PrefsError.ChangedKeys? {
    let paths = saved.changes(since: now).map(\.path)
    return paths.isEmpty ? nil : PrefsError.ChangedKeys(domain: saved.name, paths: paths)
  }

  private func path(of id: String, undone: Bool) -> String {
    directory.appendingPathComponent(id + (undone ? Self.undoneSuffix : ".plist"))
  }

  static func encode(_ snapshot: Snapshot) throws -> Data {
    let domains: [PrefValue] = snapshot.domains.map { domain in
      var entry: PrefDictionary = ["name": .string(domain.name), "path": .string(domain.path)]
      switch domain.saved {
      case .missing:
        // The mode a domain made again would get; kept so that every entry has one.
        entry["mode"] = .integer(0o600)
      case .file(let contents, let mode):
        entry["mode"] = .integer(Int64(mode))
        entry["contents"] = .data(contents)
      case .value(let contents):
        entry["mode"] = .integer(0o600)
        entry["value"] = .dictionary(contents)
      }
      // What the apply wrote; a domain it left none is said by `wroteNone`, as a plist holds no null.
      switch domain.written {
      case .dictionary(let contents)?: entry["written"] = .dictionary(contents)
      case .some: entry["wroteNone"] = .bool(true)
      case nil: break
      }
      return .dictionary(entry)
    }
    let root: PrefDictionary = [
      "id": .string(snapshot.id), "created": .date(snapshot.created),
      "sources": .array(snapshot.sources.map(PrefValue.string)), "domains": .array(domains),
    ]
    return try Format.xml.codec.encode(.dictionary(root))
  }

  static func decode(_ data: Data, undone: Bool) throws -> Snapshot {
    let root = try Format.xml.codec.read(data, options: ReadOptions(), warnings: Warnings()).dictionaryValue
    guard let root, case .string(let id)? = root["id"], case .date(let created)? = root["created"],
      case .array(let sources)? = root["sources"], case .array(let domains)? = root["domains"]
    else { throw PrefsError(.notASnapshot) }
    return Snapshot(
      id: id, created: created, sources: sources.compactMap { if case .string(let s) = $0 { s } else { nil } },
      domains: try domains.map { item in
        guard case .dictionary(let d) = item, case .string(let name)? = d["name"], case .string(let path)? = d["path"],
          case .integer(let mode)? = d["mode"]
        else { throw PrefsError(.notASnapshot) }
        var saved = DomainSnapshot.missing
        if case .data(let bytes)? = d["contents"] {
          saved = .file(contents: bytes, mode: mode_t(mode))
        } else if case .dictionary(let contents)? = d["value"] {
          saved = .value(contents)
        }
        var written: PrefValue?
        if case .dictionary(let contents)? = d["written"] {
          written = .dictionary(contents)
        } else if case .bool(true)? = d["wroteNone"] {
          written = .null
        }
        return Snapshot.Domain(name: name, path: path, saved: saved, written: written)
      }, undone: undone)
  }
}
