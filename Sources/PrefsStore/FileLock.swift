import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// An advisory lock (`flock`) that serializes the changes to one file, held while it
/// is read, changed and written back, so that concurrent writers never lose each
/// other's keys. The kernel drops it when its holder dies, so a crash never leaves a
/// stale lock behind.
///
/// The lock is taken on the file itself, or on its folder while the file does not
/// exist, so no lock file is ever made: not beside a user's file (where it would show
/// in `git status`), and not in a runtime folder either, whose place depends on the
/// environment (`sudo`, cron) when the lock must depend on the file alone.
/// Writes replace the file by renaming a new inode over it, which a lock on the old
/// inode does not cover: so after the lock is granted, the path must still name the
/// locked inode (or still be missing); if a writer replaced, created or removed the
/// file meanwhile, the lock is dropped and taken again on what is there now. Every
/// writer replaces the file only while holding the lock on the inode the path
/// names, so once checked, the path stays put until the lock is released.
public final class FileLock {
  private let descriptor: Int32

  /// Takes the lock for changing the file at `path` (a symlink is followed, as
  /// ``AtomicFile`` writes through it), waiting up to `timeout` seconds.
  public init(file path: String, timeout: TimeInterval = 10) throws {
    let target = AtomicFile.resolvedTarget(path)
    let directory = target.deletingLastPathComponent
    let folder = directory.isEmpty ? "." : directory
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      // O_NONBLOCK: opening a FIFO must not wait for a writer.
      var fd = RawPath.withCString(target) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
      let exists = fd >= 0
      if !exists {
        let code = errno
        guard code == ENOENT else {
          throw PrefsError(.io(.openForLock, errno: code), file: path)
        }
        fd = RawPath.withCString(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else {
          throw PrefsError(.io(.createFile(in: folder), errno: errno), file: path)
        }
      }
      try Self.lock(fd, until: deadline, timeout: timeout, path: path)
      var now = stat()
      let stillThere: Bool
      if exists {
        var held = stat()
        stillThere =
          fstat(fd, &held) == 0 && RawPath.withCString(target, { stat($0, &now) }) == 0 && now.st_dev == held.st_dev
          && now.st_ino == held.st_ino
      } else {
        stillThere = RawPath.withCString(target, { lstat($0, &now) }) != 0 && errno == ENOENT
      }
      if stillThere {
        descriptor = fd
        return
      }
      close(fd)
    }
  }

  /// Waits for an exclusive `flock` on `fd` until `deadline`; closes `fd` on failure.
  private static func lock(_ fd: Int32, until deadline: Date, timeout: TimeInterval, path: String) throws {
    var delay: useconds_t = 1000
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
        close(fd)
        throw PrefsError(
          .lockTimeout(seconds: Int(timeout)), file: path,
          hints: ["try again when the other prefs command has finished"])
      }
      usleep(delay)
      delay = min(delay * 2, 50_000)
    }
  }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
