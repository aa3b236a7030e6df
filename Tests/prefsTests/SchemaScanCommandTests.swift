import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// `prefs schema scan`: the keys an app's Swift sources read, from the scanner
/// beside the binary, and lint and import with the schema it gives.
@Suite struct SchemaScanCommandTests {
  static let scanner = TestSupport.prefsBinary.deletingLastPathComponent().appendingPathComponent("prefs-scan-swift")
  static let hasScanner = FileManager.default.isExecutableFile(atPath: scanner.path)
  static let tutorial = TestSupport.packageRoot.appendingPathComponent("../shared/tutorial").standardizedFileURL
  static let hasTutorial = FileManager.default.fileExists(
    atPath: tutorial.appendingPathComponent("UserSettings.swift").path)

  /// Scans `sources` (file name to text) written into a scratch folder; the schema,
  /// and what was printed on standard error.
  func scan(_ sources: [String: String]) throws -> (schema: Schema, stderr: String) {
    let folder = try TestFolder()
    for (name, text) in sources { try folder.write(name, text) }
    let result = try TestSupport.prefs(["schema", "scan", folder.url.path, "--to", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    return (try Schema.read(Data(result.stdout.utf8)), result.stderr)
  }

  func key(_ schema: Schema, _ name: String) throws -> SchemaKey {
    try #require(schema.key(name), "no key \(name) in \(schema.keys.map(\.name))")
  }

  // MARK: The tutorial

  @Test(
    .enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"),
    .enabled(if: hasTutorial, "the tutorial's sources are not in ../shared/tutorial"))
  func theTutorialsTwoFilesGiveTheBuiltInSchema() throws {
    let result = try TestSupport.prefs([
      "schema", "scan", Self.tutorial.appendingPathComponent("UserSettings.swift").path,
      Self.tutorial.appendingPathComponent("StorageManager.swift").path,
    ])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let schema = try Schema.read(Data(result.stdout.utf8))
    #expect(schema == Schema.userSettings)
    #expect(schema.keys.map(\.name) == ["username", "isAccountPrivate", "ringtone", "items"])
    #expect(try key(schema, "username").defaultValue == .string(""))
    #expect(try key(schema, "isAccountPrivate").type == .bool)
    #expect(try key(schema, "isAccountPrivate").defaultValue == .bool(true))
    let ringtone = try key(schema, "ringtone")
    #expect(ringtone.defaultValue == .string("Chimes"))
    #expect(ringtone.values == ["Chimes", "Signal", "Waves"])
    let items = try key(schema, "items")
    #expect(items.type == .data)
    #expect(items.encoding == .json)
    #expect(items.content?.type == .array)
    #expect(items.content?.items?.fields?.map(\.name) == ["id", "name", "description"])
    #expect(items.content?.items?.fields?.allSatisfy { $0.content.type == .string && !$0.content.isOptional } == true)
    // The sample is the same schema, as YAML.
    let sample = try Data(
      contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.schema.yaml"))
    #expect(try Schema.read(sample) == schema)
  }

  @Test(
    .enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"),
    .enabled(if: hasTutorial, "the tutorial's sources are not in ../shared/tutorial"))
  func theTutorialsFolderGivesTheSameKeysWithThePickersValues() throws {
    let result = try TestSupport.prefs(["schema", "scan", Self.tutorial.path, "--to", "json"])
    #expect(result.status == 0)
    let schema = try Schema.read(Data(result.stdout.utf8))
    #expect(Set(schema.keys.map(\.name)) == ["username", "isAccountPrivate", "ringtone", "items"])
    #expect(try key(schema, "ringtone").values == ["Chimes", "Signal", "Waves"])
  }

  @Test(
    .enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"),
    .enabled(if: hasTutorial, "the tutorial's sources are not in ../shared/tutorial"))
  func lintWithTheScannedSchemaNamesTheItemTheAppCannotDecodeAndTheTypo() throws {
    let folder = try TestFolder()
    let schemaFile = folder.path("app.schema.yaml")
    let scanned = try TestSupport.prefs([
      "schema", "scan", Self.tutorial.appendingPathComponent("UserSettings.swift").path,
      Self.tutorial.appendingPathComponent("StorageManager.swift").path, "-o", schemaFile,
    ])
    #expect(scanned.status == 0)
    let items =
      #"[{"id":"1","name":"Milk","description":"2 l"},{"id":"2","name":"Eggs"},{"id":"3","name":"Tea","description":""}]"#
    let base64 = Data(items.utf8).base64EncodedString()
    let domain = try folder.write(
      "domain.yaml", "isAccountPrivate: \"false\"\nitmes: 1\nitems: !!binary \(base64)\nringtone: Chimes\n")
    let result = try TestSupport.prefs(["lint", domain, "--schema", schemaFile])
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        prefs: error: \(domain):1:1: isAccountPrivate: stored as string "false"; the app reads true (fallback)
        prefs: warning: \(domain):2:1: itmes: not in the schema; the app does not read it (did you mean 'items'?)
        prefs: error: \(domain):3:1: items: does not decode as [Item]: item 2 of 3 has no field 'description' \
        (JSONDecoder fails; the app reads [] instead, and its next save of items drops every stored item)

        """)

    // import --schema stores no such data without --force.
    let store = try TestFolder()
    let refused = try TestSupport.prefs(
      ["import", "com.example.app", domain, "--schema", schemaFile], store: store.url)
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("items: does not decode as [Item]: item 2 of 3 has no field 'description'"))
    #expect(refused.stderr.contains("hint: --force stores data the app cannot decode, with a warning\n"))
    #expect(!FileManager.default.fileExists(atPath: store.path("com.example.app.plist")))
    let good = try folder.write("good.yaml", "items: !!binary \(base64)\n")
    let forced = try TestSupport.prefs(
      ["import", "com.example.app", good, "--schema", schemaFile, "--force"], store: store.url)
    #expect(forced.status == 0)
    #expect(forced.stderr.contains("prefs: warning: \(good):1:1: items: does not decode as [Item]"))
    #expect(FileManager.default.fileExists(atPath: store.path("com.example.app.plist")))
  }

  // MARK: Patterns

  @Test(.enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"))
  func castsGettersAndTheirImplicitFallbacks() throws {
    let (schema, _) = try scan([
      "Reads.swift": """
      import Foundation
      func load(_ defaults: UserDefaults) {
        let a = UserDefaults.standard.object(forKey: "volume") as? Double ?? 0.5
        let b = UserDefaults.standard.object(forKey: "opened") as! Date
        let c = UserDefaults.standard.value(forKey: "flag") as? Bool
        let d = (UserDefaults.standard.object(forKey: "again") as? Int) ?? 3
        let e = defaults.bool(forKey: "enabled")
        let f = defaults.integer(forKey: "count")
        let g = defaults.double(forKey: "scale")
        let h = defaults.float(forKey: "ratio")
        let i = defaults.string(forKey: "name")
        let j = defaults.string(forKey: "title") ?? "Untitled"
        let k = defaults.array(forKey: "list")
        let l = defaults.dictionary(forKey: "info")
        let m = defaults.data(forKey: "blob")
        let n = defaults.url(forKey: "home")
        let o = defaults.stringArray(forKey: "tags")
        let p = cache.object(forKey: "notADefault")
        let q = UserDefaults.standard.object(forKey: "seen") as? Date ?? Date.now
      }
      """
    ])
    let expected: [(String, ValueText.TypeName, PrefValue?)] = [
      ("volume", .real, .real(0.5)), ("opened", .date, nil), ("flag", .bool, nil), ("again", .integer, .integer(3)),
      ("enabled", .bool, .bool(false)), ("count", .integer, .integer(0)), ("scale", .real, .real(0)),
      ("ratio", .real, .real(0)), ("name", .string, nil), ("title", .string, .string("Untitled")),
      ("list", .array, nil), ("info", .dict, nil), ("blob", .data, nil), ("home", .string, nil), ("tags", .array, nil),
      ("seen", .date, nil),
    ]
    #expect(schema.keys.map(\.name) == expected.map(\.0))
    for (name, type, fallback) in expected {
      #expect(try key(schema, name).type == type, "\(name)")
      #expect(try key(schema, name).defaultValue == fallback, "\(name)")
    }
    #expect(try key(schema, "volume").readAt == ["Reads.swift:3:11"])
    // A fallback that is no literal is named, not given.
    #expect(try key(schema, "seen").description == "falls back to Date.now")
  }

  @Test(.enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"))
  func appStorageAndSceneStorageWithRawRepresentableEnumsAndStores() throws {
    let (schema, _) = try scan([
      "SettingsView.swift": """
      import SwiftUI
      enum Appearance: String { case system, light, dark = "Dark" }
      enum Level: Int { case low = 1, mid, high }
      struct SettingsView: View {
        @AppStorage("username") var username: String = "anon"
        @AppStorage("appearance") private var appearance: Appearance = .system
        @AppStorage("level") var level = Level.mid
        @AppStorage("count", store: UserDefaults(suiteName: "group.app")) var count = 4
        @AppStorage("nickname") var nickname: String?
        @SceneStorage("tab") var tab = 0
        var body: some View { Text(username) }
      }
      """
    ])
    #expect(try key(schema, "username").defaultValue == .string("anon"))
    let appearance = try key(schema, "appearance")
    #expect(appearance.type == .string)
    #expect(appearance.defaultValue == .string("system"))
    #expect(appearance.values == ["system", "light", "Dark"])
    let level = try key(schema, "level")
    #expect(level.type == .integer)
    #expect(level.defaultValue == .integer(2))
    #expect(level.values == [1, 2, 3])
    #expect(try key(schema, "count").suite == "group.app")
    #expect(try key(schema, "count").defaultValue == .integer(4))
    #expect(try key(schema, "nickname").defaultValue == nil)
    #expect(try key(schema, "tab").type == .integer)
  }

  @Test(.enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"))
  func keysThroughConstantsEnumsExtensionsAndSuitesAndKeysBuiltAtRunTime() throws {
    let (schema, stderr) = try scan([
      "Keys.swift": """
      import Foundation
      enum Keys { static let volume = "volume" }
      enum Key: String { case theme; case fontSize = "font-size" }
      extension String { static let lastOpened = "lastOpened" }
      let tokenKey = "token"
      final class Settings {
        private let userDefaultsKey = "items"
        let shared = UserDefaults(suiteName: "group.com.example")!
        func load(row: Int, name: String) {
          _ = UserDefaults.standard.double(forKey: Keys.volume)
          _ = UserDefaults.standard.string(forKey: Key.theme.rawValue)
          _ = UserDefaults.standard.integer(forKey: Key.fontSize.rawValue)
          _ = UserDefaults.standard.object(forKey: .lastOpened) as? Date
          _ = shared.string(forKey: tokenKey)
          _ = UserDefaults.standard.data(forKey: userDefaultsKey)
          _ = UserDefaults.standard.bool(forKey: "row-\\(row)")
          _ = UserDefaults.standard.object(forKey: name) as? String
        }
      }
      """
    ])
    #expect(schema.keys.map(\.name) == ["volume", "theme", "font-size", "lastOpened", "token", "items"])
    #expect(try key(schema, "token").suite == "group.com.example")
    #expect(
      schema.dynamicKeys == [
        DynamicKeyRead(expression: #""row-\(row)""#, pattern: "row-*", type: .bool, readAt: ["Keys.swift:16:9"]),
        DynamicKeyRead(expression: "name", type: .string, readAt: ["Keys.swift:17:9"]),
      ])
    #expect(stderr == "prefs: warning: 2 reads build their key at run time (listed under dynamic-keys)\n")
  }

  @Test(.enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"))
  func registeredDefaultsGiveTheFallbackOfAReadThatHasNone() throws {
    let (schema, _) = try scan([
      "A.swift": """
      import Foundation
      func setUp() { UserDefaults.standard.register(defaults: ["enabled": true, "ratio": 2, "title": "Home"]) }
      func read() {
        _ = UserDefaults.standard.bool(forKey: "enabled")
        _ = UserDefaults.standard.double(forKey: "ratio")
        _ = UserDefaults.standard.object(forKey: "title") as? String
      }
      """
    ])
    #expect(try key(schema, "enabled").defaultValue == .bool(true))
    #expect(try key(schema, "ratio").defaultValue == .real(2))
    #expect(try key(schema, "title").defaultValue == .string("Home"))
  }

  @Test(.enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"))
  func functionsThatReadTheKeyTheyArePassedAndDefaultsRegisteredFromAVariable() throws {
    let (schema, _) = try scan([
      "AppDefaults.swift": """
      import Foundation
      enum Key { static let refresh = "refreshInterval" }
      final class AppDefaults {
        static func bool(for key: String) -> Bool { UserDefaults.standard.bool(forKey: key) }
        static func int(for key: String) -> Int { UserDefaults.standard.integer(forKey: key) }
        static func setInt(for key: String, _ x: Int) { UserDefaults.standard.set(x, forKey: key) }
        func level(for key: String) -> Int { AppDefaults.int(for: key) }
        var refresh: Int { AppDefaults.int(for: Key.refresh) }
        var dark: Bool { AppDefaults.bool(for: "dark") }
        var depth: Int { level(for: "depth") }
        func save() { AppDefaults.setInt(for: Key.refresh, 2) }
        func register() {
          let defaults: [String: Any] = [Key.refresh: 4]
          UserDefaults.standard.register(defaults: defaults)
        }
      }
      """
    ])
    #expect(schema.keys.map(\.name) == ["refreshInterval", "dark", "depth"])
    let refresh = try key(schema, "refreshInterval")
    #expect(refresh.type == .integer)
    #expect(refresh.defaultValue == .integer(4))
    #expect(refresh.readAt == ["AppDefaults.swift:8:22"])
    #expect(refresh.writtenAt == ["AppDefaults.swift:11:17"])
    #expect(try key(schema, "dark").defaultValue == .bool(false))
    #expect(try key(schema, "depth").defaultValue == .integer(0))
    #expect(schema.dynamicKeys.isEmpty)
  }

  @Test(.enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"))
  func defaultsLibrariesAndTheAppsOwnPropertyWrappersByTheirShape() throws {
    let (schema, _) = try scan([
      "Keys.swift": """
      import Defaults
      extension Defaults.Keys {
        static let quality = Key<Double>("quality", default: 0.8)
        static let folder = Key<URL?>("folder")
        static let sortBy = Key<Sorter.By>("sortBy", default: .lastCopiedAt)
        static let mode = Defaults.Key<String>("mode", default: "auto", suite: UserDefaults(suiteName: "group.x")!)
      }
      extension DefaultsKeys {
        static let launchAtLogin = DefaultsKey<Bool>("launchAtLogin", defaultValue: false)
        var nickname: DefaultsKey<String?> { .init("nickname") }
      }
      struct Sorter { enum By: String { case lastCopiedAt, firstCopiedAt } }
      struct Item { var lastCopiedAt: Date = Date.now }
      """,
      "Stored.swift": """
      import Foundation
      @propertyWrapper
      struct Stored<Value> {
        let name: String
        let fallback: Value
        var container: UserDefaults = .standard
        var wrappedValue: Value {
          get { container.object(forKey: name) as? Value ?? fallback }
          set { container.set(newValue, forKey: name) }
        }
      }
      enum Preferences {
        @Stored(name: "showBadge", fallback: true) static var showBadge: Bool
        @Stored(name: "retries", fallback: 3) static var retries: Int
      }
      """,
    ])
    #expect(
      schema.keys.map(\.name) == [
        "quality", "folder", "sortBy", "mode", "launchAtLogin", "nickname", "showBadge", "retries",
      ])
    // A case of the key's own enum, though another type has a property of that name.
    #expect(try key(schema, "sortBy").defaultValue == .string("lastCopiedAt"))
    #expect(try key(schema, "sortBy").values == ["lastCopiedAt", "firstCopiedAt"])
    #expect(try key(schema, "quality").defaultValue == .real(0.8))
    #expect(try key(schema, "folder").defaultValue == nil)
    #expect(try key(schema, "mode").suite == "group.x")
    #expect(try key(schema, "launchAtLogin").defaultValue == .bool(false))
    #expect(try key(schema, "nickname").type == .string)
    #expect(try key(schema, "showBadge").defaultValue == .bool(true))
    #expect(try key(schema, "retries").type == .integer)
    #expect(try key(schema, "retries").readAt == ["Stored.swift:14:3"])
    // The wrapper's own read, of its property `name`, is no key.
    #expect(schema.dynamicKeys.isEmpty)
  }

  @Test(.enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"))
  func codableDataGetsItsEncodingAndTheShapeOfTheAppsType() throws {
    let (schema, _) = try scan([
      "Notes.swift": """
      import Foundation
      struct Note: Codable {
        struct Tag: Codable { var label: String; var color: Int? }
        enum CodingKeys: String, CodingKey { case id = "identifier", title, created, tags, archived }
        let id: UUID
        var title: String
        var created: Date
        var tags: [Tag]
        var archived: Bool?
        var draft = false
        var count: Int { tags.count }
      }
      final class NoteStore {
        func load() -> [Note] {
          guard let data = UserDefaults.standard.data(forKey: "notes") else { return [] }
          return (try? PropertyListDecoder().decode([Note].self, from: data)) ?? []
        }
        func loadPinned() -> Note? {
          guard let data = UserDefaults.standard.object(forKey: "pinned") as? Data else { return nil }
          let decoder = JSONDecoder()
          do { return try decoder.decode(Note.self, from: data) } catch { return nil }
        }
      }
      """
    ])
    let notes = try key(schema, "notes")
    #expect(notes.encoding == .plist)
    #expect(notes.decodeFallback == .array([]))
    let note = try #require(notes.content?.items)
    #expect(note.swiftType == "Note")
    #expect(note.fields?.map(\.name) == ["identifier", "title", "created", "tags", "archived"])
    #expect(note.fields?.map(\.content.type) == [.string, .string, .date, .array, .bool])
    #expect(note.fields?.last?.content.isOptional == true)
    #expect(note.fields?[3].content.items?.fields?.map(\.name) == ["label", "color"])
    #expect(note.fields?[3].content.items?.fields?[1].content.isOptional == true)
    // JSON has no dates: JSONEncoder writes seconds.
    let pinned = try key(schema, "pinned")
    #expect(pinned.encoding == .json)
    #expect(pinned.content?.fields?[2].content.type == .real)
    #expect(pinned.decodeFallback == nil)
  }

  @Test(.enabled(if: hasScanner, "prefs-scan-swift is not built (the toolchain has no SwiftSyntax)"))
  func aKeyReadWithTwoTypesOrTwoFallbacksIsAWarningWithBothLocations() throws {
    let (schema, stderr) = try scan([
      "A.swift": """
      import Foundation
      func a() -> Bool { UserDefaults.standard.object(forKey: "sound") as? Bool ?? true }
      func b() -> String { UserDefaults.standard.object(forKey: "sound") as? String ?? "on" }
      func c() -> Int { UserDefaults.standard.object(forKey: "volume") as? Int ?? 5 }
      func d() -> Int { UserDefaults.standard.object(forKey: "volume") as? Int ?? 7 }
      func e() -> Int { UserDefaults.standard.integer(forKey: "same") + UserDefaults.standard.integer(forKey: "same") }
      """
    ])
    #expect(schema.conflicts.map(\.key) == ["sound", "volume"])
    #expect(
      stderr == """
        prefs: warning: A.swift:2:20: sound: read as bool (fallback true) at A.swift:2:20 and as string (fallback "on") at A.swift:3:22
        prefs: warning: A.swift:4:19: volume: read as integer (fallback 5) at A.swift:4:19 and as integer (fallback 7) at A.swift:5:19

        """)
    #expect(try key(schema, "sound").type == .bool)
    #expect(try key(schema, "same").readAt.count == 2)
  }

  // MARK: Errors

  @Test func aMissingPathIsNoInput() throws {
    let result = try TestSupport.prefs(["schema", "scan", "/nonexistent/Sources"])
    #expect(result.status == 66)
    #expect(result.stderr == "prefs: error: /nonexistent/Sources: no such file\n")
  }

  @Test func anUnknownSubcommandIsAUsageError() throws {
    let result = try TestSupport.prefs(["schema", "scna", "x"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("prefs: error: unknown schema subcommand 'scna'; did you mean 'scan'?\n"))
  }

  @Test func withoutTheScannerItSaysWhatToInstall() throws {
    // A copy of prefs alone in a folder, with a PATH that has no scanner.
    let folder = try TestFolder()
    let copy = folder.url.appendingPathComponent("prefs")
    try FileManager.default.copyItem(at: TestSupport.prefsBinary, to: copy)
    let sources = try folder.write("A.swift", "let x = 1\n")
    let result = try TestSupport.run(copy, ["schema", "scan", sources], environment: ["PATH": "/usr/bin:/bin"])
    #expect(result.status == 66)
    #expect(
      result.stderr == """
        prefs: error: schema scan needs prefs-scan-swift, the Swift source scanner, and it is not installed
        hint: build it with 'make build' where the Swift toolchain has SwiftSyntax in its host libraries \
        (usr/lib/swift/host), and install it beside prefs with 'make install', or put it on the PATH

        """)
  }
}
