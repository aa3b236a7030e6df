import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsOperations
@testable import PrefsStore

/// `prefs export` to files: every domain into a folder, and `--update` patching the
/// export that is there.
@Suite struct DomainExportTests {
  func store(in folder: TestFolder) throws -> FileDomainStore {
    let store = FileDomainStore(directory: folder.path("store"))
    try store.domain(named: "app").modify(force: false, dryRun: false, options: ReadOptions(), warnings: Warnings()) {
      $0 = ["b": .integer(2), "a": .integer(1), "SULast": .string("x")]
    }
    try store.domain(named: "other").modify(force: false, dryRun: false, options: ReadOptions(), warnings: Warnings()) {
      $0 = ["k": .bool(true)]
    }
    return store
  }

  @Test func findGivesTheEntriesThatHoldTheWordInAnyCase() throws {
    let folder = try TestFolder()
    let store = try store(in: folder)
    let find = DomainFind("sulAST")
    #expect(try find.search(store) == [DomainFind.Found(domain: "app", entries: ["SULast": .string("x")])])
    #expect(
      DomainFind("X").entries(of: ["n": .array([.dictionary(["k": .string("ax")])]), "m": .integer(1)]).count == 1)
    #expect(DomainFind("42").matches(.integer(42)))
    #expect(
      DomainFind.openStepForm(.dictionary(["b": .bool(true), "n": .array([.integer(3)])]))
        == .dictionary(["b": .string("1"), "n": .array([.string("3")])]))
    #expect(!DomainFind("true").matches(.data(Data("true".utf8))))
    #expect(try DomainFind("nowhere").search(store).isEmpty)
  }

  @Test func aRestoreLeavesAloneTheKeysTheBackupLeftOut() throws {
    let folder = try TestFolder()
    let store = try store(in: folder)
    let backup = folder.path("backup")
    try DomainExport(format: .yaml, excluding: [KeyGlob("SU*")]).export(
      try store.domainNames(), of: store, into: backup)
    #expect(try folder.read("backup/\(DomainExport.excludedKeysFile)") == "SU*\n")
    #expect(try DomainImport.backupExcludes(in: backup) == [KeyGlob("SU*")])
    #expect(try DomainImport.backupFiles(in: backup).map(\.domain) == ["app", "other"])
    let restore = try DomainImport(excluding: [KeyGlob("b")]).restoring(from: backup)
    #expect(restore.excludes == [KeyGlob("b"), KeyGlob("SU*")])
    let restored = restore.imported(["a": .integer(5)], into: ["a": .integer(1), "SULast": .string("x")])
    #expect(restored == ["a": .integer(5), "SULast": .string("x")])
    // An export that leaves nothing out removes the record, which would now be wrong.
    try DomainExport(format: .yaml).export(try store.domainNames(), of: store, into: backup)
    #expect(!FileManager.default.fileExists(atPath: folder.path("backup/\(DomainExport.excludedKeysFile)")))
    #expect(try DomainImport.backupExcludes(in: backup).isEmpty)
    #expect(try DomainImport().restoring(from: backup).excludes.isEmpty)
  }

  @Test func everyDomainIsOneFileSortedWithoutTheExcludedKeysAndPrivateAsTheDomain() throws {
    let folder = try TestFolder()
    let store = try store(in: folder)
    let export = DomainExport(format: .yaml, excluding: [KeyGlob("SU*")])
    try export.export(try store.domainNames(), of: store, into: folder.path("backup"))
    #expect(try folder.read("backup/app.yaml") == "a: 1\nb: 2\n")
    #expect(try folder.read("backup/other.yaml") == "k: true\n")
    var info = stat()
    stat(folder.path("backup/app.yaml"), &info)
    #expect(info.st_mode & 0o777 == 0o600)
    #expect(DomainExport(format: .binary).fileName(for: "app") == "app.plist")
  }

  @Test func anUpdateKeepsTheFilesCommentsAndOrderAndAddsNewKeysInOrder() throws {
    let folder = try TestFolder()
    let store = try store(in: folder)
    try FileManager.default.createDirectory(atPath: folder.path("backup"), withIntermediateDirectories: true)
    try folder.write("backup/app.yaml", "# my settings\nb: 1   # two soon\nz: gone\n")
    let export = DomainExport(format: .yaml, excluding: [KeyGlob("SU*")], updating: true)
    try export.export(["app"], of: store, into: folder.path("backup"))
    #expect(try folder.read("backup/app.yaml") == "a: 1\n# my settings\nb: 2   # two soon\n")
    // Written anew where there is no file yet, even when updating.
    #expect(!export.updates(folder.path("backup/none.yaml")))
  }

  @Test func anUpdateKeepsTheFilesFormatAndRefusesAnother() throws {
    let folder = try TestFolder()
    let path = try folder.write("app.yaml", "a: 1\n")
    let asked = DomainExport(format: .json, updating: true, askedFormat: .json)
    #expect(throws: PrefsError.self) { try asked.update(path, with: .dictionary(["a": .integer(2)])) }
    #expect(try folder.read("app.yaml") == "a: 1\n")
    let change = try DomainExport(format: .json, updating: true).update(path, with: .dictionary(["a": .integer(2)]))
    #expect(change.before == ["a": .integer(1)])
    #expect(try folder.read("app.yaml") == "a: 2\n")
  }
}
