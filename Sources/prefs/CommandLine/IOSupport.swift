import Foundation
import PrefsKit

/// Reading and writing documents for the commands: the input and output rules of
/// DESIGN.md section 7 in one place.
enum Documents {
  /// Reads the document at `path` (`-` is stdin), deciding its format by `--from`,
  /// the extension, else the content. Errors and warnings name the file.
  static func read(_ path: String, arguments: ParsedArguments, console: Console) throws -> (PrefValue, Format) {
    let name = displayName(path)
    do {
      let options = try arguments.readOptions()
      let data = try InputFile.read(path, limit: options.maxInputBytes)
      let warnings = Warnings()
      let result = try Format.read(
        data, declared: try arguments.inputFormat(), path: path == "-" ? nil : path,
        options: options, warnings: warnings)
      console.report(warnings, file: name)
      return result
    } catch let error as PrefsError {
      throw error.category == .usage ? error : error.inFile(name)
    }
  }

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
  /// and stdout receives the document only once it is complete.
  static func write(
    _ value: PrefValue, format: Format, to path: String?, options: WriteOptions, console: Console
  ) throws {
    let warnings = Warnings()
    let name = path.map(displayName) ?? "<stdout>"
    do {
      if let path, path != "-" {
        try AtomicFile.write(to: path) { writer in
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
