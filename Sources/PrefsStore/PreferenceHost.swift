import PrefsModel

/// Whose preferences a store's domains are. macOS keeps those of one host apart from
/// those of any host: `ByHost/<domain>.<UUID>.plist` beside `<domain>.plist`, the UUID
/// being the host's (what `defaults -currentHost` reads and writes).
public enum PreferenceHost: Sendable, Equatable {
  /// Any host's preferences: `<domain>.plist`, the store's plain domains.
  case any
  /// One host's preferences. In a folder, `ByHost/<domain>.<uuid>.plist`; without a
  /// UUID, the one host the folder's per-host files name. For CFPreferences, the
  /// current host, which a UUID may not name otherwise.
  case current(uuid: String?)
}

/// The per-host files of a folder of preferences (`ByHost/<domain>.<UUID>.plist`),
/// and the UUIDs their names carry.
public enum HostUUID {
  /// The name of the folder of per-host files beside the domains.
  public static let folderName = "ByHost"

  /// Whether `text` is a host UUID as a per-host file name carries it: 8-4-4-4-12 hex
  /// digits, or the 12 of an older Mac's Ethernet address.
  public static func isValid(_ text: String) -> Bool {
    let lengths = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false).map(\.count)
    guard lengths == [8, 4, 4, 4, 12] || lengths == [12] else { return false }
    return text.utf8.allSatisfy { $0 == UInt8(ascii: "-") || hexDigitValue($0) != nil }
  }

  /// `text`, after checking that it is a host UUID: nothing else may become part of a
  /// file name (a `/` or `..` would leave the folder).
  public static func validated(_ text: String) throws -> String {
    guard isValid(text) else { throw PrefsError(.invalidHostUUID(text)) }
    return text
  }

  /// The file name the global domain's per-host file has, before its UUID, as macOS
  /// names it.
  static let globalDomainFile = ".GlobalPreferences"

  /// The name of `domain`'s per-host file for the host `uuid`:
  /// `com.apple.screensaver.<UUID>.plist`, `.GlobalPreferences.<UUID>.plist`.
  public static func fileName(of domain: String, uuid: String) -> String {
    "\(domain == DomainName.global ? globalDomainFile : domain).\(uuid).plist"
  }

  /// The domain and the host UUID a per-host file's name carries (the reverse of
  /// ``fileName(of:uuid:)``), or nil for any other name.
  static func parts(of fileName: String) -> (domain: String, uuid: String)? {
    guard fileName.hasSuffix(".plist") else { return nil }
    let stem = fileName.dropLast(".plist".count)
    guard let dot = stem.lastIndex(of: ".") else { return nil }
    let uuid = String(stem[stem.index(after: dot)...])
    let domain = String(stem[..<dot])
    guard isValid(uuid) else { return nil }
    if domain == globalDomainFile { return (DomainName.global, uuid) }
    return domain.isEmpty || domain.hasPrefix(".") ? nil : (domain, uuid)
  }

  /// The host UUIDs the per-host files in `folder` name, as they spell them, sorted;
  /// none when there is no such folder.
  static func found(in folder: String) -> [String] {
    let uuids = folderEntries(folder).compactMap { parts(of: $0)?.uuid }.sorted(by: PrefDictionary.codePointOrder)
    return uuids.enumerated().filter { $0.offset == 0 || uuids[$0.offset - 1] != $0.element }.map(\.element)
  }
}
