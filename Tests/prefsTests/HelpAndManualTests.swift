import Foundation
import PrefsTestSupport
import Testing

@testable import prefs

/// Help text, the manual page and completions, all checked against the command table.
@Suite struct HelpAndManualTests {
  static let manual =
    (try? String(
      contentsOf: TestSupport.packageRoot.appendingPathComponent("man/prefs.1"), encoding: .utf8)) ?? ""

  @Test(arguments: Commands.all.map(\.name))
  func everyCommandHasFullHelp(name: String) throws {
    let command = try #require(Commands.named(name))
    let help = try TestSupport.prefs(["help", name])
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
    #expect(try TestSupport.prefs([name, "--help"]).stdout == help.stdout)
    #expect(try TestSupport.prefs([name, "-h"]).stdout == help.stdout)
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
    for command in Commands.all {
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

  @Test func theManualFormatsWithoutWarnings() throws {
    guard let groff = TestSupport.executable(named: "groff") else {
      print("note: groff is not installed; skipping the manual page format check")
      return
    }
    let result = try TestSupport.run(
      groff, ["-mdoc", "-ww", "-z", TestSupport.packageRoot.appendingPathComponent("man/prefs.1").path])
    #expect(result.status == 0)
    #expect(result.stderr == "")
  }

  /// Runs the EXAMPLES of the manual, in order, in a scratch home with its own store.
  @Test func theManualExamplesWork() throws {
    guard
      let examples = Self.manual.components(separatedBy: ".Sh EXAMPLES\n").last?
        .components(separatedBy: ".Sh ").first
    else {
      Issue.record("no EXAMPLES section")
      return
    }
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

  @Test(arguments: ["bash", "zsh", "fish"])
  func completionScriptsParseInTheirShells(shell: String) throws {
    let script = try TestSupport.prefs(["completions", shell])
    #expect(script.status == 0)
    for command in Commands.all {
      #expect(script.stdout.contains(command.name))
    }
    #expect(script.stdout.contains("sort-keys"))
    #expect(script.stdout.contains("prefs domains"))
    guard let executable = TestSupport.executable(named: shell) else {
      print("note: \(shell) is not installed; skipping the syntax check of its completion script")
      return
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-completion-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(script.stdout.utf8).write(to: file)
    let check = try TestSupport.run(executable, ["-n", file.path])
    #expect(check.status == 0, "\(check.stderr)")
  }

  @Test func bashCompletionCompletesCommandsFormatsAndDomains() throws {
    guard let bash = TestSupport.executable(named: "bash") else { return }
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
    #expect(result.stdout.hasSuffix("\nsame\n"), "\(result.stdout)")
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

/// Tests that need a corpus or a tool skip visibly when it is missing (DESIGN.md,
/// rule 8): none returns early, and so passes without having run.
@Suite struct TestHygieneTests {
  @Test func noTestReturnsEarlyWhenACorpusOrToolIsMissing() throws {
    let folder = TestSupport.packageRoot.appendingPathComponent("Tests")
    let checks = ["corpus(", "corpusFiles()", "Python.find()", "TestSupport.python()"]
    var found: [String] = []
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    for name in files where name.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where line.contains("else { return }") && checks.contains(where: { line.contains($0) }) {
        found.append("\(name):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    #expect(found == [], "use .enabled(if:) with a reason, or try #require")
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
    #expect(installedFiles.count == 5)
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
