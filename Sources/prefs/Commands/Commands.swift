import PrefsKit

/// The command table: every subcommand, in the order help lists them.
enum Commands {
  static let all: [CommandSpec] = [
    Convert.spec, Export.spec, Import.spec, Domains.spec, Find.spec, Read.spec, ReadType.spec, Write.spec, Delete.spec,
    Rename.spec, GetValue.spec, SetValue.spec, RemoveValue.spec, Diff.spec, Textconv.spec, Merge.spec, GitSetup.spec,
    Edit.spec, FormCommand.spec, LintCommand.spec, Apply.spec, Snapshots.spec, Capture.spec, SchemaCommand.spec,
    ProfileCommand.spec, Completions.spec,
    Help.spec,
  ]

  static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

  /// Every command and subcommand (named in full: `schema export`), for help, the
  /// manual and completions.
  static var everySpec: [CommandSpec] { all.flatMap { [$0] + $0.subcommands } }

  static func unknownCommand(_ name: String) -> PrefsError {
    var error = ArgumentParser.usageError("unknown command '\(name)'", nil)
    if let guess = Suggestions.closest(to: name, among: all.map(\.name)) {
      error.kind = .usage(error.message + "; did you mean '\(guess)'?")
    }
    return error
  }
}
