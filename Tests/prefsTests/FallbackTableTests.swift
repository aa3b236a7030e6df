import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// The Linux column of the fallback table, cell by cell, against what a real
/// `UserDefaults(suiteName:)` gives for `object(forKey:) as? T`.
@Suite struct FallbackTableTests {
  /// One stored value per row of the table, with the edges that matter (0 and 1,
  /// whole reals, Int64.max, an integer above it, strings that look like other types).
  static let rows: PrefDictionary = [
    "boolTrue": .bool(true), "boolFalse": .bool(false),
    "int0": .integer(0), "int1": .integer(1), "int42": .integer(42), "intNegative": .integer(-3),
    "intMin": .integer(.min), "intMax": .integer(.max), "intAboveMax": .unsignedInteger(.max),
    "real0": .real(0), "real1": .real(1), "realWhole": .real(42), "realFraction": .real(1.5),
    "stringTrue": .string("true"), "stringOne": .string("1"), "string42": .string("42"),
    "stringChimes": .string("Chimes"), "stringDate": .string("2023-11-14T22:13:20Z"),
    "date": .date(Date(timeIntervalSinceReferenceDate: 721_692_800)), "data": .data(Data([1, 2, 255])),
    "array": .array([.string("a"), .integer(1)]), "dict": .dictionary(["nested": .bool(true)]),
  ]

  /// The order of the probe's columns.
  static let columns: [ValueText.TypeName] = [.bool, .string, .integer, .real, .date, .data, .array, .dict]

  /// A cell as the probe prints it.
  static func text(_ value: PrefValue?) -> String {
    switch value {
    case nil: "nil"
    case .bool(let b)?: String(b)
    case .string(let s)?: s
    case .integer(let n)?: String(n)
    case .real(let r)?: String(r)
    case .date(let d)?: String(d.timeIntervalSinceReferenceDate)
    case .data(let d)?: d.map { String(format: "%02x", $0) }.joined()
    case .array(let items)?: "\(items.count) items"
    case .dictionary(let dict)?: "\(dict.count) keys"
    case let other?: "unexpected \(other)"
    }
  }

  @Test(.needsUserDefaultsProbe) func everyLinuxCellMatchesRealUserDefaults() throws {
    let store = try DomainCommandTests.Store()
    let json = try Format.json.codec.encode(.dictionary(Self.rows))
    #expect(try TestSupport.prefs(["import", "com.example.casts"], input: json, store: store.url).status == 0)
    let result = try DomainCommandTests().probe("casts", suite: "com.example.casts", store: store)
    #expect(result.status == 0, "\(result.stderr)")
    var measured: [String: [String]] = [:]
    for line in result.stdout.split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      measured[fields[0]] = Array(fields.dropFirst())
    }
    #expect(measured.count == Self.rows.count)
    for (key, stored) in Self.rows {
      for (column, type) in Self.columns.enumerated() {
        let expected = Self.text(TypedRead.read(stored, as: type, on: .linux))
        #expect(
          measured[key]?[column] == expected,
          "\(stored.summary) as? \(type.swiftName): UserDefaults gives \(measured[key]?[column] ?? "-"), the table \(expected)"
        )
      }
    }
  }

  @Test(.needsUserDefaultsProbe) func aUIDMakesLinuxReadTheWholeDomainAsEmpty() throws {
    let store = try DomainCommandTests.Store()
    let input = Data(#"{"ringtone": "Waves", "archived": {"$uid": 5}}"#.utf8)
    #expect(try TestSupport.prefs(["import", "com.example.uid"], input: input, store: store.url).status == 0)
    let result = try DomainCommandTests().probe("casts", suite: "com.example.uid", store: store)
    #expect(result.status == 0)
    #expect(result.stdout == "")
    #expect(TypedRead.read(.uid(5), as: .dict, on: .linux) == nil)
  }
}
