import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsStore

/// The file store's domains, of any host (`<domain>.plist`) and of one host
/// (`ByHost/<domain>.<UUID>.plist`), kept apart.
@Suite struct FileDomainStoreTests {
  static let uuid = "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9"
  static let olderUUID = "001b63a7c1e5"

  /// Writes `contents` into `domain` of `store`.
  func write(_ contents: PrefDictionary, to domain: String, in store: FileDomainStore) throws {
    try store.domain(named: domain).modify(force: false, dryRun: false, options: ReadOptions(), warnings: Warnings()) {
      $0 = contents
    }
  }

  /// The kind of the error `body` throws, nil when it throws none.
  func errorKind(_ body: () throws -> Void) -> PrefsError.Kind? {
    do {
      try body()
      return nil
    } catch let error as PrefsError {
      return error.kind
    } catch {
      return .other(.io, "\(error)")
    }
  }

  @Test func aHostUUIDIsEightFourFourFourTwelveHexDigitsOrAnEthernetAddress() {
    for valid in [Self.uuid, Self.uuid.lowercased(), Self.olderUUID, "00000000-0000-1000-8000-001B63A7C1E5"] {
      #expect(HostUUID.isValid(valid), "\(valid)")
    }
    for invalid in [
      "", "..", "../x", "a/b", "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F", "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9-",
      "0A1B2C3D4E5F607182 93A4B5C6D7E8F9", "G01b63a7c1e5", "001b63a7c1e5\n", "00-1b63a7c1e5", "-001b63a7c1e",
      "0A1B2C3D/4E5F/6071/8293/A4B5C6D7E8F9",
    ] {
      #expect(!HostUUID.isValid(invalid), "\(invalid)")
      #expect(errorKind { _ = try HostUUID.validated(invalid) } == .invalidHostUUID(invalid))
    }
  }

  @Test func theOneHostPresentIsTheOneAddressed() throws {
    let folder = try TestFolder()
    let store = FileDomainStore(directory: folder.path("Preferences"))
    try write(["plain": .bool(true)], to: "com.apple.screensaver", in: store)
    try FileManager.default.createDirectory(atPath: store.byHostFolder, withIntermediateDirectories: true)
    // A file of another domain is enough to name the host.
    try Data().write(to: URL(fileURLWithPath: store.byHostFolder + "/com.apple.other.\(Self.uuid).plist"))
    let host = FileDomainStore(directory: store.directory, host: .current(uuid: nil))
    #expect(try host.hostUUID() == Self.uuid)
    try write(["idleTime": .integer(300)], to: "com.apple.screensaver", in: host)

    let byHost = store.byHostFolder + "/com.apple.screensaver.\(Self.uuid).plist"
    #expect(try host.domain(named: "com.apple.screensaver").location == byHost)
    #expect(try host.domain(named: "com.apple.screensaver").read(options: ReadOptions()) == ["idleTime": .integer(300)])
    // The plain domain is untouched, and the per-host one is not among the plain domains.
    #expect(try store.domain(named: "com.apple.screensaver").read(options: ReadOptions()) == ["plain": .bool(true)])
    #expect(try store.domainNames() == ["com.apple.screensaver"])
    #expect(try host.domainNames() == ["com.apple.other", "com.apple.screensaver"])
  }

  @Test func noHostPresentAndNoneGivenIsAnError() throws {
    let folder = try TestFolder()
    let host = FileDomainStore(directory: folder.path("Preferences"), host: .current(uuid: nil))
    let missingFolder = PrefsError.Kind.noHostUUID(folder: folder.path("Preferences/ByHost"))
    #expect(errorKind { _ = try host.domain(named: "com.apple.screensaver") } == missingFolder)
    #expect(errorKind { _ = try host.domainNames() } == missingFolder)
    // Files that name no host name none: a plain name, a hidden one, a folder.
    try FileManager.default.createDirectory(
      atPath: folder.path("Preferences/ByHost/sub.\(Self.uuid).plist.d"), withIntermediateDirectories: true)
    try folder.write("Preferences/ByHost/com.apple.screensaver.plist", "")
    try folder.write("Preferences/ByHost/.hidden.\(Self.uuid).plist", "")
    #expect(errorKind { _ = try host.domainNames() } == missingFolder)
  }

  @Test func severalHostsPresentAreListedUnlessOneIsGiven() throws {
    let folder = try TestFolder()
    try FileManager.default.createDirectory(atPath: folder.path("P/ByHost"), withIntermediateDirectories: true)
    for name in [
      "com.a.\(Self.uuid)", "com.b.\(Self.uuid)", "com.a.\(Self.olderUUID)", ".GlobalPreferences.\(Self.uuid)",
    ] {
      try folder.write("P/ByHost/\(name).plist", "{}")
    }
    let unnamed = FileDomainStore(directory: folder.path("P"), host: .current(uuid: nil))
    let several = PrefsError.Kind.severalHostUUIDs([Self.olderUUID, Self.uuid].sorted())
    #expect(errorKind { _ = try unnamed.domainNames() } == several)
    #expect(errorKind { _ = try unnamed.domain(named: "com.a") } == several)

    // Given in another case, the UUID is spelled as the files spell it.
    let named = FileDomainStore(directory: folder.path("P"), host: .current(uuid: Self.uuid.lowercased()))
    #expect(try named.domainNames() == ["NSGlobalDomain", "com.a", "com.b"])
    #expect(try named.domain(named: "com.a").location == folder.path("P/ByHost/com.a.\(Self.uuid).plist"))
    #expect(try named.domain(named: "-g").location == folder.path("P/ByHost/.GlobalPreferences.\(Self.uuid).plist"))
    let older = FileDomainStore(directory: folder.path("P"), host: .current(uuid: Self.olderUUID.uppercased()))
    #expect(try older.domainNames() == ["com.a"])
    // A UUID no file names yet addresses new files.
    let fresh = FileDomainStore(directory: folder.path("P"), host: .current(uuid: "ffffffffffff"))
    #expect(try fresh.domainNames() == [])
    #expect(try fresh.domain(named: "com.a").read(options: ReadOptions()) == nil)
  }

  @Test func aHostileUUIDOrDomainNeverLeavesTheFolder() throws {
    let folder = try TestFolder()
    for uuid in ["../../etc", "/tmp/x", "..", "x"] {
      let store = FileDomainStore(directory: folder.path("P"), host: .current(uuid: uuid))
      #expect(errorKind { _ = try store.domain(named: "com.a") } == .invalidHostUUID(uuid))
      #expect(errorKind { _ = try store.domainNames() } == .invalidHostUUID(uuid))
    }
    let store = FileDomainStore(directory: folder.path("P"), host: .current(uuid: Self.uuid))
    #expect(errorKind { _ = try store.domain(named: "../x") } == .invalidDomainName("../x", problem: "it contains '/'"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("P")))
  }

  @Test func aMissingByHostFolderGetsTheModeOfItsFolder() throws {
    let folder = try TestFolder()
    // mkdir applies the umask, which a test may not change: the process runs others beside it.
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let maskLine = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
    let mask = try #require(Int(maskLine.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    try FileManager.default.createDirectory(
      atPath: folder.path("P"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o750])
    let store = FileDomainStore(directory: folder.path("P"), host: .current(uuid: Self.uuid))
    try write(["k": .integer(1)], to: "com.a", in: store)
    func mode(_ path: String) throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }
    #expect(try mode(folder.path("P/ByHost")) == 0o750 & ~mask)
    #expect(try mode(folder.path("P/ByHost/com.a.\(Self.uuid).plist")) == 0o600)

    // With no folder at all, both are made private, as the store's folder is.
    let fresh = FileDomainStore(directory: folder.path("Q"), host: .current(uuid: Self.uuid))
    try write(["k": .integer(1)], to: "com.a", in: fresh)
    #expect(try mode(folder.path("Q")) == 0o700 & ~mask)
    #expect(try mode(folder.path("Q/ByHost")) == 0o700 & ~mask)
  }
}
