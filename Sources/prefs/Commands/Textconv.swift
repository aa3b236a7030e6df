import PrefsKit

/// `prefs textconv FILE`: canonical YAML for `git diff`.
enum Textconv {
  static let binaryOnly = OptionSpec(
    "binary-only", long: ["binary-only"],
    help: "Print a file git can show as text (an XML plist, say) as it is; convert only what git takes for binary.")
  static let expandData = OptionSpec(
    Options.expandData.name, long: Options.expandData.long,
    help:
      "Show data that holds JSON or a binary plist, in any spacing or escaping, as structure "
      + "(!json/!plist), so that git diff shows the item that changed inside it.")

  static let spec = CommandSpec(
    name: "textconv",
    summary: "Print any preference file as canonical YAML, for git's textconv.",
    discussion: """
      With 'git config diff.plist.textconv "prefs textconv --binary-only"' and \
      '*.plist diff=plist' in .gitattributes, git diff shows binary plists as \
      readable YAML and XML plists as their own text ('prefs git-setup' sets that \
      up). The same value always gives the same bytes. An Xcode project (OpenStep) \
      keeps the names Xcode writes beside object IDs, as YAML comments: \
      'AAAA…: # A.swift'. A YAML stream of several documents is shown document by \
      document, separated by --- lines. With --expand-data, data that holds JSON \
      (in any spacing or escaping) or a binary plist is shown as structure under \
      !json or !plist, its keys in their own order; data that only starts as JSON or \
      a plist does stays !!binary, with a warning saying why. A file that cannot be read or does not parse is shown as \
      '# prefs: error: …' followed by its text, or a hex dump when it is not text, \
      and textconv still exits 0, so git diff goes on.
      """,
    arguments: [ArgumentSpec(name: "FILE", help: "The file, or - for standard input.")],
    options: [binaryOnly, expandData, Options.exclude, Options.from, Options.yamlVersion, Options.allowDuplicateKeys],
    examples: [
      ("prefs textconv com.example.app.plist", "Show a binary plist as canonical YAML."),
      ("prefs textconv project.pbxproj", "Show an Xcode project as YAML sorted by key, with its objects' names."),
      ("prefs textconv Samples/Items.plist --expand-data", "Show the JSON items blob as YAML structure."),
    ],
    run: run)

  /// Never fails on the file: git stops the whole `git diff` or `git log -p` when a
  /// textconv command does. A file that cannot be read or does not parse is shown as
  /// `# prefs: error: …`, then its text, or a hex dump when it is not text; exit 0.
  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let path = arguments.positionals[0]
    let limit = try arguments.readOptions().maxInputBytes
    let output: Data
    var data: Data?
    do {
      let bytes = try InputFile.read(path, limit: limit)
      data = bytes
      if arguments.has(binaryOnly), !FileMerge.isBinary(bytes) {
        try console.outData(bytes)
        return Console.Status.success
      }
      let (documents, format) = try Documents.parseDocuments(bytes, from: path, arguments: arguments, console: console)
      let warnings = Warnings()
      // A view, never read back: every blob that holds structure is shown as it.
      var options = WriteOptions(sortKeys: true, expandData: arguments.has(expandData))
      options.expansionMode = .view
      // A YAML stream is shown as one: its documents after `---` lines.
      var yaml = Data()
      for (index, document) in documents.enumerated() {
        if index > 0 { yaml.append(contentsOf: Array("---\n".utf8)) }
        let shown = document.excluding(arguments.excludes())
        yaml.append(try Format.yaml.encode(shown, options: options, warnings: warnings))
        if options.expandData { yaml.append(Data(inexactBlobNotes(shown).utf8)) }
      }
      output = format == .openStep ? ObjectNames(openStepText: bytes).annotating(yaml: yaml) : yaml
      console.report(warnings, file: displayName(path))
    } catch let error as PrefsError where error.category != .usage {
      // Without the file name: git hands over temporary copies, and the two sides
      // of a diff should differ only where the files do.
      var unnamed = error
      unnamed.file = nil
      var shown = Data("# prefs: error: \(unnamed)\n".utf8)
      if let data { shown.append(asText(data) ?? hexDump(data)) }
      output = shown
    }
    try console.outData(output)
    return Console.Status.success
  }

  /// One comment line for each blob of `value` that a view shows as structure
  /// though its bytes are written otherwise (other spacing or escaping), with their
  /// size and digest: a change of those bytes alone changes the view too, so git diff
  /// never shows nothing for a file that changed.
  static func inexactBlobNotes(_ value: PrefValue) -> String {
    EmbeddedData.inexactStructures(in: value).map { blob in
      // One comment line, whatever a key holds.
      let path = TerminalText.escaped(blob.path.nameInMessages, keepingLineBreaks: false)
      let digest = hexBytes(SHA1.digest([UInt8](blob.data)).prefix(8))
      return "# \(path): \(blob.data.count) bytes in their own spacing or escaping, SHA-1 \(digest)\n"
    }.joined()
  }

  /// `data` when it is UTF-8 text without NUL bytes, ending in a line break.
  static func asText(_ data: Data) -> Data? {
    guard !data.contains(0), String(validating: data, as: UTF8.self) != nil else { return nil }
    return data.isEmpty || data.last == 0x0A ? data : data + [0x0A]
  }

  /// `data` as `hexdump -C` shows it: offset, 16 bytes in hex, the printable ones.
  static func hexDump(_ data: Data) -> Data {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(data.count * 5)
    let bytes = [UInt8](data)
    for start in stride(from: 0, to: bytes.count, by: 16) {
      let row = bytes[start..<min(start + 16, bytes.count)]
      for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[(start >> shift) & 0xF]) }
      out.append(contentsOf: [0x20, 0x20])
      for i in 0..<16 {
        if i == 8 { out.append(0x20) }
        if start + i < bytes.count {
          let byte = bytes[start + i]
          out.append(contentsOf: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)], 0x20])
        } else {
          out.append(contentsOf: [0x20, 0x20, 0x20])
        }
      }
      out.append(contentsOf: Array(" |".utf8))
      out.append(contentsOf: row.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") })
      out.append(contentsOf: Array("|\n".utf8))
    }
    return Data(out)
  }
}
