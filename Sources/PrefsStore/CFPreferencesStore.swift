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
    public init() {}

    public var location: String { FileManager.default.homeDirectoryForCurrentUser.path + "/Library/Preferences" }

    public func domainNames() throws -> [String] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: location)) ?? []
      return names.filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }
        .map { String($0.dropLast(".plist".count)) }.sorted()
    }

    public func domain(named name: String) throws -> any PreferenceDomain {
      let valid = try DomainName.validated(name)
      return CFPreferencesDomain(name: valid == DomainName.global ? kCFPreferencesAnyApplication as String : valid)
    }
  }

  /// One domain of the current user, any host, read and written through CFPreferences.
  public struct CFPreferencesDomain: PreferenceDomain {
    public let name: String
    public var location: String {
      "\(FileManager.default.homeDirectoryForCurrentUser.path)/Library/Preferences/\(name).plist"
    }

    public func read(options: ReadOptions) throws -> PrefDictionary? {
      let app = name as CFString
      guard let keys = CFPreferencesCopyKeyList(app, kCFPreferencesCurrentUser, kCFPreferencesAnyHost) as? [String]
      else { return nil }
      let values = CFPreferencesCopyMultiple(keys as CFArray, app, kCFPreferencesCurrentUser, kCFPreferencesAnyHost)
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
        object as? CFDictionary, removed as CFArray, app, kCFPreferencesCurrentUser, kCFPreferencesAnyHost)
      guard CFPreferencesSynchronize(app, kCFPreferencesCurrentUser, kCFPreferencesAnyHost) else {
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
/// `UserDefaults` file layout on Linux.
public func defaultDomainStore(
  directory: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
) -> any DomainStore {
  if let directory { return FileDomainStore(directory: directory) }
  #if canImport(Darwin)
    if environment["PREFS_DEFAULTS_DIR"]?.isEmpty == false { return FileDomainStore(environment: environment) }
    return CFPreferencesStore()
  #else
    return FileDomainStore(environment: environment)
  #endif
}
