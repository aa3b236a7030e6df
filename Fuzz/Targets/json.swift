import Foundation

@testable import PrefsFormats
@testable import PrefsModel

/// JSON reader: whatever it accepts re-encodes and re-reads equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  RoundTrip.run(bytes, count) { (try Format.json.codec.decode($0), .json) }
  return 0
}
