import Foundation
import PrefsTestSupport
import Testing

/// `import --schema` (coercion, --strict) and `export --schema --effective`.
@Suite struct SchemaCommandTests {
  /// A temporary store folder, removed at the end of each test.
  final class Store {
    let url: URL
    init() throws { url = try TestSupport.temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: url) }
    var file: URL { url.appendingPathComponent("com.example.app.plist") }
    func prefs(_ arguments: [String], input: String? = nil) throws -> TestSupport.ProcessResult {
      try TestSupport.prefs(arguments, input: input.map { Data($0.utf8) }, store: url)
    }
    func exported() throws -> String {
      try prefs(["export", "com.example.app", "--format", "json", "--compact"]).stdout
    }
  }

  @Test func importCoercesAndReportsEachCoercion() throws {
    let store = try Store()
    let result = try store.prefs(
      ["import", "com.example.app", "--schema", "user-settings"],
      input: "username: 42\nisAccountPrivate: \"no\"\nringtone: Waves\nvolume: 3\n")
    #expect(result.status == 0)
    #expect(
      result.stderr == """
        prefs: warning: <stdin>:1:1: username: coerced integer 42 to string "42" (number as text)
        prefs: warning: <stdin>:2:1: isAccountPrivate: coerced string "no" to bool false (boolean word)
        prefs: warning: <stdin>:4:1: volume: not in the schema; the app does not read it

        """)
    #expect(try store.exported() == #"{"isAccountPrivate":false,"ringtone":"Waves","username":"42","volume":3}"# + "\n")
  }

  @Test(arguments: [
    (#"{"isAccountPrivate": "TRUE"}"#, #"{"isAccountPrivate":true}"#),
    (#"{"isAccountPrivate": "0"}"#, #"{"isAccountPrivate":false}"#),
    (#"{"isAccountPrivate": 1}"#, #"{"isAccountPrivate":true}"#),
    (#"{"username": 1.5}"#, #"{"username":"1.5"}"#),
  ])
  func importStoresWhatTheAppReads(input: String, stored: String) throws {
    let store = try Store()
    #expect(try store.prefs(["import", "com.example.app", "--schema", "user-settings"], input: input).status == 0)
    #expect(try store.exported() == stored + "\n")
  }

  @Test func importRefusesWhatNoRuleFixesAndChangesNothing() throws {
    let store = try Store()
    _ = try store.prefs(["import", "com.example.app"], input: #"{"ringtone": "Signal"}"#)
    let before = try Data(contentsOf: store.file)
    let result = try store.prefs(
      ["import", "com.example.app", "--schema", "user-settings"],
      input: #"{"isAccountPrivate": "maybe", "ringtone": "Bells"}"#)
    #expect(result.status == 65)
    #expect(
      result.stderr == """
        prefs: error: <stdin>:1:2: isAccountPrivate: stored as string "maybe"; the app reads true (fallback)
        prefs: error: <stdin>:1:31: ringtone: "Bells" is not one of "Chimes", "Signal", "Waves"
        prefs: error: <stdin>: nothing imported: 2 values do not fit the schema
        hint: fix the values, or import without --schema to store them as they are

        """)
    #expect(try Data(contentsOf: store.file) == before)
  }

  @Test func strictRefusesEveryValueOfTheWrongType() throws {
    let store = try Store()
    let result = try store.prefs(
      ["import", "com.example.app", "--schema", "user-settings", "--strict"],
      input: #"{"isAccountPrivate": "false", "username": "ada"}"#)
    #expect(result.status == 65)
    #expect(
      result.stderr == """
        prefs: error: <stdin>:1:2: isAccountPrivate: stored as string "false"; the app reads true (fallback)
        prefs: error: <stdin>: nothing imported: 1 value does not fit the schema
        hint: without --strict, values a documented rule can convert are coerced (prefs(1), COERCION)

        """)
    #expect(!FileManager.default.fileExists(atPath: store.file.path))
    let clean = try store.prefs(
      ["import", "com.example.app", "--schema", "user-settings", "--strict"],
      input: #"{"isAccountPrivate": false}"#)
    #expect(clean.status == 0)
    #expect(clean.stderr == "")
  }

  @Test func effectiveOnAnEmptyDomainGivesTheFallbacks() throws {
    let store = try Store()
    _ = try store.prefs(["import", "com.example.app"], input: "{}")
    let result = try store.prefs(["export", "com.example.app", "--schema", "user-settings", "--effective"])
    #expect(result.status == 0)
    #expect(result.stdout == "isAccountPrivate: true\nringtone: Chimes\nusername: \"\"\n")
    // A domain that does not exist yet reads the same way in the app.
    let missing = try store.prefs(["export", "com.example.none", "--schema", "user-settings", "--effective"])
    #expect(missing.stdout == result.stdout)
  }

  @Test func effectiveShowsWhatTheAppReadsAndReportsWhy() throws {
    let store = try Store()
    _ = try store.prefs(["import", "com.example.app"], input: #"{"isAccountPrivate": "false", "username": "ada"}"#)
    let result = try store.prefs(
      ["export", "com.example.app", "--schema", "user-settings", "--effective", "--format", "json", "--compact"])
    #expect(result.stdout == #"{"isAccountPrivate":true,"ringtone":"Chimes","username":"ada"}"# + "\n")
    #expect(
      result.stderr
        == #"prefs: error: com.example.app: isAccountPrivate: stored as string "false"; the app reads true (fallback)"#
        + "\n")
    let plain = try store.prefs(["export", "com.example.app", "--format", "json", "--compact"])
    #expect(plain.stdout == #"{"isAccountPrivate":"false","username":"ada"}"# + "\n")
  }

  @Test func effectiveNeedsASchema() throws {
    let store = try Store()
    let result = try store.prefs(["export", "com.example.app", "--effective"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("prefs: error: --effective needs --schema"))
  }

  /// A device-management schema in a folder: import coerces by its types and range
  /// lists and refuses what is out of range; export fills its defaults.
  @Test func aSchemaFolderServesImportAndExport() throws {
    let store = try Store()
    let folder = try TestFolder()
    try folder.write(
      "widget.yaml",
      """
      payload: {payloadtype: com.example.app}
      payloadkeys:
      - {key: size, type: <integer>, range: {min: 16, max: 128}, default: 64}
      - {key: side, type: <string>, rangelist: [bottom, left, right], default: bottom}
      - {key: hidden, type: <boolean>, default: false}

      """)
    let imported = try store.prefs(
      ["import", "com.example.app", "--schema-dir", folder.url.path], input: "size: \"32\"\nside: Left\n")
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stderr == """
        prefs: warning: <stdin>:1:1: size: coerced string "32" to integer 32 (integer text)
        prefs: warning: <stdin>:2:1: side: coerced string "Left" to string "left" (allowed value)

        """)
    #expect(try store.exported() == #"{"side":"left","size":32}"# + "\n")
    let refused = try store.prefs(["import", "com.example.app", "--schema-dir", folder.url.path], input: "size: 200\n")
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("size: 200 is out of 16...128"))
    #expect(try store.exported() == #"{"side":"left","size":32}"# + "\n")
    let effective = try store.prefs(
      ["export", "com.example.app", "--schema-dir", folder.url.path, "--effective", "--format", "json", "--compact"])
    #expect(effective.stdout == #"{"hidden":false,"side":"left","size":32}"# + "\n")
    let none = try store.prefs(["export", "com.example.other", "--schema-dir", folder.url.path, "--effective"])
    #expect(none.status == 66)
    #expect(
      none.stderr.hasPrefix("prefs: error: \(folder.url.path): no schema whose payload type is 'com.example.other'\n"))
  }
}
