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
  @Suite("YAML resolver")
  struct Resolver {
    typealias R = YAMLPlainReading
    static let t = R.scalar(.bool(true))
    static let f = R.scalar(.bool(false))
    static func i(_ n: Int64) -> R { .scalar(.integer(n)) }
    static func r(_ x: Double) -> R { .scalar(.real(x)) }

    /// Plain scalar, YAML 1.2 reading, YAML 1.1 (PyYAML) reading.
    static let table: [(String, R, R)] = [
      ("true", t, t), ("True", t, t), ("TRUE", t, t), ("tRUE", .string, .string),
      ("false", f, f), ("False", f, f), ("FALSE", f, f),
      ("yes", .string, t), ("Yes", .string, t), ("YES", .string, t), ("yEs", .string, .string),
      ("no", .string, f), ("No", .string, f), ("NO", .string, f),
      ("on", .string, t), ("On", .string, t), ("ON", .string, t),
      ("off", .string, f), ("Off", .string, f), ("OFF", .string, f),
      ("y", .string, .string), ("n", .string, .string), ("Y", .string, .string),
      ("null", .null, .null), ("Null", .null, .null), ("NULL", .null, .null), ("~", .null, .null),
      ("", .null, .null), ("nULL", .string, .string), ("~~", .string, .string),
      ("0", i(0), i(0)), ("-0", i(0), i(0)), ("12", i(12), i(12)), ("+12", i(12), i(12)),
      ("-12", i(-12), i(-12)),
      ("0755", i(755), i(493)), ("0o17", i(15), .string), ("0x1F", i(31), i(31)),
      ("0x_1F", .string, i(31)),
      ("-0x1F", .string, i(-31)), ("0b101", .string, i(5)), ("1_000", .string, i(1000)),
      ("09", i(9), .string),
      ("0_7", .string, i(7)), ("0b_", .string, .invalid("integer has no digits")),
      ("1:20", .string, i(80)), ("190:20:30", .string, i(685_230)), ("-1:20", .string, i(-80)),
      ("1:60", .string, .string), ("0:20", .string, .string), ("1:20.5", .string, r(80.5)),
      ("1.5", r(1.5), r(1.5)), ("-1.5", r(-1.5), r(-1.5)), ("1.", r(1), r(1)), (".5", r(0.5), r(0.5)),
      ("-.5", r(-0.5), .string), ("1e3", r(1000), .string), ("1.0e3", r(1000), .string),
      ("1.0e+3", r(1000), r(1000)), ("1_0.5", .string, r(10.5)), ("1.5e", .string, .string),
      (".inf", r(.infinity), r(.infinity)), (".Inf", r(.infinity), r(.infinity)),
      (".INF", r(.infinity), r(.infinity)),
      ("-.inf", r(-.infinity), r(-.infinity)), ("+.inf", r(.infinity), r(.infinity)),
      (".inF", .string, .string),
      (".nan", r(.nan), r(.nan)), (".NaN", r(.nan), r(.nan)), (".NAN", r(.nan), r(.nan)),
      ("+.nan", .string, .string),
      (".Nan", .string, .string),
      ("9223372036854775807", i(.max), i(.max)), ("-9223372036854775808", i(.min), i(.min)),
      (
        "9223372036854775808", .scalar(.unsignedInteger(9_223_372_036_854_775_808)),
        .scalar(.unsignedInteger(9_223_372_036_854_775_808))
      ),
      ("18446744073709551615", .scalar(.unsignedInteger(.max)), .scalar(.unsignedInteger(.max))),
      ("18446744073709551616", .invalid("integer out of range"), .invalid("integer out of range")),
      ("-9223372036854775809", .invalid("integer out of range"), .invalid("integer out of range")),
      ("0x10000000000000000", .invalid("integer out of range"), .invalid("integer out of range")),
      ("1e400", .invalid("real out of range"), .string),
      ("1.0e+400", .invalid("real out of range"), .invalid("real out of range")),
      ("2001-12-14", .scalar(date("2001-12-14")), .scalar(date("2001-12-14"))),
      (
        "2001-12-14t21:59:43.10-05:00", .scalar(date("2001-12-15T02:59:43.1Z")),
        .scalar(date("2001-12-15T02:59:43.1Z"))
      ),
      (
        "2001-12-14 21:59:43.10 -5", .scalar(date("2001-12-15T02:59:43.1Z")),
        .scalar(date("2001-12-15T02:59:43.1Z"))
      ),
      (
        "2001-12-15 2:59:43.10", .scalar(date("2001-12-15T02:59:43.1Z")),
        .scalar(date("2001-12-15T02:59:43.1Z"))
      ),
      (
        "2001-1-2 3:04:05Z", .scalar(date("2001-01-02T03:04:05Z")),
        .scalar(date("2001-01-02T03:04:05Z"))
      ),
      ("2001-1-2", .string, .string), ("2001-12-14 21:59", .string, .string),
      ("2001-12-14T21:59:43 x", .string, .string),
      ("2001-02-30", .invalid("invalid date"), .invalid("invalid date")),
      ("<<", .merge, .merge), ("=", .string, .string), ("abc", .string, .string),
      ("1.0.0", .string, .string),
      ("-", .string, .string), (".", .string, .string), ("+", .string, .string),
    ]

    @Test("each plain scalar resolves as the table says, in both versions", arguments: table)
    func resolves(_ row: (String, YAMLPlainReading, YAMLPlainReading)) {
      #expect(YAMLResolver.resolve(row.0, version: .v1_2) == row.1, "1.2: \(row.0)")
      #expect(YAMLResolver.resolve(row.0, version: .v1_1) == row.2, "1.1: \(row.0)")
    }

    @Test("the YAML 1.1 rows agree with PyYAML's safe_load", .needsPython("yaml"))
    func agreesWithPyYAML() throws {
      let python = try #require(Python.find())
      // Rows PyYAML loads (it fails on `0b_`, `<<`, `=`, the invalid date, and `k: -`; its 1e400 is inf).
      let rows = Self.table.filter {
        if case .invalid = $0.2 { return false }
        return !["<<", "=", "-"].contains($0.0)
      }
      let script =
        Python.typed + """
          import yaml
          texts = json.loads(sys.stdin.read())
          print(json.dumps([t(yaml.safe_load('k: ' + s + '\\n')['k']) for s in texts]))
          """
      let input = try JSONSerialization.data(withJSONObject: rows.map(\.0))
      let output = try Python.run(python, script, input: input)
      let decoded = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [Any])
      try #require(decoded.count == rows.count)
      for (row, result) in zip(rows, decoded) {
        switch row.2 {
        case .string: #expect(Python.matches(.string(row.0), result), "\(row.0): \(result)")
        case .null: #expect((result as? [Any])?.first as? String == "null", "\(row.0)")
        case .scalar(let v): #expect(Python.matches(v, result), "\(row.0): \(result)")
        default: Issue.record("row \(row.0)")
        }
      }
    }

    @Test("a string is quoted exactly when some reader would take it for another kind")
    func quoting() {
      let quoted = [
        "yes", "no", "on", "off", "y", "n", "Y", "N", "true", "False", "~", "null", "", "1e3", "0755",
        "1:20",
        "2024-01-02", "<<", "=", ".inf", "-.5", "0o7", "0x1", "0b1", "1_000", "0_9", "12", "1.5",
        " lead",
        "trail ", "- a", "-", "a: b", "a #b", "#x", "&a", "*a", "!t", "|x", ">x", "'x", "\"x", "%x",
        "@x", "`x",
        "[x", "]x", "{x", "}x", ",x", "---", "...", "? x", ": x", "tab\there", "\u{FEFF}x", "x\u{85}",
      ]
      for s in quoted {
        #expect(
          YAMLScalarStyle.choose(for: s, isKey: false) == .doubleQuoted, "\(s.debugDescription)")
      }
      let plain = [
        "Chimes", "a#b", "a:b", "http://x.org/a?b=c", "1.0.0", "café", "x y", "-x", "?x", "a,b",
        "yes!", "0x", "1e",
      ]
      for s in plain {
        #expect(YAMLScalarStyle.choose(for: s, isKey: false) == .plain, "\(s.debugDescription)")
      }
    }
  }

  // MARK: - Writer

}
