import Foundation
import Testing

@testable import PrefsStore

/// File names that are not UTF-8: their bytes survive as text, print as `\xFF`, and
/// reach the system unchanged.
@Suite struct RawPathTests {
  static let notUTF8: [[UInt8]] = [
    Array("bad".utf8) + [0xFF] + Array("name.yaml".utf8),
    [0x80],
    [0xC0, 0x80],  // an overlong NUL
    [0xE2, 0x82],  // the € cut short
    [0xE2, 0x82, 0x41],
    [0xED, 0xA0, 0x80],  // a surrogate
    [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
    Array("é".utf8) + [0xFE] + Array("€".utf8),
  ]

  @Test func utf8NamesAreTheirOwnText() {
    for name in ["plain.plist", "é€😀.yaml", ""] {
      #expect(RawPath.string(from: Array(name.utf8)) == name)
      #expect(RawPath.bytes(name) == Array(name.utf8))
      #expect(RawPath.display(name) == name)
    }
  }

  @Test(arguments: notUTF8)
  func bytesThatAreNotUTF8RoundTrip(_ bytes: [UInt8]) {
    let text = RawPath.string(from: bytes)
    #expect(RawPath.bytes(text) == bytes)
    #expect(!RawPath.display(text).unicodeScalars.contains { $0.value >= RawPath.base })
  }

  @Test func everySingleByteRoundTripsAndShowsAsItsHex() {
    for byte in UInt8(0x80)...0xFF {
      let text = RawPath.string(from: [0x61, byte])
      #expect(RawPath.bytes(text) == [0x61, byte])
      #expect(RawPath.display(text) == "a\\x" + String(byte, radix: 16, uppercase: true))
    }
  }

  @Test func displayShowsEachStrayByteAndKeepsTheRest() {
    #expect(RawPath.display(RawPath.string(from: Self.notUTF8[0])) == "bad\\xFFname.yaml")
    #expect(RawPath.display(RawPath.string(from: [0xE2, 0x82])) == "\\xE2\\x82")
    #expect(RawPath.display(RawPath.string(from: Self.notUTF8.last!)) == "é\\xFE€")
  }

  @Test func withCStringHandsTheSystemTheOriginalBytes() throws {
    for bytes in Self.notUTF8 {
      let text = RawPath.string(from: bytes)
      RawPath.withCString(text) { pointer in
        let length = strlen(pointer)
        #expect(Array(UnsafeBufferPointer(start: pointer, count: length)).map { UInt8(bitPattern: $0) } == bytes)
        #expect(RawPath.argument(pointer) == text)
      }
    }
  }

  @Test func aFileNamedWithAStrayByteIsCreatedUnderThatName() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rawpath-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let name: [UInt8] = Array("bad".utf8) + [0xFF] + Array(".yaml".utf8)
    let path = folder.path + "/" + RawPath.string(from: name)
    let descriptor = RawPath.withCString(path) { open($0, O_CREAT | O_WRONLY, 0o600) }
    try #require(descriptor >= 0)
    close(descriptor)
    var names: [[UInt8]] = []
    let directory = try #require(opendir(folder.path))
    while let entry = readdir(directory) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if entryName != Array(".".utf8) && entryName != Array("..".utf8) { names.append(entryName) }
    }
    closedir(directory)
    #expect(names == [name])
    var status = stat()
    #expect(RawPath.withCString(path) { stat($0, &status) } == 0)
  }
}
