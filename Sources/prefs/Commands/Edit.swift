import Foundation
import PrefsKit

/// `prefs edit DOMAIN|FILE`: the value as YAML in `$VISUAL`/`$EDITOR`, validated,
/// written back atomically in its own format.
enum Edit {
  static let spec = CommandSpec(
    name: "edit",
    summary: "Edit a domain or file as YAML in $VISUAL or $EDITOR, then write it back safely.",
    discussion: """
      The value opens as YAML, in its own key order. On save it is read back: a \
      mistake re-opens the editor with the error on top, an empty file aborts, and \
      otherwise the domain or file is written back atomically in the format it had. \
      If it was changed by someone else meanwhile, nothing is overwritten.
      """,
    arguments: [ArgumentSpec(name: "DOMAIN", help: "A domain name (com.example.app, -g) or a file.")],
    options: [Options.force, Options.defaultsDir],
    examples: [
      ("prefs edit com.example.app", "Edit a domain in $VISUAL or $EDITOR."),
      ("prefs edit settings.bplist", "Edit a binary plist as YAML; it stays binary."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let domain = try resolveDomain(arguments.positionals[0], in: arguments.store())
    let original = try domain.read(options: ReadOptions())
    let folder = try TemporaryFolder()
    let file = folder.path + "/" + safeFileName(domain.name) + ".yaml"
    let initial = try Format.yaml.codec.encode(.dictionary(original ?? PrefDictionary()))
    var presented = initial
    try presented.write(to: URL(fileURLWithPath: file))

    while true {
      try runEditor(on: file, console: console)
      let edited = try InputFile.read(file)
      if edited.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) {
        console.err("prefs: edit aborted: the file is empty; nothing was changed")
        return Console.Status.success
      }
      if edited == initial {
        console.err("prefs: no changes")
        return Console.Status.success
      }
      do {
        let value = try Format.yaml.codec.decode(edited)
        guard case .dictionary(let contents) = value else {
          throw PrefsError(.badInput, "a domain is a dictionary, not \(value.kind.article) \(value.kind.rawValue)")
        }
        try changeDomain(domain, arguments, console: console) { current in
          guard current == original else {
            throw PrefsError(
              .temporary, "it changed while you were editing; nothing was overwritten", file: domain.name,
              hints: ["your edit is kept in \(folder.keep())"])
          }
          current = contents
        }
        return Console.Status.success
      } catch let error as PrefsError where error.category == .badInput {
        if edited == presented {
          // Saved again without fixing the error: the user gave up.
          console.err("prefs: edit aborted: \(error); nothing was changed")
          return Console.Status.dataError
        }
        // Re-open with the error on top, as a comment YAML ignores.
        let note = "# prefs: error: \(error)\n# Fix the mistake and save, or empty the file to abort.\n"
        presented = Data(note.utf8) + withoutOldNote(edited)
        try presented.write(to: URL(fileURLWithPath: file))
      }
    }
  }

  /// Runs `$VISUAL`, else `$EDITOR`, else `vi`, through the shell so that an editor
  /// with arguments (`code --wait`) works.
  static func runEditor(on file: String, console: Console) throws {
    let environment = ProcessInfo.processInfo.environment
    let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "\(editor) \"$1\"", "sh", file]
    do {
      try process.run()
    } catch {
      throw PrefsError(.io, "cannot start the editor '\(editor)': \(error.localizedDescription)")
    }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw PrefsError(
        .io, "the editor '\(editor)' failed (exit status \(process.terminationStatus)); nothing was changed")
    }
  }

  /// The edited text without the error note a previous round put on top.
  static func withoutOldNote(_ data: Data) -> Data {
    var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    while let first = lines.first, first.hasPrefix("# prefs: error: ") || first.hasPrefix("# Fix the mistake") {
      lines.removeFirst()
    }
    return Data(lines.joined(separator: "\n").utf8)
  }

  static func safeFileName(_ name: String) -> String {
    String((name as NSString).lastPathComponent.map { $0 == "/" ? "_" : $0 })
  }
}

/// A private temporary folder, removed when done unless kept.
private final class TemporaryFolder {
  let path: String
  private var kept = false

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/prefs-edit-XXXXXX").utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      throw PrefsError(.cannotCreate, "cannot create a temporary folder: \(String(cString: strerror(errno)))")
    }
    path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Keeps the folder (and the edit in it); returns its path.
  func keep() -> String {
    kept = true
    return path
  }

  deinit {
    if !kept { try? FileManager.default.removeItem(atPath: path) }
  }
}
