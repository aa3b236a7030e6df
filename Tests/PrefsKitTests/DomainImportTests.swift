import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsOperations
@testable import PrefsStore

/// `prefs import`'s rules: replace or merge, the excluded keys kept, the dry run.
@Suite struct DomainImportTests {
  let held: PrefDictionary = ["a": .integer(1), "SUKept": .integer(2), "b": .integer(3)]
  let input: PrefDictionary = ["a": .integer(5), "SUKept": .integer(9), "c": .integer(1)]
  let excludes = [KeyGlob("SU*")]

  @Test func aReplaceKeepsWhatTheExcludesMatchAndNothingElse() throws {
    let folder = try TestFolder()
    let domain = FileDomain(path: folder.path("d.plist"))
    try domain.modify { $0 = held }
    let change = try DomainImport(mode: .replace, excluding: excludes).run(input, into: domain)
    #expect(change.after == ["a": .integer(5), "c": .integer(1), "SUKept": .integer(2)])
    #expect(try domain.read() == change.after)
  }

  @Test func aMergeAddsTheInputsKeysButNotTheExcludedOnes() throws {
    let importer = DomainImport(mode: .merge, excluding: excludes)
    #expect(
      importer.imported(input, into: held)
        == ["a": .integer(5), "SUKept": .integer(2), "b": .integer(3), "c": .integer(1)])
    #expect(importer.imported(input, into: nil) == ["a": .integer(5), "c": .integer(1)])
  }

  @Test func aDryRunSaysWhatWouldChangeAndWritesNothing() throws {
    let folder = try TestFolder()
    let domain = FileDomain(path: folder.path("d.plist"))
    try domain.modify { $0 = held }
    let bytes = try folder.data("d.plist")
    let change = try DomainImport(excluding: excludes).run(input, into: domain, dryRun: true)
    #expect(change.changesDomain)
    #expect(change.changes.map(\.path.description).sorted() == ["a", "b", "c"])
    #expect(try folder.data("d.plist") == bytes)
    let same = try DomainImport(excluding: excludes).run(held, into: domain, dryRun: true)
    #expect(!same.changesDomain)
  }

  @Test func aSchemaCoercesWhatItCanAndStrictRefusesInstead() {
    let input: PrefDictionary = ["isAccountPrivate": .string("false")]
    let lenient = DomainImport.fit(input, to: .userSettings, strict: false)
    #expect(lenient.fitted == ["isAccountPrivate": .bool(false)])
    #expect(lenient.coercions.count == 1)
    #expect(lenient.refusals.isEmpty)
    let strict = DomainImport.fit(input, to: .userSettings, strict: true)
    #expect(strict.coercions.isEmpty)
    #expect(strict.refusals.map(\.path.description) == ["isAccountPrivate"])
    let discarded = DomainImport.fit(["isAccountPrivate": .string("maybe")], to: .userSettings, strict: false)
    #expect(discarded.refusals.map(\.path.description) == ["isAccountPrivate"])
  }

  @Test func aBackupFolderNamesADomainByEachFile() throws {
    let folder = try TestFolder()
    try folder.write("b.app.yaml", "k: 1\n")
    try folder.write("a.app.plist", "")
    try folder.write("notes.txt", "")
    try folder.write(".hidden.yaml", "")
    let files = try DomainImport.backupFiles(in: folder.url.path)
    #expect(files.map(\.domain) == ["a.app", "b.app"])
    #expect(files.map(\.file) == [folder.path("a.app.plist"), folder.path("b.app.yaml")])
    #expect(throws: PrefsError.self) { try DomainImport.backupFiles(in: folder.path("missing")) }
  }
}
