import Foundation
import PrefsTestSupport
import Testing

/// `prefs profile`: settings files and domains to configuration profiles and back,
/// native payloads checked against device-management schemas, signed profiles, and
/// profiles read by convert, diff and lint.
@Suite struct ProfileCommandTests {
  static let profiles = "device-management/mdm/profiles"
  static var corpusProfiles: String {
    TestSupport.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/\(profiles)").path
  }

  static let settings = TestSupport.typedSettings

  @Test func aSettingsFileMakesAProfileThatExtractsToTheSameSettings() throws {
    let folder = try TestFolder()
    let input = try folder.write("settings.yaml", Self.settings)
    let made = try TestSupport.prefs(
      [
        "profile", input, "-o", folder.path("Fleet.mobileconfig"), "--identifier", "com.example.fleet",
        "--organization", "Example", "--display-name", "Fleet settings", "--manage", "once",
      ])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout == "" && made.stderr == "")
    let text = try folder.read("Fleet.mobileconfig")
    #expect(text.contains("<key>PayloadType</key>\n\t<string>Configuration</string>"))
    #expect(text.contains("<key>Set-Once</key>"))
    #expect(text.contains("<string>com.apple.ManagedClient.preferences</string>"))
    #expect(text.contains("<string>Fleet settings</string>") && text.contains("<string>Example</string>"))
    #expect(text.contains("<real>1.0</real>") && text.contains("<date>2023-11-14T22:13:20Z</date>"))

    let extracted = try TestSupport.prefs(
      ["profile", "--extract", folder.path("Fleet.mobileconfig"), "-o", folder.path("extracted.yaml")])
    #expect(extracted.status == 0, "\(extracted.stderr)")
    // Equal value for value, type for type.
    let same = try TestSupport.prefs(["diff", input, folder.path("extracted.yaml")])
    #expect(same.status == 0, "\(same.stdout)")
    #expect(try folder.read("extracted.yaml").contains("ratio: 1.0\n"))

    // The extracted file is one that apply and apply --check take.
    let store = try TestFolder()
    let check = try TestSupport.prefs(["apply", "--check", folder.path("extracted.yaml")], store: store.url)
    #expect(check.status == 1)
    let applied = try TestSupport.prefs(["apply", folder.path("extracted.yaml")], store: store.url)
    #expect(applied.status == 0, "\(applied.stderr)")
    #expect(try TestSupport.prefs(["apply", "--check", folder.path("extracted.yaml")], store: store.url).status == 0)
    #expect(
      try TestSupport.prefs(["read-type", "com.example.app", "when"], store: store.url).stdout == "Type is date\n")
  }

  @Test func theSameInputTwiceGivesTheSameBytes() throws {
    let folder = try TestFolder()
    let input = try folder.write("settings.yaml", Self.settings)
    for name in ["a.mobileconfig", "b.mobileconfig"] {
      let made = try TestSupport.prefs(["profile", input, "-o", folder.path(name), "--identifier", "com.example.fleet"])
      #expect(made.status == 0, "\(made.stderr)")
    }
    #expect(try folder.data("a.mobileconfig") == folder.data("b.mobileconfig"))
    // Standard output holds the same bytes.
    let printed = try TestSupport.prefs(["profile", input, "--identifier", "com.example.fleet"])
    #expect(Data(printed.stdout.utf8) == (try folder.data("a.mobileconfig")))
    // A changed value changes the UUIDs.
    let changed = try folder.write("changed.yaml", Self.settings.replacingOccurrences(of: "count: 3", with: "count: 4"))
    let other = try TestSupport.prefs(["profile", changed, "--identifier", "com.example.fleet"])
    #expect(other.stdout != printed.stdout)
  }

  @Test(.enabled(if: TestSupport.executable(named: "python3") != nil, "python3 is not installed"))
  func pythonsPlistlibReadsEveryProfile() throws {
    let folder = try TestFolder()
    let input = try folder.write("settings.yaml", Self.settings)
    var made: [String] = []
    for manage in ["forced", "once", "often"] {
      let out = folder.path("\(manage).mobileconfig")
      let result = try TestSupport.prefs(["profile", input, "-o", out, "--manage", manage, "--identifier", "x.y"])
      #expect(result.status == 0, "\(result.stderr)")
      made.append(out)
    }
    let python = try #require(TestSupport.python())
    let script = """
      import plistlib, sys, datetime
      for path in sys.argv[1:]:
          with open(path, 'rb') as f:
              p = plistlib.load(f)
          assert p['PayloadType'] == 'Configuration', path
          app = p['PayloadContent'][0]['PayloadContent']['com.example.app']
          (mode, items), = app.items()
          s = items[0]['mcx_preference_settings']
          assert s['when'] == datetime.datetime(2023, 11, 14, 22, 13, 20), s['when']
          assert s['blob'] == b'hello' and s['ratio'] == 1.0 and type(s['ratio']) is float
          assert s['enabled'] is False and s['count'] == 3
          print(mode)
      """
    let result = try TestSupport.run(python, ["-c", script] + made)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "Forced\nSet-Once\nOften\n")
  }

  @Test(.enabled(if: TestSupport.hasCorpus(profiles), "the device-management corpus is absent"))
  func aNativeDockPayloadIsCheckedAgainstAppleSchema() throws {
    let folder = try TestFolder()
    let bad = try folder.write("dock.yaml", "com.apple.dock:\n  autohide: true\n  tilesize: 200\n")
    let out = folder.path("Dock.mobileconfig")
    let refused = try TestSupport.prefs(["profile", bad, "-o", out, "--schema-dir", Self.corpusProfiles])
    #expect(refused.status == 65)
    #expect(
      refused.stderr == "prefs: error: \(bad):3:3: tilesize: 200 is out of 16...128 (the schema of com.apple.dock)\n")
    #expect(!FileManager.default.fileExists(atPath: out))

    let good = try folder.write("good.yaml", "com.apple.dock:\n  autohide: true\n  tilesize: 64\n")
    let made = try TestSupport.prefs(["profile", good, "-o", out, "--schema-dir", Self.corpusProfiles])
    #expect(made.status == 0, "\(made.stderr)")
    let text = try folder.read("Dock.mobileconfig")
    #expect(text.contains("<key>PayloadType</key>\n\t\t\t<string>com.apple.dock</string>"))
    #expect(text.contains("<key>tilesize</key>\n\t\t\t<integer>64</integer>"))
    #expect(!text.contains("mcx_preference_settings"))

    // lint checks each payload of a profile against its schema, at its position.
    let broken = try folder.write(
      "Broken.mobileconfig",
      text.replacingOccurrences(of: "<integer>64</integer>", with: "<integer>300</integer>"))
    let lint = try TestSupport.prefs(["lint", broken, "--schema-dir", Self.corpusProfiles])
    #expect(lint.status == 1)
    let line = try #require(
      text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("<key>tilesize</key>") })
    #expect(lint.stdout == "prefs: error: \(broken):\(line + 1):4: PayloadContent.0.tilesize: 300 is out of 16...128\n")
    // diff and convert read profiles too, payload by payload.
    let diff = try TestSupport.prefs(["diff", out, broken])
    #expect(diff.status == 1)
    #expect(diff.stdout == "~ PayloadContent.0.tilesize: 64 -> 300\n")
    let converted = try TestSupport.prefs(["convert", out])
    #expect(converted.status == 0)
    #expect(converted.stdout.contains("  tilesize: 64\n"))
  }

  @Test func aDomainOfTheStoreMakesAProfile() throws {
    let store = try TestFolder()
    _ = try TestSupport.prefs(["write", "com.example.app", "ratio", "-float", "1.0"], store: store.url)
    let made = try TestSupport.prefs(["profile", "com.example.app", "--identifier", "com.example.x"], store: store.url)
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.contains("<key>ratio</key>") && made.stdout.contains("<real>1.0</real>"))
    #expect(made.stdout.contains("<string>com.example.x.com.example.app</string>"))
    let missing = try TestSupport.prefs(["profile", "com.example.none"], store: store.url)
    #expect(missing.status == 66)
  }

  @Test(.enabled(if: TestSupport.executable(named: "openssl") != nil, "openssl is not installed"))
  func aSignedProfileIsReadAndItsSignatureVerifiedWithOpenSSL() throws {
    let folder = try TestFolder()
    let input = try folder.write("settings.yaml", Self.settings)
    #expect(try TestSupport.prefs(["profile", input, "-o", folder.path("p.mobileconfig")]).status == 0)
    try TestSupport.signWithOpenSSL(
      folder.path("p.mobileconfig"), to: folder.path("signed.mobileconfig"), in: folder.url)
    let signed = folder.path("signed.mobileconfig")

    let extracted = try TestSupport.prefs(["profile", "--extract", signed, "-o", folder.path("out.yaml")])
    #expect(extracted.status == 0, "\(extracted.stderr)")
    #expect(
      extracted.stderr == "prefs: \(signed): signed; openssl verifies the signature (the signer's certificate is "
        + "not checked against trusted roots)\n")
    #expect(try TestSupport.prefs(["diff", input, folder.path("out.yaml")]).status == 0)

    // Without openssl the content is read, and the signature said to be not verified.
    let unverified = try TestSupport.prefs(
      ["profile", "--extract", signed], environment: ["PATH": folder.url.path])
    #expect(unverified.status == 0)
    #expect(
      unverified.stderr
        == "prefs: warning: \(signed): signed; the signature is not verified (openssl is not installed)\n")

    // Content changed after signing is refused, and nothing is written.
    var bytes = try folder.data("signed.mobileconfig")
    let at = try #require(bytes.firstRange(of: Data("AppleLocale".utf8)))
    bytes[at.lowerBound] = UInt8(ascii: "B")
    try bytes.write(to: folder.url.appendingPathComponent("tampered.mobileconfig"))
    let tampered = try TestSupport.prefs(
      ["profile", "--extract", folder.path("tampered.mobileconfig"), "-o", folder.path("t.yaml")])
    #expect(tampered.status == 65)
    #expect(tampered.stderr.hasPrefix("prefs: error: \(folder.path("tampered.mobileconfig")): signed, but openssl"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("t.yaml")))

    // A signed profile cut short fails at once, with the byte where it breaks.
    try Data(bytes.prefix(300)).write(to: folder.url.appendingPathComponent("cut.mobileconfig"))
    let cut = try TestSupport.prefs(["convert", folder.path("cut.mobileconfig")])
    #expect(cut.status == 65)
    #expect(cut.stderr.hasPrefix("prefs: error: \(folder.path("cut.mobileconfig")): at byte "))
  }

  @Test func badProfileRequestsAreRefused() throws {
    let folder = try TestFolder()
    let input = try folder.write("settings.yaml", "com.example.app: !delete\n")
    let directive = try TestSupport.prefs(["profile", input])
    #expect(directive.status == 65)
    #expect(directive.stderr.hasPrefix("prefs: error: \(input):1:18: com.example.app: a profile sets values"))
    let plain = try folder.write("plain.yaml", "a: 1\n")
    let notProfile = try TestSupport.prefs(["profile", "--extract", plain])
    #expect(notProfile.status == 65)
    #expect(notProfile.stderr.hasPrefix("prefs: error: \(plain): a configuration profile is a dictionary"))
    let twice = try TestSupport.prefs(["profile", "--extract", input, input])
    #expect(twice.status == 64)
    let manage = try TestSupport.prefs(["profile", input, "--manage", "sometimes"])
    #expect(manage.status == 64)
  }
}
