import PrefsKit

/// `prefs schema scan PATH... [-o FILE]`: the schema of every key an app's Swift
/// sources read, from the scanner `prefs-scan-swift` (a program of its own, as git
/// runs `git-foo`: it links the toolchain's SwiftSyntax, which prefs does not).
enum SchemaScan {
  /// The scanner's program name.
  static let scanner = "prefs-scan-swift"

  static let spec = CommandSpec(
    name: "schema scan",
    summary: "Print the schema of every key an app's Swift sources read.",
    discussion: """
      Parses the Swift files given (folders are searched for .swift files) with \
      SwiftSyntax and prints a schema: each key with its type, its fallback (left out \
      when the read can give nil), its values when the code restricts them, its suite \
      when read through UserDefaults(suiteName:), and where the code reads and stores \
      it (File.swift:LINE:COL). It knows object(forKey:) as? T ?? fallback, as! T, \
      value(forKey:), the typed getters (bool, integer, double, float, string, array, \
      dictionary, data, url, stringArray) and their implicit fallbacks, @AppStorage \
      and @SceneStorage (a RawRepresentable enum as its raw values), \
      register(defaults:), functions that read the key they are passed \
      (AppDefaults.bool(for: Key.x)), keys held in constants, static members, enums and \
      extensions, Defaults.Key<T>(\"k\", default: d) and DefaultsKey<T>(\"k\", \
      defaultValue: d), and property wrappers of the app's own over UserDefaults. \
      Data written through JSONEncoder or PropertyListEncoder gets its encoding and \
      the shape of the app's Codable type, so that lint can check it. Keys built at \
      run time are listed under dynamic-keys; a key read with two types or two \
      fallbacks is a warning on standard error and listed under conflicts. The \
      schema is YAML unless --to or -o's extension says JSON; use it with lint, \
      import and export --schema FILE. The scan is done by prefs-scan-swift, looked \
      for beside prefs and then on the PATH; it is built where the Swift toolchain \
      has SwiftSyntax in its host libraries.
      """,
    arguments: [ArgumentSpec(name: "PATH", help: "Swift files, or folders searched for .swift files.", variadic: true)],
    options: [Options.output, Options.to],
    examples: [
      ("prefs schema scan Sources/", "The schema of an app's sources, as YAML."),
      ("prefs schema scan Sources/ -o app.schema.yaml", "Save it for lint --schema app.schema.yaml."),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let paths = arguments.positionals
    guard !paths.isEmpty else {
      throw ArgumentParser.usageError("schema scan needs a Swift file or folder", spec)
    }
    for path in paths where isFolder(path) == nil {
      throw PrefsError(.notFound(.file), file: displayName(path))
    }
    let format = try Documents.outputFormat(arguments: arguments)
    guard let program = locate() else {
      throw PrefsError(
        .other(.noInput, "schema scan needs \(scanner), the Swift source scanner, and it is not installed"),
        hints: [
          "build it with 'make build' where the Swift toolchain has SwiftSyntax in its host libraries "
            + "(usr/lib/swift/host), and install it beside prefs with 'make install', or put it on the PATH"
        ])
    }
    let (outcome, output) = try ChildProcess.output(of: [program] + paths, keepingStandardError: true)
    switch outcome {
    case .exited(0): break
    case .exited(let status): return status
    case .killed(let signal):
      throw PrefsError(.other(.io, "\(scanner) was killed by signal \(signal)"))
    }
    let schema: Schema
    do {
      schema = try Schema.read(output, path: "\(scanner).json")
    } catch let error as PrefsError {
      throw PrefsError(.other(.io, "\(scanner) printed no schema: \(error.message)"))
    }
    for conflict in schema.conflicts {
      let first = conflict.reads.first?.readAt ?? ""
      console.err("prefs: warning: \(first): \(conflict.key): \(conflict.message)")
    }
    if !schema.dynamicKeys.isEmpty {
      let count = schema.dynamicKeys.count
      console.err(
        "prefs: warning: \(count == 1 ? "1 read builds its key" : "\(count) reads build their key") at run time "
          + "(listed under dynamic-keys)")
    }
    try Documents.write(
      schema.documentValue, format: format, to: arguments.value(Options.output),
      options: try arguments.writeOptions(for: format), console: console)
    return Console.Status.success
  }

  /// The scanner beside the running prefs, else on the PATH.
  static func locate() -> String? {
    if let own = ChildProcess.ownPath() {
      let beside = own.deletingLastPathComponent.appendingPathComponent(scanner)
      if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    }
    return ChildProcess.onPath(scanner)
  }

}
