import Foundation

@testable import PrefsFormats
@testable import PrefsModel

/// Native XML plist reader: whatever it accepts re-encodes and re-reads equal, and
/// several parsers read it as one does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPlist(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  RoundTrip.run(bytes, count) { data in
    guard XMLPlistReader.canRead(data) else { throw PrefsError(.badInput, "not UTF-8") }
    RoundTrip.checkParts { parts in
      var reader = XMLPlistReader(
        data, maxDepth: ReadOptions().maxDepth,
        readAhead: XMLReadAheadConfiguration(parts: parts, minimumPartsSize: 0))
      return (try reader.read(), [])
    }
    var reader = XMLPlistReader(data, maxDepth: ReadOptions().maxDepth)
    return (try reader.read(), .xml)
  }
  return 0
}
