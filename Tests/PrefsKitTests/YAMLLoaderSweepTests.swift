import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// Checks against the loaders the contract names, run once over generated tables:
/// the YAML 1.1 resolver against PyYAML's own resolver and constructor.
@Suite struct YAMLLoaderSweepTests {
  /// Every string of 1 to `length` characters over `alphabet`.
  static func strings(over alphabet: String, upTo length: Int) -> [String] {
    var all: [String] = []
    var level = [""]
    for _ in 1...length {
      level = level.flatMap { prefix in alphabet.map { prefix + String($0) } }
      all += level
    }
    return all
  }

  static let resolverSamples = [
    "", "~", "null", "Null", "NULL", "nUll", "yes", "Yes", "YES", "yEs", "no", "No", "on", "On", "ON", "off", "Off",
    "OFF", "y", "n", "true", "True", "TRUE", "false", ".inf", "-.inf", "+.inf", ".Inf", ".INF", ".nan", ".NaN",
    ".NAN", "-.nan", "1:20", "190:20:30", "1:20.5", "-1:20", "0:20", "1:60", "1:5", "1_000", "0b1_0", "0b",
    "0b_", "0x_1F", "0x", "0x_", "0o17", "0755", "0788", "1e+3", "1.0e+3", "1.0e3", "1e3", "6.8523015e+5",
    "685.230_15e+03", "685_230.15", "190:20:30.15", "-0", "+0", "-0.0", "0.", "-.5", "+.5", "._5", "1__",
    "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-15T02:59:43.1Z",
    "2001-12-15 2:59:43.10", "2002-12-14", "2001-02-30", "1e400", "1.0e+400", "18446744073709551616",
    "9223372036854775808", "-9223372036854775809", "=",
  ]

  static let pyYAMLResolve =
    Python.typed + """
      import yaml
      loader = yaml.SafeLoader('')
      out = []
      for s in json.load(sys.stdin):
          tag = loader.resolve(yaml.ScalarNode, s, (True, False))
          try:
              v = loader.construct_object(yaml.ScalarNode(tag, s))
              if isinstance(v, datetime.datetime):
                  if v.tzinfo is None: v = v.replace(tzinfo=datetime.timezone.utc)
                  out.append(['time', v.timestamp()])
              elif isinstance(v, datetime.date):
                  out.append(['time', datetime.datetime(v.year, v.month, v.day, tzinfo=datetime.timezone.utc).timestamp()])
              else:
                  out.append(t(v))
          except Exception as e:
              out.append(['error', type(e).__name__])
      print(json.dumps(out))
      """

  /// What our resolver gives, in the shape the script prints.
  static func ours(_ text: String) -> [Any] {
    switch YAMLResolver.resolve(text, version: .v1_1) {
    case .string: return ["str", text]
    case .merge: return ["str", text]
    case .null: return ["null"]
    case .invalid: return ["error"]
    case .scalar(let value):
      switch value {
      case .bool(let b): return ["bool", b]
      case .integer(let n): return ["int", String(n)]
      case .unsignedInteger(let n): return ["int", String(n)]
      case .real(let r): return ["float", r]
      case .date(let d): return ["time", d.timeIntervalSince1970]
      default: return ["other"]
      }
    }
  }

  static func same(_ ours: [Any], _ theirs: [Any]) -> Bool {
    // Numbers outside 64 bits and reals out of range are errors by the contract, where
    // Python has big integers and infinity.
    if ours.first as? String == "error" {
      if theirs.first as? String == "int", let text = theirs[1] as? String, Int64(text) == nil, UInt64(text) == nil {
        return true
      }
      if theirs.first as? String == "float", theirs[1] as? String == "inf" { return true }
    }
    guard let kind = ours.first as? String, kind == theirs.first as? String else { return false }
    switch kind {
    case "null", "error": return true
    case "str", "int": return ours[1] as? String == theirs[1] as? String
    case "bool": return ours[1] as? Bool == theirs[1] as? Bool
    case "float":
      guard let a = ours[1] as? Double, let text = theirs[1] as? String, let b = Double(text) else { return false }
      return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    case "time":
      guard let a = ours[1] as? Double, let b = (theirs[1] as? NSNumber)?.doubleValue else { return false }
      return abs(a - b) < 1e-6
    default: return false
    }
  }

  @Test(.enabled(if: Python.has("yaml"), "needs python3 with PyYAML (pip install pyyaml)"))
  func theYAML11ResolverReadsPlainScalarsAsPyYAMLDoes() throws {
    let python = try #require(Python.find())
    // "=" is PyYAML's `value` tag, which its safe loader cannot construct; prefs reads a string.
    let table =
      Self.strings(over: "01289_.+-:ebx", upTo: 3) + Self.strings(over: "07_.:-", upTo: 4)
      + Self.resolverSamples.filter { $0 != "=" }
    let output = try Python.run(python, Self.pyYAMLResolve, input: try JSONSerialization.data(withJSONObject: table))
    let results = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[Any]])
    #expect(results.count == table.count)
    var differences: [String] = []
    for (text, theirs) in zip(table, results) where !Self.same(Self.ours(text), theirs) {
      differences.append("'\(text)': prefs \(Self.ours(text)), PyYAML \(theirs)")
    }
    #expect(differences.isEmpty, "\(differences.count) differ:\n\(differences.prefix(40).joined(separator: "\n"))")
  }

  static let writerSamples = [
    "-0o17", "+0o7", "-_", "+.__", "0o_", "1_000", "-0x1F", "0x_", "+0x1", "0b1", "-0b1", "1:20", "-1:20",
    "1__2", "._1", "+._1", "0.1_", "1e1_0", "1_e1", "0o", "0x", "+.inf", "-.INF", ".NaN", "+.nan", "yes", "ON",
    "y", "N", "=", "~", "null", "Null", "2001-12-14", "2001-12-14 21:59:43", "1.2.3", "10.0.1", "v1", "a:b",
    "0:0", "00:00", "1_2:3_4", "190:20:30", "1:2.5", "-.5", "+5", "+-5", "0o8", "0xg", "0x1_F", "_1", "_",
    "1.0e+3", "1.0e3", "1e3", "1E3", ".5e-1", "-0", "+0", "0.", "-.", "+.", ".", "..", "-", "+", "e", "E1",
  ]

  /// Loads each text with PyYAML and with ruamel.yaml (its pure 1.2 safe loader) and
  /// prints, for each, what value `k` holds in both.
  static let twoLoaders =
    Python.typed + """
      import yaml
      from ruamel.yaml import YAML
      ruamel = YAML(typ='safe', pure=True)
      out = []
      for text in json.load(sys.stdin):
          row = []
          for load in (lambda s: yaml.safe_load(s), lambda s: ruamel.load(s)):
              try:
                  row.append(t(load(text)['k']))
              except Exception as e:
                  row.append(['error', type(e).__name__ + ': ' + str(e).splitlines()[0]])
          out.append(row)
      print(json.dumps(out))
      """

  @Test(.enabled(if: Python.has("yaml") && Python.has("ruamel.yaml"), "needs python3 with PyYAML and ruamel.yaml"))
  func everyStringWrittenLoadsAsThatStringInBothLoaders() throws {
    let python = try #require(Python.find())
    let strings = Self.strings(over: "01ox_.+-e:a", upTo: 3) + Self.writerSamples
    let texts = try strings.map { string in
      String(decoding: try YAMLCodec().encode(.dictionary(["k": .string(string)])), as: UTF8.self)
    }
    let output = try Python.run(python, Self.twoLoaders, input: try JSONSerialization.data(withJSONObject: texts))
    let results = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[[Any]]])
    #expect(results.count == strings.count)
    var differences: [String] = []
    for ((string, text), row) in zip(zip(strings, texts), results) {
      for (loader, loaded) in zip(["PyYAML", "ruamel.yaml"], row) {
        if loaded.first as? String != "str" || loaded[1] as? String != string {
          differences.append("\(text.debugDescription) in \(loader): \(loaded)")
        }
      }
    }
    #expect(differences.isEmpty, "\(differences.count) differ:\n\(differences.prefix(40).joined(separator: "\n"))")
  }
}
