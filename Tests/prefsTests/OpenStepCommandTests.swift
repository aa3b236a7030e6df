import Foundation
import PrefsTestSupport
import Testing

/// `prefs` on OpenStep files: Xcode projects and `.strings` files, read and written.
@Suite struct OpenStepCommandTests {
  static let project = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tclasses = {
    \t};
    \tobjectVersion = 56;
    \tobjects = {

    /* Begin PBXFileReference section */
    \t\tF2 /* zeta.swift */ = {isa = PBXFileReference; path = zeta.swift; sourceTree = "<group>"; };
    \t\tF1 /* alpha.swift */ = {isa = PBXFileReference; path = alpha.swift; sourceTree = "<group>"; };
    /* End PBXFileReference section */
    \t};
    \trootObject = F1 /* alpha.swift */;
    }

    """

  /// A project where both branches added one object is what git's line merge commits:
  /// Xcode reads it (the last value wins), and so does `--allow-duplicate-keys`.
  @Test(arguments: [
    ["convert", "twice.pbxproj", "--to", "json", "--compact"], ["diff", "twice.pbxproj", "once.pbxproj"],
  ])
  func anObjectGivenTwiceReadsWithAllowDuplicateKeys(arguments: [String]) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let line = "\t\tF1 /* alpha.swift */ = {isa = PBXFileReference; path = alpha.swift; sourceTree = \"<group>\"; };\n"
    let once = Self.project.replacingOccurrences(
      of: "\t\tF2 /* zeta.swift */ = {isa = PBXFileReference; path = zeta.swift; sourceTree = \"<group>\"; };\n",
      with: "")
    try Data(once.utf8).write(to: folder.appendingPathComponent("once.pbxproj"))
    try Data(once.replacingOccurrences(of: line, with: line + line).utf8).write(
      to: folder.appendingPathComponent("twice.pbxproj"))
    let refused = try TestSupport.prefs(arguments, in: folder)
    #expect(refused.status == 65)
    #expect(refused.stderr.contains(#"twice.pbxproj:11:3: duplicate key "F1""#))
    let allowed = try TestSupport.prefs(arguments + ["--allow-duplicate-keys"], in: folder)
    #expect(allowed.status == 0)
    #expect(allowed.stderr.contains(#"twice.pbxproj:11:3: duplicate key "F1": the last value is kept"#))
    if arguments[0] == "convert" { #expect(allowed.stdout.contains(#""F1":{"isa":"PBXFileReference""#)) }
  }

  @Test func convertingAProjectGivesYAMLWithKeysInFileOrder() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("project.pbxproj")
    try Data(Self.project.utf8).write(to: file)
    let result = try TestSupport.prefs(["convert", file.path])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        archiveVersion: "1"
        classes: {}
        objectVersion: "56"
        objects:
          F2:
            isa: PBXFileReference
            path: zeta.swift
            sourceTree: <group>
          F1:
            isa: PBXFileReference
            path: alpha.swift
            sourceTree: <group>
        rootObject: F1

        """)
  }

  @Test func aProjectRoundTripsThroughYAMLToTheSameText() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("project.pbxproj")
    try Data(Self.project.utf8).write(to: file)
    let yaml = folder.appendingPathComponent("project.yaml")
    #expect(try TestSupport.prefs(["convert", file.path, "-o", yaml.path]).status == 0)
    // The output format comes from -o's extension.
    let back = folder.appendingPathComponent("back.pbxproj")
    let result = try TestSupport.prefs(["convert", yaml.path, "-o", back.path])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(try String(contentsOf: back, encoding: .utf8) == Self.project)
  }

  @Test func yamlConvertsToOpenStep() throws {
    let input = "name: Chimes\nlist:\n  - a b\n  - \"\"\nnested:\n  k: 'x-y'\n"
    let result = try TestSupport.prefs(["convert", "-", "--from", "yaml", "--to", "openstep"], input: Data(input.utf8))
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout
        == "{\n\tname = Chimes;\n\tlist = (\n\t\t\"a b\",\n\t\t\"\",\n\t);\n\tnested = {\n\t\tk = \"x-y\";\n\t};\n}\n")
  }

  @Test func aValueOpenStepCannotHoldIsRefusedAndNothingIsWritten() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out.strings")
    let result = try TestSupport.prefs(
      ["convert", "-", "--from", "yaml", "-o", out.path], input: Data("a:\n  b: 1\n".utf8))
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("prefs: error: \(out.path): integer at 'a.b' has no OpenStep form\n"))
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }

  @Test func aSyntaxErrorIsPositionedAndFoundationPrintsNothing() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Localizable.strings")
    // CF logs "missing semicolon in dictionary" to stderr for this one.
    try Data("\"title\" = \"Settings\";\n\"ok\" = \"OK\"\n\"cancel\" = \"Cancel\";\n".utf8).write(to: file)
    let result = try TestSupport.prefs(["convert", file.path, "--to", "json"])
    #expect(result.status == 65)
    #expect(result.stdout == "")
    #expect(result.stderr == "prefs: error: \(file.path):2:12: missing ';' after the value of 'ok'\n")
  }

  @Test func aUTF16StringsFileIsRead() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Localizable.strings")
    let text = "/* Greeting */\n\"hello\" = \"Grüß dich\";\n\"bye\";\n"
    try (Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!).write(to: file)
    let result = try TestSupport.prefs(["convert", file.path, "--to", "json", "--compact"])
    #expect(result.status == 0)
    #expect(result.stdout == #"{"hello":"Grüß dich","bye":"bye"}"# + "\n")
  }

  @Test func convertingToAStringsFileWritesWhatGenstringsWrites() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("Localizable.strings")
    let result = try TestSupport.prefs(
      ["convert", "-", "--from", "yaml", "-o", out.path],
      input: Data("title: Settings\nok: \"Grüß \\\"dich\\\"\"\n".utf8))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "")
    #expect(result.stderr == "")
    #expect(
      try String(contentsOf: out, encoding: .utf8)
        == "/* No comment provided by engineer. */\n\"title\" = \"Settings\";\n\n"
        + "/* No comment provided by engineer. */\n\"ok\" = \"Grüß \\\"dich\\\"\";\n")
    let back = try TestSupport.prefs(["convert", out.path, "--to", "json", "--compact"])
    #expect(back.stdout == #"{"title":"Settings","ok":"Grüß \"dich\""}"# + "\n")
  }

  @Test func settingAStringsFileKeepsItsQuotingAndLayout() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Localizable.strings")
    try Data("/* Title */\n\"title\" = \"Hello\";\n\n/* Quit */\n\"quit\" = \"Quit\";\n".utf8).write(to: file)
    for (key, value) in [("title", "World"), ("save", "Save")] {
      let result = try TestSupport.prefs(["set", file.path, key, value])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr == "")
    }
    #expect(
      try String(contentsOf: file, encoding: .utf8)
        == "/* Title */\n\"title\" = \"World\";\n\n/* Quit */\n\"quit\" = \"Quit\";\n\n\"save\" = \"Save\";\n")
  }
}
