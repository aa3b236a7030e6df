import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// The round-trip law: plist → JSON/YAML → plist gives the original,
/// type for type, for every real plist in the corpus; and the YAML we write reads
/// the same in YAML 1.1 (PyYAML) and YAML 1.2 (ruamel.yaml) loaders.
@Suite struct RoundTripTests {
  /// Formats that hold every value of the model exactly (XML plists drop date fractions).
  static let exactFormats: [Format] = [.json, .yaml, .binary]

  /// Encodes `value` as `format` and reads it back as `reading` (default: the same).
  static func roundTrip(_ value: PrefValue, through format: Format, readingAs options: ReadOptions = ReadOptions())
    throws -> PrefValue
  {
    try format.codec.decode(try format.codec.encode(value), options: options)
  }

  @Test(.needsCorpus("plist"), arguments: exactFormats)
  func everyCorpusPlistRoundTripsTypeStrict(format: Format) throws {
    let corpus = try PlistCodecTests.readableCorpus()
    for (name, _, value) in corpus {
      #expect(try Self.roundTrip(value, through: format) == value, "\(name) through \(format)")
      // And back into the plist it came from.
      let back = try Format.binary.codec.decode(
        try Format.binary.codec.encode(try Self.roundTrip(value, through: format)))
      #expect(back == value, "\(name): plist → \(format) → plist")
    }
    #expect(corpus.count == 41)
  }

  @Test(.needsCorpus("plist")) func yamlWeWriteReadsTheSameAsYAML11() throws {
    for (name, _, value) in try PlistCodecTests.readableCorpus() {
      let options = ReadOptions(yamlVersion: .v1_1)
      #expect(try Self.roundTrip(value, through: .yaml, readingAs: options) == value, "\(name)")
    }
  }

  @Test(.needsCorpus("plist"), arguments: [Format.yaml, .json])
  func keyedArchivesKeepTheirUIDs(format: Format) throws {
    let archives = try PlistCodecTests.readableCorpus().filter { PlistCodecTests.hasUID($0.value) }
    #expect(archives.count == 3)
    for (name, _, value) in archives {
      let text = try format.codec.encode(value)
      #expect(String(decoding: text, as: UTF8.self).contains(format == .yaml ? "!uid " : "\"$uid\": "), "\(name)")
      let binary = try Format.binary.codec.encode(try format.codec.decode(text))
      #expect(try Format.binary.codec.decode(binary) == value, "\(name): binary → \(format) → binary")
    }
  }

  /// Loads the YAML of each corpus plist in Python with `loader` and compares type for type.
  func expectPythonReadsTheCorpus(loader: String, imports: String) throws {
    let python = try #require(Python.find())
    let corpus = try PlistCodecTests.readableCorpus().filter { !PlistCodecTests.hasUID($0.value) }
    for (name, _, value) in corpus {
      let script =
        Python.typed + imports
        + "\ntext = sys.stdin.buffer.read().decode('utf-8')\nprint(json.dumps(t(\(loader))))\n"
      let output = try Python.run(python, script, input: try Format.yaml.codec.encode(value))
      let loaded = try JSONSerialization.jsonObject(with: Data(output.utf8))
      #expect(Python.matches(value, loaded), "\(name) loads differently in Python")
    }
  }

  @Test(.needsCorpus("plist"), .needsPython("yaml")) func pyYAMLReadsTheYAMLOfEveryCorpusPlist() throws {
    try expectPythonReadsTheCorpus(loader: "yaml.safe_load(text)", imports: "import yaml")
  }

  @Test(.needsCorpus("plist"), .needsPython("ruamel.yaml")) func ruamelReadsTheYAMLOfEveryCorpusPlist() throws {
    try expectPythonReadsTheCorpus(loader: "YAML(typ='safe').load(text)", imports: "from ruamel.yaml import YAML")
  }
}
