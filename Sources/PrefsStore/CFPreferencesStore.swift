import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

#if canImport(Darwin)
  import CoreFoundation
  import Foundation

  /// The macOS domain store: CFPreferences, through cfprefsd, which caches domains
  /// (so files under ~/Library/Preferences must not be edited behind its back).
  /// Values cross into and out of CoreFoundation as binary plist data, through the
  /// same codec every other path uses.
  public struct CFPreferencesStore: DomainStore {
    /// Any host's preferences, or (`.current`) the current host's, which cfprefsd keeps
    /// in `ByHost/`; it reaches no other host's.
    public let host: PreferenceHost

    public init(host: PreferenceHost = .any) { self.host = host }

    public var location: String { FileManager.default.homeDirectoryForCurrentUser.path + "/Library/Preferences" }

    /// This Mac's UUID, which names its per-host files; nil when the system does not say.
    private static func currentHostUUID() -> String? {
      #if os(macOS)
        var bytes = [UInt8](repeating: 0, count: 16)
        var wait = timespec(tv_sec: 1, tv_nsec: 0)
        guard gethostuuid(&bytes, &wait) == 0 else { return nil }
        return NSUUID(uuidBytes: bytes).uuidString
      #else
        return nil
      #endif
    }

    /// Whether the domains are the current host's; a UUID names a host CFPreferences
    /// cannot reach.
    private func isCurrentHost() throws -> Bool {
      guard case .current(let uuid) = host else { return false }
      if let uuid { throw PrefsError(.otherHost(uuid: uuid)) }
      return true
    }

    public func domainNames() throws -> [String] {
      if try isCurrentHost() {
        return try FileDomainStore(directory: location, host: .current(uuid: Self.currentHostUUID())).domainNames()
      }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: location)) ?? []
      return names.filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }
        .map { String($0.dropLast(".plist".count)) }.sorted()
    }

    public func domain(named name: String) throws -> any PreferenceDomain {
      let valid = try DomainName.validated(name)
      let app = valid == DomainName.global ? kCFPreferencesAnyApplication as String : valid
      guard try isCurrentHost() else {
        return CFPreferencesDomain(name: app, currentHost: false, location: "\(location)/\(app).plist")
      }
      let file = HostUUID.fileName(of: valid, uuid: Self.currentHostUUID() ?? "UUID")
      return CFPreferencesDomain(name: app, currentHost: true, location: "\(location)/\(HostUUID.folderName)/\(file)")
    }
  }

  /// One domain of the current user, for any host or the current one, read and written
  /// through CFPreferences.
  public struct CFPreferencesDomain: PreferenceDomain {
    public let name: String
    /// Whether the domain is the current host's (`kCFPreferencesCurrentHost`).
    public let currentHost: Bool
    public let location: String

    public init(name: String, currentHost: Bool, location: String) {
      self.name = name
      self.currentHost = currentHost
      self.location = location
    }

    private var host: CFString { currentHost ? kCFPreferencesCurrentHost : kCFPreferencesAnyHost }

    public func read(options: ReadOptions) throws -> PrefDictionary? {
      let app = name as CFString
      guard let keys = CFPreferencesCopyKeyList(app, kCFPreferencesCurrentUser, host) as? [String]
      else { return nil }
      let values = CFPreferencesCopyMultiple(keys as CFArray, app, kCFPreferencesCurrentUser, host)
      let data = try PropertyListSerialization.data(
        fromPropertyList: values as NSDictionary, format: .binary, options: 0)
      return try Format.binary.codec.read(data, options: options, warnings: Warnings()).dictionaryValue
    }

    @discardableResult
    public func modify(
      force: Bool, dryRun: Bool, options: ReadOptions, dropNulls: Bool, warnings: Warnings,
      _ body: (inout PrefDictionary?) throws -> Void
    ) throws -> (before: PrefDictionary?, after: PrefDictionary?) {
      let before = try read(options: options)
      var after = before
      try body(&after)
      if dryRun { return (before, after) }
      let app = name as CFString
      let newValues = after ?? PrefDictionary()
      let data = try Format.binary.codec.encode(
        .dictionary(newValues), options: WriteOptions(dropNulls: dropNulls), warnings: warnings)
      let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
      let removed = (before?.keys ?? []).filter { !newValues.contains($0) }
      CFPreferencesSetMultiple(
        object as? CFDictionary, removed as CFArray, app, kCFPreferencesCurrentUser, host)
      guard CFPreferencesSynchronize(app, kCFPreferencesCurrentUser, host) else {
        throw PrefsError(.notSaved, file: name)
      }
      return (before, after)
    }

    /// The domain's value as cfprefsd gives it: its files are cfprefsd's, and a copy of
    /// their bytes would not be what the domain holds.
    public func snapshot() throws -> DomainSnapshot {
      try read(options: ReadOptions()).map(DomainSnapshot.value) ?? .missing
    }

    /// Sets the snapshot's value through CFPreferences, removing the keys it did not
    /// hold (all of them when the domain did not exist).
    public func restore(_ snapshot: DomainSnapshot) throws {
      let contents = try snapshot.contents(name: name)
      try modify(force: false, dryRun: false, options: ReadOptions(), warnings: Warnings()) { $0 = contents }
    }
  }
#endif

/// The store the command uses: the folder given by `--defaults-dir` or
/// `PREFS_DEFAULTS_DIR` when there is one; else CFPreferences on macOS and the
/// `UserDefaults` file layout on Linux. `host` says whose preferences its domains are.
public func defaultDomainStore(
  directory: String? = nil, host: PreferenceHost = .any,
  environment: [String: String] = ProcessInfo.processInfo.environment
) -> any DomainStore {
  if let directory { return FileDomainStore(directory: directory, host: host) }
  #if canImport(Darwin)
    if environment["PREFS_DEFAULTS_DIR"]?.isEmpty == false {
      return FileDomainStore(environment: environment, host: host)
    }
    return CFPreferencesStore(host: host)
  #else
    return FileDomainStore(environment: environment, host: host)
  #endif
}
