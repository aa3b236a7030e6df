import Foundation

/// An advisory lock (`flock`) on a lock file, held while a domain is read, changed
/// and written back, so that concurrent writers never lose each other's keys.
/// The kernel drops the lock when its holder dies, so a crash never leaves a
/// stale lock behind; the lock file itself stays, empty.
public final class FileLock {
  private let descriptor: Int32

  /// Takes the lock on `path` (creating the file), waiting up to `timeout` seconds.
  public init(path: String, timeout: TimeInterval = 10) throws {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw PrefsError(.cannotCreate, "cannot create the lock file: \(systemErrorText())", file: path)
    }
    let deadline = Date().addingTimeInterval(timeout)
    var delay: useconds_t = 1000
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
        close(fd)
        throw PrefsError(
          .temporary, "another process holds the lock for \(Int(timeout)) seconds", file: path,
          hints: ["try again when the other prefs command has finished"])
      }
      usleep(delay)
      delay = min(delay * 2, 50_000)
    }
    descriptor = fd
  }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
