import Foundation

@testable import PrefsFormats
@testable import PrefsModel

/// YAML reader, resolving plain scalars as YAML 1.2 (first input byte even) or 1.1 (odd):
/// whatever it accepts re-encodes and re-reads equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  guard count > 0 else { return 0 }
  let version: YAMLVersion = bytes[0] & 1 == 0 ? .v1_2 : .v1_1
  RoundTrip.run(bytes + 1, count - 1) { data in
    (try Format.yaml.codec.decode(data, options: ReadOptions(yamlVersion: version)), .yaml)
  }
  return 0
}
