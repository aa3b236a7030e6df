import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// One preference domain: a dictionary that can be read, and changed under a lock.
public protocol PreferenceDomain: Sendable {
  /// The name shown in messages (`com.example.app`, or the file path).
  var name: String { get }
  /// Where the domain lives, for messages (`~/.config/com.example.app.plist`).
  var location: String { get }
  /// The domain's contents, or nil when it does not exist.
  func read(options: ReadOptions) throws -> PrefDictionary?
  /// The domain's contents, with what reading it warns of (a duplicate key kept under
  /// ``ReadOptions/allowDuplicateKeys``) added to `warnings`.
  func read(options: ReadOptions, warnings: Warnings) throws -> PrefDictionary?
  /// The permission bits of the file the domain is kept in, which a copy of it (an
  /// export) keeps; nil when it has no file.
  var fileMode: mode_t? { get }
  /// Reads the domain under its lock, lets `body` change it (nil: the domain does
  /// not exist / is to be deleted), and writes the result back atomically unless
  /// `dryRun`. A domain that does not parse is refused unless `force`, which first
  /// keeps a copy of it beside it (`.bak`). A text file keeps its text: only the
  /// bytes of what changed change, and `warnings` says where that could not be done
  /// in place. A null, which a property list cannot hold, is refused by its key path
  /// when the domain is a plist, unless `dropNulls` leaves it out with a warning (a
  /// YAML or JSON file keeps it). Returns the contents before and after.
  @discardableResult
  func modify(
    force: Bool, dryRun: Bool, options: ReadOptions, dropNulls: Bool, warnings: Warnings,
    _ body: (inout PrefDictionary?) throws -> Void
  ) throws -> (before: PrefDictionary?, after: PrefDictionary?)
  /// The domain as it is now, to be put back by ``restore(_:)``. Reading it writes
  /// nothing and takes no lock.
  func snapshot() throws -> DomainSnapshot
  /// Puts the domain back as `snapshot` found it, under its lock: a domain that did
  /// not exist is removed.
  func restore(_ snapshot: DomainSnapshot) throws
}

extension PreferenceDomain {
  /// ``modify(force:dryRun:options:dropNulls:warnings:_:)``, refusing nulls where the
  /// domain is a plist.
  @discardableResult
  public func modify(
    force: Bool, dryRun: Bool, options: ReadOptions, warnings: Warnings,
    _ body: (inout PrefDictionary?) throws -> Void
  ) throws -> (before: PrefDictionary?, after: PrefDictionary?) {
    try modify(force: force, dryRun: dryRun, options: options, dropNulls: false, warnings: warnings, body)
  }
}

/// What a domain held when ``PreferenceDomain/snapshot()`` was taken. A file domain
/// keeps its file's bytes, so that putting it back restores every byte (comments,
/// layout and format included); a store that keeps its domains itself (CFPreferences,
/// whose files belong to cfprefsd) keeps the value.
public enum DomainSnapshot: Sendable, Equatable {
  /// There was no such domain.
  case missing
  /// The domain's file: its exact bytes and its permission bits.
  case file(contents: Data, mode: mode_t)
  /// The domain's value.
  case value(PrefDictionary)

  /// The dictionary the domain held; nil when it did not exist. `name` names it in errors.
  public func contents(name: String) throws -> PrefDictionary? {
    switch self {
    case .missing: return nil
    case .value(let contents): return contents
    case .file(let data, _):
      if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return PrefDictionary() }
      do {
        let value = try Format.read(data).value
        guard case .dictionary(let dict) = value else { throw PrefsError(.domainNotDictionary(holds: value.kind)) }
        return dict
      } catch let error as PrefsError {
        throw error.inFile(name)
      }
    }
  }
}

extension PreferenceDomain {
  public var fileMode: mode_t? { nil }

  /// Reads without warnings, for stores whose reader has none to give.
  public func read(options: ReadOptions, warnings: Warnings) throws -> PrefDictionary? {
    try read(options: options)
  }
}

/// A place that holds named domains: the Linux file store, or CFPreferences on macOS.
public protocol DomainStore: Sendable {
  /// Where the domains live, for messages and help.
  var location: String { get }
  /// Whose preferences the domains are: any host's, or one host's.
  var host: PreferenceHost { get }
  /// The names of the domains that exist, sorted.
  func domainNames() throws -> [String]
  /// The domain called `name` (which need not exist yet); invalid names are refused.
  func domain(named name: String) throws -> any PreferenceDomain
}

extension DomainStore {
  /// Any host's, for a store that keeps no other.
  public var host: PreferenceHost { .any }
}

/// Rules for domain names, shared by every store.
public enum DomainName {
  /// The name of the global domain; `-g` is its short form.
  public static let global = "NSGlobalDomain"

  /// `name` with `-g` spelled out, after checking it cannot escape the store: no `/`,
  /// no `..`, not empty, no leading `.`, no control characters.
  public static func validated(_ name: String) throws -> String {
    if name == "-g" { return global }
    func refuse(_ why: String) -> PrefsError {
      PrefsError(
        .invalidDomainName(name, problem: why),
        hints: ["a domain name looks like com.example.app; a path needs a '/' (./file.plist)"])
    }
    if name.isEmpty { throw refuse("it is empty") }
    if name == "-" {
      throw PrefsError(
        .standardInputNotChangeable,
        hints: ["read, get, diff, export and lint read '-'; set and remove change it into standard output"])
    }
    if name.contains("/") { throw refuse("it contains '/'") }
    if name.contains("..") { throw refuse("it contains '..'") }
    if name.hasPrefix(".") { throw refuse("it starts with '.'") }
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw refuse("it contains a control character")
    }
    return name
  }

  /// Whether a domain argument names a file rather than a domain: it contains a `/`
  /// or ends in one of the format table's extensions.
  public static func isPath(_ argument: String) -> Bool {
    argument.contains("/") || (argument != "-g" && Format.forPath(argument) != nil)
  }
}

/// Resolves a domain argument (`com.example.app`, `-g`, `./file.yaml`) to a domain.
public func resolveDomain(_ argument: String, in store: any DomainStore) throws -> any PreferenceDomain {
  if DomainName.isPath(argument) { return FileDomain(path: argument) }
  return try store.domain(named: argument)
}
