import PrefsModel

/// A configuration profile signed as CMS `SignedData` (RFC 5652), as MDM servers and
/// `security cms -S` write it: DER whose encapsulated content is the profile's plist.
///
/// Reading takes that content out; the signature is not checked here (see
/// ``isSigned(_:)`` and the caller's verifier).
public enum SignedProfile {
  /// `1.2.840.113549.1.7.2`, CMS signed data, as its DER bytes.
  static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
  /// How deep a content split into pieces (a constructed OCTET STRING) may nest.
  static let maxPieceDepth = 8

  /// Whether `data` looks like a signed profile: a DER SEQUENCE whose first element
  /// is the signed-data identifier. Nothing else (a plist, text) starts so.
  public static func isSigned(_ data: Data) -> Bool {
    let head = [UInt8](data.prefix(32))
    guard head.first == 0x30 else { return false }
    return head.firstRange(of: [0x06, UInt8(signedDataOID.count)] + signedDataOID) != nil
  }

  /// The signed content (the profile's plist bytes) of a signed profile.
  /// Errors are ``PrefsError/Kind/profile(problem:)`` at the byte where the
  /// structure breaks.
  public static func content(of data: Data) throws -> Data {
    let der = DER([UInt8](data))
    let info = try der.root()
    let parts = try sequence(info, der, "ContentInfo")
    guard parts.count == 2, parts[0].tag == 0x06, Array(der.bytes[parts[0].content]) == signedDataOID else {
      throw DER.broken("the content is not CMS signed data", at: info.start)
    }
    guard parts[1].tag == 0xA0, let signed = try der.children(of: parts[1]).first else {
      throw DER.broken("signed data was expected", at: parts[1].start)
    }
    let fields = try sequence(signed, der, "SignedData")
    // version, digestAlgorithms, encapContentInfo, …
    guard fields.count >= 3, fields[0].tag == 0x02, fields[1].tag == 0x31 else {
      throw DER.broken("SignedData does not start with its version and digest algorithms", at: signed.start)
    }
    let encapsulated = try sequence(fields[2], der, "the encapsulated content")
    guard encapsulated.count == 2, encapsulated[1].tag == 0xA0,
      let octets = try der.children(of: encapsulated[1]).first
    else {
      throw DER.broken("the profile is signed detached: the signed data holds no content", at: fields[2].start)
    }
    return Data(try octetString(octets, der, depth: 0))
  }

  private static func sequence(_ element: DER.Element, _ der: DER, _ name: String) throws -> [DER.Element] {
    guard element.tag == 0x30 else { throw DER.broken("\(name) must be a SEQUENCE", at: element.start) }
    return try der.children(of: element)
  }

  /// An OCTET STRING's bytes; a constructed one is the concatenation of its pieces.
  private static func octetString(_ element: DER.Element, _ der: DER, depth: Int) throws -> [UInt8] {
    switch element.tag {
    case 0x04: return Array(der.bytes[element.content])
    case 0x24:
      guard depth < maxPieceDepth else { throw DER.broken("the content's pieces nest too deep", at: element.start) }
      return try der.children(of: element).flatMap { try octetString($0, der, depth: depth + 1) }
    default: throw DER.broken("the content must be an OCTET STRING", at: element.start)
    }
  }
}
