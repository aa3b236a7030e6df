import Foundation
import PrefsTestSupport
import Testing

@Suite struct ConvertCommandTests {
  let samples = TestSupport.packageRoot.appendingPathComponent("Samples")

  @Test func convertsJSONToJSONKeepingTypes() throws {
    let input = #"{"b": [1, 1.0, true, {"$date": "2023-11-14T22:13:20.5Z"}, {"$data": "AAE="}], "a": "x"}"#
    let result = try TestSupport.prefs(["convert", "-", "--to", "json", "--compact"], input: Data(input.utf8))
    #expect(result.status == 0)
    #expect(result.stdout == #"{"b":[1,1.0,true,{"$date":"2023-11-14T22:13:20.5Z"},{"$data":"AAE="}],"a":"x"}"# + "\n")
    #expect(result.stderr == "")
  }

  @Test func sortKeysSortsByCodePoint() throws {
    let result = try TestSupport.prefs(
      ["convert", "-", "--to", "json", "--compact", "--sort-keys"], input: Data(#"{"b": 1, "B": 2, "a": 3}"#.utf8))
    #expect(result.stdout == #"{"B":2,"a":3,"b":1}"# + "\n")
  }

  @Test func plainJSONRefusesNonFiniteRealsAndWritesNothing() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out.json")
    try Data("old".utf8).write(to: out)
    let result = try TestSupport.prefs(
      ["convert", "-", "--plain", "-o", out.path], input: Data(#"{"x": [{"$real": "inf"}]}"#.utf8))
    #expect(result.status == 65)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("prefs: error: \(out.path): inf at x.0 has no plain JSON form\n"))
    #expect(try String(contentsOf: out, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.json"])
  }

  @Test func malformedInputGivesFileLineColumnAndExit65() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("bad.json")
    try Data("{\n  \"a\": [1,]\n}".utf8).write(to: bad)
    let result = try TestSupport.prefs(["convert", bad.path, "-o", folder.appendingPathComponent("out.yaml").path])
    #expect(result.status == 65)
    #expect(result.stderr == "prefs: error: \(bad.path):2:11: unexpected ']': expected a value\n")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.yaml").path))
  }

  @Test func nullsStayInYAMLAndJSONAndArePlistErrorsOrDropped() throws {
    let input = Data(#"{"a": null, "b": [1, null], "c": "null"}"#.utf8)
    let json = try TestSupport.prefs(["convert", "-", "--from", "json", "--to", "json", "--compact"], input: input)
    #expect(json.status == 0 && json.stderr == "")
    #expect(json.stdout == #"{"a":null,"b":[1,null],"c":"null"}"# + "\n")
    let yaml = try TestSupport.prefs(["convert", "-", "--from", "json"], input: input)
    #expect(
      yaml.stdout == "a: null\nb:\n- 1\n- null\nc: 'null'\n" || yaml.stdout == "a: null\nb:\n- 1\n- null\nc: \"null\"\n"
    )
    let back = try TestSupport.prefs(["convert", "-", "--to", "json", "--compact"], input: Data(yaml.stdout.utf8))
    #expect(back.stdout == json.stdout)
    let folder = try TestFolder()
    for format in ["xml", "binary", "openstep"] {
      let out = folder.path("out.\(format)")
      let refused = try TestSupport.prefs(["convert", "-", "--from", "json", "--to", format, "-o", out], input: input)
      #expect(refused.status == 65, "\(format)")
      #expect(
        refused.stderr
          == "prefs: error: \(out): null at a has no plist form\nhint: use --drop-nulls to leave nulls out of the property list\n",
        "\(format)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
    let dropped = try TestSupport.prefs(
      ["convert", "-", "--from", "json", "--to", "xml", "--drop-nulls"], input: input)
    #expect(dropped.status == 0)
    #expect(!dropped.stdout.contains("<key>a</key>") && dropped.stdout.contains("<string>null</string>"))
    #expect(
      dropped.stderr == "prefs: warning: <stdout>: dropped null at a\nprefs: warning: <stdout>: dropped null at b.1\n")
  }

  @Test func missingInputExits66() throws {
    let result = try TestSupport.prefs(["convert", "/nonexistent/file.json"])
    #expect(result.status == 66)
    #expect(result.stderr == "prefs: error: /nonexistent/file.json: no such file\n")
  }

  @Test func directoryAsInputExits66() throws {
    let result = try TestSupport.prefs(["convert", "/tmp"])
    #expect(result.status == 66)
    #expect(result.stderr == "prefs: error: /tmp: is a directory\n")
  }

  @Test func unwritableOutputExits73() throws {
    let result = try TestSupport.prefs(
      ["convert", "-", "--to", "json", "-o", "/nonexistent/out.json"], input: Data("{}".utf8))
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("prefs: error: /nonexistent/out.json: cannot create a file in /nonexistent"))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full is absent"))
  func fullDiskExits74WithoutOutput() throws {
    // Standard output redirected to /dev/full through the shell.
    let full = try TestSupport.run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "echo '[1]' | \"$0\" convert - --to json > /dev/full", TestSupport.prefsBinary.path])
    #expect(full.status == 74)
    #expect(full.stderr.hasPrefix("prefs: error: <stdout>: write failed: No space left on device"))
  }

  @Test func unknownFormatIsAUsageError() throws {
    let result = try TestSupport.prefs(["convert", "-", "--to", "toml"], input: Data("{}".utf8))
    #expect(result.status == 64)
    #expect(result.stderr == "prefs: error: unknown format 'toml'\nhint: formats: binary, xml, json, openstep, yaml\n")
  }

  @Test func usageErrorsShowTheUsageLineAndExit64() throws {
    let result = try TestSupport.prefs(["convert"])
    #expect(result.status == 64)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.first == "prefs: error: missing argument IN")
    #expect(lines.dropFirst().first?.hasPrefix("Usage: prefs convert IN [-o FILE]") == true)
    #expect(lines.last == "See 'prefs help convert'.")
  }

  @Test func mistypedCommandsAndOptionsGetASuggestion() throws {
    let command = try TestSupport.prefs(["convrt", "x"])
    #expect(command.status == 64)
    #expect(command.stderr.hasPrefix("prefs: error: unknown command 'convrt'; did you mean 'convert'?\n"))
    let option = try TestSupport.prefs(["convert", "x", "--sort-key"])
    #expect(option.status == 64)
    #expect(option.stderr.hasPrefix("prefs: error: unknown option '--sort-key'; did you mean '--sort-keys'?\n"))
  }

  @Test func versionAndHelp() throws {
    let version = try TestSupport.prefs(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("prefs "))
    let help = try TestSupport.prefs(["help", "convert"])
    #expect(help.status == 0)
    for heading in ["OVERVIEW:", "USAGE: prefs convert", "ARGUMENTS:", "OPTIONS:", "EXAMPLES:"] {
      #expect(help.stdout.contains(heading), "missing \(heading)")
    }
    #expect(try TestSupport.prefs(["convert", "--help"]).stdout == help.stdout)
  }
}
