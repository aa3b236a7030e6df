import Foundation

@testable import PrefsKit

/// OpenStep plists through Foundation's reader: whatever it accepts converts to the
/// model, re-encodes and re-reads equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenStep(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  RoundTrip.run(bytes, count) { data in
    (try FoundationPlistReader.read(data, isXML: false, maxDepth: ReadOptions().maxDepth), .openStep)
  }
  return 0
}
