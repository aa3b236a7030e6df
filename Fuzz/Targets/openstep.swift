import Foundation

@testable import PrefsFormats
@testable import PrefsModel

/// OpenStep plists through the native reader: whatever it accepts re-encodes (as
/// OpenStep too) and re-reads equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenStep(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  RoundTrip.run(bytes, count) { data in
    (try OpenStepReader.read(data), .openStep)
  }
  return 0
}
