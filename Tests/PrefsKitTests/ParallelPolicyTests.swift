import Foundation
import PrefsKit
import Testing

@testable import PrefsFormats
@testable import PrefsModel

/// The one policy for reading and writing large documents in parts.
@Suite struct ParallelPolicyTests {
  @Test func automaticSplitsOnlyLargeDocuments() {
    let policy = ParallelPolicy.automatic
    #expect(policy.parts(forSize: 0) == 1)
    #expect(policy.parts(forSize: (1 << 20) - 1) == 1)
    let large = policy.parts(forSize: 1 << 20)
    #expect(large == min(ProcessInfo.processInfo.activeProcessorCount, 4))
  }

  @Test func serialNeverSplits() {
    #expect(ParallelPolicy.serial.parts(forSize: 0) == 1)
    #expect(ParallelPolicy.serial.parts(forSize: .max) == 1)
  }

  @Test func forcedSplitsAnySize() {
    #expect(ParallelPolicy.forced(parts: 3).parts(forSize: 0) == 3)
    #expect(ParallelPolicy.forced(parts: 3).parts(forSize: 1 << 30) == 3)
  }

  /// The options carry the policy to the readers and the YAML writer: a small
  /// document forced into parts reads and writes as one on a single thread.
  @Test func theOptionsCarryThePolicy() throws {
    let root = PrefValue.dictionary(PrefDictionary((0..<64).map { ("key\($0)", .string("value \($0)")) }))
    var forced = ReadOptions()
    forced.parallelism = .forced(parts: 3)
    var serial = ReadOptions()
    serial.parallelism = .serial
    for format in [Format.xml, .binary] {
      let data = try format.encode(root)
      let inParts = try format.decode(data, options: forced)
      #expect(inParts == (try format.decode(data, options: serial)), "\(format)")
      #expect(inParts.dictionaryValue?.keys == root.dictionaryValue?.keys, "\(format)")
    }
    var write = WriteOptions()
    write.parallelism = .forced(parts: 3)
    var writeSerial = WriteOptions()
    writeSerial.parallelism = .serial
    #expect(try Format.yaml.encode(root, options: write) == (try Format.yaml.encode(root, options: writeSerial)))
  }
}
