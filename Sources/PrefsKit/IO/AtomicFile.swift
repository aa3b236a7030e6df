import Foundation

/// Writes files the safe way: into a temporary file beside the target, fsynced,
/// then renamed over it, so a reader sees the old file or the new one, never a
/// torn one. A symlink is written through (its target is replaced and the link
/// survives); the replaced file's mode, owner and group are kept.
public enum AtomicFile {
  /// Replaces (or creates, with `newFileMode`) the file at `path` with what `body`
  /// writes. If `body` throws, the temporary file is removed and `path` is untouched.
  public static func write(
    to path: String, newFileMode: mode_t = 0o644, _ body: (ByteWriter) throws -> Void
  ) throws {
    // Devices and descriptors (`-o /dev/stdout`, `/dev/fd/3`) are written in place:
    // renaming over the file behind them would take it away from its reader.
    if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") {
      return try writeDirectly(to: path, displayName: path, body)
    }
    let target = resolvedTarget(path)
    let directory = (target as NSString).deletingLastPathComponent
    let folder = directory.isEmpty ? "." : directory
    var existing = stat()
    let exists = lstat(target, &existing) == 0
    if exists, (existing.st_mode & S_IFMT) == S_IFDIR {
      throw PrefsError(.cannotCreate, "is a directory", file: path)
    }
    if exists, (existing.st_mode & S_IFMT) != S_IFREG {
      // A FIFO or device (`-o /dev/stdout`) cannot be replaced by a rename: write
      // to it directly.
      return try writeDirectly(to: target, displayName: path, body)
    }

    var template = Array("\(folder)/.\((target as NSString).lastPathComponent).XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      throw PrefsError(.cannotCreate, "cannot create a file in \(folder): \(errnoText())", file: path)
    }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var committed = false
    defer {
      if !committed {
        close(fd)
        unlink(temporary)
      }
    }
    let mode = exists ? existing.st_mode & 0o7777 : newFileMode
    fchmod(fd, mode)
    if exists, existing.st_uid != geteuid() || existing.st_gid != getegid() {
      // Keep the owner, so that `sudo prefs write` does not leave a root-owned file.
      _ = fchown(fd, existing.st_uid, existing.st_gid)
    }

    let writer = ByteWriter(fileDescriptor: fd)
    do {
      try body(writer)
      try writer.flush()
    } catch var error as PrefsError {
      if error.file == nil, error.category == .io { error.file = path }
      throw error
    }
    guard fsync(fd) == 0 else { throw PrefsError(.io, "cannot sync: \(errnoText())", file: path) }
    guard close(fd) == 0 else { throw PrefsError(.io, "cannot close: \(errnoText())", file: path) }
    guard rename(temporary, target) == 0 else {
      let text = errnoText()
      unlink(temporary)
      committed = true
      throw PrefsError(.cannotCreate, "cannot replace the file: \(text)", file: path)
    }
    committed = true
    // Make the rename itself durable.
    let dirFD = open(folder, O_RDONLY)
    if dirFD >= 0 {
      fsync(dirFD)
      close(dirFD)
    }
  }

  private static func writeDirectly(to target: String, displayName: String, _ body: (ByteWriter) throws -> Void)
    throws
  {
    let fd = open(target, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard fd >= 0 else { throw PrefsError(.cannotCreate, "cannot open: \(errnoText())", file: displayName) }
    defer { close(fd) }
    let writer = ByteWriter(fileDescriptor: fd)
    do {
      try body(writer)
      try writer.flush()
    } catch var error as PrefsError {
      if error.file == nil, error.category == .io { error.file = displayName }
      throw error
    }
  }

  /// Writes `data` atomically to `path`.
  public static func write(_ data: Data, to path: String, newFileMode: mode_t = 0o644) throws {
    try write(to: path, newFileMode: newFileMode) { try $0.write(data) }
  }

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
        current = ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
      }
    }
    return current
  }

  static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Reading whole inputs, with errors in the one grammar.
public enum InputFile {
  /// The bytes of `path`, or of standard input for `-`, refusing more than
  /// `limit` bytes: a regular file by its size before reading, a pipe once it has
  /// sent that much.
  public static func read(_ path: String, limit: Int = ReadOptions().maxInputBytes) throws -> Data {
    if path == "-" { return try readLimited(FileHandle.standardInput, path: path, limit: limit) }
    var info = stat()
    guard stat(path, &info) == 0 else {
      let code = errno
      if code == ENOENT { throw PrefsError(.noInput, "no such file", file: path) }
      throw PrefsError(
        code == EACCES ? .noInput : .io, String(cString: strerror(code)).lowercased(), file: path)
    }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw PrefsError(.noInput, "is a directory", file: path) }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw PrefsError(.noInput, "cannot open: \(String(cString: strerror(errno)).lowercased())", file: path)
    }
    defer { try? handle.close() }
    if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit {
      throw PrefsError(
        .badInput, "input of \(info.st_size) bytes is larger than the limit of \(limit) bytes", file: path)
    }
    return try readLimited(handle, path: path, limit: limit, expected: Int(info.st_size))
  }

  private static func readLimited(_ handle: FileHandle, path: String, limit: Int, expected: Int = 0) throws -> Data {
    var data = Data()
    // A regular file's size is known: one allocation, not a doubling series.
    if expected > 0 { data.reserveCapacity(expected + 1) }
    do {
      while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        data.append(chunk)
        if data.count > limit {
          throw PrefsError(
            .badInput, "input of more than \(limit) bytes is larger than the limit of \(limit) bytes", file: path)
        }
      }
    } catch let error as PrefsError {
      throw error
    } catch {
      throw PrefsError(.io, "read failed: \(error.localizedDescription)", file: path)
    }
    return data
  }
}
