import Foundation

@testable import PrefsFormats
@testable import PrefsModel

/// Format sniffing: `Format.read` with no declared format picks a reader; whatever
/// it accepts re-encodes and re-reads equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSniff(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  RoundTrip.run(bytes, count) { data in
    let (value, format) = try Format.read(data)
    return (value, format)
  }
  return 0
}
