import Foundation

@testable import PrefsFormats
@testable import PrefsModel

/// Native binary plist reader: whatever it accepts re-encodes and re-reads equal, and
/// several readers read it as one does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPlist(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  RoundTrip.run(bytes, count) { data in
    RoundTrip.checkParts { parts in
      let warnings = Warnings()
      var reader = BinaryPlistReader(data, maxDepth: ReadOptions().maxDepth, warnings: warnings)
      return (try reader.read(parts: parts, minimumPartsSize: 0), warnings.all.map { "\($0)" })
    }
    var reader = BinaryPlistReader(data, maxDepth: ReadOptions().maxDepth, warnings: Warnings())
    return (try reader.read(), .binary)
  }
  return 0
}
