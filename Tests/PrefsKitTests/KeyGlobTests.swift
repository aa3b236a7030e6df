import Testing

@testable import PrefsModel

/// `--exclude` patterns: shell globs over key paths as a user types them, and the
/// sparse copies cut by them.
@Suite struct KeyGlobTests {
  static func path(_ components: PrefKeyPath.Component...) -> PrefKeyPath { PrefKeyPath(components) }

  @Test func aPlainPatternMatchesOnlyItsOwnKey() {
    let glob = KeyGlob("SULastCheckTime")
    #expect(glob.matches("SULastCheckTime"))
    #expect(!glob.matches("SULastCheckTimeX"))
    #expect(!glob.matches("XSULastCheckTime"))
    #expect(!glob.matches("sulastchecktime"))
  }

  @Test func aStarCrossesDots() {
    #expect(KeyGlob("*.lastOpened").matches("recent.files.lastOpened"))
    #expect(KeyGlob("*").matches("a.b.c"))
    #expect(KeyGlob("com.*.x").matches("com.apple.finder.x"))
    #expect(!KeyGlob("*.lastOpened").matches("lastOpened"))
    #expect(KeyGlob("NSWindow Frame *").matches("NSWindow Frame Main Window"))
    #expect(KeyGlob("key?").matches("key1") && !KeyGlob("key?").matches("key12"))
    #expect(KeyGlob("[ab].x").matches("b.x") && !KeyGlob("[ab].x").matches("c.x"))
  }

  @Test func aDottedKeyAndANestedPathMatchAlike() {
    let glob = KeyGlob("com.apple.*")
    // The key `com.apple.x` at the top, and `x` inside the dictionary `com.apple`.
    #expect(KeyGlob.any([glob], match: Self.path(.key("com.apple.x"))))
    #expect(KeyGlob.any([glob], match: Self.path(.key("com.apple"), .key("x"))))
    #expect(KeyGlob.any([glob], match: Self.path(.key("com"), .key("apple"), .key("x"))))
    #expect(!KeyGlob.any([glob], match: Self.path(.key("com.apple"))))
    // Indexes are their numbers.
    #expect(KeyGlob.any([KeyGlob("list.1")], match: Self.path(.key("list"), .index(1))))
    #expect(!KeyGlob.any([], match: Self.path(.key("x"))))
  }

  static let domain = PrefValue.dictionary([
    "keep": .integer(1),
    "SULastCheckTime": .integer(2),
    "window": .dictionary(["frame": .string("0 0 10 10"), "title": .string("Main")]),
    "recent": .array([.string("a"), .string("b"), .string("c")]),
  ])

  @Test func excludingRemovesWhatMatchesAtEveryDepth() {
    #expect(Self.domain.excluding([]) == Self.domain)
    #expect(
      Self.domain.excluding([KeyGlob("SULastCheckTime"), KeyGlob("window.frame"), KeyGlob("recent.1")])
        == .dictionary([
          "keep": .integer(1),
          "window": .dictionary(["title": .string("Main")]),
          "recent": .array([.string("a"), .string("c")]),
        ]))
    // A matching dictionary goes whole; `*` takes everything below the top.
    #expect(Self.domain.excluding([KeyGlob("window")]).dictionaryValue?["window"] == nil)
    #expect(
      Self.domain.excluding([KeyGlob("*.*")])
        == .dictionary([
          "keep": .integer(1), "SULastCheckTime": .integer(2), "window": .dictionary([:]), "recent": .array([]),
        ]))
    #expect(PrefValue.integer(3).excluding([KeyGlob("*")]) == .integer(3))
  }

  @Test func onlyMatchingKeepsASparseCopyOfTheMatches() {
    #expect(Self.domain.onlyMatching([]) == [:])
    #expect(
      Self.domain.onlyMatching([KeyGlob("window.frame"), KeyGlob("keep")])
        == ["keep": .integer(1), "window": .dictionary(["frame": .string("0 0 10 10")])])
    #expect(Self.domain.onlyMatching([KeyGlob("window")]) == ["window": Self.domain.dictionaryValue!["window"]!])
    // Dictionaries only: an array is kept whole or not at all.
    #expect(Self.domain.onlyMatching([KeyGlob("recent.1")]) == [:])
    #expect(Self.domain.onlyMatching([KeyGlob("nothing")]) == [:])
    #expect(PrefValue.array([.integer(1)]).onlyMatching([KeyGlob("*")]) == [:])
  }

  @Test func whatExcludingDropsOnlyMatchingKeeps() {
    let globs = [KeyGlob("SULastCheckTime"), KeyGlob("window.title")]
    let kept = Self.domain.excluding(globs)
    #expect(kept.merging(Self.domain.onlyMatching(globs)) == Self.domain)
  }
}
