import Foundation
import PrefsKit
import Testing

/// Key paths that go on into data holding JSON or a binary plist, as `get`, `set` and
/// `remove` walk them with `--expand-data`.
@Suite struct EmbeddedKeyPathTests {
  static let blob = Data(#"[{"id":"a","name":"Milk","url":"x\/y"},{"id":"b","name":"Bread"}]"#.utf8)
  static let root: PrefValue = ["items": .data(blob), "other": 1]

  func text(_ value: PrefValue, at key: String = "items") -> String {
    guard case .data(let data)? = value.dictionaryValue?[key] else { return "" }
    return String(decoding: data, as: UTF8.self)
  }

  @Test func getGoesOnIntoTheStructure() throws {
    #expect(try Self.root.value(at: ["items", "1", "name"], expandingData: true) == "Bread")
    #expect(try Self.root.value(at: ["items", "-1", "id"], expandingData: true) == "b")
    // A path that ends at the data gives the data.
    #expect(try Self.root.value(at: ["items"], expandingData: true) == .data(Self.blob))
  }

  @Test func setChangesTheBlobOnlyWhereItsStructureChanged() throws {
    let renamed = try Self.root.setting("Rye / wheat", at: ["items", "1", "name"], expandingData: true)
    #expect(
      text(renamed) == #"[{"id":"a","name":"Milk","url":"x\/y"},{"id":"b","name":"Rye \/ wheat"}]"#)
    #expect(renamed.dictionaryValue?["other"] == 1)
    let created = try Self.root.setting(
      true, at: ["items", "0", "tags", "fresh"], createMissing: true, expandingData: true)
    #expect(
      text(created) == #"[{"id":"a","name":"Milk","url":"x\/y","tags":{"fresh":true}},{"id":"b","name":"Bread"}]"#)
    // Setting what is there already leaves the bytes.
    #expect(try Self.root.setting("Milk", at: ["items", "0", "name"], expandingData: true) == Self.root)
  }

  @Test func removeTakesOutTheEntryAlone() throws {
    let removed = try Self.root.removing(at: ["items", "0"], expandingData: true)
    #expect(text(removed) == #"[{"id":"b","name":"Bread"}]"#)
    let field = try Self.root.removing(at: ["items", "0", "url"], expandingData: true)
    #expect(text(field) == #"[{"id":"a","name":"Milk"},{"id":"b","name":"Bread"}]"#)
  }

  @Test func aBlobInsideABinaryPlistBlobOpensToo() throws {
    let plist = try Format.binary.codec.encode(["inner": .data(Data(#"{"n":1}"#.utf8))])
    let root: PrefValue = ["p": .data(plist)]
    #expect(try root.value(at: ["p", "inner", "n"], expandingData: true) == 1)
    let changed = try root.setting(.integer(2), at: ["p", "inner", "n"], expandingData: true)
    #expect(try changed.value(at: ["p", "inner"], expandingData: true) == .data(Data(#"{"n":2}"#.utf8)))
  }

  @Test func errorsInsideTheBlobNameTheWholePath() throws {
    #expect {
      try Self.root.value(at: ["items", "0", "nam"], expandingData: true)
    } throws: { error in
      (error as? PrefsError)?.kind
        == .noSuchKey(in: PrefKeyPath([.key("items"), .index(0)]), key: "nam")
    }
    #expect {
      try Self.root.setting("x", at: ["items", "5", "name"], expandingData: true)
    } throws: { error in
      (error as? PrefsError)?.kind == .noSuchIndex(in: PrefKeyPath([.key("items")]), index: "5", count: 2)
    }
  }

  @Test func withoutExpandingABlobOnThePathSaysWhatItHolds() throws {
    for walk in [
      { _ = try Self.root.value(at: ["items", "0"], expandingData: false) },
      { _ = try Self.root.setting("x", at: ["items", "0", "name"], expandingData: false) },
      { _ = try Self.root.removing(at: ["items", "0"], expandingData: false) },
    ] {
      #expect {
        try walk()
      } throws: { error in
        (error as? PrefsError)?.kind
          == .embeddedStructure(
            format: "json", cause: .notAContainer(at: PrefKeyPath([.key("items")]), kind: .data, key: "0"))
      }
    }
  }

  @Test(arguments: [(#"[{"a":1}"#, "not valid JSON"), (#""text""#, ""), ("bplist00garbage", "binary plist")])
  func dataLeftAsDataOnThePathSaysWhy(text: String, reason: String) throws {
    let root: PrefValue = ["d": .data(Data(text.utf8))]
    #expect {
      try root.value(at: ["d", "a"], expandingData: true)
    } throws: { error in
      guard let error = error as? PrefsError,
        error.kind == .notAContainer(at: PrefKeyPath([.key("d")]), kind: .data, key: "a")
      else { return false }
      // Opaque data has nothing to say; data that starts as a blob does but is not one says why.
      return reason.isEmpty ? error.hints.isEmpty : error.hints.contains { $0.contains(reason) }
    }
  }

  @Test func plainJSONRefusesADateNamingTheData() throws {
    #expect {
      try Self.root.setting(.date(Date(timeIntervalSince1970: 0)), at: ["items", "0", "name"], expandingData: true)
    } throws: { error in
      guard case .unrepresentable("json", _, let path, _)? = (error as? PrefsError)?.kind else { return false }
      return path == PrefKeyPath([.key("items")])
    }
  }
}
