import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// What `prefs apply` saved of the domains it was about to change: for each, the
/// exact bytes of its file (or that there was none), so that `apply --undo` puts
/// every byte back.
public struct Snapshot: Sendable {
  /// One domain as it was.
  public struct Domain: Sendable {
    /// The name messages use (`com.example.app`, or the path for a file).
    public var name: String
    /// The file.
    public var path: String
    /// The file's bytes, or nil when there was no file.
    public var contents: Data?
    /// The file's permission bits, for a file that has to be created again.
    public var mode: mode_t
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

  /// The snapshots in `directory`.
  public init(directory: String) { self.directory = directory }

  /// The folder for this environment.
  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.init(directory: XDGFolder.state.path(in: environment).appendingPathComponent("prefs/snapshots"))
  }

  private static let undoneSuffix = ".undone.plist"

  /// Saves the current bytes of the domains of `steps` before they are changed.
  @discardableResult
  public func save(_ steps: [ApplyStep], sources: [String], now: Date = Date()) throws -> Snapshot {
    var domains: [Snapshot.Domain] = []
    for step in steps {
      guard let domain = step.domain else { continue }
      domains.append(try Self.capture(domain))
    }
    let id = "\(TextForms.compactTimestamp(now))-\(getpid())"
    let snapshot = Snapshot(id: id, created: now, sources: sources, domains: domains, undone: false)
    try makeFolders(directory, mode: 0o700, what: "the snapshot folder")
    // Snapshots hold settings: readable by their owner only.
    try AtomicFile.write(try Self.encode(snapshot), to: path(of: id, undone: false), newFileMode: 0o600)
    return snapshot
  }

  /// The bytes and mode of a domain's file now.
  static func capture(_ domain: any PreferenceDomain) throws -> Snapshot.Domain {
    let path = domain.location
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return Snapshot.Domain(name: domain.name, path: path, contents: nil, mode: 0o600) }
      throw PrefsError(.io(.status, errno: errno), file: path)
    }
    return Snapshot.Domain(
      name: domain.name, path: path, contents: try InputFile.read(path), mode: info.st_mode & 0o7777)
  }

  /// Every snapshot, oldest first.
  public func list() throws -> [Snapshot] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
    return try names.filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }.sorted().map { name in
      let file = directory.appendingPathComponent(name)
      do {
        return try Self.decode(try InputFile.read(file), undone: name.hasSuffix(Self.undoneSuffix))
      } catch let error as PrefsError {
        throw error.inFile(file)
      }
    }
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

  /// Puts every domain of `snapshot` back byte for byte (each under its lock,
  /// atomically; a domain that did not exist is removed), then marks it undone.
  public func restore(_ snapshot: Snapshot) throws {
    for domain in snapshot.domains {
      let lock = try FileLock(file: domain.path)
      try withExtendedLifetime(lock) {
        if let contents = domain.contents {
          try AtomicFile.write(contents, to: domain.path, newFileMode: domain.mode)
        } else if unlink(domain.path) != 0, errno != ENOENT {
          throw PrefsError(.io(.delete, errno: errno), file: domain.path)
        }
      }
    }
    if !snapshot.undone, rename(path(of: snapshot.id, undone: false), path(of: snapshot.id, undone: true)) != 0 {
      throw PrefsError(.io(.markSnapshotUndone, errno: errno), file: directory)
    }
  }

  private func path(of id: String, undone: Bool) -> String {
    directory.appendingPathComponent(id + (undone ? Self.undoneSuffix : ".plist"))
  }

  static func encode(_ snapshot: Snapshot) throws -> Data {
    let domains: [PrefValue] = snapshot.domains.map { domain in
      var entry: PrefDictionary = ["name": .string(domain.name), "path": .string(domain.path)]
      entry["mode"] = .integer(Int64(domain.mode))
      if let contents = domain.contents { entry["contents"] = .data(contents) }
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
        var contents: Data?
        if case .data(let bytes)? = d["contents"] { contents = bytes }
        return Snapshot.Domain(name: name, path: path, contents: contents, mode: mode_t(mode))
      }, undone: undone)
  }
}
