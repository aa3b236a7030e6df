import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

extension YAMLCodecTests {
  @Suite("YAML cross-check with PyYAML and ruamel.yaml")
  struct CrossCheck {
    /// Values whose written form is easy to get wrong.
    static let tricky: [PrefValue] = {
      var values: [PrefValue] = [
        "yes", "no", "on", "off", "y", "n", "Y", "N", "YES", "Off", "true", "False", "~", "null",
        "NULL", "", " ", "1e3",
        "1.0e3", "0755", "0o17", "0x1F", "0b101", "1_000", "09", "1:20", "1:20.5", "190:20:30",
        "2024-01-02",
        "2001-12-14 21:59:43.10 -5", "<<", "=", ".inf", "-.inf", ".nan", "-.5", ".5", "1.", "12",
        "-0", "1.0", "+1",
        " lead", "trail ", "- a", "-", "a: b", "a #b", "a#b", "#x", "&a", "*a", "!t", "|x", ">x",
        "'x", "\"x", "%x",
        "@x", "`x", "[x", "{x", "---", "...", "? x", ": x", "tab\there", "café", "\u{1F600} smile", "\u{1F389}: x",
        "a \u{1F389}\nb\n", "\u{E000}\u{E400}\u{1F389}",
        "a\u{85}b",
        "a\u{2028}b", "\u{FEFF}bom", "bell\u{7}", "1.0.0", "http://x.org/?a=b#c",
        "a\nb", "a\nb\n", "a\nb\n\n", "\n", "\n\n", " lead\nx", "\nx", "  indented\n  code\n",
        "trail \nx", "a\r\nb",
        "a\n\tb", "x\n ", "#!/bin/sh\necho \"hi\" # comment\n",
      ].map { PrefValue.string($0) }
      values += [
        1.0, 0.1, 1e20, 1e-7, -0.0, 0.0, .infinity, -.infinity, .nan, 1.0 / 3, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude,
        1e16, 123_456_789.0, -2.5e-300,
      ].map { PrefValue.real($0) }
      values +=
        [Int64.min, -1, 0, 493, Int64.max].map { PrefValue.integer($0) } + [.unsignedInteger(.max)]
      values += [0, 0.5, 721_692_800.123456, -978_307_200, -63_113_904_000, 252_423_993_599].map {
        PrefValue.date(Date(timeIntervalSinceReferenceDate: $0))
      }
      values += [
        .data(Data()), .data(Data([0])), .data(Data((0..<200).map { UInt8($0 % 256) })), .bool(true),
        .bool(false),
      ]
      return values
    }()

    static var document: PrefValue {
      .dictionary(["everyKind": TestSupport.everyKind, "tricky": .array(tricky)])
    }

    /// Loads our YAML with `loader` (a Python expression over `text`) and checks each value.
    private func check(_ loader: String, imports: String) throws {
      let python = try #require(Python.find())
      let text = try codec.encode(Self.document)
      let script =
        Python.typed + imports
        + "\ntext = sys.stdin.buffer.read().decode('utf-8')\nprint(json.dumps(t(\(loader))))\n"
      let output = try Python.run(python, script, input: text)
      let typed = try JSONSerialization.jsonObject(with: Data(output.utf8))
      guard let top = typed as? [Any], let pairs = top[1] as? [[Any]] else {
        Issue.record("unexpected output \(output.prefix(200))")
        return
      }
      for pair in pairs {
        let key = pair[0] as! String
        let expected = Self.document.dictionaryValue![key]!
        if case .array(let items) = expected, let list = (pair[1] as? [Any])?[1] as? [Any] {
          for (item, loaded) in zip(items, list) {
            #expect(Python.matches(item, loaded), "\(item) loaded as \(loaded)")
          }
          #expect(items.count == list.count)
        } else if case .dictionary(let dict) = expected,
          let entries = (pair[1] as? [Any])?[1] as? [[Any]]
        {
          for entry in entries {
            let name = entry[0] as! String
            #expect(
              Python.matches(dict[name]!, entry[1]), "\(name): \(dict[name]!) loaded as \(entry[1])")
          }
          #expect(entries.count == dict.count)
        } else {
          Issue.record("\(key) loaded as \(pair[1])")
        }
      }
    }

    @Test("PyYAML's safe_load (YAML 1.1) reads what we write, type for type", .needsPython("yaml"))
    func pyYAML() throws {
      try check("yaml.safe_load(text)", imports: "import yaml")
    }

    @Test("ruamel.yaml's safe loader (YAML 1.2) reads what we write, type for type", .needsPython("ruamel.yaml"))
    func ruamel() throws {
      try check("YAML(typ='safe').load(text)", imports: "from ruamel.yaml import YAML")
    }
  }
}
