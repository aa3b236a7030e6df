import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// The Linux domain store: one XML plist per domain, exactly where
/// swift-corelibs-foundation's `UserDefaults(suiteName:)` keeps it —
/// `$XDG_CONFIG_HOME/<domain>.plist` when that variable is an absolute path, else
/// `$HOME/.config/<domain>.plist` — or in a folder given by `--defaults-dir` or
/// `PREFS_DEFAULTS_DIR`. New domain files get mode 0600, as `UserDefaults` gives them.
///
/// A folder laid out as macOS's `~/Library/Preferences` also keeps one host's
/// preferences in `ByHost/<domain>.<UUID>.plist`: with a `host`, those are the
/// store's domains, and the plain ones are never touched.
public struct FileDomainStore: DomainStore {
  /// The folder holding the domain files.
  public let directory: String
  /// Whose preferences the domains are: any host's (`<domain>.plist`), or one host's
  /// (`ByHost/<domain>.<UUID>.plist`).
  public let host: PreferenceHost

  public init(directory: String, host: PreferenceHost = .any) {
    self.directory = directory
    self.host = host
  }

  /// The store `UserDefaults` uses, unless `PREFS_DEFAULTS_DIR` points elsewhere.
  public init(environment: [String: String] = ProcessInfo.processInfo.environment, host: PreferenceHost = .any) {
    self.init(directory: Self.defaultDirectory(environment: environment), host: host)
  }

  /// `PREFS_DEFAULTS_DIR`, else `$XDG_CONFIG_HOME` when absolute, else `$HOME/.config`.
  public static func defaultDirectory(environment: [String: String]) -> String {
    if let explicit = environment["PREFS_DEFAULTS_DIR"], !explicit.isEmpty { return explicit }
    return XDGFolder.config.path(in: environment)
  }

  public var location: String { directory }

  /// The folder of the per-host files.
  public var byHostFolder: String { directory.appendingPathComponent(HostUUID.folderName) }

  /// The UUID of the host whose files the store addresses, nil for any host's: the one
  /// given (spelled as a file already spells it, whatever the case), else the one the
  /// per-host files name, which must be exactly one.
  public func hostUUID() throws -> String? {
    guard case .current(let given) = host else { return nil }
    let found = HostUUID.found(in: byHostFolder)
    if let given {
      let valid = try HostUUID.validated(given)
      return found.first { $0.lowercased() == valid.lowercased() } ?? valid
    }
    switch found.count {
    case 0: throw PrefsError(.noHostUUID(folder: byHostFolder))
    case 1: return found[0]
    default: throw PrefsError(.severalHostUUIDs(found))
    }
  }

  /// The store's domains, by their file names: a name that is not UTF-8 keeps its
  /// bytes (`RawPath`), so that it can be named back to read it. With a host, the
  /// domains of its per-host files.
  public func domainNames() throws -> [String] {
    let names: [String]
    if let uuid = try hostUUID() {
      names = folderEntries(byHostFolder).compactMap { HostUUID.parts(of: $0) }.filter { $0.uuid == uuid }
        .map(\.domain)
    } else {
      names = folderEntries(directory).filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }
        .map { String($0.dropLast(".plist".count)) }
    }
    return names.sorted(by: PrefDictionary.codePointOrder)
  }

  public func domain(named name: String) throws -> any PreferenceDomain {
    let valid = try DomainName.validated(name)
    guard let uuid = try hostUUID() else {
      let path = directory.appendingPathComponent(valid + ".plist")
      return FileDomain(path: path, name: valid, newFileFormat: .xml, newFileMode: 0o600, createsFolder: true)
    }
    // A missing ByHost folder is made as private as the folder it is in.
    var info = stat()
    let folderMode = RawPath.withCString(directory, { stat($0, &info) }) == 0 ? info.st_mode & 0o777 : 0o700
    let path = byHostFolder.appendingPathComponent(HostUUID.fileName(of: valid, uuid: uuid))
    return FileDomain(
      path: path, name: valid, newFileFormat: .xml, newFileMode: 0o600, createsFolder: true,
      newFolderMode: folderMode)
  }
}
