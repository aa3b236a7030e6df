import Foundation

@testable import PrefsKit

/// Native binary plist reader: whatever it accepts re-encodes and re-reads equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPlist(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  RoundTrip.run(bytes, count) { data in
    var reader = BinaryPlistReader(data, maxDepth: ReadOptions().maxDepth, warnings: Warnings())
    return (try reader.read(), .binary)
  }
  return 0
}
