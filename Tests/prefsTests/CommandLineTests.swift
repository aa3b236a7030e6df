import Foundation
import PrefsTestSupport
import Testing

@testable import prefs

/// The typed option table: arity, value kinds checked while parsing, completion kinds,
/// and options spelled alike in the verbs that share them.
@Suite struct CommandLineTests {
  let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.yaml").path

  @Test func everyOptionWithAValueHasAKindAndEveryFlagHasNone() {
    for command in Commands.all {
      for option in command.accepted {
        #expect((option.arity == .flag) == (option.valueName == nil), "\(command.name) \(option.name)")
      }
    }
  }

  @Test func anEqualsSignWithoutANameIsAUsageError() throws {
    let result = try TestSupport.prefs(["convert", "--=json", sample])
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("prefs: error: '--=json' names no option\n"))
  }

  @Test(arguments: ["-inf", "-1.5", "-INF", "-1e3"])
  func aNegativeRealAfterATypeWordIsAValue(value: String) throws {
    let store = try TestFolder()
    let write = try TestSupport.prefs(["write", "d", "k", "-float", value], store: store.url)
    #expect(write.status == 0, "\(write.stderr)")
    let type = try TestSupport.prefs(["read-type", "d", "k"], store: store.url)
    #expect(type.stdout == "Type is float\n")
  }

  /// `-nan` is a value too, and NaN has no sign: it reads as NaN.
  @Test func minusNaNIsAValueToo() throws {
    let store = try TestFolder()
    let write = try TestSupport.prefs(["write", "d", "k", "-float", "-nan"], store: store.url)
    #expect(write.status == 0, "\(write.stderr)")
    #expect(
      try TestSupport.prefs(["export", "d", "--to", "json", "--compact"], store: store.url).stdout
        == #"{"k":{"$real":"nan"}}"# + "\n")
  }

  @Test func valuesAreCheckedWhileParsingWithTheNearestName() throws {
    let format = try TestSupport.prefs(["convert", sample, "--to", "jsn"])
    #expect(format.status == 64)
    #expect(format.stderr.hasPrefix("prefs: error: unknown format 'jsn'; did you mean 'json'?\n"))
    let far = try TestSupport.prefs(["convert", sample, "--to", "toml"])
    #expect(far.stderr.hasPrefix("prefs: error: unknown format 'toml'\n"))
    let version = try TestSupport.prefs(["convert", sample, "--yaml-version", "1.3"])
    #expect(version.status == 64)
    #expect(
      version.stderr.hasPrefix(
        "prefs: error: unknown YAML version '1.3'; did you mean '1.2'?\nhint: choices: 1.2, 1.1\n"))
    let seconds = try TestSupport.prefs(["capture", "d", "--for", "soon"])
    #expect(seconds.status == 64)
    #expect(seconds.stderr.hasPrefix("prefs: error: option '--for' takes a number of seconds, not 'soon'\n"))
  }

  @Test(arguments: ["convert", "export", "get", "capture"])
  func everyVerbWithOneOutputTakesTheSameFormatSpellings(verb: String) throws {
    let command = try #require(Commands.named(verb))
    let spellings = Set(command.accepted.flatMap(\.spellings))
    #expect(spellings.isSuperset(of: ["--to", "--format", "-f"]))
  }

  @Test func convertAndExportAcceptEachOthersSpelling() throws {
    let converted = try TestSupport.prefs(["convert", sample, "--format", "json", "--compact"])
    #expect(converted.status == 0, "\(converted.stderr)")
    #expect(converted.stdout.hasPrefix("{\""))
    let store = try TestFolder()
    _ = try TestSupport.prefs(["write", "d", "k", "-int", "1"], store: store.url)
    let exported = try TestSupport.prefs(["export", "d", "--to", "json", "--compact"], store: store.url)
    #expect(exported.stdout == #"{"k":1}"# + "\n")
    let short = try TestSupport.prefs(["export", "d", "-f", "json", "--compact"], store: store.url)
    #expect(short.stdout == exported.stdout)
  }

  @Test func exportWithAFileNameForASecondDomainSaysToUseO() throws {
    let store = try TestFolder()
    _ = try TestSupport.prefs(["write", "d", "k", "-int", "1"], store: store.url)
    let result = try TestSupport.prefs(["export", "d", "out.plist"], in: store.url, store: store.url)
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "prefs: error: 'out.plist' is neither a domain nor a file to export; the file to write is given with -o\n"
          + "hint: to write the export to it: prefs export d -o out.plist\n"))
    #expect(!FileManager.default.fileExists(atPath: store.path("out.plist")))
  }

  /// `--schema <TAB>` offers the built-in schemas and files, in every shell.
  @Test func schemaCompletesBuiltInNamesAndFiles() throws {
    let bash = try TestSupport.prefs(["completions", "bash"]).stdout
    #expect(bash.contains(#"--schema) COMPREPLY=($(compgen -W "user-settings" -- "$cur") $(compgen -f -- "$cur"))"#))
    let zsh = try TestSupport.prefs(["completions", "zsh"]).stdout
    #expect(zsh.contains("'--schema[") && zsh.contains(":schema:_prefs_schemas'"))
    #expect(zsh.contains("schemas=(user-settings)"))
    let fish = try TestSupport.prefs(["completions", "fish"]).stdout
    #expect(fish.contains("-l schema -r -F -a 'user-settings'"))
    if let shell = TestSupport.executable(named: "bash") {
      let folder = try TestFolder()
      try folder.write("us.yaml", "a: 1\n")
      let driver = """
        \(bash)
        COMP_WORDS=(prefs lint x --schema u); COMP_CWORD=4; COMPREPLY=(); _prefs; echo "${COMPREPLY[*]}"
        """
      let result = try TestSupport.run(
        URL(fileURLWithPath: "/bin/sh"),
        ["-c", "cd \"$0\" && exec \"$1\" -c \"$2\"", folder.url.path, shell.path, driver])
      #expect(result.stdout == "user-settings us.yaml\n")
    }
  }
}

/// `-data` takes hex, `--type data` base64; a text is never turned into other bytes.
@Suite struct DataOnTheCommandLineTests {
  @Test func hexAndBase64EachTakeTheirOwnAndRefuseTheOther() throws {
    let store = try TestFolder()
    func write(_ arguments: [String]) throws -> TestSupport.ProcessResult {
      try TestSupport.prefs(["write", "d", "k"] + arguments, store: store.url)
    }
    #expect(try write(["-data", "0a1b"]).status == 0)
    #expect(try TestSupport.prefs(["read", "d", "k"], store: store.url).stdout == "0a1b\n")
    #expect(try write(["--type", "data", "AAE="]).status == 0)
    #expect(try TestSupport.prefs(["read", "d", "k"], store: store.url).stdout == "0001\n")

    let both = try write(["--type", "data", "0a1b"])
    #expect(both.status == 65)
    #expect(
      both.stderr
        == "prefs: error: '0a1b' reads both as hex and as base64, which --type data takes\n"
        + "hint: for the bytes 0a1b in hex, give -data 0a1b; for what it means in base64, "
        + "give those bytes in hex: -data d1ad5b\n")
    let base64 = try write(["-data", "AAE="])
    #expect(base64.status == 65)
    #expect(
      base64.stderr
        == "prefs: error: 'AAE=' is not hex data (0a1b2c…), which -data takes\n"
        + "hint: it reads as base64: give base64 with --type data\n")
    #expect(try TestSupport.prefs(["read", "d", "k"], store: store.url).stdout == "0001\n")
  }
}

/// File names that are not UTF-8 open as given: argv's bytes, not Swift's repaired text.
@Suite struct RawFileNameTests {
  /// Runs `script` in a scratch folder with `$P` the built binary and `$N` the
  /// name `bad<0xFF>name.yaml`, holding `a: 1`.
  func run(_ script: String) throws -> TestSupport.ProcessResult {
    let folder = try TestFolder()
    let setup = #"cd "$0" && P="$1" && N="$(printf 'bad\377name.yaml')" && printf 'a: 1\n' > "$N" && "#
    return try TestSupport.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", setup + script, folder.url.path, TestSupport.prefsBinary.path])
  }

  @Test func aNameWithByteFFIsReadAndWritten() throws {
    let converted = try run(#""$P" convert "$N" --to json --compact"#)
    #expect(converted.status == 0, "\(converted.stderr)")
    #expect(converted.stdout == #"{"a":1}"# + "\n")
    let edited = try run(#""$P" set "$N" a 2 && cat "$N""#)
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout == "a: 2\n")
    let written = try run(
      #""$P" convert "$N" -o "$(printf 'out\377.json')" && test -f "$(printf 'out\377.json')" && ls | wc -l"#)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.trimmingCharacters(in: .whitespaces) == "2\n")
  }

  @Test func aMissingNameIsShownWithItsByte() throws {
    let result = try run(#""$P" convert "$(printf 'no\377name.yaml')""#)
    #expect(result.status == 66)
    #expect(result.stderr == "prefs: error: no\\xFFname.yaml: no such file\n")
  }
}
