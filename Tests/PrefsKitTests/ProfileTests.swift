import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsModel
@testable import PrefsOperations

/// Configuration profiles: SHA-1 and name-based UUIDs, building (Custom Settings and
/// native payloads), reading back, and signed profiles' DER.
@Suite struct ProfileTests {
  /// The value at `key` of a dictionary value.
  func field(_ value: PrefValue?, _ key: String) -> PrefValue? { value?.dictionaryValue?[key] }

  func settings(_ yaml: String) throws -> [ProfileInput] {
    try ProfileInput.settingsFile(Data(yaml.utf8), name: "settings.yaml")
  }

  static let typed = TestSupport.typedSettings

  // MARK: SHA-1 and UUIDs

  @Test(arguments: [
    ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
    ),
  ])
  func sha1MatchesTheStandardsVectors(text: String, digest: String) {
    #expect(hexBytes(SHA1.digest(Array(text.utf8))) == digest)
  }

  @Test func sha1OfAMillionAsCrossesManyBlocks() {
    #expect(
      hexBytes(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
        == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  @Test func nameBasedUUIDsAreVersion5() {
    // Python: uuid.uuid5(uuid.NAMESPACE_DNS, "python.org")
    #expect(
      NameBasedUUID.uuid(namespace: NameBasedUUID.dnsNamespace, name: Array("python.org".utf8))
        == "886313E1-3B8A-5372-9B90-0C9AEE199E5D")
  }

  // MARK: Building

  @Test func customSettingsPayloadsKeepEveryType() throws {
    let profile = try ConfigurationProfile.build(
      try settings(Self.typed), request: ProfileRequest(identifier: "com.example.fleet", management: .once))
    let value = PrefValue.dictionary(profile.value)
    #expect(profile.value["PayloadType"] == .string("Configuration"))
    #expect(profile.value["PayloadIdentifier"] == .string("com.example.fleet"))
    #expect(profile.value["PayloadDisplayName"] == .string("com.example.fleet"))
    #expect(profile.value["PayloadVersion"] == .integer(1))
    let first = try #require(profile.value["PayloadContent"]?.arrayValue?.first)
    #expect(field(first, "PayloadType") == .string(ConfigurationProfile.customSettingsType))
    #expect(field(first, "PayloadIdentifier") == .string("com.example.fleet.com.example.app"))
    let once = field(field(field(first, "PayloadContent"), "com.example.app"), "Set-Once")
    let stored = try #require(field(once?.arrayValue?.first, "mcx_preference_settings")?.dictionaryValue)
    #expect(stored["when"] == .date(Date(timeIntervalSince1970: 1_700_000_000)))
    #expect(stored["blob"] == .data(Data("hello".utf8)))
    #expect(stored["ratio"] == .real(1.0))
    #expect(stored["enabled"] == .bool(false))
    // The global domain is .GlobalPreferences in Custom Settings, NSGlobalDomain again when read back.
    let global = try #require(profile.value["PayloadContent"]?.arrayValue?.last)
    #expect(field(field(global, "PayloadContent"), ".GlobalPreferences") != nil)
    let parts = try ConfigurationProfile(value).domainParts()
    #expect(parts.map(\.domain) == ["com.example.app", "NSGlobalDomain"])
    #expect(parts[0].settings == (try settings(Self.typed))[0].settings)
  }

  @Test func theSameInputGivesTheSameBytesAndOtherContentOtherUUIDs() throws {
    let request = ProfileRequest(identifier: "com.example.fleet", organization: "Example")
    let one = try ConfigurationProfile.build(try settings(Self.typed), request: request).encoded()
    let two = try ConfigurationProfile.build(try settings(Self.typed), request: request).encoded()
    #expect(one == two)
    let changed = try ConfigurationProfile.build(
      try settings(Self.typed.replacingOccurrences(of: "count: 3", with: "count: 4")), request: request)
    let before = try ConfigurationProfile(try Format.xml.codec.decode(one))
    func uuids(_ profile: ConfigurationProfile) -> [PrefValue?] {
      [profile.value["PayloadUUID"]]
        + (profile.value["PayloadContent"]?.arrayValue ?? []).map { field($0, "PayloadUUID") }
    }
    // The payload that changed and the profile get new UUIDs; the other payload keeps its own.
    let (old, new) = (uuids(before), uuids(changed))
    #expect(old[0] != new[0] && old[1] != new[1] && old[2] == new[2])
  }

  @Test func aDomainWithASchemaGetsANativePayloadCheckedAgainstIt() throws {
    let folder = try TestFolder()
    try folder.write(
      "dock.yaml",
      """
      payload: {payloadtype: com.apple.dock}
      payloadkeys:
      - {key: tilesize, type: <integer>, range: {min: 16, max: 128}}
      - {key: orientation, type: <string>, rangelist: [bottom, left, right]}
      """)
    let request = ProfileRequest(identifier: "com.example.fleet", schemas: SchemaDirectory(path: folder.url.path))
    let warnings = Warnings()
    let profile = try ConfigurationProfile.build(
      try settings("com.apple.dock:\n  tilesize: 64\n  extra: 1\n"), request: request, warnings: warnings)
    let payload = try #require(profile.value["PayloadContent"]?.arrayValue?.first)
    #expect(field(payload, "PayloadType") == .string("com.apple.dock"))
    #expect(field(payload, "tilesize") == .integer(64))
    #expect(warnings.all.map(\.position) == [.lineColumn(line: 3, column: 3)])
    for (text, path, line) in [
      ("com.apple.dock:\n  tilesize: 200\n", "tilesize", 2),
      ("com.apple.dock:\n  orientation: top\n", "orientation", 2),
      ("com.apple.dock:\n  tilesize: \"64\"\n", "tilesize", 2),
      ("com.apple.dock:\n  PayloadType: x\n", "PayloadType", 2),
    ] {
      let error = #expect(throws: PrefsError.self) {
        try ConfigurationProfile.build(try settings(text), request: request)
      }
      if case .payloadRefused(let at, _)? = error?.kind {
        #expect(at.description == path)
      } else {
        Issue.record("\(String(describing: error))")
      }
      #expect(error?.file == "settings.yaml")
      #expect(error?.position == .lineColumn(line: line, column: 3))
    }
  }

  @Test func whatAProfileCannotHoldIsRefused() throws {
    let replace = #expect(throws: PrefsError.self) { try settings("com.example.app: !replace {a: 1}\n") }
    if case .settings? = replace?.kind {} else { Issue.record("\(String(describing: replace))") }
    #expect(replace?.position == .lineColumn(line: 1, column: 18))
    let file = #expect(throws: PrefsError.self) { try settings("x/y.plist: {a: 1}\n") }
    #expect(file?.category == .badInput)
    let none = #expect(throws: PrefsError.self) {
      try ConfigurationProfile.build([], request: ProfileRequest(identifier: "x"))
    }
    #expect(none?.category == .badInput)
  }

  @Test(arguments: [
    "PayloadType: Configuration\n",
    "PayloadType: Configuration\nPayloadContent: [1]\n",
    "PayloadType: Other\nPayloadContent: []\n",
    "PayloadType: Configuration\nPayloadContent:\n- {PayloadType: com.apple.ManagedClient.preferences, PayloadContent: [1]}\n",
  ])
  func malformedProfilesAreRefused(text: String) throws {
    let error = #expect(throws: PrefsError.self) {
      try ConfigurationProfile(try Format.yaml.codec.decode(Data(text.utf8))).domainParts()
    }
    if case .profile? = error?.kind {} else { Issue.record("\(String(describing: error))") }
  }

  // MARK: Signed profiles

  /// A CMS SignedData holding `content`, built by hand: the parts the reader walks.
  static func signedData(_ content: [UInt8]) -> [UInt8] {
    func element(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
      var length: [UInt8]
      if body.count < 0x80 {
        length = [UInt8(body.count)]
      } else {
        var n = body.count
        length = []
        while n > 0 {
          length.insert(UInt8(n & 0xFF), at: 0)
          n >>= 8
        }
        length.insert(0x80 | UInt8(length.count), at: 0)
      }
      return [tag] + length + body
    }
    let oid = element(0x06, SignedProfile.signedDataOID)
    let encapsulated = element(
      0x30,
      element(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]) + element(0xA0, element(0x04, content)))
    let signed = element(0x30, element(0x02, [1]) + element(0x31, []) + encapsulated + element(0x31, []))
    return element(0x30, oid + element(0xA0, signed))
  }

  @Test func aSignedProfilesContentIsTakenOut() throws {
    let plist = Array(try Format.xml.encode(.dictionary(["PayloadType": "Configuration"])))
    let signed = Data(Self.signedData(plist))
    #expect(SignedProfile.isSigned(signed))
    #expect(!SignedProfile.isSigned(Data(plist)))
    #expect(try SignedProfile.content(of: signed) == Data(plist))
  }

  @Test func hostileDERFailsAtOnceWithItsOffset() throws {
    let good = Self.signedData(Array("<plist/>".utf8))
    var longer = good
    longer[1] = 0x7F
    var huge = good
    huge.replaceSubrange(1..<2, with: [0x84, 0xFF, 0xFF, 0xFF, 0xFF])
    let cases: [[UInt8]] = [
      Array(good.prefix(10)), longer, huge, good + [0], [0x30, 0x80] + Array(good.dropFirst(2)),
      [0x30, 0x85, 1, 1, 1, 1, 1], [0x30, 0x0B] + [0x06, 0x09] + SignedProfile.signedDataOID,
    ]
    for bytes in cases {
      let error = #expect(throws: PrefsError.self) { try SignedProfile.content(of: Data(bytes)) }
      if case .profile? = error?.kind {} else { Issue.record("\(String(describing: error))") }
      if case .byteOffset? = error?.position {} else { Issue.record("no offset: \(String(describing: error))") }
    }
  }

  @Test(.enabled(if: TestSupport.executable(named: "openssl") != nil, "openssl is not installed"))
  func aProfileSignedByOpenSSLIsRead() throws {
    let folder = try TestFolder()
    let profile = try ConfigurationProfile.build(try settings(Self.typed), request: ProfileRequest(identifier: "x"))
    try profile.encoded().write(to: folder.url.appendingPathComponent("p.mobileconfig"))
    try TestSupport.signWithOpenSSL(
      folder.path("p.mobileconfig"), to: folder.path("signed.mobileconfig"), in: folder.url)
    let signed = try folder.data("signed.mobileconfig")
    #expect(SignedProfile.isSigned(signed))
    #expect(try SignedProfile.content(of: signed) == (try profile.encoded()))
  }
}
