import Foundation
import PrefsKit
import PrefsTestSupport
import Synchronization
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

extension PlistCodecTests {
  // MARK: Differential: Python plistlib

  /// The interpreter the plistlib cross-checks run (`TestSupport.python()`'s).
  static let python: String? = TestSupport.python()?.path

  /// Prints every value of each file as `path<TAB>type<TAB>value` lines.
  static let pythonScript = """
    import datetime, plistlib, struct, sys
    EPOCH = datetime.datetime(2001, 1, 1)
    def walk(v, path, out):
        if isinstance(v, dict) and len(v) == 1 and isinstance(v.get("CF$UID"), int):
            v = plistlib.UID(v["CF$UID"])
        if isinstance(v, bool): out.append(f"{path}\\tbool\\t{int(v)}")
        elif isinstance(v, int): out.append(f"{path}\\tinteger\\t{v}")
        elif isinstance(v, float): out.append(f"{path}\\treal\\t{'nan' if v != v else struct.pack('>d', v).hex()}")
        elif isinstance(v, str): out.append(f"{path}\\tstring\\t{v.encode('utf-8').hex()}")
        elif isinstance(v, bytes): out.append(f"{path}\\tdata\\t{v.hex()}")
        elif isinstance(v, datetime.datetime):
            out.append(f"{path}\\tdate\\t{(v - EPOCH) // datetime.timedelta(microseconds=1)}")
        elif isinstance(v, plistlib.UID): out.append(f"{path}\\tuid\\t{v.data}")
        elif isinstance(v, list):
            out.append(f"{path}\\tarray\\t{len(v)}")
            for i, x in enumerate(v): walk(x, f"{path}/{i}", out)
        elif isinstance(v, dict):
            out.append(f"{path}\\tdictionary\\t{len(v)}")
            for k, x in v.items(): walk(x, f"{path}/k{k.encode('utf-8').hex()}", out)
        else: out.append(f"{path}\\tunknown\\t{type(v).__name__}")
    for name in sys.argv[1:]:
        out = []
        try:
            with open(name, "rb") as f: walk(plistlib.load(f), "", out)
        except Exception as e:
            out = [f"error\\t{type(e).__name__}\\t{e}"]
        print("== " + name)
        print("\\n".join(out))
    """

  /// The same lines for one of our values.
  static func plistlibLines(_ value: PrefValue, path: String = "", into out: inout [String]) {
    func hexString<S: Sequence<UInt8>>(_ bytes: S) -> String {
      bytes.map {
        String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
      }.joined()
    }
    switch value {
    case .bool(let b): out.append("\(path)\tbool\t\(b ? 1 : 0)")
    case .integer(let n): out.append("\(path)\tinteger\t\(n)")
    case .unsignedInteger(let n): out.append("\(path)\tinteger\t\(n)")
    case .real(let r):
      out.append("\(path)\treal\t\(r.isNaN ? "nan" : hexString(bigEndian(r.bitPattern, 8)))")
    case .string(let s): out.append("\(path)\tstring\t\(hexString(s.utf8))")
    case .data(let d): out.append("\(path)\tdata\t\(hexString(d))")
    case .date(let d):
      out.append("\(path)\tdate\t\(Int64((d.timeIntervalSinceReferenceDate * 1e6).rounded(.down)))")
    case .uid(let n): out.append("\(path)\tuid\t\(n)")
    case .null: out.append("\(path)\tnull\t")
    case .array(let items):
      out.append("\(path)\tarray\t\(items.count)")
      for (i, item) in items.enumerated() { plistlibLines(item, path: "\(path)/\(i)", into: &out) }
    case .dictionary(let dict):
      out.append("\(path)\tdictionary\t\(dict.count)")
      for (key, item) in dict {
        plistlibLines(item, path: "\(path)/k\(hexString(key.utf8))", into: &out)
      }
    }
  }

  @Test(.enabled(if: python != nil, "python3 is not installed: plistlib differential skipped"))
  func plistlibReadsBackWhatWeWrite() throws {
    let python = try #require(Self.python)
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("dump.py")
    try Data(Self.pythonScript.utf8).write(to: script)
    var values = try Self.readableCorpus().map { ($0.name, $0.value) }
    values.append(("everyKind", TestSupport.everyKind))
    var expected: [String: [String]] = [:]
    var paths: [String] = []
    for (i, (name, value)) in values.enumerated() {
      for (suffix, codec) in [("bin", Self.binary), ("xml", Self.xml)] {
        // plistlib reads XML UIDs as CF$UID dictionaries (mapped back by the script).
        let url = folder.appendingPathComponent("\(i).\(suffix)")
        try codec.encode(value).write(to: url)
        var lines: [String] = []
        Self.plistlibLines(suffix == "xml" ? Self.wholeSecondDates(value) : value, into: &lines)
        expected[url.path] = lines
        paths.append(url.path)
        _ = name
      }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script.path] + paths
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    var got: [String: [String]] = [:]
    var current = ""
    for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("== ") {
        current = String(line.dropFirst(3))
      } else if !line.isEmpty {
        got[current, default: []].append(String(line))
      }
    }
    for (index, path) in paths.enumerated() {
      let name = values[index / 2].0
      let ours = expected[path]!.sorted()
      let theirs = (got[path] ?? []).sorted()
      guard ours.count == theirs.count else {
        Issue.record(
          "\(name) (\(path)): plistlib read \(theirs.prefix(3)), expected \(ours.count) values")
        continue
      }
      for (a, b) in zip(ours, theirs) where a != b {
        // Dates: plistlib keeps microseconds; allow its rounding.
        let pa = a.split(separator: "\t")
        let pb = b.split(separator: "\t")
        if pa.count == 3, pb.count == 3, pa[0] == pb[0], pa[1] == "date", pb[1] == "date",
          let x = Int64(pa[2]), let y = Int64(pb[2]), abs(x - y) <= 1
        {
          continue
        }
        Issue.record("\(name) (\(path)): ours \(a) / plistlib \(b)")
        break
      }
    }
  }
}
