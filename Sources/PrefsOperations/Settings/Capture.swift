import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// What `prefs capture` writes: the changes between two versions of a domain as
/// settings that `prefs apply` takes, so that applying them to the old version gives
/// the new one exactly.
public enum SettingsCapture {
  /// The settings that turn `old` into `new`, or nil when they are the same: changed
  /// and added keys with their new values (nested dictionaries as nested keys),
  /// removed keys as `!delete`, arrays that only grew at the end as the items added,
  /// other array changes as `!replace`. A domain that is gone is `!delete` as a whole.
  public static func settings(from old: PrefDictionary?, to new: PrefDictionary?) -> DomainSettings? {
    guard let new else { return old == nil ? nil : .delete }
    guard let old else { return new.isEmpty ? nil : DomainSettings(.dictionary(new)) }
    var directives: [PrefKeyPath: DomainSettings.Directive] = [:]
    let changes = dictionaryChanges(from: old, to: new, at: PrefKeyPath(), into: &directives)
    guard !changes.isEmpty else { return nil }
    // The rules of apply decide; where they would not give `new` exactly (an item
    // matched by identity where a new one was meant), the whole domain is replaced.
    let settings = DomainSettings(.dictionary(changes), directives: directives)
    if (try? SettingsMerge.apply(settings, to: old)) == new { return settings }
    return .replace(.dictionary(new))
  }

  static func dictionaryChanges(
    from old: PrefDictionary, to new: PrefDictionary, at path: PrefKeyPath,
    into directives: inout [PrefKeyPath: DomainSettings.Directive]
  ) -> PrefDictionary {
    var result = PrefDictionary()
    for (key, value) in new {
      if let change = change(from: old[key], to: value, at: path.appending(key: key), into: &directives) {
        result[key] = change
      }
    }
    for key in old.keys where !new.contains(key) {
      result[key] = SettingsDirective.deleteStandIn
      directives[path.appending(key: key)] = DomainSettings.Directive(.delete)
    }
    return result
  }

  /// The setting that turns `old` into `new`, or nil when they are equal.
  static func change(
    from old: PrefValue?, to new: PrefValue, at path: PrefKeyPath,
    into directives: inout [PrefKeyPath: DomainSettings.Directive]
  ) -> PrefValue? {
    guard let old else { return new }
    if old == new { return nil }
    switch (old, new) {
    case (.dictionary(let a), .dictionary(let b)):
      return .dictionary(dictionaryChanges(from: a, to: b, at: path, into: &directives))
    case (.array(let a), .array(let b)):
      // Items added at the end, none equal to an earlier one: listing them is enough.
      if b.count > a.count, Array(b.prefix(a.count)) == a {
        let added = Array(b.dropFirst(a.count))
        if (try? SettingsMerge.ensure(added, in: a, at: PrefKeyPath())) == b { return .array(added) }
      }
      directives[path] = DomainSettings.Directive(.replace)
      return new
    default:
      return new
    }
  }
}

/// Watches the files of some domains for changes: inotify on Linux (on their
/// folders, as writers replace files by renaming), else polling their size,
/// modification time and inode.
///
/// Sendable: its one mutable part, the last signature of each file, is read and
/// written under its lock, so ``changes(waitingUpTo:)`` may be called from any thread.
public final class DomainWatcher: @unchecked Sendable {
  private let paths: [String]
  private let lock = Lock()
  private var signatures: [String: [Int]] = [:]
  /// The inotify descriptor watching the files' folders; -1 when polling.
  private let descriptor: Int32

  /// Whether changes come from inotify rather than polling.
  public var usesNotifications: Bool { descriptor >= 0 }

  /// Watches the files at `paths` (they need not exist yet). `polling` forces polling.
  public init(paths: [String], polling: Bool = false) {
    self.paths = paths
    for path in paths { signatures[path] = Self.signature(path) }
    descriptor = polling ? -1 : Self.watchFolders(of: paths)
  }

  /// An inotify descriptor watching the folders of `paths`, or -1 where there is none.
  private static func watchFolders(of paths: [String]) -> Int32 {
    #if canImport(Glibc)
      let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard fd >= 0 else { return -1 }
      let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB)
      for folder in Set(paths.map { AtomicFile.resolvedTarget($0).deletingLastPathComponent }) {
        guard inotify_add_watch(fd, folder.isEmpty ? "." : folder, mask) >= 0 else {
          close(fd)
          return -1
        }
      }
      return fd
    #else
      return -1
    #endif
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Waits up to `timeout` seconds for a change, and returns the paths whose files
  /// changed since the last call (by content signature, so events for other files in
  /// the same folder and writes that changed nothing are not reported).
  public func changes(waitingUpTo timeout: TimeInterval) -> [String] {
    #if canImport(Glibc)
      if descriptor >= 0 {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, Int32(timeout * 1000)) > 0 {
          // Drain the events: which file changed is decided by the signatures below.
          var buffer = [UInt8](repeating: 0, count: 64 * 1024)
          while read(descriptor, &buffer, buffer.count) > 0 {}
        }
        return changedPaths()
      }
    #endif
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
      let changed = changedPaths()
      if !changed.isEmpty { return changed }
      usleep(UInt32(min(0.1, max(0, deadline.timeIntervalSinceNow)) * 1_000_000))
    } while Date() < deadline
    return []
  }

  private func changedPaths() -> [String] {
    lock.withLock {
      var changed: [String] = []
      for path in paths {
        let now = Self.signature(path)
        if now != signatures[path] {
          signatures[path] = now
          changed.append(path)
        }
      }
      return changed
    }
  }

  /// Size, modification time (ns), inode and change time of a file; empty when missing.
  static func signature(_ path: String) -> [Int] {
    var info = stat()
    guard stat(path, &info) == 0 else { return [] }
    #if canImport(Darwin)
      let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
    #else
      let (modified, changed) = (info.st_mtim, info.st_ctim)
    #endif
    return [
      Int(info.st_size), Int(modified.tv_sec), Int(modified.tv_nsec), Int(info.st_ino), Int(changed.tv_sec),
      Int(changed.tv_nsec),
    ]
  }
}
