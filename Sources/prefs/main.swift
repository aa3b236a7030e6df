import Foundation
import PrefsKit

/// The version `prefs --version` prints.
let prefsVersion = "0.1.0"

/// Runs one command line and returns the exit status.
func runPrefs(_ arguments: [String], console: Console) -> Int32 {
  do {
    guard let first = arguments.first else {
      console.out(Help.overview())
      return Console.Status.usage
    }
    switch first {
    case "-h", "--help":
      console.out(Help.overview())
      return Console.Status.success
    case "--version", "-V", "version":
      console.out("prefs \(prefsVersion)\n")
      return Console.Status.success
    default: break
    }
    guard let command = Commands.named(first) else {
      throw first.hasPrefix("-")
        ? ArgumentParser.usageError("unknown option '\(first)'", nil) : Commands.unknownCommand(first)
    }
    let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command)
    if parsed.values["help"] != nil {
      console.out(Help.text(for: command))
      return Console.Status.success
    }
    return try command.run(parsed, console)
  } catch let error as PrefsError {
    console.report(error)
    return Console.status(for: error)
  } catch {
    console.err("prefs: error: \(error.localizedDescription)")
    return Console.Status.ioError
  }
}

exit(runPrefs(Array(CommandLine.arguments.dropFirst()), console: Console()))
