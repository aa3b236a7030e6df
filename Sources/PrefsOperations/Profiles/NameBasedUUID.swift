import PrefsModel

/// Name-based UUIDs (RFC 9562 version 5: SHA-1 of a namespace and a name), so that
/// the same profile input always gives the same `PayloadUUID`s.
package enum NameBasedUUID {
  /// The RFC's URL namespace, `6ba7b811-9dad-11d1-80b4-00c04fd430c8`.
  package static let urlNamespace: [UInt8] = [
    0x6B, 0xA7, 0xB8, 0x11, 0x9D, 0xAD, 0x11, 0xD1, 0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8,
  ]
  /// The RFC's DNS namespace, `6ba7b810-9dad-11d1-80b4-00c04fd430c8`.
  package static let dnsNamespace: [UInt8] = [
    0x6B, 0xA7, 0xB8, 0x10, 0x9D, 0xAD, 0x11, 0xD1, 0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8,
  ]

  /// The version 5 UUID of `name` in `namespace`, in upper case as profiles write
  /// them (`886313E1-3B8A-5372-9B90-0C9AEE199E5D`).
  package static func uuid(namespace: [UInt8], name: [UInt8]) -> String {
    var bytes = Array(SHA1.digest(namespace + name).prefix(16))
    bytes[6] = bytes[6] & 0x0F | 0x50
    bytes[8] = bytes[8] & 0x3F | 0x80
    return [bytes[0..<4], bytes[4..<6], bytes[6..<8], bytes[8..<10], bytes[10..<16]]
      .map { hexBytes($0).uppercased() }.joined(separator: "-")
  }
}
