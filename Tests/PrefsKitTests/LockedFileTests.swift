import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsModel
@testable import PrefsStore

/// The one locked replace every writer goes through: a domain's change, a snapshot
/// put back, an edit written back.
@Suite struct LockedFileTests {
  /// A temporary that a killed write left beside `name`, old enough to be stale.
  func staleTemporary(beside name: String, in folder: TestFolder) throws -> String {
    let path = try folder.write(".\(name).Ab12Cd", "half a write")
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)
    return path
  }

  @Test func aReplaceRefusesAFileChangedUnderneath() throws {
    let folder = try TestFolder()
    let path = try folder.write("a.yaml", "a: 1\n")
    let read = try folder.data("a.yaml")
    try folder.write("a.yaml", "a: 2\n")
    let file = try LockedFile(path)
    #expect(try !file.replace(expecting: read, with: Data("a: 3\n".utf8), newFileMode: 0o644))
    #expect(try folder.read("a.yaml") == "a: 2\n")
    #expect(try file.replace(expecting: Data("a: 2\n".utf8), with: Data("a: 3\n".utf8), newFileMode: 0o644))
    #expect(try folder.read("a.yaml") == "a: 3\n")
  }

  @Test func aReplaceOfAFileThatWasNotThereRefusesOneThatIsNow() throws {
    let folder = try TestFolder()
    let path = folder.path("new.yaml")
    let file = try LockedFile(path)
    try folder.write("new.yaml", "b: 1\n")
    #expect(try !file.replace(expecting: nil, with: Data("a: 1\n".utf8), newFileMode: 0o644))
    #expect(try folder.read("new.yaml") == "b: 1\n")
    #expect(try file.replace(expecting: Data("b: 1\n".utf8), with: nil, newFileMode: 0o644))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func takingTheFileRemovesStaleTemporariesUnlessOnlyReading() throws {
    let folder = try TestFolder()
    let path = try folder.write("a.plist", "")
    let stale = try staleTemporary(beside: "a.plist", in: folder)
    _ = try LockedFile(path, removingStaleTemporaries: false)
    #expect(FileManager.default.fileExists(atPath: stale))
    _ = try LockedFile(path)
    #expect(!FileManager.default.fileExists(atPath: stale))
  }

  @Test func aRestoredSnapshotGoesThroughTheLockedReplace() throws {
    let folder = try TestFolder()
    let domain = FileDomain(path: folder.path("a.yaml"))
    try folder.write("a.yaml", "# mine\na: 1\n")
    let snapshot = try domain.snapshot()
    try domain.modify { $0 = ["a": .integer(2)] }
    let stale = try staleTemporary(beside: "a.yaml", in: folder)
    try domain.restore(snapshot)
    #expect(try folder.read("a.yaml") == "# mine\na: 1\n")
    #expect(!FileManager.default.fileExists(atPath: stale))
  }
}
