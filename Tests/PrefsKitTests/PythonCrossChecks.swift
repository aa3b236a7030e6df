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

/// Runs Python snippets for cross-checks, and compares their typed output with values.
enum Python {
  /// `python3` from PATH, or nil with a visible note.
  static func find() -> String? { TestSupport.python()?.path }

  /// Whether python3 is there and can import `module`.
  static func has(_ module: String?) -> Bool {
    guard let python = TestSupport.executable(named: "python3") else { return false }
    guard let module else { return true }
    return (try? run(python.path, "import \(module)", input: Data())) != nil
  }

  /// Runs `script` with `input` on standard input and returns standard output.
  static func run(_ python: String, _ script: String, input: Data) throws -> String {
    let result = try TestSupport.run(URL(fileURLWithPath: python), ["-c", script], input: input)
    guard result.status == 0 else { throw PrefsError(.other(.io, "python failed: \(result.stderr)")) }
    return result.stdout
  }

  /// Defines `t(v)`: a loaded Python value as `[kind, payload]` JSON, keeping types
  /// (bool, int, float as repr, str, bytes as base64, datetimes in UTC).
  static let typed = """
    import sys, json, base64, datetime
    def t(v):
        if v is None: return ['null', None]
        if isinstance(v, bool): return ['bool', v]
        if isinstance(v, int): return ['int', str(v)]
        if isinstance(v, float): return ['float', repr(v)]
        if isinstance(v, str): return ['str', v]
        if isinstance(v, bytes): return ['bytes', base64.b64encode(v).decode()]
        if isinstance(v, datetime.datetime):
            if v.tzinfo is not None: v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
            return ['datetime', v.isoformat()]
        if isinstance(v, datetime.date): return ['datetime', v.isoformat() + 'T00:00:00']
        if isinstance(v, list): return ['list', [t(x) for x in v]]
        if isinstance(v, dict): return ['dict', [[k, t(x)] for k, x in v.items()]]
        return ['other', repr(v)]

    """

  /// Whether Python's typed output `[kind, payload]` is `value`, type for type
  /// (datetimes to the microsecond Python keeps).
  static func matches(_ value: PrefValue, _ typed: Any) -> Bool {
    guard let pair = typed as? [Any], pair.count == 2, let kind = pair[0] as? String else {
      return false
    }
    let payload = pair[1]
    switch value {
    case .null: return kind == "null"
    case .string(let s): return kind == "str" && (payload as? String) == s
    case .integer(let n): return kind == "int" && (payload as? String) == String(n)
    case .unsignedInteger(let n): return kind == "int" && (payload as? String) == String(n)
    case .real(let r):
      guard kind == "float", let text = payload as? String, let x = Double(text) else {
        return false
      }
      return x.bitPattern == r.bitPattern || (x.isNaN && r.isNaN)
    case .bool(let b):
      return kind == "bool" && (payload as? NSNumber).map { $0.boolValue == b } == true
    case .date(let d):
      guard kind == "datetime", let text = payload as? String,
        let x = TextForms.parseDate(text + "Z")
      else { return false }
      return abs(x.timeIntervalSince(d)) < 1e-6
    case .data(let data):
      return kind == "bytes" && (payload as? String) == data.base64EncodedString()
    case .array(let items):
      guard kind == "list", let list = payload as? [Any], list.count == items.count else {
        return false
      }
      return zip(items, list).allSatisfy { matches($0, $1) }
    case .dictionary(let dict):
      guard kind == "dict", let pairs = payload as? [[Any]], pairs.count == dict.count else {
        return false
      }
      return pairs.allSatisfy { pair in
        guard let key = pair[0] as? String, let item = dict[key] else { return false }
        return matches(item, pair[1])
      }
    case .uid: return false
    }
  }
}
