import Foundation
import PrefsKit
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// One range of dates for every reader and writer, and exact text for every date in it.
@Suite struct DateTests {
  static let distantPast = Date(timeIntervalSinceReferenceDate: -63_114_076_800)

  @Test func datesOutsideTheOneRangeAreRefusedWhereRead() throws {
    let texts: [(Format, String)] = [
      (.xml, "<plist><date>0000-12-30T00:00:00Z</date></plist>"),
      (.json, #"{"$date": "0000-12-30T00:00:00Z"}"#),
      (.yaml, "0000-12-30T00:00:00Z\n"),
      (.yaml, "9999-12-31T23:59:59.999999Z\n"),
      (.json, #"{"$date": "9999-12-31T23:59:59.999999Z"}"#),
    ]
    for (format, text) in texts {
      let error = #expect(throws: PrefsError.self, "\(text)") { try format.codec.decode(Data(text.utf8)) }
      #expect(error?.kind.problem?.contains(TextForms.dateRangeProblem) == true, "\(String(describing: error))")
    }
    // The last second of 9999 is read, and written back.
    let last = try Format.yaml.codec.decode(Data("9999-12-31T23:59:59.99998Z\n".utf8))
    for format in [Format.json, .yaml, .binary] {
      #expect(try format.codec.decode(try format.codec.encode(last)) == last, "\(format)")
    }
  }

  @Test func distantPastIsRefusedByEveryWriterWithOneMessage() throws {
    for format in [Format.json, .yaml, .xml, .binary] {
      let error = #expect(throws: PrefsError.self) { try format.codec.encode(.date(Self.distantPast)) }
      guard case .unrepresentable(format.name, .date, _, let problem)? = error?.kind else {
        Issue.record("\(format): \(String(describing: error))")
        continue
      }
      #expect(problem.contains(TextForms.dateRangeProblem), "\(format)")
    }
    // Nor read from a binary plist.
    let error = #expect(throws: PrefsError.self) {
      try Format.binary.codec.decode(Self.binaryDate(Self.distantPast.timeIntervalSinceReferenceDate))
    }
    #expect(error?.kind.problem == "date 0000-12-30T00:00:00Z is outside the years 0001 to 9999")
  }

  /// A binary plist holding one date.
  static func binaryDate(_ seconds: Double) -> Data {
    var bytes = Array("bplist00".utf8) + [0x33]
    withUnsafeBytes(of: seconds.bitPattern.bigEndian) { bytes += $0 }
    bytes +=
      [8] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
      + [0, 0, 0, 0, 0, 0, 0, 17]
    return Data(bytes)
  }

  @Test func secondSixtyIsNoDate() throws {
    #expect(TextForms.parseDate("2016-12-31T23:59:60Z") == nil)
    #expect(throws: PrefsError.self) { try Format.yaml.codec.decode(Data("2016-12-31T23:59:60Z\n".utf8)) }
    #expect(throws: PrefsError.self) { try Format.json.codec.decode(Data(#"{"$date": "2016-12-31T23:59:60Z"}"#.utf8)) }
    #expect(TextForms.parseDate("2016-12-31T23:59:59Z") != nil)
  }

  @Test(arguments: [-0.001, -5e-324, -1e-300, -0.5, -1.000001, -86_400.25, -63_113_904_000 + 0.5, 1e-300, 0.001])
  func datesJustBefore2001HaveExactText(seconds: Double) throws {
    let date = Date(timeIntervalSinceReferenceDate: seconds)
    let text = try #require(TextForms.exactDate(date))
    #expect(TextForms.parseDate(text)?.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern, "\(text)")
    for format in [Format.json, .yaml] {
      #expect(try format.codec.decode(try format.codec.encode(.date(date))) == .date(date), "\(format)")
    }
  }

  @Test func theTextOfATinyNegativeDateIsAllNines() throws {
    #expect(TextForms.exactDate(Date(timeIntervalSinceReferenceDate: -0.001)) == "2000-12-31T23:59:59.999Z")
    let text = try #require(TextForms.exactDate(Date(timeIntervalSinceReferenceDate: -5e-324)))
    #expect(text.hasPrefix("2000-12-31T23:59:59.99999999"))
    #expect(!text.contains("1000"))
  }
}
