import Testing

@testable import PrefsModel

/// "Did you mean": the edit distance, and how near a name must be to be suggested.
@Suite struct SuggestionsTests {
  @Test func distanceCountsInsertionsDeletionsAndSubstitutions() {
    #expect(Suggestions.distance("kitten", "sitting") == 3)
    #expect(Suggestions.distance("flaw", "lawn") == 2)
    #expect(Suggestions.distance("same", "same") == 0)
    #expect(Suggestions.distance("", "abc") == 3)
    #expect(Suggestions.distance("abc", "") == 3)
    #expect(Suggestions.distance("", "") == 0)
    #expect(Suggestions.distance("sync", "sycn") == 2)
    #expect(Suggestions.distance("abc", "cba") == Suggestions.distance("cba", "abc"))
    // Characters, not bytes: an accent is one substitution.
    #expect(Suggestions.distance("café", "cafe") == 1)
  }

  @Test func theNearestCandidateWithinTwoEditsIsSuggested() {
    #expect(Suggestions.closest(to: "sycn", among: ["status", "sync", "set"]) == "sync")
    #expect(Suggestions.closest(to: "exprot", among: ["import", "export"]) == "export")
    #expect(Suggestions.closest(to: "zzzz", among: ["sync", "set"]) == nil)
    #expect(Suggestions.closest(to: "sync", among: []) == nil)
    // Of equally near candidates, the first.
    #expect(Suggestions.closest(to: "bat", among: ["cat", "hat"]) == "cat")
  }

  @Test func longNamesAllowAThirdOfTheirLength() {
    // Twelve characters: up to four edits.
    #expect(Suggestions.closest(to: "abcdefghijkl", among: ["abcdefghWXYZ"]) == "abcdefghWXYZ")
    #expect(Suggestions.closest(to: "abcdefghijkl", among: ["abcdefgVWXYZ"]) == nil)
    // Under nine characters, still two.
    #expect(Suggestions.closest(to: "abcdefgh", among: ["abcdeXYZ"]) == nil)
    #expect(Suggestions.closest(to: "abcdefgh", among: ["abcdefYZ"]) == "abcdefYZ")
  }

  @Test func shortNamesWithAMaximumOfOneSuggestOnlyOneEditAway() {
    let formats = ["xml", "json", "yaml", "binary"]
    // Two edits would make toml suggest xml.
    #expect(Suggestions.closest(to: "toml", among: formats) == "xml")
    #expect(Suggestions.closest(to: "toml", among: formats, maximum: 1) == nil)
    #expect(Suggestions.closest(to: "jsn", among: formats, maximum: 1) == "json")
    #expect(Suggestions.closest(to: "binry", among: formats, maximum: 1) == "binary")
    // yml is one edit from xml as from yaml: the first of them.
    #expect(Suggestions.closest(to: "yml", among: formats, maximum: 1) == "xml")
    #expect(Suggestions.closest(to: "json", among: formats, maximum: 0) == "json")
  }
}
