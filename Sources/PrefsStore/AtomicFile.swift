import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// Writes files the safe way: into a temporary file beside the target, fsynced,
/// then renamed over it, so a reader sees the old file or the new one, never a
/// torn one. A symlink is written through (its target is replaced and the link
/// survives); the replaced file's mode, owner and group are kept.
public enum AtomicFile {
  /// Replaces (or creates, with `newFileMode`) the file at `path` with what `body`
  /// writes. If `body` throws, the temporary file is removed and `path` is untouched.
  /// The file keeps its mode, narrowed to `modeLimit` (a copy of a private file
  /// must not stay readable to others because an older copy was), and its owner and
  /// group. A read-only file, or one whose owner or group this process cannot give
  /// the new file, is refused unless `force`. Without `followingLinks`, a symlink at
  /// `path` is itself replaced, never written through (a backup's name, which anyone
  /// who can write the folder could have planted).
  public static func write(
    to path: String, newFileMode: mode_t = 0o644, modeLimit: mode_t = 0o7777, force: Bool = false,
    followingLinks: Bool = true, _ body: (ByteWriter) throws -> Void
  ) throws {
    // Devices, pipes and sockets (`-o /dev/stdout` on a pipe, `/dev/fd/3`) are written
    // in place: they cannot be renamed over. They are told from regular files by what
    // the file is, never by its path (`/dev/shm/x.yaml` is a regular file).
    if followingLinks, try writeInPlaceIfNotRegular(path, body) { return }
    let target = followingLinks ? resolvedTarget(path) : path
    let directory = target.deletingLastPathComponent
    let folder = directory.isEmpty ? "." : directory
    var existing = stat()
    // Names keep bytes that are not UTF-8 (see `RawPath`).
    let exists = RawPath.withCString(target) { lstat($0, &existing) } == 0
    if exists, (existing.st_mode & S_IFMT) == S_IFDIR {
      throw PrefsError(.isDirectory(writing: true), file: path)
    }
    if exists, (existing.st_mode & S_IFMT) != S_IFREG {
      // A device or pipe put there since the check above: written in place.
      if followingLinks, try writeInPlaceIfNotRegular(target, body) { return }
    }
    let replacesFile = exists && (existing.st_mode & S_IFMT) == S_IFREG
    if replacesFile, !force {
      if existing.st_mode & 0o222 == 0 {
        throw PrefsError(.readOnly(mode: existing.st_mode & 0o7777), file: path)
      }
      if !canGive(owner: existing.st_uid, group: existing.st_gid) {
        throw PrefsError(.ownerNotKept(uid: existing.st_uid, gid: existing.st_gid), file: path)
      }
    }

    var template =
      RawPath.bytes("\(folder)/.\(target.lastPathComponent).XXXXXX").map { CChar(bitPattern: $0) } + [0]
    // Created and recorded with the stop signals held, so that the signal handler
    // (``SignalScope``) always knows the file.
    let (fd, cleanup) = SignalScope.withStopSignalsBlocked {
      let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      let code = errno
      let cleanup =
        fd >= 0
        ? SignalScope.push(RawPath.string(from: template.dropLast().map { UInt8(bitPattern: $0) }), removing: .file)
        : nil
      errno = code
      return (fd, cleanup)
    }
    guard fd >= 0 else {
      throw PrefsError(.io(.createFile(in: folder), errno: errno), file: path)
    }
    let temporary = RawPath.string(from: template.dropLast().map { UInt8(bitPattern: $0) })
    var committed = false
    // close(2) releases the number even when it fails, and another thread may get it
    // at once: the descriptor is closed exactly once, whatever happens after.
    var isOpen = true
    defer {
      if isOpen { close(fd) }
      if !committed { RawPath.withCString(temporary) { _ = unlink($0) } }
      if let cleanup { SignalScope.pop(cleanup) }
    }
    // A new file's mode is narrowed by the umask, as open(2) would narrow it.
    let mode = (replacesFile ? existing.st_mode & 0o7777 : newFileMode & ~processUmask) & modeLimit
    fchmod(fd, mode)
    if replacesFile, existing.st_uid != geteuid() || existing.st_gid != getegid() {
      // Keep the owner, so that `sudo prefs write` does not leave a root-owned file.
      _ = fchown(fd, existing.st_uid, existing.st_gid)
    }

    try stream(to: fd, named: path, body)
    guard fsync(fd) == 0 else { throw PrefsError(.io(.sync, errno: errno), file: path) }
    isOpen = false
    guard close(fd) == 0 else { throw PrefsError(.io(.close, errno: errno), file: path) }
    guard RawPath.withCString(temporary, { from in RawPath.withCString(target) { rename(from, $0) } }) == 0 else {
      let code = errno
      RawPath.withCString(temporary) { _ = unlink($0) }
      committed = true
      throw PrefsError(.io(.replace, errno: code), file: path)
    }
    committed = true
    // Make the rename itself durable.
    let dirFD = RawPath.withCString(folder) { open($0, O_RDONLY) }
    if dirFD >= 0 {
      fsync(dirFD)
      close(dirFD)
    }
  }

  /// Writes `body` into `path` itself when the path (links followed) is a device, a
  /// pipe or a socket, or the very file standard output or standard error is open on
  /// (`-o /dev/stdout > file`); returns false, writing nothing, for any other file.
  private static func writeInPlaceIfNotRegular(_ path: String, _ body: (ByteWriter) throws -> Void) throws -> Bool {
    var info = stat()
    guard RawPath.withCString(path, { stat($0, &info) }) == 0 else { return false }
    let type = info.st_mode & S_IFMT
    if type == S_IFDIR { throw PrefsError(.isDirectory(writing: true), file: path) }
    if type == S_IFREG {
      for descriptor: Int32 in [1, 2] {
        var open = stat()
        if fstat(descriptor, &open) == 0, open.st_dev == info.st_dev, open.st_ino == info.st_ino {
          try stream(to: descriptor, named: path, body)
          return true
        }
      }
      return false
    }
    let fd = RawPath.withCString(path) { open($0, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
    guard fd >= 0 else { throw PrefsError(.io(.openForWriting, errno: errno), file: path) }
    defer { close(fd) }
    // What was opened decides: a regular file put there since the check is replaced.
    var opened = stat()
    guard fstat(fd, &opened) == 0, (opened.st_mode & S_IFMT) != S_IFREG else { return false }
    try stream(to: fd, named: path, body)
    return true
  }

  /// Runs `body` on a writer streaming to `fd`, and names the file in its I/O errors.
  private static func stream(to fd: Int32, named name: String, _ body: (ByteWriter) throws -> Void) throws {
    let writer = ByteWriter(fileDescriptor: fd)
    do {
      try body(writer)
      try writer.flush()
    } catch var error as PrefsError {
      if error.file == nil, error.category == .io { error.file = name }
      throw error
    }
  }

  /// Removes temporary files that an earlier write to `path` left behind when it was
  /// killed (`.<name>.XXXXXX` beside the file's target), if older than `age` seconds.
  /// Call it only while holding the file's lock, so no live writer owns them.
  public static func removeStaleTemporaries(of path: String, olderThan age: TimeInterval = 60) {
    let target = resolvedTarget(path)
    let folder = target.deletingLastPathComponent
    let prefix = "." + target.lastPathComponent + "."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else {
      return
    }
    let cutoff = Date().addingTimeInterval(-age)
    for name in names where name.hasPrefix(prefix) && name.count == prefix.count + 6 {
      let suffix = name.dropFirst(prefix.count)
      guard suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { continue }
      let file = (folder.isEmpty ? "." : folder) + "/" + name
      guard let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date,
        modified < cutoff
      else { continue }
      unlink(file)
    }
  }

  /// Writes `data` atomically to `path` (see ``write(to:newFileMode:modeLimit:force:followingLinks:_:)``).
  public static func write(
    _ data: Data, to path: String, newFileMode: mode_t = 0o644, modeLimit: mode_t = 0o7777, force: Bool = false,
    followingLinks: Bool = true
  ) throws {
    try write(to: path, newFileMode: newFileMode, modeLimit: modeLimit, force: force, followingLinks: followingLinks) {
      try $0.write(data)
    }
  }

  /// Whether a file made by this process can be given `owner` and `group`: its own,
  /// or any for root; another group only when the process is in it.
  private static func canGive(owner: uid_t, group: gid_t) -> Bool {
    let user = geteuid()
    if user == 0 { return true }
    guard owner == user else { return false }
    if group == getegid() { return true }
    let count = getgroups(0, nil)
    guard count > 0 else { return false }
    var groups = [gid_t](repeating: 0, count: Int(count))
    return getgroups(count, &groups) > 0 && groups.contains(group)
  }

  /// Writes `data` atomically to `path`, a file made from the files at `sources`: a
  /// new file gets the mode they all allow (a copy of a private file stays private),
  /// narrowed by the umask, and an existing one is narrowed to it.
  public static func write(_ data: Data, to path: String, keepingModeOf sources: [String]) throws {
    let mode = sharedMode(of: sources)
    try write(data, to: path, newFileMode: mode ?? 0o644, modeLimit: mode ?? 0o7777)
  }

  /// The permission bits that every existing file of `paths` has (0600 of a 0600 and a
  /// 0644 file); nil when none of them is a file.
  public static func sharedMode(of paths: [String]) -> mode_t? {
    var shared: mode_t?
    for path in paths where path != "-" {
      var info = stat()
      guard RawPath.withCString(path, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      shared = (shared ?? 0o7777) & info.st_mode & 0o777
    }
    return shared
  }

  /// The process's umask, read once (prefs never changes it).
  private static let processUmask: mode_t = {
    let mask = umask(0o022)
    umask(mask)
    return mask
  }()

  /// The file a path finally names, following symlinks (relative links resolve
  /// against the link's folder); the path itself when it is not a link.
  public static func resolvedTarget(_ path: String) -> String {
    var current = path
    for _ in 0..<40 {
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
        return current
      }
      if destination.hasPrefix("/") {
        current = destination
      } else {
        current = current.deletingLastPathComponent.appendingPathComponent(destination)
      }
    }
    return current
  }

}

/// Reading whole inputs, with errors in the one grammar.
public enum InputFile {
  /// The bytes of `path`, or of standard input for `-`, refusing more than
  /// `limit` bytes: a regular file by its size before reading, a pipe once it has
  /// sent that much.
  public static func read(_ path: String, limit: Int = ReadOptions().maxInputBytes) throws -> Data {
    if path == "-" { return try readAll(from: 0, path: path, limit: limit, expected: 0) }
    // The file as named, bytes that are not UTF-8 included (see `RawPath`).
    let named = path
    let path = RawPath.display(path)
    var info = stat()
    guard RawPath.withCString(named, { stat($0, &info) }) == 0 else {
      let code = errno
      if code == ENOENT { throw PrefsError(.notFound(.file), file: path) }
      throw PrefsError(.io(.status, errno: code), file: path)
    }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw PrefsError(.isDirectory(writing: false), file: path) }
    if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit {
      throw PrefsError(.inputTooLarge(size: Int(info.st_size), limit: limit), file: path)
    }
    let fd = RawPath.withCString(named) { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else {
      throw PrefsError(.io(.open, errno: errno), file: path)
    }
    defer { close(fd) }
    let regular = (info.st_mode & S_IFMT) == S_IFREG
    return try readAll(from: fd, path: path, limit: limit, expected: regular ? Int(info.st_size) : 0)
  }

  /// Whether the first bytes of a stream already show that no reader takes it, so
  /// that reading on would only fill memory (`/dev/zero`): a NUL in text that is
  /// UTF-8 by its first bytes (no byte order mark, no NUL among the first four, not a
  /// binary plist), or four NULs first, which no encoding starts with. What was read
  /// holds the NUL, which every text reader refuses with its position.
  static func showsNoFormat(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count >= 4, bytes.contains(0) else { return false }
    let head = Array(bytes.prefix(4))
    if head.allSatisfy({ $0 == 0 }) { return true }
    return !head.contains(0) && !head.starts(with: Array("bpli".utf8))
      && TextEncoding.detect(head) == .utf8(marked: false)
  }

  /// Everything `fd` gives until its end, in one buffer of the expected size filled
  /// by read(2): no chunk list, no copies. Inputs that grow, or report no size
  /// (pipes, /proc), get more room as needed, up to `limit`.
  /// A stream (no size to expect) is looked at once its first bytes are in: one that
  /// no reader takes ends the reading there (``showsNoFormat(_:)``). The buffer never
  /// grows past `limit` and a byte.
  private static func readAll(from fd: Int32, path: String, limit: Int, expected: Int) throws -> Data {
    var data = Data(count: min(max(expected, 0), limit) + 1)
    var length = 0
    var looked = expected > 0
    while true {
      if length == data.count { data.count = min(data.count + max(data.count, 1 << 16), limit + 1) }
      let n = data.withUnsafeMutableBytes { raw in
        systemRead(fd, raw.baseAddress! + length, raw.count - length)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw PrefsError(.io(.read, errno: errno), file: path)
      }
      if n == 0 { break }
      length += n
      if length > limit {
        throw PrefsError(.inputTooLarge(size: nil, limit: limit), file: path)
      }
      if !looked, length >= 4 {
        looked = true
        if data.withUnsafeBytes({ showsNoFormat(UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }) { break }
      }
    }
    data.count = length
    return data
  }
}
