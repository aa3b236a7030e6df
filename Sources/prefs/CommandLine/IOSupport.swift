import PrefsKit

/// Reading and writing documents for the commands: the input and output rules (`-`
/// for standard input and output, formats from `--from`/`--to`, the extension or the
/// content) in one place.
/// The error for a domain that does not exist: the file looked for, and the
/// nearest domain of `store` when the name looks mistyped.
func missingDomain(_ domain: any PreferenceDomain, in store: any DomainStore) -> PrefsError {
  // A file named by path is its own location.
  if domain.location == domain.name { return PrefsError(.notFound(.file), file: domain.name) }
  var hints: [String] = []
  if let names = try? store.domainNames(), let guess = Suggestions.closest(to: domain.name, among: names) {
    hints.append("did you mean '\(guess)'?")
  }
  // The same domain of the other host choice: -currentHost forgotten, or given for nothing.
  if let files = store as? FileDomainStore {
    let other = FileDomainStore(directory: files.directory, host: files.host == .any ? .current(uuid: nil) : .any)
    if let twin = try? other.domain(named: domain.name), twin.fileMode != nil {
      hints.append(
        files.host == .any
          ? "the current host's domain is \(twin.location): give -currentHost"
          : "the domain of any host is \(twin.location): leave out -currentHost and --host-uuid")
    }
  }
  hints.append("'prefs domains\(store.host == .any ? "" : " -currentHost")' lists the domains there are")
  return PrefsError(.notFound(.domain(location: domain.location)), file: domain.name, hints: hints)
}

/// Whether an argument of the commands that take a file first (`get`, `set`,
/// `remove`, `diff`, `lint`) names a file rather than a domain: `-`, a path (a `/`
/// or a format's extension), or, as for `convert`, a bare name that exists as a
/// file in the current folder (`project.pbxproj`, `App.entitlements`).
func namesFile(_ argument: String) -> Bool {
  if argument == "-" || DomainName.isPath(argument) { return true }
  var info = stat()
  return argument != "-g" && stat(argument, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR
}

extension ParsedArguments {
  /// The domain an argument of a file-first command names (see ``namesFile(_:)``).
  func fileOrDomain(_ argument: String) throws -> any PreferenceDomain {
    if namesFile(argument) { return FileDomain(path: argument, document: value(Options.document)) }
    // A domain of the store is one property list: it has no documents to pick.
    if has(Options.document) { throw PrefsError(.usage("--document picks a document of a YAML file, not of a domain")) }
    return try store().domain(named: argument)
  }
}

enum Documents {
  /// Reads the document at `path` (`-` is stdin), deciding its format by `--from`,
  /// the extension, else the content. Errors and warnings name the file.
  static func read(_ path: String, arguments: ParsedArguments, console: Console) throws -> (PrefValue, Format) {
    let (value, format, _) = try read(path, arguments: arguments, console: console, mapped: false)
    return (value, format)
  }

  /// ``read(_:arguments:console:)``, with the document's source map when `mapped` and
  /// the format has text, for messages that name where a value is written.
  static func read(_ path: String, arguments: ParsedArguments, console: Console, mapped: Bool) throws -> (
    PrefValue, Format, TextDocument?
  ) {
    do {
      let data = try InputFile.read(path, limit: try arguments.readOptions().maxInputBytes)
      return try parse(data, from: path, arguments: arguments, console: console, mapped: mapped)
    } catch let error as PrefsError {
      throw error.category == .usage ? error : error.inFile(displayName(path))
    }
  }

  /// Reads a document from the bytes of `path` (already read), as ``read(_:arguments:console:mapped:)`` does.
  static func parse(
    _ data: Data, from path: String, arguments: ParsedArguments, console: Console, mapped: Bool = false
  ) throws -> (
    PrefValue, Format, TextDocument?
  ) {
    let name = displayName(path)
    do {
      // A signed configuration profile is read as the profile it signs.
      let data = try ProfileSignature.unwrapped(data, name: name, console: console)
      let options = try arguments.readOptions()
      // Large conversions say what they are doing, on a terminal only.
      let progress = data.count >= ProgressLine.largeInput ? ProgressLine(total: 1) : nil
      progress?.show("reading \(name) (\(ProgressLine.size(data.count)))…")
      defer { progress?.clear() }
      let warnings = Warnings()
      let declared = try arguments.inputFormat()
      let filePath = path == "-" ? nil : path
      var result: (PrefValue, Format, TextDocument?)
      if mapped {
        result = try TextDocument.read(data, declared: declared, path: filePath, options: options, warnings: warnings)
      } else {
        let (value, format) = try Format.read(
          data, declared: declared, path: filePath, options: options, warnings: warnings)
        result = (value, format, nil)
      }
      console.report(warnings, file: name)
      keptUntilExit.append(result.0)
      return result
    } catch let error as PrefsError {
      throw error.category == .usage ? error : error.inFile(name)
    }
  }

  /// The documents of the file at `path` (`-` is standard input), read as
  /// ``read(_:arguments:console:)`` reads one: every document of a YAML stream, in
  /// order; one for any other format. With `--document`, only the one it picks.
  static func readDocuments(_ path: String, arguments: ParsedArguments, console: Console) throws -> (
    documents: [PrefValue], format: Format
  ) {
    let name = displayName(path)
    do {
      let data = try InputFile.read(path, limit: try arguments.readOptions().maxInputBytes)
      return try parseDocuments(data, from: path, arguments: arguments, console: console)
    } catch let error as PrefsError {
      throw error.category == .usage ? error : error.inFile(name)
    }
  }

  /// ``readDocuments(_:arguments:console:)`` of bytes already read.
  static func parseDocuments(_ data: Data, from path: String, arguments: ParsedArguments, console: Console) throws
    -> (documents: [PrefValue], format: Format)
  {
    let name = displayName(path)
    do {
      let options = try arguments.readOptions()
      let warnings = Warnings()
      let data = try ProfileSignature.unwrapped(data, name: name, console: console)
      let (documents, format) = try Format.read(
        data, declared: try arguments.inputFormat(), path: path == "-" ? nil : path, options: options,
        warnings: warnings
      ) { format, warnings in
        format == .yaml
          ? try YAMLStream.read(data, options: options, warnings: warnings).values
          : [try format.readValue(data, options: options, warnings: warnings)]
      }
      // As for one document: what reading warned of is told when it read.
      console.report(warnings, file: name)
      keptUntilExit.append(contentsOf: documents)
      guard let selector = arguments.value(Options.document) else { return (documents, format) }
      let names = documents.map(YAMLStream.name(of:))
      guard let index = YAMLStream.index(of: selector, in: names) else {
        throw PrefsError(.noSuchDocument(selector: selector, names: names))
      }
      return ([documents[index]], format)
    } catch let error as PrefsError {
      throw error.category == .usage ? error : error.inFile(name)
    }
  }

  /// The one document of the file at `path`, read as ``readDocuments(_:arguments:console:)``
  /// reads them: a stream of several is refused, naming its documents.
  static func readOneDocument(_ path: String, arguments: ParsedArguments, console: Console) throws -> PrefValue {
    let (documents, _) = try readDocuments(path, arguments: arguments, console: console)
    guard documents.count == 1 else {
      throw PrefsError(.severalDocuments(names: documents.map(YAMLStream.name(of:))), file: displayName(path))
    }
    return documents[0]
  }

  /// A file (or `-`) by the input rules, or a domain of the store, for the key-path
  /// commands that take either (`get`).
  static func readFileOrDomain(_ argument: String, arguments: ParsedArguments, console: Console) throws
    -> PrefValue
  {
    if namesFile(argument) { return try readOneDocument(argument, arguments: arguments, console: console) }
    return try readDomainValue(argument, arguments: arguments, console: console)
  }

  /// The documents of a file (or `-`), or a domain of the store as one document, for
  /// `diff`.
  static func readDocumentsOfFileOrDomain(_ argument: String, arguments: ParsedArguments, console: Console) throws
    -> [PrefValue]
  {
    if namesFile(argument) { return try readDocuments(argument, arguments: arguments, console: console).documents }
    return [try readDomainValue(argument, arguments: arguments, console: console)]
  }

  /// The contents of the domain of the store called `argument`.
  private static func readDomainValue(_ argument: String, arguments: ParsedArguments, console: Console) throws
    -> PrefValue
  {
    if arguments.has(Options.document) {
      throw PrefsError(.usage("--document picks a document of a YAML file, not of a domain"))
    }
    let domain = try arguments.store().domain(named: argument)
    guard let contents = try readDomain(domain, arguments: arguments, console: console) else {
      throw missingDomain(domain, in: arguments.store())
    }
    return .dictionary(contents)
  }

  /// The contents of the domain or file an input argument names (`-` is standard
  /// input, which must hold a dictionary), and the name messages give it; nil
  /// contents when the domain does not exist.
  static func readDomain(_ argument: String, arguments: ParsedArguments, console: Console) throws -> (
    contents: PrefDictionary?, name: String
  ) {
    if argument == "-" {
      let (value, _) = try read("-", arguments: arguments, console: console)
      guard case .dictionary(let contents) = value else {
        throw PrefsError(
          .other(.badInput, "a domain is a dictionary, not \(value.kind.article) \(value.kind.rawValue)"),
          file: displayName("-"))
      }
      return (contents, displayName("-"))
    }
    let domain = try resolveDomain(argument, in: arguments.store())
    return (try readDomain(domain, arguments: arguments, console: console), domain.name)
  }

  /// A domain's contents by the reading options, reporting what reading it warns of.
  static func readDomain(_ domain: any PreferenceDomain, arguments: ParsedArguments, console: Console) throws
    -> PrefDictionary?
  {
    let warnings = Warnings()
    let contents = try domain.read(options: try arguments.readOptions(), warnings: warnings)
    console.report(warnings, file: domain.location)
    return contents
  }

  /// Prints a value as `read` and `get` do: a scalar raw, as `defaults read` does
  /// (`booleanWords`: `true`/`false` instead of 1/0), a container as YAML.
  static func show(
    _ value: PrefValue, sortKeys: Bool, booleanWords: Bool = false, expandData: Bool = false, console: Console
  ) throws {
    if case .data(let data) = value, isatty(1) == 1, data.count > hexBytesPerLine {
      // On a terminal, long data is shown in lines, not one endless line of hex.
      try console.out(hexLines(data))
    } else if let raw = ValueText.raw(value, booleanWords: booleanWords) {
      try console.out(raw + "\n")
    } else {
      // With `expandData`, through the pass that shows blobs as structure: every
      // structure, in any spacing or escaping, as a view that is not read back.
      var options = WriteOptions(sortKeys: sortKeys, expandData: expandData)
      options.expansionMode = .view
      try console.outData(
        expandData
          ? try Format.yaml.encode(value, options: options) : try Format.yaml.codec.encode(value, options: options))
    }
  }

  static let hexBytesPerLine = 32

  /// Data as hex, `hexBytesPerLine` bytes a line in groups of four, each line
  /// starting with its offset: `0000  0a1b2c3d 4e5f…`.
  static func hexLines(_ data: Data) -> String {
    let bytes = [UInt8](data)
    return stride(from: 0, to: bytes.count, by: hexBytesPerLine).map { start in
      let line = bytes[start..<min(start + hexBytesPerLine, bytes.count)]
      let groups = stride(from: line.startIndex, to: line.endIndex, by: 4).map { group in
        hexBytes(line[group..<min(group + 4, line.endIndex)])
      }
      return hexDigits(start, width: 4) + "  " + groups.joined(separator: " ") + "\n"
    }.joined()
  }

  /// Whether `path` names a file large enough for a conversion to show progress.
  static func isLarge(_ path: String) -> Bool {
    var info = stat()
    return path != "-" && stat(path, &info) == 0 && Int(info.st_size) >= ProgressLine.largeInput
  }

  /// Every document read, never freed: the process ends after one command, and
  /// releasing a large document node by node costs the user time for nothing.
  nonisolated(unsafe) private static var keptUntilExit: [PrefValue] = []

  /// The output format: `--to`, else `-o`'s extension (`.plist` is XML), else YAML.
  static func outputFormat(arguments: ParsedArguments, option: OptionSpec = Options.to) throws -> Format {
    if let format = try arguments.outputFormat(option) { return format }
    if let path = arguments.value(Options.output), path != "-", let format = Format.forPath(path), format.isWritable {
      return format
    }
    return .yaml
  }

  /// Writes `value` to `-o FILE` atomically, or to stdout. Nothing is written when
  /// encoding fails: a file is replaced only after the whole document is written,
  /// and stdout receives the document only once it is complete. With `mode` (the
  /// source's, for an export), a new file gets it and an existing one is narrowed to it.
  static func write(
    _ value: PrefValue, format: Format, to path: String?, options: WriteOptions, console: Console,
    showProgress: Bool = false, mode: mode_t? = nil
  ) throws {
    if path == nil, format == .binary, isatty(1) == 1 {
      // Binary bytes would garble the terminal; -o - says they are wanted there.
      throw PrefsError(
        .usage("a binary plist is not for a terminal"),
        hints: ["write it to a file with -o FILE, pipe it, or give -o - to send it to the terminal anyway"])
    }
    let warnings = Warnings()
    let name = path.map(displayName) ?? "<stdout>"
    // Progress only for files: on standard output it would mix with the document.
    let progress = showProgress && path != nil && path != "-" ? ProgressLine(total: 1) : nil
    progress?.show("writing \(name) as \(format.name)…")
    defer { progress?.clear() }
    do {
      if let path, path != "-" {
        try DomainExport(format: format, options: options).write(value, to: path, mode: mode, warnings: warnings)
      } else {
        let data = try format.encode(value, options: options, warnings: warnings)
        try console.outData(data)
      }
    } catch let error as PrefsError {
      throw error.inFile(name)
    }
    console.report(warnings, file: name)
  }
}

extension Documents {
  /// Writes `data` to `path` atomically (the error naming it), or to standard
  /// output when `path` is nil or `-`.
  static func write(_ data: Data, to path: String?, console: Console, keepingModeOf sources: [String] = []) throws {
    guard let path, path != "-" else { return try console.outData(data) }
    do {
      try AtomicFile.write(data, to: path, keepingModeOf: sources)
    } catch let error as PrefsError {
      throw error.inFile(path)
    }
  }
}

/// Changes `domain` under its lock (``PreferenceDomain/modify(force:dryRun:options:dropNulls:warnings:_:)``)
/// with `--force` and `--drop-nulls` as given, read with the command's reading options
/// (`--allow-duplicate-keys` among them), and reports where its text could not change
/// in place.
@discardableResult
func changeDomain(
  _ domain: any PreferenceDomain, _ arguments: ParsedArguments, console: Console,
  _ body: (inout PrefDictionary?) throws -> Void
) throws -> (before: PrefDictionary?, after: PrefDictionary?) {
  try reportingWarnings(of: domain, console) { warnings in
    try domain.modify(
      force: arguments.has(Options.force), dryRun: false, options: arguments.readOptions(),
      dropNulls: arguments.dropsNulls, warnings: warnings, body)
  }
}

/// Runs a library operation on `domain` with warnings of its own, and reports them
/// (naming the domain) as soon as it returns or throws.
func reportingWarnings<T>(
  of domain: any PreferenceDomain, _ console: Console, _ body: (Warnings) throws -> T
) rethrows -> T {
  let warnings = Warnings()
  defer { console.report(warnings, file: domain.name) }
  return try body(warnings)
}

/// `body`'s result, its errors attributed to `file` when they name none.
func inFile<T>(_ file: String, _ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let error as PrefsError {
    throw error.inFile(file)
  }
}
