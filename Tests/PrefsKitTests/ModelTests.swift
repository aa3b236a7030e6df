import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// The value model: ordered dictionaries, below and above the size from which they
/// keep an index of their keys.
@Suite struct ModelTests {
  @Test("a dictionary keeps order, finds, replaces, renames and removes keys", arguments: [10, 200])
  func dictionaryOperations(count: Int) {
    var dict = PrefDictionary()
    for i in 0..<count { dict.insertNew("k\(i)", .integer(Int64(i))) }
    let duplicateInserted = dict.insertNew("k3", .bool(true))
    #expect(!duplicateInserted)
    #expect(dict["k3"] == .integer(3))
    #expect(dict.keys == (0..<count).map { "k\($0)" })

    dict["k3"] = .string("three")
    #expect(dict["k3"] == .string("three"))
    #expect(dict.keys[3] == "k3")

    let renamed = dict.renameKey("k3", to: "renamed")
    let ontoExisting = dict.renameKey("k4", to: "k5")
    let missing = dict.renameKey("missing", to: "k9")
    #expect(renamed && !ontoExisting && !missing)
    #expect(dict["k3"] == nil)
    #expect(dict["renamed"] == .string("three"))
    #expect(dict.keys[3] == "renamed")

    dict["k0"] = nil
    #expect(dict.count == count - 1)
    #expect(dict["k0"] == nil)
    // Positions after the removed key are still found.
    for i in 1..<count where i != 3 { #expect(dict["k\(i)"] == .integer(Int64(i)), "k\(i)") }
    dict["new"] = .bool(false)
    #expect(dict.keys.last == "new")
    #expect(dict.contains("new") && !dict.contains("k0"))

    // Equality ignores order.
    let reversed = PrefDictionary(dict.reversed())
    #expect(reversed == dict)
    #expect(reversed.keys != dict.keys)
  }

  @Test func untypedTextKeepsAnExistingKeysType() throws {
    #expect(try ValueText.parseUntyped("false", existing: .bool(true), key: "k").0 == .bool(false))
    #expect(try ValueText.parseUntyped("1024", existing: .integer(800), key: "k").0 == .integer(1024))
    #expect(try ValueText.parseUntyped("3", existing: .real(0.5), key: "k").0 == .real(3))
    #expect(try ValueText.parseUntyped("false", existing: .string("x"), key: "k").0 == .string("false"))
    #expect(
      try ValueText.parseUntyped("2024-01-02T03:04:05Z", existing: .date(Date(timeIntervalSince1970: 0)), key: "k").0
        == .date(Date(timeIntervalSince1970: 1_704_164_645)))
    let refused = #expect(throws: PrefsError.self) {
      try ValueText.parseUntyped("maybe", existing: .bool(true), key: "k")
    }
    #expect(refused?.kind == .typeMismatch(text: "maybe", key: "k", holds: .bool))
    #expect(refused?.hints == [])
    #expect(throws: PrefsError.self) { try ValueText.parseUntyped("x", existing: .array([]), key: "k") }
  }

  @Test func untypedTextForANewKeyIsAStringWithAWarningWhenItLooksTyped() throws {
    #expect(try ValueText.parseUntyped("Chimes", existing: nil, key: "k") == (.string("Chimes"), nil))
    let number = try ValueText.parseUntyped("1024", existing: nil, key: "k")
    #expect(number.0 == .string("1024"))
    #expect(number.readsAs == .integer(1024))
    #expect(try ValueText.parseUntyped("false", existing: nil, key: "k").readsAs == .bool(false))
  }
}
