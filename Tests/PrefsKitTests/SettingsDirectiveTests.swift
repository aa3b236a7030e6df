import Foundation
import PrefsKit
import Testing

@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsText

/// The readers report settings-file directives to a log, at their key paths, and the
/// writers tag the key paths they are given; neither puts anything into a value.
@Suite struct SettingsDirectiveTests {
  /// `text` read as `format` with a log, and what the log holds.
  func read(_ text: String, as format: Format) throws -> (PrefValue, [String]) {
    var options = ReadOptions()
    let log = SettingsDirectiveLog()
    options.settingsDirectives = log
    let value = try format.codec.decode(Data(text.utf8), options: options)
    return (
      value,
      log.entries.map { entry in
        var line = "\(entry.directive) \(entry.path)"
        if case .lineColumn(let l, let c)? = entry.position { line += " \(l):\(c)" }
        return line
      }
    )
  }

  @Test func theYAMLReaderReportsTagsAtTheirPathAndPosition() throws {
    let (value, log) = try read(
      "a: !delete\nb: !replace {x: 1}\nc:\n  - !replace [1]\n  - d: !delete\n", as: .yaml)
    #expect(log == ["delete a 1:4", "replace b 2:4", "replace c.0 4:5", "delete c.1.d 5:8"])
    // The replacing value stays; a deleted key holds the stand-in.
    #expect(
      value
        == .dictionary([
          "a": SettingsDirective.deleteStandIn, "b": .dictionary(["x": .integer(1)]),
          "c": .array([.array([.integer(1)]), .dictionary(["d": SettingsDirective.deleteStandIn])]),
        ]))
  }

  @Test func anAliasReportsTheDirectivesOfItsNodeWhereItStands() throws {
    let (_, log) = try read("a: &x {b: !delete, c: !replace [1]}\nd: [*x]\ne: &y !delete\nf: *y\n", as: .yaml)
    #expect(
      log == [
        "delete a.b 1:11", "replace a.c 1:23", "delete d.0.b 1:11", "replace d.0.c 1:23", "delete e 3:4",
        "delete f 3:4",
      ])
    // An anchored `!replace` is inside its own node.
    let (_, own) = try read("a: !replace &x [1]\nb: *x\n", as: .yaml)
    #expect(own == ["replace a 1:4", "replace b 1:4"])
  }

  @Test func aMergeKeyGivesTheDirectivesOfTheKeysItGives() throws {
    let (_, log) = try read("base: &b\n  k: !delete\n  l: !replace [1]\nother:\n  <<: *b\n  l: [2]\n", as: .yaml)
    // `l` given in the mapping wins over the merged one, and its directive.
    #expect(log == ["delete base.k 2:6", "replace base.l 3:6", "delete other.k 2:6"])
    let (_, sources) = try read(
      "a: &a {k: !delete, m: 1}\nb: &b {n: !delete, k: 2}\nc:\n  <<: [*b, *a]\nd:\n  <<: {k: !delete, z: 1}\n",
      as: .yaml)
    // The earlier mapping of a sequence wins.
    #expect(sources == ["delete a.k 1:11", "delete b.n 2:11", "delete c.n 2:11", "delete d.k 6:11"])
  }

  @Test func theJSONReaderReportsDollarWords() throws {
    let (value, log) = try read(#"{"a": {"$delete": true}, "b": [{"$replace": {"x": 1}}]}"#, as: .json)
    #expect(log == ["delete a 1:7", "replace b.0 1:32"])
    #expect(value == .dictionary(["a": .bool(true), "b": .array([.dictionary(["x": .integer(1)])])]))
  }

  @Test func withoutALogTheTagsAreRefusedAndTheWordsArePlainKeys() throws {
    #expect(throws: PrefsError.self) { try Format.yaml.codec.decode(Data("a: !delete\n".utf8)) }
    #expect(throws: PrefsError.self) { try Format.yaml.codec.decode(Data("a: !replace [1]\n".utf8)) }
    let json = try Format.json.codec.decode(Data(#"{"a": {"$delete": true}, "b": {"$replace": 1}}"#.utf8))
    #expect(
      json == .dictionary(["a": .dictionary(["$delete": .bool(true)]), "b": .dictionary(["$replace": .integer(1)])]))
  }

  @Test func writersTagTheKeyPathsTheyAreGiven() throws {
    var options = WriteOptions()
    options.settingsDirectives = [PrefKeyPath([.key("a")]): .delete, PrefKeyPath([.key("b")]): .replace]
    let value = PrefValue.dictionary([
      "a": SettingsDirective.deleteStandIn, "b": .array([.integer(1)]), "c": .dictionary(["$delete": .bool(true)]),
    ])
    let yaml = String(decoding: try Format.yaml.codec.encode(value, options: options), as: UTF8.self)
    #expect(yaml == "a: !delete\nb: !replace\n- 1\nc:\n  $delete: true\n")
    options.compact = true
    let json = String(decoding: try Format.json.codec.encode(value, options: options), as: UTF8.self)
    #expect(json == #"{"a":{"$delete":true},"b":{"$replace":[1]},"c":{"$dict":{"$delete":true}}}"# + "\n")
  }
}
