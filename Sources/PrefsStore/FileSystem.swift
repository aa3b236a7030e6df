import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// The user's home folder: `$HOME` in `environment` when it is set and not empty,
/// else the account's.
package func homeFolder(in environment: [String: String]) -> String {
  environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
}

/// Whether `path` is a folder (following symbolic links); nil when nothing is there.
package func isFolder(_ path: String) -> Bool? {
  var info = stat()
  guard RawPath.withCString(path, { stat($0, &info) }) == 0 else { return nil }
  return info.st_mode & S_IFMT == S_IFDIR
}

/// Makes the folder `path` and any missing folders above it with `mode`, as
/// `mkdir -p` does. The error names `what` and the folder that could not be made:
/// "cannot create the folder: Permission denied".
package func makeFolders(_ path: String, mode: mode_t, what: String) throws {
  if isFolder(path) == true { return }
  let parent = path.deletingLastPathComponent
  if !parent.isEmpty, parent != path { try makeFolders(parent, mode: mode, what: what) }
  guard RawPath.withCString(path, { mkdir($0, mode) }) == 0 || errno == EEXIST else {
    throw PrefsError(.cannotCreate, "cannot create \(what): \(systemErrorText())", file: path)
  }
}
