import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// The model of `prefs form`: a domain shown as the tutorial's settings form, one row
/// per key with the control its type calls for, for any schema (or, without one, the
/// types the domain holds). It knows no terminal: the command draws its rows and
/// turns keys into the changes below.
///
/// Rows come in schema order, then the keys the schema does not list. Each row says
/// what is stored and what the app reads (through the fallback table); a value the
/// app would discard is marked with the reason, and ``fix(_:)`` stores what it meant.
/// Arrays, dictionaries and data holding JSON (the tutorial's `items`) open as pages
/// of their own, where items and keys can be added and removed; edits inside data
/// are encoded back into it.
public struct SettingsForm: Sendable {
  /// One page of the form: the domain's keys, or a value opened from a row.
  public struct Page: Sendable, Equatable {
    /// Where the page's value is (the root for the domain's own page).
    public var path: PrefKeyPath
    /// What the page shows: the domain's name, then the row it was opened from.
    public var title: String
    /// The keys the schema lists for a dictionary page; nil: the types it holds.
    var schema: Schema?
    /// Whether the page lists an array's items.
    public var isList: Bool
    /// What each item of a list page is, when the schema says.
    var items: SchemaKey?
  }

  /// How ``save(to:force:options:warnings:)`` ended.
  public enum SaveOutcome: Sendable, Equatable {
    /// Nothing had changed; nothing was written.
    case unchanged
    /// The changes were written.
    case written
    /// Another process changed the domain since the form read it, at these key
    /// paths; nothing was overwritten.
    case changedMeanwhile([PrefKeyPath])
  }

  /// The schema the rows follow; nil: the types the domain holds.
  public let schema: Schema?
  /// The platform whose casts say what the app reads.
  public let platform: Platform
  /// The domain as the form read it (or last saved it); nil when it did not exist.
  public private(set) var original: PrefDictionary?
  /// The rows are filtered to those whose name or label holds this text (any case).
  public var filter = ""
  /// The pages open, the domain's own first.
  public private(set) var pages: [Page]

  /// The domain's value, with the data opened as pages in their structure.
  private var working: PrefValue
  /// The same for ``original``, to tell changed rows inside data.
  private var originalWorking: PrefValue
  /// The data opened as structure, by where it is.
  private var expanded: [PrefKeyPath: EmbeddedData.Kind] = [:]
  /// The arrays and dictionaries that were missing when their page opened.
  private var openedEmpty: Set<PrefKeyPath> = []

  /// A form over `contents` (nil: the domain does not exist yet), titled `title`.
  public init(_ contents: PrefDictionary?, schema: Schema?, title: String, platform: Platform = .current) {
    self.schema = schema
    self.platform = platform
    original = contents
    working = .dictionary(contents ?? PrefDictionary())
    originalWorking = working
    pages = [Page(path: PrefKeyPath(), title: title, schema: schema, isList: false, items: nil)]
  }

  /// The page shown.
  public var page: Page { pages[pages.count - 1] }

  /// The domain's contents with every change made, data encoded back.
  public var contents: PrefDictionary {
    collapsed(working, keeping: original.map(PrefValue.dictionary)).dictionaryValue ?? PrefDictionary()
  }

  /// Whether the form holds changes not saved.
  public var hasChanges: Bool { contents != (original ?? PrefDictionary()) }

  // MARK: Rows

  /// The rows of the page shown, filtered: the schema's keys in its order, then the
  /// others (``FormRow/isKnown`` false); a list's items in order.
  public var rows: [FormRow] {
    let all = unfilteredRows
    let needle = filter.lowercased()
    guard !needle.isEmpty else { return all }
    return all.filter { $0.name.lowercased().contains(needle) || $0.label.lowercased().contains(needle) }
  }

  /// The row at `path` on the page shown, if the filter lets it through.
  public func row(at path: PrefKeyPath) -> FormRow? { rows.first { $0.path == path } }

  private var unfilteredRows: [FormRow] {
    let page = page
    let value = working.existingValue(at: page.path)
    let inData = expanded.keys.contains { $0.isPrefix(of: page.path) }
    func row(_ name: String, _ path: PrefKeyPath, _ key: SchemaKey?, _ stored: PrefValue?, known: Bool) -> FormRow {
      // A key of any type shows the type it holds, with the schema's words.
      var key = key
      if let any = key, any.allowsAnyType {
        key = Self.key(name, holding: stored).map { held in
          SchemaKey(name: held.name, type: held.type, description: any.description)
        }
      }
      key = key ?? Self.key(name, holding: stored)
      guard let key else { return FormRow(path: path, name: name, readOnly: stored!, isKnown: known) }
      let embedded = expanded[path] != nil
      // Inside data the app reads nothing itself: only the stored types count.
      let shown = inData && !embedded ? SchemaKey(name: key.name, type: key.type, keys: key.keys) : key
      return FormRow(
        path: path, name: name, key: shown, stored: stored, original: originalWorking.existingValue(at: path),
        isKnown: known, embedded: embedded, platform: platform)
    }
    switch value {
    case .array(let items):
      return items.enumerated().map { index, item in
        var itemRow = row(String(index + 1), page.path.appending(index: index), page.items, item, known: true)
        itemRow.label = Self.itemLabel(index, item)
        return itemRow
      }
    case .dictionary(let dict):
      var rows: [FormRow] = []
      // What lint says of each key the schema does not list (with a did-you-mean).
      let unknownKeys = (page.schema?.check(dict, at: page.path) ?? []).filter {
        if case .unknownKey = $0.problem { true } else { false }
      }
      if let schema = page.schema {
        for key in schema.keys {
          rows.append(row(key.name, page.path.appending(key: key.name), key, dict[key.name], known: true))
        }
      }
      for (name, stored) in dict where page.schema?.key(name) == nil {
        // A schema open to other keys (device-management's ANY) knows them all.
        let known = page.schema.map(\.allowsOtherKeys) ?? true
        var unknown = row(name, page.path.appending(key: name), page.schema?.otherKey, stored, known: known)
        unknown.note = unknownKeys.first { $0.path == unknown.path }?.message
        rows.append(unknown)
      }
      return rows
    default:
      return []
    }
  }

  /// How a list labels an item: `Item 2`, with its name when it is a dictionary that
  /// has one (`Item 2: Groceries`).
  static func itemLabel(_ index: Int, _ item: PrefValue) -> String {
    let name = ["name", "title", "label", "id"].lazy.compactMap { item.dictionaryValue?[$0]?.stringValue }.first
    return "Item \(index + 1)" + (name.map { $0.isEmpty ? "" : ": \($0)" } ?? "")
  }

  /// The key a value of no schema is read as: its own type, with no fallback; nil for
  /// a value of no type the app casts to (a uid).
  static func key(_ name: String, holding value: PrefValue?) -> SchemaKey? {
    guard let value, let type = ValueText.TypeName.allCases.first(where: { $0.kind == value.kind }) else {
      return nil
    }
    return SchemaKey(name: name, type: type)
  }

  // MARK: Changes

  /// The value `text` gives the row's field: read as its type, and refused (an
  /// ``PrefsError/Kind/invalidValue(text:expected:)`` error) when it is not of that
  /// type, not one of the values allowed, or outside the range.
  public func value(of text: String, for row: FormRow) throws -> PrefValue {
    guard let type = row.type else { throw PrefsError(.invalidValue(text: text, expected: "a value that can change")) }
    let value = try ValueText.parse(text, as: type)
    try check(value, text: text, for: row)
    return value
  }

  /// Refuses `value` for `row` when its schema does not allow it.
  private func check(_ value: PrefValue, text: String, for row: FormRow) throws {
    if case .picker(let values) = row.control, !values.contains(value) {
      throw PrefsError(
        .invalidValue(text: text, expected: "one of \(values.map(\.literal).joined(separator: ", "))"))
    }
    switch row.control {
    case .integer(let range?), .real(let range?):
      if !range.contains(value) {
        let type = row.type?.kind ?? value.kind
        let bounds =
          switch (range.min, range.max) {
          case (let low?, let high?): "from \(low.literal) to \(high.literal)"
          case (let low?, nil): "of at least \(low.literal)"
          case (nil, let high?): "of at most \(high.literal)"
          case (nil, nil): ""
          }
        throw PrefsError(.invalidValue(text: text, expected: "\(type.article) \(type.rawValue) \(bounds)"))
      }
    default: break
    }
  }

  /// The text a field starts from: the stored value's, or empty when nothing is stored.
  public func editText(for row: FormRow) -> String {
    row.stored.flatMap { ValueText.raw($0, booleanWords: true) } ?? ""
  }

  /// Stores `value` in `row`, after the checks of ``value(of:for:)``.
  public mutating func set(_ value: PrefValue, in row: FormRow) throws {
    guard row.control != .readOnly else { return }
    try check(value, text: ValueText.raw(value, booleanWords: true) ?? value.literal, for: row)
    replace(at: row.path, with: value)
  }

  /// Turns a toggle over, from what the app reads (a `"false"` string the app reads
  /// as its fallback `true` turns to `false`).
  public mutating func toggle(_ row: FormRow) {
    guard row.control == .toggle else { return }
    let now = (row.appReads ?? row.stored).flatMap { if case .bool(let b) = $0 { b } else { nil } } ?? false
    replace(at: row.path, with: .bool(!now))
  }

  /// Stores the row's ``FormRow/fix``; false when it has none.
  @discardableResult
  public mutating func fix(_ row: FormRow) -> Bool {
    guard let fix = row.fix else { return false }
    replace(at: row.path, with: fix)
    return true
  }

  /// The index of the value a picker opens on: what the app reads, else the first.
  public func pickerStart(for row: FormRow) -> Int {
    guard case .picker(let values) = row.control else { return 0 }
    return values.firstIndex { $0 == row.appReads || $0 == row.stored } ?? 0
  }

  private mutating func replace(at path: PrefKeyPath, with value: PrefValue?) {
    if let changed = working.replacingValue(at: path, with: value) { working = changed }
  }

  // MARK: Pages

  /// Opens the row's array, dictionary or data as a page; false when it opens none.
  @discardableResult
  public mutating func open(_ row: FormRow) -> Bool {
    guard row.control.opensPage else { return false }
    // A missing array or dictionary opens empty, to be added to; closed still empty, it goes again.
    if row.stored == nil, row.control == .list || row.control == .dictionary {
      replace(at: row.path, with: row.control == .list ? .array([]) : .dictionary(PrefDictionary()))
      openedEmpty.insert(row.path)
    }
    guard let stored = working.existingValue(at: row.path) else { return false }
    if case .data(let data) = stored {
      guard let (kind, value) = EmbeddedData.expand(data) else { return false }
      expanded[row.path] = kind
      replace(at: row.path, with: value)
      if case .data(let old)? = originalWorking.existingValue(at: row.path), let (_, was) = EmbeddedData.expand(old) {
        originalWorking = originalWorking.replacingValue(at: row.path, with: was) ?? originalWorking
      }
    }
    let key = page.isList ? page.items : page.schema?.key(row.name) ?? page.schema?.otherKey
    let opened = working.existingValue(at: row.path)
    pages.append(
      Page(
        path: row.path, title: page.title + " › " + row.label, schema: key?.keys, isList: opened?.kind == .array,
        items: key?.items))
    filter = ""
    return true
  }

  /// Goes back to the page the shown one was opened from; false on the domain's page.
  @discardableResult
  public mutating func close() -> Bool {
    guard pages.count > 1 else { return false }
    let path = pages.removeLast().path
    if openedEmpty.remove(path) != nil, let value = working.existingValue(at: path),
      value.arrayValue?.isEmpty ?? value.dictionaryValue?.isEmpty ?? false
    {
      replace(at: path, with: nil)
    }
    filter = ""
    return true
  }

  /// Adds an item to the list shown: one like its last item (a dictionary with its
  /// keys, empty values of their types), or an empty string in an empty list. Returns
  /// its row's path; nil when the page is not a list.
  @discardableResult
  public mutating func addItem() -> PrefKeyPath? {
    guard page.isList, case .array(let items)? = working.existingValue(at: page.path) else { return nil }
    let item = items.last.map(Self.emptied) ?? .string("")
    let path = page.path.appending(index: items.count)
    replace(at: path, with: item)
    return path
  }

  /// Adds `name` to the dictionary shown, holding an empty string; false when the
  /// page is a list or already has the key.
  @discardableResult
  public mutating func addKey(_ name: String) -> Bool {
    guard !page.isList, !name.isEmpty, case .dictionary(let dict)? = working.existingValue(at: page.path),
      dict[name] == nil
    else { return false }
    let type = page.schema?.key(name)?.type
    replace(at: page.path.appending(key: name), with: Self.emptied(type.map(Self.empty) ?? .string("")))
    return true
  }

  /// Removes the row's value: an item of a list, or a key (which the app then reads
  /// as its fallback).
  public mutating func remove(_ row: FormRow) {
    guard row.path.components.count == page.path.components.count + 1 else { return }
    // Data opened below the removed value, or after it in a list, is encoded back first:
    // its place goes or moves.
    let parent = page.path
    for path in expanded.keys where parent.isPrefix(of: path) && path != parent {
      collapse(at: path)
    }
    replace(at: row.path, with: nil)
  }

  /// A value of the same shape with nothing in it: `""`, `0`, `false`, a dictionary with
  /// its keys emptied.
  static func emptied(_ value: PrefValue) -> PrefValue {
    switch value {
    case .string: .string("")
    case .integer, .unsignedInteger: .integer(0)
    case .real: .real(0)
    case .bool: .bool(false)
    case .date: value
    case .data: .data(Data())
    case .array: .array([])
    case .dictionary(let dict): .dictionary(dict.mapValues(emptied))
    case .uid, .null: value
    }
  }

  /// An empty value of `type`.
  static func empty(_ type: ValueText.TypeName) -> PrefValue {
    switch type {
    case .string: .string("")
    case .integer: .integer(0)
    case .real: .real(0)
    case .bool: .bool(false)
    case .date: .date(Date(timeIntervalSince1970: 0))
    case .data: .data(Data())
    case .array: .array([])
    case .dict: .dictionary(PrefDictionary())
    case .null: .null
    }
  }

  // MARK: Data shown as structure

  /// `value` with every opened data encoded back, deepest first; where it cannot be
  /// encoded, `fallback`'s data at that place is kept.
  private func collapsed(_ value: PrefValue, keeping fallback: PrefValue?) -> PrefValue {
    var value = value
    for (path, kind) in expanded.sorted(by: { $0.key.components.count > $1.key.components.count }) {
      guard let structure = value.existingValue(at: path) else { continue }
      let bytes = (try? EmbeddedData.bytes(structure, kind: kind)).map(PrefValue.data)
      value = value.replacingValue(at: path, with: bytes ?? fallback?.existingValue(at: path)) ?? value
    }
    return value
  }

  /// Encodes the data opened at `path` back, and forgets that it was opened.
  private mutating func collapse(at path: PrefKeyPath) {
    guard let kind = expanded[path], let structure = working.existingValue(at: path),
      let bytes = try? EmbeddedData.bytes(structure, kind: kind)
    else { return }
    replace(at: path, with: .data(bytes))
    if let was = originalWorking.existingValue(at: path), let data = try? EmbeddedData.bytes(was, kind: kind) {
      originalWorking = originalWorking.replacingValue(at: path, with: .data(data)) ?? originalWorking
    }
    expanded[path] = nil
  }

  // MARK: Saving

  /// Writes the changes into `domain` through its one safe path (its lock, the text
  /// patched, an atomic replace) if it still holds what the form read; a domain that
  /// another process changed meanwhile is left as it is.
  public mutating func save(
    to domain: any PreferenceDomain, force: Bool = false, options: ReadOptions = ReadOptions(),
    warnings: Warnings = Warnings()
  ) throws -> SaveOutcome {
    let contents = contents
    guard contents != (original ?? PrefDictionary()) else { return .unchanged }
    if let current = try domain.write(contents, ifStill: original, force: force, options: options, warnings: warnings) {
      let changes = StructuralDiff.changes(
        from: .dictionary(original ?? PrefDictionary()), to: .dictionary(current ?? PrefDictionary()))
      return .changedMeanwhile(changes.map(\.path))
    }
    original = contents
    originalWorking = working
    return .written
  }

  /// Takes `current` (the domain as another program left it) as what the form read,
  /// with the form's changes merged onto it as `prefs merge` merges (BASE: what the
  /// form read; CURRENT: the form's changes; OTHER: the other program's). Where both
  /// changed one key, the form's value stays. The domain's own page is shown again,
  /// with the filter kept. Returns the key paths both changed.
  public mutating func rebase(onto current: PrefDictionary?) -> [PrefKeyPath] {
    let merged = ThreeWayMerge.merge(
      base: .dictionary(original ?? PrefDictionary()), current: .dictionary(contents),
      other: .dictionary(current ?? PrefDictionary()))
    let filter = self.filter
    self = SettingsForm(current, schema: schema, title: pages[0].title, platform: platform)
    self.filter = filter
    working = merged.value
    return merged.conflicts.map(\.path)
  }
}

extension PrefKeyPath {
  /// Whether this path is `other` or leads to it.
  func isPrefix(of other: PrefKeyPath) -> Bool {
    other.components.starts(with: components)
  }
}
