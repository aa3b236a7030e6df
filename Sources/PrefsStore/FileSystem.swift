import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// The user's home folder: `$HOME` in `environment` when it is set and not empty,
/// else the account's.
package func homeFolder(in environment: [String: String]) -> String {
  environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
}

/// The XDG base folders (config, state), each `$XDG_<KIND>_HOME` when it is an absolute
/// path, as the XDG Base Directory specification says, else its default below home.
package enum XDGFolder: Sendable {
  /// `$XDG_CONFIG_HOME`, else `~/.config`: where Foundation's `UserDefaults` keeps domains on Linux.
  case config
  /// `$XDG_STATE_HOME`, else `~/.local/state`.
  case state

  /// The folder in `environment`.
  package func path(in environment: [String: String]) -> String {
    let (variable, fallback) =
      switch self {
      case .config: ("XDG_CONFIG_HOME", ".config")
      case .state: ("XDG_STATE_HOME", ".local/state")
      }
    if let xdg = environment[variable], xdg.hasPrefix("/") { return xdg }
    return homeFolder(in: environment).appendingPathComponent(fallback)
  }
}

/// Whether `path` is a folder (following symbolic links); nil when nothing is there.
package func isFolder(_ path: String) -> Bool? {
  var info = stat()
  guard RawPath.withCString(path, { stat($0, &info) }) == 0 else { return nil }
  return info.st_mode & S_IFMT == S_IFDIR
}

/// The names in the folder `path` (`.` and `..` included), none when it cannot be
/// opened: a name that is not UTF-8 keeps its bytes (`RawPath`), so that it can be
/// named back.
package func folderEntries(_ path: String) -> [String] {
  RawPath.withCString(path) { path -> [String] in
    guard let folder = opendir(path) else { return [] }
    defer { closedir(folder) }
    var names: [String] = []
    while let entry = readdir(folder) {
      let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      names.append(RawPath.string(from: bytes))
    }
    return names
  }
}

/// Makes the folder `path` and any missing folders above it with `mode`, as
/// `mkdir -p` does. The error names `what` and the folder that could not be made:
/// "cannot create the folder: Permission denied".
package func makeFolders(_ path: String, mode: mode_t, what: String) throws {
  if isFolder(path) == true { return }
  let parent = path.deletingLastPathComponent
  if !parent.isEmpty, parent != path { try makeFolders(parent, mode: mode, what: what) }
  guard RawPath.withCString(path, { mkdir($0, mode) }) == 0 || errno == EEXIST else {
    throw PrefsError(.io(.createFolder(what), errno: errno), file: path)
  }
}

/// Refuses `path` unless it is the user's own and private: not a symbolic link, of
/// `type` (`S_IFDIR`, `S_IFREG`), owned by the effective user, and with none of the
/// mode bits in `forbidden` (0o077: a private folder; 0o022: a file no one else may
/// change). Returns false when nothing is there.
@discardableResult
package func checkPrivate(_ path: String, type: mode_t, forbidden: mode_t) throws -> Bool {
  var info = stat()
  guard RawPath.withCString(path, { lstat($0, &info) }) == 0 else {
    if errno == ENOENT { return false }
    throw PrefsError(.io(.status, errno: errno), file: path)
  }
  let problem: String? =
    if info.st_mode & S_IFMT == S_IFLNK {
      "is a symbolic link; it must be a \(type == S_IFDIR ? "folder" : "file") of its own"
    } else if info.st_mode & S_IFMT != type {
      "is not a \(type == S_IFDIR ? "folder" : "regular file")"
    } else if info.st_uid != geteuid() {
      "belongs to user \(info.st_uid), not to the user running prefs (\(geteuid()))"
    } else if info.st_mode & forbidden != 0 {
      "has mode 0\(String(info.st_mode & 0o7777, radix: 8)), which lets others in; it must have none of 0\(String(forbidden, radix: 8))"
    } else {
      nil
    }
  if let problem { throw PrefsError(.untrusted(problem: problem), file: path) }
  return true
}
