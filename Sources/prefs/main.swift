import PrefsKit

/// The version `prefs --version` prints.
let prefsVersion = "0.1.0"

/// Runs one command line and returns the exit status.
func runPrefs(_ commandLine: [String], console: Console) -> Int32 {
  var console = console
  do {
    // Global options may also come before the command's name, and so may -currentHost.
    let (globals, leadingCommandOptions, arguments) = try ArgumentParser.leadingOptions(commandLine)
    if let color = globals.value(Options.color) { console.color = try ColorChoice.named(color) }
    guard let first = arguments.first else {
      // A usage error: the overview goes where errors go.
      console.err(String(Help.overview().dropLast()))
      return Console.Status.usage
    }
    switch first {
    case "-h", "--help":
      try console.out(Help.overview())
      return Console.Status.success
    case "--version", "-V", "version":
      try console.out("prefs \(prefsVersion)\n")
      return Console.Status.success
    default: break
    }
    guard var command = Commands.named(first) else {
      throw first.hasPrefix("-")
        ? ArgumentParser.usageError("unknown option '\(first)'", nil) : Commands.unknownCommand(first)
    }
    var rest = Array(arguments.dropFirst())
    // A command with subcommands: its first argument picks the one that parses the rest.
    if !command.subcommands.isEmpty, let word = rest.first, !word.hasPrefix("-") {
      guard let subcommand = command.subcommand(word) else {
        throw ArgumentParser.unknownSubcommand(word, of: command)
      }
      command = subcommand
      rest.removeFirst()
    }
    let parsed = try ArgumentParser.parse(leadingCommandOptions + rest, for: command)
    if let color = parsed.value(Options.color) { console.color = try ColorChoice.named(color) }
    if parsed.wantsHelp {
      try console.out(Help.text(for: command))
      return Console.Status.success
    }
    return try command.run(parsed, console)
  } catch let error as PrefsError {
    console.report(error)
    return Console.status(for: error)
  } catch is Console.BrokenPipe {
    return Console.Status.brokenPipe
  } catch {
    console.err("prefs: error: \(PrefsError.text(of: error))")
    return Console.Status.ioError
  }
}

// A reader that goes away is a write error (EPIPE) to handle, not a signal to die of.
signal(SIGPIPE, SIG_IGN)
// Ctrl-C or a stop request during a write or an edit leaves no temporary file behind.
SignalScope.install()
// The arguments as given: a file name that is not UTF-8 keeps its bytes (see RawPath).
let arguments = (1..<Int(CommandLine.argc)).compactMap { CommandLine.unsafeArgv[$0].map { RawPath.argument($0) } }
exit(runPrefs(arguments, console: Console()))
