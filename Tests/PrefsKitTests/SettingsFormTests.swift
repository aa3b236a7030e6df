import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsModel
@testable import PrefsOperations

/// The form's model, without a terminal: rows from a schema and a domain, what the
/// app reads, fixes, checked edits, the filter, pages and saving.
@Suite struct SettingsFormTests {
  static let dock = Schema(
    description: "Dock",
    keys: [
      SchemaKey(
        name: "tilesize", type: .integer, description: "The tile size.",
        range: SchemaRange(min: .integer(16), max: .integer(128))),
      SchemaKey(
        name: "orientation", type: .string, values: ["bottom", "left", "right"].map(PrefValue.string),
        description: "The orientation of the dock."),
      SchemaKey(name: "autohide", type: .bool, defaultValue: .bool(false)),
    ])

  func form(_ yaml: String, schema: Schema? = .userSettings) throws -> SettingsForm {
    let value = try Format.yaml.codec.decode(Data(yaml.utf8))
    return SettingsForm(value.dictionaryValue, schema: schema, title: "com.example.app", platform: .linux)
  }

  func row(_ form: SettingsForm, _ name: String) throws -> FormRow {
    try #require(form.rows.first { $0.name == name })
  }

  @Test func rowsFollowTheSchemaWithTheirControlsAndUnknownKeysComeLast() throws {
    let form = try form("extra: 1\nringtone: Waves\nusername: ada\n")
    #expect(form.rows.map(\.name) == ["username", "isAccountPrivate", "ringtone", "items", "extra"])
    #expect(form.rows.map(\.isKnown) == [true, true, true, true, false])
    #expect(try row(form, "username").control == .text)
    // The tutorial's code describes no key: a row is labelled by its name.
    #expect(try row(form, "username").label == "username")
    #expect(try row(form, "isAccountPrivate").control == .toggle)
    #expect(try row(form, "ringtone").control == .picker(["Chimes", "Signal", "Waves"].map(PrefValue.string)))
    #expect(try row(form, "extra").control == .integer(nil))
    // A missing key reads as its fallback.
    let missing = try row(form, "isAccountPrivate")
    #expect(missing.stored == nil)
    #expect(missing.appReads == .bool(true))
    #expect(missing.problem == nil)
  }

  @Test func withoutASchemaTheRowsAreTheTypesTheDomainHolds() throws {
    let form = try form("when: 2023-11-14T22:13:20Z\nscale: 1.5\nblob: !!binary AAEC\nlist: [1, 2]\n", schema: nil)
    #expect(form.rows.map(\.control) == [.date, .real(nil), .data(opens: false), .list])
    #expect(form.rows.allSatisfy { $0.isKnown })
  }

  @Test func aStringFalseForABoolIsMarkedAndOneFixStoresFalse() throws {
    var form = try form("isAccountPrivate: \"false\"\n")
    let row = try row(form, "isAccountPrivate")
    #expect(row.appReads == .bool(true))
    #expect(row.problem?.contains("the app reads true") == true)
    #expect(row.fix == .bool(false))
    let fixed = form.fix(row)
    #expect(fixed)
    #expect(form.contents["isAccountPrivate"] == .bool(false))
    #expect(try self.row(form, "isAccountPrivate").problem == nil)
    #expect(try self.row(form, "isAccountPrivate").isChanged)
    #expect(form.hasChanges)
  }

  @Test func aValueOutsideTheValuesOrTheRangeIsMarkedAndFixed() throws {
    let form = try form("ringtone: Bells\n")
    #expect(try row(form, "ringtone").problem != nil)
    #expect(try row(form, "ringtone").fix == .string("Chimes"))
    let dock = try self.form("tilesize: 300\n", schema: Self.dock)
    #expect(try row(dock, "tilesize").problem?.contains("16...128") == true)
    #expect(try row(dock, "tilesize").fix == .integer(128))
  }

  @Test func fieldsTakeOnlyTheirTypeTheirValuesAndTheirRange() throws {
    var form = try form("tilesize: 64\n", schema: Self.dock)
    let tilesize = try row(form, "tilesize")
    for text in ["300", "15", "big", "6.5"] {
      #expect(throws: PrefsError.self) { try form.value(of: text, for: tilesize) }
    }
    let refused = #expect(throws: PrefsError.self) { try form.value(of: "300", for: tilesize) }
    #expect(refused?.kind == .invalidValue(text: "300", expected: "an integer from 16 to 128"))
    #expect(throws: PrefsError.self) { try form.set(.integer(300), in: tilesize) }
    #expect(form.contents["tilesize"] == .integer(64))
    try form.set(try form.value(of: "128", for: tilesize), in: tilesize)
    #expect(form.contents["tilesize"] == .integer(128))
    let orientation = try row(form, "orientation")
    #expect(throws: PrefsError.self) { try form.value(of: "top", for: orientation) }
    #expect(try form.value(of: "left", for: orientation) == .string("left"))
  }

  @Test func aToggleTurnsFromWhatTheAppReadsAndAPickerOpensOnIt() throws {
    var form = try form("isAccountPrivate: \"false\"\nringtone: Signal\n")
    #expect(form.pickerStart(for: try row(form, "ringtone")) == 1)
    // The app reads true (the fallback): toggling gives false.
    form.toggle(try row(form, "isAccountPrivate"))
    #expect(form.contents["isAccountPrivate"] == .bool(false))
    form.toggle(try row(form, "isAccountPrivate"))
    #expect(form.contents["isAccountPrivate"] == .bool(true))
  }

  @Test func aFieldStartsFromItsStoredText() throws {
    let form = try form("username: ada\n")
    #expect(form.editText(for: try row(form, "username")) == "ada")
    #expect(form.editText(for: try row(form, "isAccountPrivate")) == "")
  }

  @Test func theFilterKeepsRowsWhoseNameOrLabelHoldsIt() throws {
    var form = try form("{}")
    form.filter = "RING"
    #expect(form.rows.map(\.name) == ["ringtone"])
    form.filter = "account"
    #expect(form.rows.map(\.name) == ["isAccountPrivate"])
  }

  @Test func jsonDataOpensAsItemsAndEditsAreEncodedBack() throws {
    let items = #"[{"id":"1","name":"a","description":"x"}]"#
    let yaml = "items: !!binary \(Data(items.utf8).base64EncodedString())\n"
    var form = try form(yaml, schema: nil)
    let row = try row(form, "items")
    #expect(row.control == .data(opens: true))
    let openedItems = form.open(row)
    #expect(openedItems)
    #expect(form.page.isList)
    #expect(form.rows.map(\.name) == ["1"])
    let item = try #require(form.rows.first)
    #expect(item.control == .dictionary)
    let openedItem = form.open(item)
    #expect(openedItem)
    let name = try self.row(form, "name")
    try form.set(.string("b"), in: name)
    let closedItem = form.close()
    #expect(closedItem)
    let added = form.addItem()
    #expect(added != nil)
    let closedItems = form.close()
    #expect(closedItems)
    let expected = #"[{"id":"1","name":"b","description":"x"},{"id":"","name":"","description":""}]"#
    #expect(form.contents["items"] == .data(Data(expected.utf8)))
  }

  @Test func listsAndDictionariesOpenWithAddAndRemove() throws {
    var form = try form("window: {width: 800}\ntags: [a, b]\n", schema: nil)
    #expect(form.open(try row(form, "tags")))
    form.remove(try #require(form.rows.first))
    #expect(form.rows.map(\.stored) == [.string("b")])
    form.close()
    #expect(form.open(try row(form, "window")))
    let addedHeight = form.addKey("height")
    #expect(addedHeight)
    let addedTwice = form.addKey("height")
    #expect(!addedTwice)
    #expect(form.rows.map(\.name) == ["width", "height"])
    #expect(form.contents["tags"] == .array([.string("b")]))
    #expect(form.contents["window"] == .dictionary(["width": .integer(800), "height": .string("")]))
    // A missing list opens empty, and closed empty it is missing again.
    form.close()
    let empty = SchemaKey(name: "recent", type: .array, items: SchemaKey(name: "items", type: .string))
    var fresh = SettingsForm(PrefDictionary(), schema: Schema(keys: [empty]), title: "d")
    let openedMissing = fresh.open(try row(fresh, "recent"))
    #expect(openedMissing)
    fresh.close()
    #expect(!fresh.hasChanges)
    _ = fresh.open(try row(fresh, "recent"))
    fresh.addItem()
    #expect(fresh.rows.map(\.control) == [.text])
    fresh.close()
    #expect(fresh.contents["recent"] == .array([.string("")]))
  }

  @Test func savingPatchesTheFileAndRefusesToOverwriteAnotherProgramsChange() throws {
    let folder = try TestFolder()
    let path = try folder.write("s.yaml", "# the tutorial\nusername: ada  # kept\nisAccountPrivate: \"false\"\n")
    let domain = FileDomain(path: path)
    var form = SettingsForm(try domain.read(), schema: .userSettings, title: path, platform: .linux)
    form.fix(try row(form, "isAccountPrivate"))
    #expect(try form.save(to: domain) == .written)
    #expect(
      try String(contentsOfFile: path, encoding: .utf8)
        == "# the tutorial\nusername: ada  # kept\nisAccountPrivate: false\n")
    #expect(!form.hasChanges)
    #expect(try form.save(to: domain) == .unchanged)
    // Another program changes the file: the form's change is not written over it.
    try form.set(.string("bo"), in: try row(form, "username"))
    try Data("username: cy\nisAccountPrivate: false\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(try form.save(to: domain) == .changedMeanwhile([PrefKeyPath([.key("username")])]))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "username: cy\nisAccountPrivate: false\n")
    #expect(form.hasChanges)
  }

  /// After a refused save, the form takes the other program's changes and keeps its
  /// own; where both changed one key, its own value stays and the key is named.
  @Test func aRebaseMergesTheFormsChangesOntoWhatAnotherProgramWrote() throws {
    let folder = try TestFolder()
    let path = try folder.write("s.yaml", "username: ada\nisAccountPrivate: true\nringtone: Chimes\n")
    let domain = FileDomain(path: path)
    var form = SettingsForm(try domain.read(), schema: .userSettings, title: path, platform: .linux)
    try form.set(.string("bo"), in: try row(form, "username"))
    form.toggle(try row(form, "isAccountPrivate"))
    try Data("username: cy\nisAccountPrivate: true\nringtone: Waves\n".utf8).write(to: URL(fileURLWithPath: path))
    let refused = try form.save(to: domain)
    #expect(refused == .changedMeanwhile(["ringtone", PrefKeyPath([.key("username")])]), "\(refused)")
    #expect(form.rebase(onto: try domain.read()) == [PrefKeyPath([.key("username")])])
    #expect(form.contents == ["username": "bo", "isAccountPrivate": false, "ringtone": "Waves"])
    #expect(form.original == ["username": "cy", "isAccountPrivate": true, "ringtone": "Waves"])
    #expect(try form.save(to: domain) == .written)
    #expect(
      try String(contentsOfFile: path, encoding: .utf8) == "username: bo\nisAccountPrivate: false\nringtone: Waves\n")
  }

}
