import PrefsFormats
import PrefsModel
import PrefsStore

/// A folder of published schemas, one per domain: Apple's device-management YAML
/// (`mdm/profiles`), or a ProfileManifests checkout's manifests. The schema for a
/// domain is the one whose payload type (`pfm_domain`) is the domain.
///
/// The file named for the domain (`com.apple.dock.yaml`, `com.apple.dock.plist`) is
/// tried first; otherwise every file with a format's extension is read once, and those
/// that do not read as schemas are passed over. Safe to share between threads.
public final class SchemaDirectory: @unchecked Sendable {
  /// The folder.
  public let path: String
  private let lock = Lock()
  /// Each schema file's domain and schema, read on the first search that needs them.
  private var index: [(domain: String, schema: Schema)]?

  /// The schemas of the folder at `path`.
  public init(path: String) { self.path = path }

  /// The schema whose domain is `domain`, or nil when the folder has none. With
  /// `shortName`, a domain without dots (a file's name, `dock`) also finds the one
  /// schema whose domain ends in it (`com.apple.dock`), when only one does.
  public func schema(for domain: String, shortName: Bool = false) throws -> Schema? {
    guard isFolder(path) == true else { throw PrefsError(.notFound(.folder), file: path) }
    for ext in ["yaml", "yml", "plist", "json"] {
      let file = path.appendingPathComponent("\(domain).\(ext)")
      guard isFolder(file) == false else { continue }
      let schema = try Schema.read(try InputFile.read(file), path: file)
      if schema.domain == domain { return schema }
    }
    let all = try schemas()
    if let exact = all.first(where: { $0.domain == domain }) { return exact.schema }
    guard shortName, !domain.contains(".") else { return nil }
    let ending = all.filter { $0.domain.hasSuffix(".\(domain)") }
    return ending.count == 1 ? ending[0].schema : nil
  }

  /// The schema for a domain kept in the file `file`, by the file's name less its
  /// extension: `com.apple.dock.plist`, or by the short name, `dock.plist`.
  public func schema(forFile file: String) throws -> Schema? {
    try schema(for: Self.domainName(ofFile: file), shortName: true)
  }

  /// The domain a file's name gives: its last component less the extension.
  public static func domainName(ofFile file: String) -> String {
    file.lastPathComponent.deletingPathExtension
  }

  /// Every schema of the folder that names its domain, in file-name order.
  public func schemas() throws -> [(domain: String, schema: Schema)] {
    try lock.withLock {
      if let index { return index }
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
        throw PrefsError(.notFound(.folder), file: path)
      }
      var found: [(domain: String, schema: Schema)] = []
      for name in names.sorted() where !name.hasPrefix(".") && Format.forPath(name) != nil {
        let file = path.appendingPathComponent(name)
        guard isFolder(file) == false, let data = try? InputFile.read(file),
          let schema = try? Schema.read(data, path: file), let domain = schema.domain
        else { continue }
        found.append((domain, schema))
      }
      index = found
      return found
    }
  }
}
