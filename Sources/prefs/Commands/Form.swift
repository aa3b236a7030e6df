import PrefsKit

/// `prefs form DOMAIN|FILE [--schema S | --schema-dir DIR]`: the tutorial's settings form in the
/// terminal, for any schema. The model (rows, what the app reads, fixes, checks,
/// pages, saving) is the library's `SettingsForm`; this file turns keys into its
/// changes and draws it.
enum FormCommand {
  static let spec = CommandSpec(
    name: "form",
    summary: "Show and change a domain or file as a settings form in the terminal.",
    discussion: """
      One row per key, in the schema's order, labelled by its description: a text field \
      for a string, a toggle for a bool, a picker for a key with values, a number field \
      that keeps to its range, a date field (ISO 8601), data by its size (data holding \
      JSON opens as a page of its own, item by item), arrays and dictionaries as pages \
      where items and keys are added and removed. Each row shows the stored value and \
      what the app reads; a value the app would discard (the string "false" for a Bool ?? true) \
      is marked with the reason, and f stores what it meant. Keys the schema does not \
      list come last, apart. --schema-dir finds the schema whose payload type is the \
      domain. Without a schema, the rows are the types the domain holds. \
      Keys: arrows or Tab and Shift-Tab move, Space toggles, Enter edits a field \
      (typing appends, Backspace deletes, Ctrl-U clears, Enter confirms, Esc cancels) \
      or opens a picker (arrows move, Enter picks) or a page (Esc goes back), \
      f fixes, a adds, d removes, / filters the rows, Ctrl-S saves, q quits (asking when \
      there are unsaved changes), Ctrl-C twice quits without saving, Ctrl-Z \
      suspends (fg comes back to the form). \
      Saving changes only the bytes of what changed, under the domain's lock, and only \
      if no other program changed the domain since the form read it; if one did, the \
      form says what changed and writes nothing, and r merges the form's changes onto \
      the domain as it is now (a key both changed keeps the form's value) for the next \
      Ctrl-S. Standard input and output must be a \
      terminal.
      """,
    arguments: [ArgumentSpec(name: "DOMAIN", help: "A domain name (com.example.app, -g) or a file.")],
    options: [Options.schema, Options.schemaDir, Options.force, Options.allowDuplicateKeys] + Options.store,
    examples: [
      ("prefs form com.example.app --schema user-settings", "The tutorial's form over its domain."),
      ("prefs form Samples/UserSettings.yaml", "A file, with the types it holds."),
      (
        "prefs form com.apple.dock --schema-dir device-management/mdm/profiles",
        "The Dock's settings, by Apple's device-management schema."
      ),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    guard isatty(0) == 1, isatty(1) == 1 else {
      throw PrefsError(
        .usage("prefs form needs a terminal for its input and output"),
        hints: [
          "change a value without one with 'prefs set FILE KEYPATH VALUE' or 'prefs write DOMAIN KEY VALUE'",
          "Usage: \(spec.usage)", "See 'prefs help form'.",
        ])
    }
    let domain = try resolveDomain(arguments.positionals[0], in: arguments.store())
    let schema = try arguments.schema(for: arguments.positionals[0])
    let options = try arguments.readOptions()
    let contents = try reportingWarnings(of: domain, console) { warnings in
      try domain.read(options: options, warnings: warnings)
    }
    var screen = FormScreen(
      form: SettingsForm(contents, schema: schema, title: domain.name), domain: domain,
      colors: console.color.colors(1), force: arguments.has(Options.force), options: options)
    let terminal = Terminal()
    return try terminal.run { try screen.run(on: terminal) }
  }
}

/// What the form shows and how keys change it: the rows of the library's model,
/// the row selected, the field, picker or question open, and the line of keys.
struct FormScreen {
  var form: SettingsForm
  let domain: any PreferenceDomain
  let colors: Bool
  let force: Bool
  let options: ReadOptions

  /// What keys do now.
  enum Mode: Equatable {
    case browse
    /// A field being edited: the row and its text.
    case editing(FormRow, String)
    /// A picker open on a row, at a choice.
    case picking(FormRow, Int)
    /// The filter being typed.
    case filtering
    /// The name of a key to add to the dictionary shown.
    case naming(String)
    /// Quit with unsaved changes?
    case confirmingQuit
  }

  var mode = Mode.browse
  /// The selected row's place among the rows, and the first line shown.
  var selected = 0
  var scroll = 0
  /// A line for the user: an error, what a save did, a question.
  var message: String?
  var messageIsError = false
  /// A save found the domain changed by another program: `r` merges onto it.
  var rebaseOffered = false
  /// The first Ctrl-C was pressed; the next one quits without saving.
  var interruptPending = false

  init(form: SettingsForm, domain: any PreferenceDomain, colors: Bool, force: Bool, options: ReadOptions) {
    self.form = form
    self.domain = domain
    self.colors = colors
    self.force = force
    self.options = options
  }

  /// Draws, then handles keys until the form quits; returns the exit status.
  mutating func run(on terminal: Terminal) throws -> Int32 {
    while true {
      let size = terminal.size
      terminal.draw(render(rows: size.rows, columns: size.columns))
      guard let key = try terminal.nextKey() else { return Console.Status.success }
      if key == .control("z") {
        terminal.suspend()
        continue
      }
      if let status = handle(key) { return status }
    }
  }

  // MARK: Keys

  /// Changes the form for `key`; returns an exit status when the form quits.
  mutating func handle(_ key: Terminal.Key) -> Int32? {
    if key == .resize { return nil }
    if key == .control("c") {
      if interruptPending { return 130 }
      interruptPending = true
      say("Press Ctrl-C again to quit without saving.")
      return nil
    }
    interruptPending = false
    switch mode {
    case .browse: return browse(key)
    case .editing(let row, let text): edit(row, text, key)
    case .picking(let row, let index): pick(row, index, key)
    case .filtering: typeFilter(key)
    case .naming(let name): typeName(name, key)
    case .confirmingQuit: return confirmQuit(key)
    }
    return nil
  }

  private mutating func browse(_ key: Terminal.Key) -> Int32? {
    let rows = form.rows
    let row = rows.indices.contains(selected) ? rows[selected] : nil
    message = nil
    switch key {
    case .up, .backTab, .control("p"): move(-1)
    case .down, .tab, .control("n"): move(1)
    case .pageUp: move(-10)
    case .pageDown: move(10)
    case .home: selected = 0
    case .end: selected = max(0, rows.count - 1)
    case .character(" "):
      guard let row else { break }
      if row.control == .toggle {
        form.toggle(row)
      } else if case .picker = row.control {
        activate(row)
      }
    case .enter, .right:
      if let row { activate(row) }
    case .character("f"):
      guard let row else { break }
      if form.fix(row) {
        say("Fixed \(row.name): stored \(row.fix!.summary).")
      } else {
        say(row.problem == nil ? "\(row.name) needs no fix." : "No fix for \(row.name): edit it instead.", error: true)
      }
    case .character("/"):
      mode = .filtering
    case .character("a"):
      if form.page.isList {
        form.addItem()
        selected = form.rows.count - 1
      } else if form.pages.count > 1 {
        mode = .naming("")
      } else {
        say("Keys are added on the pages of dictionaries; the domain's keys come from the schema.", error: true)
      }
    case .character("d"), .delete:
      guard let row, row.stored != nil else { break }
      form.remove(row)
      say(form.pages.count > 1 ? "Removed \(row.name)." : "Removed \(row.name): the app reads its fallback.")
      selected = min(selected, max(0, form.rows.count - 1))
    case .escape, .left, .backspace:
      if !form.filter.isEmpty {
        refilter("")
      } else {
        let from = form.page.path
        if form.close() { selected = form.rows.firstIndex { $0.path == from } ?? 0 }
      }
    case .control("s"): save()
    case .character("r") where rebaseOffered: rebase()
    case .character("q"):
      if form.hasChanges {
        mode = .confirmingQuit
      } else {
        return Console.Status.success
      }
    default: break
    }
    return nil
  }

  private mutating func move(_ by: Int) {
    let count = form.rows.count
    guard count > 0 else { return }
    selected = min(max(0, selected + by), count - 1)
  }

  /// Enter on a row: edit its field, open its picker or its page.
  private mutating func activate(_ row: FormRow) {
    switch row.control {
    case .toggle: form.toggle(row)
    case .picker: mode = .picking(row, form.pickerStart(for: row))
    case .text, .integer, .real, .date: mode = .editing(row, form.editText(for: row))
    case .list, .dictionary, .data(opens: true):
      if form.open(row) {
        selected = 0
      } else {
        say("\(row.name) holds nothing to open.", error: true)
      }
    case .data(opens: false): say("\(row.name) is data that holds no JSON; it is shown by its size.", error: true)
    case .readOnly: say("\(row.name) cannot be changed here.", error: true)
    }
  }

  private mutating func edit(_ row: FormRow, _ text: String, _ key: Terminal.Key) {
    switch key {
    case .escape:
      mode = .browse
      message = nil
    case .enter:
      do {
        try form.set(try form.value(of: text, for: row), in: row)
        mode = .browse
        message = nil
      } catch let error as PrefsError {
        say("\(error.message)", error: true)
      } catch {
        say("\(error)", error: true)
      }
    case .backspace: mode = .editing(row, String(text.dropLast()))
    case .control("u"): mode = .editing(row, "")
    case .character(let character):
      if let refusal = refusal(of: character, in: row) {
        say(refusal, error: true)
      } else {
        mode = .editing(row, text + String(character))
        message = nil
      }
    default: break
    }
  }

  /// Why a number field does not take `character`; nil when it does.
  private func refusal(of character: Character, in row: FormRow) -> String? {
    let allowed: String
    switch row.control {
    case .integer: allowed = "0123456789-+"
    case .real: allowed = "0123456789-+.eEinfatyINFATY"
    default: return nil
    }
    guard !allowed.contains(character) else { return nil }
    let kind = row.type?.kind ?? .integer
    return "\(row.name) takes \(kind.article) \(kind.rawValue), not '\(Terminal.visible(String(character)))'."
  }

  private mutating func pick(_ row: FormRow, _ index: Int, _ key: Terminal.Key) {
    guard case .picker(let values) = row.control else { return }
    switch key {
    case .up, .backTab: mode = .picking(row, max(0, index - 1))
    case .down, .tab: mode = .picking(row, min(values.count - 1, index + 1))
    case .home: mode = .picking(row, 0)
    case .end: mode = .picking(row, values.count - 1)
    case .enter, .character(" "):
      do {
        try form.set(values[index], in: row)
        mode = .browse
      } catch let error as PrefsError {
        say(error.message, error: true)
      } catch {
        say("\(error)", error: true)
      }
    case .escape: mode = .browse
    default: break
    }
  }

  private mutating func typeFilter(_ key: Terminal.Key) {
    switch key {
    case .enter: mode = .browse
    case .escape:
      refilter("")
      mode = .browse
    case .backspace: refilter(String(form.filter.dropLast()))
    case .control("u"): refilter("")
    case .character(let character): refilter(form.filter + String(character))
    default: break
    }
  }

  /// Filters the rows by `text`, keeping the selected row selected when it stays.
  private mutating func refilter(_ text: String) {
    let rows = form.rows
    let path = rows.indices.contains(selected) ? rows[selected].path : nil
    form.filter = text
    let now = form.rows
    selected = now.firstIndex { $0.path == path } ?? min(selected, max(0, now.count - 1))
  }

  private mutating func typeName(_ name: String, _ key: Terminal.Key) {
    switch key {
    case .enter:
      if form.addKey(name) {
        mode = .browse
        selected = form.rows.firstIndex { $0.name == name } ?? selected
      } else {
        say(name.isEmpty ? "A key needs a name." : "There is already a key '\(Terminal.visible(name))'.", error: true)
      }
    case .escape: mode = .browse
    case .backspace: mode = .naming(String(name.dropLast()))
    case .control("u"): mode = .naming("")
    case .character(let character): mode = .naming(name + String(character))
    default: break
    }
  }

  private mutating func confirmQuit(_ key: Terminal.Key) -> Int32? {
    switch key {
    case .character("y"), .character("Y"): return Console.Status.success
    case .character("s"), .character("S"):
      save()
      if !form.hasChanges { return Console.Status.success }
      mode = .browse
    case .character("n"), .character("N"), .escape: mode = .browse
    default: break
    }
    return nil
  }

  private mutating func save() {
    let warnings = Warnings()
    do {
      switch try form.save(to: domain, force: force, options: options, warnings: warnings) {
      case .unchanged: say("Nothing to save.")
      case .written:
        let note = warnings.all.first.map { " (\($0.message))" } ?? ""
        say("Saved to \(RawPath.display(domain.location))\(note).")
      case .changedMeanwhile(let paths):
        say(
          "Not saved: another program changed \(Self.names(paths, else: "the domain")) meanwhile; "
            + "r merges your changes onto it.", error: true)
        rebaseOffered = true
        return
      }
      rebaseOffered = false
    } catch let error as PrefsError {
      say("Not saved: \(error.message)", error: true)
    } catch {
      say("Not saved: \(error)", error: true)
    }
  }

  /// The domain read again, with the form's changes merged onto what another program
  /// wrote meanwhile; nothing is saved until Ctrl-S.
  private mutating func rebase() {
    do {
      let current = try domain.read(options: options, warnings: Warnings())
      let both = form.rebase(onto: current)
      rebaseOffered = false
      selected = min(selected, max(0, form.rows.count - 1))
      say(
        both.isEmpty
          ? "Took the other program's changes and kept yours; Ctrl-S saves."
          : "Took the other program's changes; yours kept where both changed \(Self.names(both, else: "")); "
            + "Ctrl-S saves.", error: !both.isEmpty)
    } catch let error as PrefsError {
      say("Cannot read the domain again: \(error.message)", error: true)
    } catch {
      say("Cannot read the domain again: \(error)", error: true)
    }
  }

  /// Up to three key paths, as messages name them.
  private static func names(_ paths: [PrefKeyPath], else none: String) -> String {
    guard !paths.isEmpty else { return none }
    return paths.prefix(3).map(\.nameInMessages).joined(separator: ", ") + (paths.count > 3 ? ", …" : "")
  }

  private mutating func say(_ text: String, error: Bool = false) {
    message = text
    messageIsError = error
  }

  // MARK: Drawing

  /// The whole screen, `rows` by `columns`, as the bytes that draw it.
  mutating func render(rows height: Int, columns width: Int) -> String {
    let lines = screenLines(rows: max(height, 4), columns: max(width, 20))
    var out = "\u{1B}[H"
    for (index, line) in lines.enumerated() {
      out += line + "\u{1B}[0m\u{1B}[K" + (index == lines.count - 1 ? "" : "\r\n")
    }
    if let (row, column) = cursor(rows: max(height, 4)) {
      out += "\u{1B}[\(row);\(column)H\u{1B}[?25h"
    } else {
      out += "\u{1B}[?25l"
    }
    return out
  }

  private func paint(_ text: String, _ code: String) -> String {
    colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// Where the cursor stands while a line is typed: the end of the prompt line.
  private func cursor(rows: Int) -> (Int, Int)? {
    guard let prompt = promptText else { return nil }
    return (rows - 1, min(prompt.reduce(0) { $0 + Terminal.width(of: $1) } + 1, 999))
  }

  /// The line being typed (a field, the filter, a key's name), if any.
  private var promptText: String? {
    switch mode {
    case .editing(let row, let text):
      "\(Terminal.visible(row.name)) (\(row.type?.rawValue ?? "value")): \(Terminal.visible(text))"
    case .filtering: "Filter: \(Terminal.visible(form.filter))"
    case .naming(let name): "New key: \(Terminal.visible(name))"
    default: nil
    }
  }

  private mutating func screenLines(rows height: Int, columns width: Int) -> [String] {
    var lines: [String] = []
    let page = form.page
    var title = "prefs form: " + Terminal.visible(page.title)
    if form.hasChanges { title += "  [modified]" }
    if !form.filter.isEmpty, mode != .filtering { title += "  filter: " + Terminal.visible(form.filter) }
    lines.append(paint(Terminal.fit(title, width), "1"))

    let labelWidth = max(10, width * 2 / 5)
    let storedWidth = max(8, width / 4)
    let readsWidth = max(0, width - 3 - labelWidth - 1 - storedWidth - 1)
    lines.append(
      paint(
        Terminal.fit(
          "   " + Terminal.fit(page.isList ? "Item" : "Setting", labelWidth) + " "
            + Terminal.fit("Stored", storedWidth) + " " + "App reads", width), "2"))

    let listHeight = height - 5
    var body: [String] = []
    var selectedLine = 0
    if case .picking(let row, let index) = mode, case .picker(let values) = row.control {
      body.append(Terminal.fit("Pick \(Terminal.visible(row.label)):", width))
      for (i, value) in values.enumerated() {
        let text = (i == index ? " > " : "   ") + Terminal.visible(Self.shown(value))
        let line = Terminal.fit(text, width)
        body.append(i == index ? paint(line, "7") : line)
        if i == index { selectedLine = body.count - 1 }
      }
    } else {
      let rows = form.rows
      if rows.isEmpty {
        body.append(Terminal.fit(form.filter.isEmpty ? "   (nothing here; a adds)" : "   (no row matches)", width))
      }
      var apart = false
      for (index, row) in rows.enumerated() {
        if !row.isKnown, !apart {
          apart = true
          body.append(paint(Terminal.fit("── Not in the schema; the app does not read these ──", width), "2"))
        }
        if index == selected { selectedLine = body.count }
        body.append(line(for: row, selected: index == selected, widths: (labelWidth, storedWidth, readsWidth)))
      }
    }
    // Keep the selected line in view.
    if selectedLine < scroll { scroll = selectedLine }
    if selectedLine >= scroll + listHeight { scroll = selectedLine - listHeight + 1 }
    scroll = max(0, min(scroll, max(0, body.count - listHeight)))
    let shown = body.dropFirst(scroll).prefix(listHeight)
    lines += shown
    lines += Array(repeating: "", count: listHeight - shown.count)

    lines.append(detailLine(width: width))
    if let prompt = promptText {
      lines.append(Terminal.fit(prompt, width))
    } else if let message {
      lines.append(paint(Terminal.fit(Terminal.visible(message), width), messageIsError ? "31" : "32"))
    } else {
      lines.append("")
    }
    lines.append(paint(Terminal.fit(mode == .browse ? keysLine(width: width) : keysLine, width), "7"))
    return lines
  }

  /// The selected row in full: its key, type, range and fallback, or its problem and fix.
  private func detailLine(width: Int) -> String {
    if promptText != nil, let message {
      // While a line is typed, what is wrong with it shows above it.
      return paint(Terminal.fit(Terminal.visible(message), width), messageIsError ? "31" : "32")
    }
    let row: FormRow
    switch mode {
    case .browse, .filtering:
      guard form.rows.indices.contains(selected) else { return "" }
      row = form.rows[selected]
    case .editing(let edited, _): row = edited
    default: return ""
    }
    if let problem = row.problem, promptText == nil {
      let fix = row.fix.map { " · f: \(Terminal.visible($0.literal))" } ?? ""
      return paint(Terminal.fit("! \(Terminal.visible(problem))\(fix)", width), "31")
    }
    if let note = row.note {
      return paint(Terminal.fit("\(Terminal.visible(row.name)): \(Terminal.visible(note))", width), "2")
    }
    var parts = [Terminal.visible(row.name), row.type?.rawValue ?? (row.stored?.kind.rawValue ?? "")]
    switch row.control {
    case .integer(let range?), .real(let range?): parts.append("range \(range)")
    default: break
    }
    if let fallback = row.fallback { parts.append("fallback \(Terminal.visible(fallback.literal))") }
    if row.label != row.name { parts.append(Terminal.visible(row.label)) }
    return paint(Terminal.fit(parts.joined(separator: " · "), width), "2")
  }

  /// The keys that work now, on the bottom line, in words short enough for `width`.
  private func keysLine(width: Int) -> String {
    let nested = form.pages.count > 1
    let full = [
      "arrows move", "Space toggle", "Enter edit", "f fix", "/ filter", nested ? "a add" : nil,
      nested ? "d remove" : nil, nested ? "Esc back" : nil, rebaseOffered ? "r merge" : nil, "^S save", "q quit",
    ].compactMap { $0 }
    let short = full.map { $0.replacingAll("arrows", with: "↑↓").replacingAll("Space", with: "Spc") }
      .map { $0.replacingAll("Enter", with: "⏎").replacingAll("remove", with: "del") }
    let candidates =
      [
        full.joined(separator: "  "), full.joined(separator: " "), short.joined(separator: "  "),
        short.joined(separator: " "),
      ]
    return candidates.first { $0.count <= width } ?? candidates[candidates.count - 1]
  }

  /// The keys of the modes other than browsing, on the bottom line.
  private var keysLine: String {
    switch mode {
    case .browse: return keysLine(width: .max)
    case .editing: return "Enter confirm  Esc cancel  Backspace delete  ^U clear"
    case .picking: return "arrows move  Enter pick  Esc cancel"
    case .filtering: return "type to filter  Enter keep  Esc clear"
    case .naming: return "Enter add  Esc cancel  Backspace delete"
    case .confirmingQuit: return "Unsaved changes. Quit without saving? y yes  n no  s save and quit"
    }
  }

  /// One row: the marks, the label, the stored value in its control, what the app reads.
  private func line(for row: FormRow, selected: Bool, widths: (Int, Int, Int)) -> String {
    let mark = row.problem != nil ? "!" : row.isChanged ? "*" : " "
    let label = Terminal.fit(Terminal.visible(row.label), widths.0)
    let stored = Terminal.fit(Terminal.visible(Self.control(row)), widths.1)
    var reads: String
    if !row.isKnown {
      reads = "not read"
    } else if row.problem != nil, row.stored != nil, row.appReads != row.stored {
      reads = row.appReads.map { "\(Self.shown($0)) (fallback)" } ?? "nothing (no fallback)"
    } else if row.stored == nil {
      reads = row.appReads.map { "\(Self.shown($0)) (fallback)" } ?? "nothing"
    } else {
      reads = row.appReads.map(Self.shown) ?? ""
    }
    if case .data(opens: true) = row.control { reads = "data" }
    // An array or dictionary's count is in its control already.
    if row.control == .list || row.control == .dictionary, row.problem == nil, row.stored != nil { reads = "" }
    reads = Terminal.fit(Terminal.visible(reads), widths.2)
    var text = (selected ? ">" : " ") + mark + " " + label + " " + stored + " " + reads
    if colors {
      if selected {
        text = "\u{1B}[7m" + text
      } else if row.problem != nil {
        text = "\u{1B}[31m" + text
      } else if row.isChanged {
        text = "\u{1B}[33m" + text
      }
    }
    return text
  }

  /// The stored value as its control shows it.
  static func control(_ row: FormRow) -> String {
    guard let stored = row.stored else { return "(not set)" }
    if let type = row.type, stored.kind != type.kind, row.control != .data(opens: true) { return stored.literal }
    switch (row.control, stored) {
    case (.toggle, .bool(let on)): return on ? "[x] on" : "[ ] off"
    case (.picker, _): return "< \(shown(stored)) >"
    case (.data(let opens), .data(let data)):
      return "\(data.count) byte\(data.count == 1 ? "" : "s")" + (opens ? " (JSON) ›" : "")
    case (.list, .array(let items)): return "\(items.count) item\(items.count == 1 ? "" : "s") ›"
    case (.dictionary, .dictionary(let dict)): return "\(dict.count) key\(dict.count == 1 ? "" : "s") ›"
    case (.data(opens: true), .array(let items)): return "\(items.count) item\(items.count == 1 ? "" : "s") ›"
    case (.data(opens: true), .dictionary(let dict)): return "\(dict.count) key\(dict.count == 1 ? "" : "s") ›"
    default: return shown(stored)
    }
  }

  /// A value as the form shows it: a string as it is, anything else as a literal.
  static func shown(_ value: PrefValue) -> String {
    if case .string(let text) = value { return text }
    return value.literal
  }
}
