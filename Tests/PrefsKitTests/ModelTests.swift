import Testing

@testable import PrefsKit

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
}
