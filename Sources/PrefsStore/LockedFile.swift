import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// A file held under its ``FileLock`` for replacing: the one way every writer that
/// reads a file and writes it back does so (a domain's change, a snapshot put back,
/// an edit written back). Taking it removes the temporaries a killed write left
/// beside the file, which no live writer owns while the lock is held. The lock is
/// released when this object goes.
package final class LockedFile {
  /// The file, as named (a symlink is written through).
  package let path: String
  private let lock: FileLock

  /// Takes the lock for replacing the file at `path`. `removingStaleTemporaries` is
  /// false for a caller that only reads (a dry run), which must not touch the folder.
  package init(_ path: String, removingStaleTemporaries: Bool = true) throws {
    self.path = path
    lock = try FileLock(file: path)
    if removingStaleTemporaries { AtomicFile.removeStaleTemporaries(of: path) }
  }

  /// The file's bytes now; nil when there is no file.
  package func contents() throws -> Data? {
    var info = stat()
    guard RawPath.withCString(path, { stat($0, &info) }) == 0 else {
      if errno == ENOENT { return nil }
      throw PrefsError(.io(.status, errno: errno), file: path)
    }
    return try InputFile.read(path)
  }

  /// Replaces the file with what `body` writes, atomically (a new file gets
  /// `newFileMode`; `force` replaces a read-only file too).
  package func write(newFileMode: mode_t, force: Bool = false, _ body: (ByteWriter) throws -> Void) throws {
    try AtomicFile.write(to: path, newFileMode: newFileMode, force: force, body)
  }

  /// Replaces the file with `data`, atomically (a new file gets `newFileMode`; `force`
  /// replaces a read-only file too).
  package func write(_ data: Data, newFileMode: mode_t, force: Bool = false) throws {
    try AtomicFile.write(data, to: path, newFileMode: newFileMode, force: force)
  }

  /// Removes the file; no file is no error.
  package func remove() throws {
    guard RawPath.withCString(path, { unlink($0) }) == 0 || errno == ENOENT else {
      throw PrefsError(.io(.delete, errno: errno), file: path)
    }
  }

  /// Replaces the file with `data` (nil: removes it) only if it still holds
  /// `expected` (nil: there is still no file). Returns false, writing nothing, when
  /// someone else changed it since it was read.
  package func replace(expecting expected: Data?, with data: Data?, newFileMode: mode_t, force: Bool = false) throws
    -> Bool
  {
    // A file that cannot be read now is not the one that was read.
    let unchanged: Bool
    do { unchanged = try contents() == expected } catch { unchanged = false }
    guard unchanged else { return false }
    if let data { try write(data, newFileMode: newFileMode, force: force) } else { try remove() }
    return true
  }
}
