import PrefsKit

/// The command table: every subcommand, in the order help lists them.
enum Commands {
  static let all: [CommandSpec] = [
    Convert.spec, Export.spec, Import.spec, Domains.spec, Read.spec, ReadType.spec, Write.spec, Delete.spec,
    Rename.spec, GetValue.spec, SetValue.spec, RemoveValue.spec, Diff.spec, Textconv.spec, Merge.spec, GitSetup.spec,
    Edit.spec, LintCommand.spec, Apply.spec, Snapshots.spec, Capture.spec, SchemaCommand.spec, Completions.spec,
    Help.spec,
  ]

  /// The command called `name`, or the subcommand when `name` is two words (`schema export`).
  static func named(_ name: String) -> CommandSpec? {
    let words = name.split(separator: " ", maxSplits: 1).map(String.init)
    guard let command = all.first(where: { $0.name == words.first }) else { return nil }
    return words.count == 2 ? command.subcommand(words[1]) : command
  }

  /// Every command and subcommand, for help and the manual.
  static var everySpec: [CommandSpec] { all.flatMap { [$0] + $0.subcommands } }

  static func unknownCommand(_ name: String) -> PrefsError {
    var error = ArgumentParser.usageError("unknown command '\(name)'", nil)
    if let guess = Suggestions.closest(to: name, among: all.map(\.name)) {
      error.kind = .usage(error.message + "; did you mean '\(guess)'?")
    }
    return error
  }
}
