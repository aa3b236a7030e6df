import Foundation
import Observation
import PrefsKit
import PrefsTutorial
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// The tutorial's types against a real `UserDefaults` whose domain lives in a
/// temporary folder: the suite name is an absolute path, which swift-corelibs-foundation
/// keeps as `<path>.plist` (the XDG location is read once per process, so it cannot
/// be pointed elsewhere from inside a test).
@Suite struct SettingsTests {
  /// A fresh domain in a temporary folder, removed at the end of each test.
  final class Domain {
    let folder: URL
    let suite: String
    init() throws {
      folder = try TestSupport.temporaryFolder()
      suite = folder.appendingPathComponent("com.example.settings").path
    }
    deinit {
      // UserDefaults writes pending changes later (at the latest when the process
      // exits), which would make the folder again: write them now, then remove it.
      UserDefaults(suiteName: suite)?.synchronize()
      try? FileManager.default.removeItem(at: folder)
    }
    var file: String { suite + ".plist" }
    /// A new `UserDefaults` on this domain.
    func defaults() throws -> UserDefaults { try #require(UserDefaults(suiteName: suite)) }
    /// The domain file as prefs reads it.
    func stored() throws -> PrefDictionary? { try FileDomain(path: file).read() }
    /// Writes the domain file before any `UserDefaults` has read it.
    func store(_ contents: PrefDictionary) throws {
      try FileDomain(path: file).modify { $0 = contents }
    }
  }

  /// Records whether an observed property changed.
  final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    func raise() { lock.withLock { raised = true } }
    var isRaised: Bool { lock.withLock { raised } }
  }

  static let fixedItems = [
    Item(
      id: UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!, name: "Groceries",
      description: "Milk, eggs and bread / butter"),
    Item(id: UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!, name: "Café", description: "Pay \"Chez Léa\""),
    Item(id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, name: "Tabs\tand\nlines", description: ""),
  ]

  // MARK: UserSettings

  @Test func anEmptyDomainReadsAsTheFallbacks() throws {
    let domain = try Domain()
    let settings = UserSettings(defaults: try domain.defaults())
    #expect(settings.username == "")
    #expect(settings.isAccountPrivate == true)
    #expect(settings.ringtone == "Chimes")
    #expect(UserSettings.ringtones == ["Chimes", "Signal", "Waves"])
  }

  @Test func everyChangeIsSavedToTheDomain() throws {
    let domain = try Domain()
    let defaults = try domain.defaults()
    let settings = UserSettings(defaults: defaults)
    settings.username = "ada"
    settings.isAccountPrivate = false
    settings.ringtone = "Waves"
    #expect(defaults.synchronize())
    #expect(
      try domain.stored()
        == ["username": .string("ada"), "isAccountPrivate": .bool(false), "ringtone": .string("Waves")])
    let again = UserSettings(defaults: defaults)
    #expect(again.username == "ada" && again.isAccountPrivate == false && again.ringtone == "Waves")
  }

  @Test func aValueOfAnotherTypeReadsAsTheFallbackAsTheSchemaSays() throws {
    let domain = try Domain()
    let stored: PrefDictionary = [
      "isAccountPrivate": .string("false"), "username": .integer(7), "ringtone": .string("Signal"),
    ]
    try domain.store(stored)
    let settings = UserSettings(defaults: try domain.defaults())
    #expect(settings.isAccountPrivate == true)
    #expect(settings.username == "")
    #expect(settings.ringtone == "Signal")
    let effective = Schema.userSettings.effective(stored, on: .linux)
    #expect(effective["isAccountPrivate"] == .bool(settings.isAccountPrivate))
    #expect(effective["username"] == .string(settings.username))
    #expect(effective["ringtone"] == .string(settings.ringtone))
  }

  @Test func theBuiltInSchemaHasTheModelsFallbacks() {
    let schema = Schema.userSettings
    #expect(schema.key(UserSettings.Key.username)?.defaultValue == .string(UserSettings.defaultUsername))
    #expect(
      schema.key(UserSettings.Key.isAccountPrivate)?.defaultValue == .bool(UserSettings.defaultIsAccountPrivate))
    #expect(schema.key(UserSettings.Key.ringtone)?.defaultValue == .string(UserSettings.defaultRingtone))
    #expect(schema.key(UserSettings.Key.ringtone)?.values == UserSettings.ringtones.map(PrefValue.string))
  }

  @Test func changesAreObservable() throws {
    let domain = try Domain()
    let settings = UserSettings(defaults: try domain.defaults())
    let ringtoneChanged = Flag()
    let usernameChanged = Flag()
    withObservationTracking {
      _ = settings.ringtone
    } onChange: {
      ringtoneChanged.raise()
    }
    withObservationTracking {
      _ = settings.username
    } onChange: {
      usernameChanged.raise()
    }
    settings.ringtone = "Signal"
    #expect(ringtoneChanged.isRaised)
    #expect(!usernameChanged.isRaised)
  }

  // MARK: ItemStore

  @Test func createReadUpdateDelete() throws {
    let domain = try Domain()
    let store = ItemStore<Item>(defaults: try domain.defaults())
    #expect(try store.items() == [])
    for item in Self.fixedItems { try store.create(item) }
    #expect(try store.items() == Self.fixedItems)
    var changed = Self.fixedItems[1]
    changed.name = "Coffee"
    try store.update(changed)
    #expect(try store.item(id: changed.id) == changed)
    #expect(try store.items().map(\.name) == ["Groceries", "Coffee", "Tabs\tand\nlines"])
    try store.delete(id: Self.fixedItems[0].id)
    #expect(try store.items().map(\.id) == [changed.id, Self.fixedItems[2].id])
  }

  @Test func failuresAreThrownNotPrinted() throws {
    let domain = try Domain()
    let store = ItemStore<Item>(defaults: try domain.defaults())
    let item = Self.fixedItems[0]
    try store.create(item)
    #expect(throws: ItemStoreError.duplicate(id: item.id.uuidString)) { try store.create(item) }
    let stranger = Item(id: Self.fixedItems[1].id, name: "x", description: "y")
    #expect(throws: ItemStoreError.notFound(id: stranger.id.uuidString)) { try store.update(stranger) }
    #expect(throws: ItemStoreError.notFound(id: stranger.id.uuidString)) { try store.delete(id: stranger.id) }
    #expect(throws: ItemStoreError.notFound(id: stranger.id.uuidString)) { try store.item(id: stranger.id) }
  }

  @Test func aKeyHoldingSomethingElseIsAnErrorAndLeftAlone() throws {
    let domain = try Domain()
    try domain.store(["items": .string("[]"), "broken": .data(Data("{not json".utf8))])
    let defaults = try domain.defaults()
    #expect(throws: ItemStoreError.self) { try ItemStore<Item>(defaults: defaults).create(Self.fixedItems[0]) }
    #expect(throws: ItemStoreError.self) { try ItemStore<Item>(defaults: defaults, key: "broken").items() }
    #expect(defaults.object(forKey: "items") as? String == "[]")
  }

  @Test func theStoredJSONHasSortedKeysAndPlainSlashes() throws {
    let domain = try Domain()
    let store = ItemStore<Item>(defaults: try domain.defaults())
    try store.create(Self.fixedItems[0])
    let data = try #require(try domain.defaults().object(forKey: "items") as? Data)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"[{"description":"Milk, eggs and bread / butter","id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","name":"Groceries"}]"#
    )
  }

  /// `Samples/Items.plist` is the domain `ItemStore` writes for the fixed items;
  /// `PREFS_REGENERATE_SAMPLES=1 swift test --filter SettingsTests` rewrites it.
  @Test func theItemsSampleIsWhatItemStoreWrites() throws {
    let domain = try Domain()
    let defaults = try domain.defaults()
    let store = ItemStore<Item>(defaults: defaults)
    for item in Self.fixedItems { try store.create(item) }
    #expect(defaults.synchronize())
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/Items.plist")
    if ProcessInfo.processInfo.environment["PREFS_REGENERATE_SAMPLES"] == "1" {
      try Data(contentsOf: URL(fileURLWithPath: domain.file)).write(to: sample)
    }
    let expected = try FileDomain(path: sample.path).read()
    #expect(try domain.stored() == expected)
  }
}
