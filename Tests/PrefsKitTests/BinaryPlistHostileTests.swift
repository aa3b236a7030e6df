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
  // MARK: Hostile binaries

  /// A small valid file with every kind of object.
  static let small: Data = {
    let value = PrefValue.dictionary([
      "s": .string("ab"), "u": .string("\u{E9}"), "i": .integer(-3), "r": .real(2.5),
      "b": .bool(true),
      "d": .date(Date(timeIntervalSinceReferenceDate: 1)), "x": .data(Data([1, 2])),
      "a": .array([.integer(300), .uid(7)]),
    ])
    return try! binary.encode(value)
  }()

  @Test func truncatedBinariesAreRefusedAtEveryLength() throws {
    #expect(try Self.binary.decode(Self.small).kind == .dictionary)
    for length in 0..<Self.small.count {
      let prefix = Self.small.prefix(length)
      // Shorter than the magic, the codec may not take it for binary; the reader must still refuse it.
      var reader = BinaryPlistReader(prefix, maxDepth: 512, warnings: Warnings(), parallelism: .automatic)
      #expect(throws: PrefsError.self, "length \(length)") { try reader.read() }
      if length >= 6 { Self.expectByteOffsetError(prefix, "length \(length)") }
    }
    #expect(throws: PrefsError.self) { try Self.binary.decode(Data()) }
  }

  @Test func everySingleByteChangeIsReadOrRefusedWithoutCrashing() throws {
    for position in 0..<Self.small.count {
      for replacement: UInt8 in [0x00, 0x0F, 0x5F, 0x7F, 0xAF, 0xDF, 0xFF] {
        var data = Self.small
        data[position] = replacement
        do { _ = try Self.binary.decode(data) } catch let error as PrefsError {
          #expect(error.position != nil, "byte \(position) = \(replacement): \(error)")
        }
      }
    }
  }

  @Test func offsetsAndCountsOutOfRangeAreRefused() throws {
    // Offset table entry beyond the objects.
    var data = Self.bplist([[0x09]])
    data[data.count - 33] = 0xF0
    Self.expectByteOffsetError(data)
    // Reference to a missing object.
    Self.expectByteOffsetError(Self.bplist([[0xA1, 0x07]]))
    // An array claiming 2^62 elements.
    Self.expectByteOffsetError(Self.bplist([[0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x00]]))
    // A string claiming more bytes than the file holds.
    Self.expectByteOffsetError(Self.bplist([[0x5F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF, 0x41]]))
    Self.expectByteOffsetError(
      Self.bplist([[0x6F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]))
    // Trailer: huge object count, top object outside, table outside the file.
    for (field, width) in [(8, 8), (16, 8), (24, 8)] {
      var bad = Self.bplist([[0x09]])
      let at = bad.count - 32 + field
      bad.replaceSubrange(at..<(at + width), with: Self.bigEndian(UInt64.max - 1, width))
      Self.expectByteOffsetError(bad, "trailer field \(field)")
    }
    // Reference size 0, offset size 9.
    var refZero = Self.bplist([[0x09]])
    refZero[refZero.count - 25] = 0
    Self.expectByteOffsetError(refZero)
    // Non-string dictionary key, duplicate key, sets, null, unknown marker.
    Self.expectByteOffsetError(Self.bplist([[0xD1, 0x01, 0x01], [0x10, 0x01]]))
    Self.expectByteOffsetError(
      Self.bplist([[0xD2, 0x01, 0x01, 0x02, 0x02], [0x51, 0x61], [0x09]]))
    Self.expectByteOffsetError(Self.bplist([[0xC1, 0x01], [0x09]]))
    Self.expectByteOffsetError(Self.bplist([[0x00]]))
    Self.expectByteOffsetError(Self.bplist([[0x70]]))
    // UTF-16 with an unpaired surrogate.
    Self.expectByteOffsetError(Self.bplist([[0x61, 0xD8, 0x00]]))
  }

  @Test func deepNestingIsRefused() throws {
    // 10 000 arrays, each holding the next (2-byte references).
    let n = 10_000
    var objects: [[UInt8]] = (0..<(n - 1)).map { [0xA1] + Self.bigEndian(UInt64($0 + 1), 2) }
    objects.append([0xA0])
    let data = Self.bplist(objects, refSize: 2)
    let error = #expect(throws: PrefsError.self) { try Self.binary.decode(data) }
    #expect(error?.kind.name == "tooDeep")
    // A shallower limit applies too.
    var options = ReadOptions()
    options.maxDepth = 3
    let four = Self.bplist([[0xA1, 1], [0xA1, 2], [0xA1, 3], [0xA0]])
    #expect(throws: PrefsError.self) { try Self.binary.decode(four, options: options) }
    options.maxDepth = 4
    #expect(
      try Self.binary.decode(four, options: options) == .array([.array([.array([.array([])])])]))
    // The same limit when Foundation reads XML.
    let xml = Data(
      ("<plist version=\"1.0\">" + String(repeating: "<array>", count: 5)
        + String(repeating: "</array>", count: 5) + "</plist>").utf8)
    #expect(throws: PrefsError.self) { try Self.xml.decode(xml, options: options) }
  }
}
