import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// The Linux domain store: one XML plist per domain, exactly where
/// swift-corelibs-foundation's `UserDefaults(suiteName:)` keeps it —
/// `$XDG_CONFIG_HOME/<domain>.plist` when that variable is an absolute path, else
/// `$HOME/.config/<domain>.plist` — or in a folder given by `--defaults-dir` or
/// `PREFS_DEFAULTS_DIR`. New domain files get mode 0600, as `UserDefaults` gives them.
public struct FileDomainStore: DomainStore {
  /// The folder holding the domain files.
  public let directory: String

  public init(directory: String) { self.directory = directory }

  /// The store `UserDefaults` uses, unless `PREFS_DEFAULTS_DIR` points elsewhere.
  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.init(directory: Self.defaultDirectory(environment: environment))
  }

  /// `PREFS_DEFAULTS_DIR`, else `$XDG_CONFIG_HOME` when absolute, else `$HOME/.config`.
  public static func defaultDirectory(environment: [String: String]) -> String {
    if let explicit = environment["PREFS_DEFAULTS_DIR"], !explicit.isEmpty { return explicit }
    return XDGFolder.config.path(in: environment)
  }

  public var location: String { directory }

  /// The store's domains, by their file names: a name that is not UTF-8 keeps its
  /// bytes (`RawPath`), so that it can be named back to read it.
  public func domainNames() throws -> [String] {
    let names = RawPath.withCString(directory) { path -> [String] in
      guard let folder = opendir(path) else { return [] }
      defer { closedir(folder) }
      var names: [String] = []
      while let entry = readdir(folder) {
        let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
        names.append(RawPath.string(from: bytes))
      }
      return names
    }
    return names.filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }
      .map { String($0.dropLast(".plist".count)) }
      .sorted(by: PrefDictionary.codePointOrder)
  }

  public func domain(named name: String) throws -> any PreferenceDomain {
    let valid = try DomainName.validated(name)
    let path = directory.appendingPathComponent(valid + ".plist")
    return FileDomain(path: path, name: valid, newFileFormat: .xml, newFileMode: 0o600, createsFolder: true)
  }
}
