import Foundation
import PrefsKit

/// Reading and writing documents for the commands: the input and output rules of
/// DESIGN.md section 7 in one place.
/// The error for a domain that does not exist.
func missingDomain(_ domain: any PreferenceDomain) -> PrefsError {
  PrefsError(.noInput, "no such domain", file: domain.name, hints: ["'prefs domains' lists the domains there are"])
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

  /// A file (or `-`) by the input rules, or a domain of the store, for the commands
  /// that take either (`diff`, `get`).
  static func readFileOrDomain(_ argument: String, arguments: ParsedArguments, console: Console) throws
    -> PrefValue
  {
    if argument == "-" || DomainName.isPath(argument) {
      return try read(argument, arguments: arguments, console: console).0
    }
    let domain = try arguments.store().domain(named: argument)
    guard let contents = try readDomain(domain, arguments: arguments, console: console) else {
      throw missingDomain(domain)
    }
    return .dictionary(contents)
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

  /// Prints a value as `read` and `get` do: a scalar raw, as `defaults read` does, a
  /// container as YAML.
  static func show(_ value: PrefValue, sortKeys: Bool, console: Console) throws {
    if let raw = ValueText.raw(value) {
      try console.out(raw + "\n")
    } else {
      try console.outData(try Format.yaml.codec.encode(value, options: WriteOptions(sortKeys: sortKeys)))
    }
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
    let warnings = Warnings()
    let name = path.map(displayName) ?? "<stdout>"
    // Progress only for files: on standard output it would mix with the document.
    let progress = showProgress && path != nil && path != "-" ? ProgressLine(total: 1) : nil
    progress?.show("writing \(name) as \(format.name)…")
    defer { progress?.clear() }
    do {
      if let path, path != "-" {
        try AtomicFile.write(to: path, newFileMode: mode ?? 0o644, modeLimit: mode ?? 0o7777) { writer in
          try format.codec.write(value, to: writer, options: options, warnings: warnings)
        }
      } else {
        let data = try format.codec.encode(value, options: options, warnings: warnings)
        try console.outData(data)
      }
    } catch let error as PrefsError {
      throw error.inFile(name)
    }
    console.report(warnings, file: name)
  }
}

/// Changes `domain` under its lock (``PreferenceDomain/modify(force:dryRun:options:warnings:_:)``)
/// with `--force` as given, and reports where its text could not change in place.
@discardableResult
func changeDomain(
  _ domain: any PreferenceDomain, _ arguments: ParsedArguments, console: Console, dryRun: Bool = false,
  options: ReadOptions = ReadOptions(), _ body: (inout PrefDictionary?) throws -> Void
) throws -> (before: PrefDictionary?, after: PrefDictionary?) {
  let warnings = Warnings()
  defer { console.report(warnings, file: domain.name) }
  return try domain.modify(
    force: arguments.has(Options.force), dryRun: dryRun, options: options, warnings: warnings, body)
}
