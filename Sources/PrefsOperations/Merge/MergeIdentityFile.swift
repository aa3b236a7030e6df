import PrefsModel

/// A repository's own array identities for merges: the file ``name`` at the root of a
/// repository maps path globs to the fields that name the items of arrays, so that
/// git's merge driver matches them without an option on its one command line.
///
/// Each line is a path glob and one or more `KEYPATH=FIELD` pairs, as `--array-key`
/// takes them; `#` starts a comment line:
///
/// ```
/// # files                 arrays and the field that names their items
/// com.apple.dock.plist    persistent-apps=tile-data.bundle-identifier
/// config/*.yaml           servers=host  users.*.keys=fingerprint
/// ```
///
/// Globs match as in `.gitattributes`: one without a `/` matches a file's name in any
/// folder; one with a `/` matches the path from the repository's root (a leading `/`
/// only anchors it), where `*` stays within a folder and `**` crosses folders.
public struct MergeIdentityFile: Sendable {
  /// The file's name at the root of a repository.
  public static let name = ".prefs-merge"

  /// One line: the paths it applies to and their arrays' identity fields.
  public struct Rule: Sendable {
    /// The path glob, as written.
    public let paths: String
    /// The arrays (key globs) and the field (a key path in each item) naming their items.
    public let arrayKeys: [(array: KeyGlob, field: [String])]
  }

  /// The rules, in the file's order.
  public let rules: [Rule]

  /// Reads the file's text; a line that is not a glob followed by `KEYPATH=FIELD`
  /// pairs is a syntax error at its line, naming `file`.
  public init(_ text: String, file: String = MergeIdentityFile.name) throws {
    var rules: [Rule] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
      guard let paths = words.first, !paths.hasPrefix("#") else { continue }
      func failure(_ problem: String) -> PrefsError {
        PrefsError(
          .syntax(format: Self.name, stage: .parser, problem: problem), file: file,
          position: .lineColumn(line: index + 1, column: 1))
      }
      guard words.count > 1 else { throw failure("'\(paths)' names no array (KEYPATH=FIELD)") }
      let keys = try words.dropFirst().map { word in
        guard let key = ThreeWayMerge.Options.arrayKey(word) else {
          throw failure("'\(word)' is not KEYPATH=FIELD")
        }
        return key
      }
      rules.append(Rule(paths: paths, arrayKeys: keys))
    }
    self.rules = rules
  }

  /// The identity fields for the file at `path` (relative to the repository's root):
  /// those of every rule whose glob matches, in the file's order.
  public func arrayKeys(for path: String) -> [(array: KeyGlob, field: [String])] {
    rules.filter { Self.glob($0.paths, matches: path) }.flatMap(\.arrayKeys)
  }

  /// Whether a `.gitattributes`-style glob matches `path`.
  static func glob(_ pattern: String, matches path: String) -> Bool {
    var path = Substring(path)
    while path.hasPrefix("./") { path = path.dropFirst(2) }
    guard pattern.contains("/") else {
      let fileName = path.split(separator: "/").last.map(String.init) ?? String(path)
      return fnmatch(pattern, fileName, 0) == 0
    }
    let anchored = pattern.hasPrefix("/") ? String(pattern.dropFirst()) : pattern
    return fnmatch(anchored, String(path), anchored.contains("**") ? 0 : FNM_PATHNAME) == 0
  }
}
