import Foundation
import PrefsTestSupport
import Testing

@testable import prefs

/// Help text, the manual page and completions, all checked against the command table.
@Suite struct HelpAndManualTests {
  static let manual =
    (try? String(
      contentsOf: TestSupport.packageRoot.appendingPathComponent("man/prefs.1"), encoding: .utf8)) ?? ""

  @Test(arguments: Commands.everySpec.map(\.name))
  func everyCommandHasFullHelp(name: String) throws {
    let command = try #require(Commands.everySpec.first { $0.name == name })
    let words = name.split(separator: " ").map(String.init)
    let help = try TestSupport.prefs(["help"] + words)
    #expect(help.status == 0)
    #expect(help.stderr == "")
    #expect(help.stdout.hasPrefix("OVERVIEW: \(command.summary)"))
    #expect(help.stdout.contains("\nUSAGE: prefs \(name)"))
    #expect(help.stdout.contains("\nOPTIONS:\n"))
    #expect(help.stdout.contains("\nEXAMPLES:\n  prefs \(name)"))
    for option in command.options {
      for spelling in option.long.map({ "--\($0)" }) + option.words.map({ "-\($0)" }) {
        #expect(help.stdout.contains(spelling), "\(name) help lacks \(spelling)")
      }
    }
    #expect(try TestSupport.prefs(words + ["--help"]).stdout == help.stdout)
    #expect(try TestSupport.prefs(words + ["-h"]).stdout == help.stdout)
  }

  @Test func overviewListsEverySubcommand() throws {
    let overview = try TestSupport.prefs(["--help"])
    #expect(overview.status == 0)
    for command in Commands.all {
      #expect(overview.stdout.contains("\n  \(command.name) "), "missing \(command.name)")
    }
    // Without a command: a usage error, so the overview goes to standard error.
    let bare = try TestSupport.prefs([])
    #expect(bare.status == 64)
    #expect(bare.stdout == "")
    #expect(bare.stderr == overview.stdout)
  }

  @Test func helpForAnUnknownCommandSuggestsTheClosest() throws {
    let result = try TestSupport.prefs(["help", "exprot"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("prefs: error: unknown command 'exprot'; did you mean 'export'?\n"))
  }

  @Test func theManualCoversEveryCommandAndOption() {
    #expect(!Self.manual.isEmpty)
    for command in Commands.everySpec {
      #expect(Self.manual.contains(".Cm \(command.name)"), "the manual lacks the command \(command.name)")
      for option in command.options {
        for long in option.long {
          #expect(Self.manual.contains("Fl -\(long)"), "the manual lacks --\(long) (\(command.name))")
        }
        for short in option.short {
          #expect(Self.manual.contains("Fl \(short)"), "the manual lacks -\(short) (\(command.name))")
        }
        for word in option.words {
          #expect(Self.manual.contains(word), "the manual lacks -\(word) (\(command.name))")
        }
      }
    }
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
      #expect(Self.manual.contains(".Sh \(section)\n"), "the manual lacks \(section)")
    }
    for variable in ["XDG_CONFIG_HOME", "HOME", "PREFS_DEFAULTS_DIR", "NO_COLOR"] {
      #expect(Self.manual.contains(".It Ev \(variable)"), "the manual lacks \(variable)")
    }
  }

  @Test(.enabled(if: TestSupport.executable(named: "groff") != nil, "groff is not installed"))
  func theManualFormatsWithoutWarnings() throws {
    let groff = try #require(TestSupport.executable(named: "groff"))
    let result = try TestSupport.run(
      groff, ["-mdoc", "-ww", "-z", TestSupport.packageRoot.appendingPathComponent("man/prefs.1").path])
    #expect(result.status == 0)
    #expect(result.stderr == "")
  }

  /// Runs the EXAMPLES of the manual, in order, in a scratch home with its own store.
  /// git is set up one way, by `prefs git-setup`: the samples carry no attributes file
  /// that teaches another.
  @Test func theSamplesTeachNoSecondGitSetup() throws {
    let samples = TestSupport.packageRoot.appendingPathComponent("Samples")
    #expect(!FileManager.default.fileExists(atPath: samples.appendingPathComponent(".gitattributes").path))
  }

  @Test func theManualExamplesWork() throws {
    let examples = try #require(
      Self.manual.components(separatedBy: ".Sh EXAMPLES\n").last?.components(separatedBy: ".Sh ").first,
      "no EXAMPLES section")
    let commands = examples.split(separator: "\n").filter { $0.hasPrefix(".Dl ") }.map { line in
      String(line.dropFirst(4)).replacingOccurrences(of: "\\(dq", with: "\"")
        .replacingOccurrences(of: "\\e", with: "\\")
    }
    #expect(commands.count >= 10)
    let home = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.copyItem(
      at: TestSupport.packageRoot.appendingPathComponent("Samples"), to: home.appendingPathComponent("Samples"))
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home.path
    environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
    environment["PREFS_DEFAULTS_DIR"] = nil
    // Snapshots of `apply` go under the scratch home too.
    environment["XDG_STATE_HOME"] = nil
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    // git setup examples write the scratch home's git config, never the user's.
    environment["GIT_CONFIG_GLOBAL"] = nil
    environment["PATH"] = TestSupport.prefsBinary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
    for command in commands {
      if command.hasPrefix("git"), TestSupport.executable(named: "git") == nil { continue }
      let result = try TestSupport.run(
        URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"$HOME\" && " + command], environment: environment)
      #expect(result.status == 0, "\(command): \(result.stderr)")
    }
    #expect(
      FileManager.default.fileExists(atPath: home.appendingPathComponent("prefs-backup/com.example.app.yaml").path))
    #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("changes.yaml").path))
  }

  /// Every sample a help example or the manual names is shipped (`prefs help get`
  /// once named a Samples/Items.yaml that does not exist).
  @Test func everySampleTheExamplesNameExists() throws {
    let texts = Commands.everySpec.flatMap { $0.examples.map(\.0) } + [Self.manual, Self.readme]
    let names = Set(
      texts.flatMap { text in
        text.split(whereSeparator: { " \n`'\"()".contains($0) }).filter { $0.hasPrefix("Samples/") }
          .map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ".,;:")) }
      })
    #expect(names.contains("Samples/UserSettings.yaml"))
    for name in names where !name.hasSuffix("/") {
      #expect(
        FileManager.default.fileExists(atPath: TestSupport.packageRoot.appendingPathComponent(name).path),
        "\(name) is named by an example but does not exist")
    }
  }

  /// The manual says how YAML 1.2 reads dates, 0755 and 1.10, and it is so.
  @Test func theManualSaysHowPlainDatesAndVersionNumbersRead() throws {
    #expect(Self.manual.contains("release: 2024-01-01 No is the date 2024-01-01T00:00:00Z"))
    #expect(Self.manual.contains(".Li 1.10\nis the real 1.1"))
    #expect(Self.manual.contains(".Li 0755\nis the integer 755"))
    #expect(!Self.readme.contains("`0755` in YAML | — | — | PyYAML reads `false`, `true`, `493` | strings"))
    let result = try TestSupport.prefs(
      ["convert", "-", "--to", "json", "--compact"], input: Data("release: 2024-01-01\nv: 1.10\nmode: 0755\n".utf8))
    #expect(result.stdout == #"{"release":{"$date":"2024-01-01T00:00:00Z"},"v":1.1,"mode":755}"# + "\n")
  }

  static let readme =
    (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

  /// The README's examples that show their output: each `$ prefs …` line of a
  /// ```sh block, and the lines after it up to the next `$ ` line or comment.
  static func readmeExamples() -> [(command: String, output: String)] {
    var examples: [(command: String, output: String)] = []
    var inBlock = false
    var current: (command: String, output: [String])?
    func finish() {
      if let example = current, !example.output.isEmpty {
        examples.append((example.command, example.output.joined(separator: "\n") + "\n"))
      }
      current = nil
    }
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") {
        finish()
        inBlock = line == "```sh"
      } else if inBlock, line.hasPrefix("$ ") || line.hasPrefix("#") || line.isEmpty || line.hasPrefix("prefs ") {
        finish()
        if line.hasPrefix("$ prefs ") {
          // A trailing comment explains the command; it is not part of it.
          let command = line.dropFirst(2).replacingOccurrences(
            of: #"\s+#\s.*$"#, with: "", options: .regularExpression)
          current = (command, [])
        }
      } else if inBlock, current != nil {
        current?.output.append(line)
      }
    }
    return examples
  }

  /// What each README example runs against: files in the scratch home, and domains
  /// in its store (`~/.config`, shown in the README as /home/ada's).
  static let readmeFixtures: [String: (files: [String: String], domains: [String: String])] = [
    "prefs diff before.plist after.yaml": (
      [
        "before.yaml": "isAccountPrivate: true\nitems:\n- name: a\n- name: b\nringtone: Chimes\n",
        "after.yaml": "isAccountPrivate: \"false\"\nitems:\n- name: a\n- name: b\n- name: x\n",
      ], [:]
    ),
    "prefs lint com.example.app --schema user-settings": ([:], ["com.example.app": "isAccountPrivate: \"false\"\n"]),
    "prefs lint settings.yaml": (["settings.yaml": "username: ada\nringtone: Chimes\nsound: off\n"], [:]),
    "prefs convert Samples/Items.plist --expand-data": ([:], [:]),
    "prefs diff Samples/Items.plist renamed.yaml --expand-data": (
      [
        "renamed.yaml":
          "items: !json\n- description: Milk, eggs and bread / butter\n  id: 3F2504E0-4F89-11D3-9A0C-0305E82C3301\n"
          + "  name: Shopping\n- description: Pay \"Chez Léa\"\n  id: 6BA7B810-9DAD-11D1-80B4-00C04FD430C8\n"
          + "  name: Café\n- description: \"\"\n  id: 00000000-0000-4000-8000-000000000001\n"
          + "  name: \"Tabs\\tand\\nlines\"\n"
      ], [:]
    ),
    "prefs lint dock.plist --schema-dir device-management/mdm/profiles": (
      [
        "dock.plist":
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
          + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n"
          + "\t<key>autohide</key>\n\t<string>true</string>\n\t<key>orientation</key>\n\t<string>left</string>\n"
          + "\t<key>tilesize</key>\n\t<integer>200</integer>\n</dict>\n</plist>\n",
        // A schema in the device-management format, with the two keys the example shows.
        "device-management/mdm/profiles/com.apple.dock.yaml":
          "payload: {payloadtype: com.apple.dock}\npayloadkeys:\n"
          + "- {key: tilesize, type: <integer>, range: {min: 16, max: 128}}\n"
          + "- {key: autohide, type: <boolean>, default: false}\n"
          + "- {key: orientation, type: <string>, rangelist: [bottom, left, right]}\n",
      ], [:]
    ),
    "prefs apply settings.yaml --dry-run": (
      [
        "settings.yaml":
          "com.example.app:\n  ringtone: Waves\n  window:\n    width: 1024\n-g:\n  AppleLocale: en_GB\n"
      ],
      [
        "com.example.app": "ringtone: Chimes\nwindow:\n  height: 600\n",
        "NSGlobalDomain": "AppleLocale: en_US\n",
      ]
    ),
  ]

  /// Examples whose output cannot be produced by running the line as it stands.
  static let readmeExamplesNotRun: [String: String] = [
    "prefs capture com.example.app -o changes.yaml": "it watches until Ctrl-C, and its line goes to a terminal"
  ]

  /// Runs every README example that shows its output, in a scratch home holding its
  /// fixture, and compares what it prints (an output ending in … is a beginning).
  @Test func theReadmeExamplesPrintWhatTheReadmeShows() throws {
    let examples = Self.readmeExamples()
    var ran: Set<String> = []
    defer { #expect(ran == Set(Self.readmeFixtures.keys), "README examples run") }
    for (command, shown) in examples {
      if Self.readmeExamplesNotRun[command] != nil { continue }
      guard let fixture = Self.readmeFixtures[command] else {
        Issue.record("no fixture for the README example '\(command)'")
        continue
      }
      ran.insert(command)
      let home = try TestFolder()
      try FileManager.default.copyItem(
        at: TestSupport.packageRoot.appendingPathComponent("Samples"), to: home.url.appendingPathComponent("Samples"))
      var environment = ProcessInfo.processInfo.environment
      environment["HOME"] = home.url.path
      environment["XDG_CONFIG_HOME"] = nil
      environment["XDG_STATE_HOME"] = nil
      environment["PREFS_DEFAULTS_DIR"] = nil
      environment["NO_COLOR"] = "1"
      environment["PATH"] =
        TestSupport.prefsBinary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
      try FileManager.default.createDirectory(
        at: home.url.appendingPathComponent(".config"), withIntermediateDirectories: true)
      for (name, text) in fixture.files {
        try FileManager.default.createDirectory(
          at: home.url.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
        try home.write(name, text)
      }
      if fixture.files["before.yaml"] != nil {
        _ = try TestSupport.run(
          TestSupport.prefsBinary, ["convert", home.path("before.yaml"), "-o", home.path("before.plist")])
      }
      for (domain, text) in fixture.domains {
        let source = try home.write("\(domain).source.yaml", text)
        let imported = try TestSupport.run(
          TestSupport.prefsBinary, ["import", domain, source], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
      }
      let result = try TestSupport.run(
        URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"$HOME\" && " + command], environment: environment)
      let printed = (result.stdout + result.stderr).replacingOccurrences(of: home.url.path, with: "/home/ada")
      if shown.hasSuffix("…\n") {
        #expect(printed.hasPrefix(String(shown.dropLast(2))), "\(command)")
      } else {
        #expect(printed == shown, "\(command)")
      }
    }
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completionScriptsNameEveryCommand(shell: String) throws {
    let script = try TestSupport.prefs(["completions", shell])
    #expect(script.status == 0)
    for command in Commands.all {
      #expect(script.stdout.contains(command.name))
    }
    #expect(script.stdout.contains("sort-keys"))
    #expect(script.stdout.contains("prefs domains"))
  }

  @Test(.enabled(if: TestSupport.executable(named: "bash") != nil, "bash is not installed"))
  func theBashCompletionScriptParses() throws { try expectCompletionScriptParses(in: "bash") }

  @Test(.enabled(if: TestSupport.executable(named: "zsh") != nil, "zsh is not installed"))
  func theZshCompletionScriptParses() throws { try expectCompletionScriptParses(in: "zsh") }

  @Test(.enabled(if: TestSupport.executable(named: "fish") != nil, "fish is not installed"))
  func theFishCompletionScriptParses() throws { try expectCompletionScriptParses(in: "fish") }

  /// Checks the syntax of the completion script for `shell` with `shell -n`.
  func expectCompletionScriptParses(in shell: String) throws {
    let executable = try #require(TestSupport.executable(named: shell))
    let script = try TestSupport.prefs(["completions", shell])
    #expect(script.status == 0)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-completion-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(script.stdout.utf8).write(to: file)
    let check = try TestSupport.run(executable, ["-n", file.path])
    #expect(check.status == 0, "\(check.stderr)")
  }

  @Test(.enabled(if: TestSupport.executable(named: "bash") != nil, "bash is not installed"))
  func bashCompletionCompletesCommandsFormatsAndDomains() throws {
    let bash = try #require(TestSupport.executable(named: "bash"))
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    _ = try TestSupport.prefs(["write", "com.example.app", "k", "v"], store: store)
    let script = try TestSupport.prefs(["completions", "bash"]).stdout
    let driver = """
      \(script)
      t() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _prefs; echo "${COMPREPLY[*]}"; }
      t prefs conv
      t prefs convert x --to ''
      t prefs export --form
      t prefs read com.
      """
    var environment = ProcessInfo.processInfo.environment
    environment["PREFS_DEFAULTS_DIR"] = store.path
    environment["PATH"] = TestSupport.prefsBinary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
    let result = try TestSupport.run(bash, ["-c", driver], environment: environment)
    #expect(
      result.stdout
        == "convert\nbinary binary1 bplist xml xml1 json openstep ascii yaml yml\n--format\ncom.example.app\n")
  }
}

/// `make demo` writes only into a private folder of its own, and removes it.
@Suite struct DemoTests {
  @Test(.enabled(if: TestSupport.executable(named: "make") != nil, "make is not on the PATH"))
  func theDemoWritesIntoAPrivateFolderAndRemovesIt() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Someone else's link where a fixed demo file name would be.
    let victim = folder.appendingPathComponent("victim")
    try Data("keep me\n".utf8).write(to: victim)
    for name in ["UserSettings.bplist", "UserSettings.plist"] {
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent(name).path, withDestinationPath: victim.path)
    }
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = folder.path
    let make = try #require(TestSupport.executable(named: "make"))
    let result = try TestSupport.run(
      make,
      ["-s", "-C", TestSupport.packageRoot.path, "demo-run", "PREFS=\(TestSupport.prefsBinary.path)"],
      environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\nsame\n"), "\(result.stdout)")
    // The in-place edit of a commented file changes that one line.
    #expect(result.stdout.hasSuffix("-ringtone: Chimes\n+ringtone: Waves\n username: \"\"\n"), "\(result.stdout)")
    #expect(result.stdout.contains("-o \(folder.path)/tmp."), "\(result.stdout)")
    #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "UserSettings.bplist", "UserSettings.plist", "victim",
      ])
    let makefile = try String(
      contentsOf: TestSupport.packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
    #expect(!makefile.contains("/tmp/"))
  }
}

/// `make install` strips the binary, which still runs, and the manual names every
/// file it installs.
@Suite struct InstallTests {
  @Test(.enabled(if: TestSupport.executable(named: "make") != nil, "make is not on the PATH"))
  func installStripsTheBinaryAndTheManualNamesEveryInstalledFile() throws {
    let root = try TestFolder()
    let make = try #require(TestSupport.executable(named: "make"))
    let result = try TestSupport.run(
      make,
      [
        "-s", "-C", TestSupport.packageRoot.path, "install-files", "PREFS=\(TestSupport.prefsBinary.path)",
        "DESTDIR=\(root.url.path)", "PREFIX=/usr",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let binary = root.url.appendingPathComponent("usr/bin/prefs")
    let installed = try #require(FileManager.default.attributesOfItem(atPath: binary.path)[.size] as? Int)
    let built = try #require(
      FileManager.default.attributesOfItem(atPath: TestSupport.prefsBinary.path)[.size] as? Int)
    #expect(installed < built, "installed \(installed) bytes of \(built)")
    if let readelf = TestSupport.executable(named: "readelf") {
      let sections = try TestSupport.run(readelf, ["-S", binary.path])
      #expect(!sections.stdout.contains(".debug_info"))
      #expect(!sections.stdout.contains(".symtab"))
    } else {
      print("note: readelf is not installed; the size alone shows the stripping")
    }
    #expect(try TestSupport.run(binary, ["--version"]).stdout.hasPrefix("prefs "))

    let files = try #require(FileManager.default.enumerator(atPath: root.url.path)?.compactMap { $0 as? String })
    let installedFiles = files.filter { name in
      var isFolder: ObjCBool = false
      FileManager.default.fileExists(atPath: root.path(name), isDirectory: &isFolder)
      return !isFolder.boolValue
    }
    // The scanner goes beside prefs where it was built with it.
    let scanner = TestSupport.prefsBinary.deletingLastPathComponent().appendingPathComponent("prefs-scan-swift")
    #expect(installedFiles.count == (FileManager.default.isExecutableFile(atPath: scanner.path) ? 6 : 5))
    let fileSection = HelpAndManualTests.manual.components(separatedBy: ".Sh FILES\n").last ?? ""
    for name in installedFiles {
      let path = "PREFIX/" + name.dropFirst("usr/".count)
      #expect(fileSection.contains(".It Pa \(path)\n"), "the manual's FILES lacks \(path)")
    }
    for loader in ["bash-completion", "fpath", "vendor_completions.d"] {
      #expect(fileSection.contains(loader))
    }
  }
}
