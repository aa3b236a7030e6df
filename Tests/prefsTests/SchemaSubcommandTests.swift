import Foundation
import PrefsTestSupport
import Testing

/// `prefs schema export` (JSON Schema for editors, checked with Python's jsonschema)
/// and `prefs schema infer`, and a JSON Schema taken as `--schema`.
@Suite struct SchemaSubcommandTests {
  /// Whether python3 can import jsonschema and PyYAML (`make test` installs them).
  static let hasJSONSchema: Bool = {
    guard let python = TestSupport.python() else { return false }
    let found = (try? TestSupport.run(python, ["-c", "import jsonschema, yaml"]))?.status == 0
    if !found { print("note: python3 lacks jsonschema or PyYAML; skipping the JSON Schema validations") }
    return found
  }()

  /// Validates each file against the JSON Schema and prints one line per file: `valid`,
  /// or the paths of the values that fail (within an `anyOf`, the deepest). YAML is loaded as an editor's YAML server
  /// sees it: `!delete` is its empty value (null), `!replace` its value, timestamps
  /// and `!!binary` their text.
  static let validator = """
    import sys, json, yaml, jsonschema
    class Loader(yaml.SafeLoader): pass
    Loader.add_constructor('!delete', lambda loader, node: None)
    def replace(loader, node):
        # The tagged node as it would read untagged.
        value = None if isinstance(node, yaml.ScalarNode) else ()
        untagged = type(node)(loader.resolve(type(node), node.value if value is None else value, (True, False)), node.value)
        return loader.construct_object(untagged, deep=True)
    Loader.add_constructor('!replace', replace)
    Loader.add_constructor('tag:yaml.org,2002:timestamp', lambda loader, node: loader.construct_scalar(node))
    Loader.add_constructor('tag:yaml.org,2002:binary', lambda loader, node: loader.construct_scalar(node))
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sys.argv[2:]:
        with open(path) as f:
            document = json.load(f) if path.endswith('.json') else yaml.load(f, Loader)
        bad = set()
        for error in validator.iter_errors(document):
            # Of the failures under one error (an anyOf's branches), the deepest say where.
            leaves, pending = [], [error]
            while pending:
                e = pending.pop()
                if e.context: pending += e.context
                else: leaves.append(e)
            depth = max(len(e.absolute_path) for e in leaves)
            bad |= {'/'.join(str(p) for p in e.absolute_path) for e in leaves if len(e.absolute_path) == depth}
        bad = sorted(bad)
        print('valid' if not bad else 'invalid ' + ' '.join(bad))
    """

  /// Runs ``validator`` over `files` (names in `folder`) against `schema`.
  func validate(_ files: [String], against schema: String, in folder: TestFolder) throws -> [String] {
    let python = try #require(TestSupport.python())
    let result = try TestSupport.run(
      python, ["-c", Self.validator, folder.path(schema)] + files.map { folder.path($0) })
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  static let readme =
    (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

  /// The README's settings files: its YAML blocks whose first key is a domain, and the
  /// file `prefs capture` is shown writing.
  static func readmeSettingsFiles() -> [String] {
    var files: [String] = []
    for block in readme.components(separatedBy: "```yaml\n").dropFirst() {
      let text = block.components(separatedBy: "```").first ?? ""
      let first = text.split(separator: "\n").first { !$0.hasPrefix("#") } ?? ""
      if first.hasPrefix("com.example.app:") { files.append(text) }
    }
    if let capture = readme.components(separatedBy: "$ cat changes.yaml\n").dropFirst().first {
      files.append(capture.components(separatedBy: "\nprefs ").first! + "\n")
    }
    return files
  }

  @Test(.enabled(if: hasJSONSchema, "python3 with jsonschema and PyYAML is needed"))
  func theSettingsJSONSchemaValidatesTheReadmeExamplesAndRejectsWrongTypes() throws {
    let folder = try TestFolder()
    let export = try TestSupport.prefs([
      "schema", "export", "user-settings", "--json-schema", "--settings", "--domain", "com.example.app", "-o",
      folder.path("settings.schema.json"),
    ])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stdout == "")
    let examples = Self.readmeSettingsFiles()
    // The apply example, the editor's example (a ringtone not in the list), and capture's file.
    #expect(examples.count == 3)
    for (index, text) in examples.enumerated() { try folder.write("readme\(index).yaml", text) }
    try folder.write(
      "typed.json",
      #"{"com.example.app": {"ringtone": {"$replace": "Waves"}, "isAccountPrivate": {"$delete": true}, "#
        + #""lastOpened": {"$date": "2026-11-30T12:01:02Z"}}, "-g": {"$delete": true}}"#)
    try folder.write("wrong.yaml", "com.example.app:\n  isAccountPrivate: \"false\"\n  username: !replace 42\n")
    try folder.write("wrong.json", #"{"com.example.app": {"ringtone": {"$replace": 5}, "username": {"$delete": 1}}}"#)
    try folder.write("notadomain.yaml", "com.example.app: [1]\n")
    let results = try validate(
      ["readme0.yaml", "readme1.yaml", "readme2.yaml", "typed.json", "wrong.yaml", "wrong.json", "notadomain.yaml"],
      against: "settings.schema.json", in: folder)
    #expect(
      results == [
        "valid", "invalid com.example.app/ringtone", "valid", "valid",
        "invalid com.example.app/isAccountPrivate com.example.app/username",
        "invalid com.example.app/ringtone/$replace com.example.app/username/$delete", "invalid com.example.app",
      ])
  }

  @Test(.enabled(if: hasJSONSchema, "python3 with jsonschema and PyYAML is needed"))
  func theDomainJSONSchemaTakesBothSpellingsOfEachType() throws {
    let folder = try TestFolder()
    try folder.write(
      "app.schema.yaml",
      """
      keys:
        since: {type: date, default: 2023-11-14T22:13:20Z}
        token: {type: data}
        limit: {type: real, min: 0}
        window: {type: dict, keys: {width: {type: integer, default: 800}}}

      """)
    #expect(
      try TestSupport.prefs([
        "schema", "export", folder.path("app.schema.yaml"), "--json-schema", "-o", folder.path("s.json"),
      ])
      .status == 0)
    let domain = "since: 2020-01-01T00:00:00Z\ntoken: !!binary aGk=\nlimit: .inf\nwindow: {width: 1024}\n"
    try folder.write("app.yaml", domain)
    // The same domain as prefs writes it in JSON: typed objects.
    let json = try TestSupport.prefs(
      ["convert", "-", "--to", "json", "-o", folder.path("app.json")], input: Data(domain.utf8))
    #expect(json.status == 0)
    try folder.write("wrong.yaml", "since: 5\ntoken: 1\nlimit: -1.0\nwindow: {width: 1.5}\n")
    try folder.write("escaped.json", #"{"window": {"$date": "2020-01-01T00:00:00Z"}}"#)
    #expect(
      try validate(["app.yaml", "app.json", "wrong.yaml", "escaped.json"], against: "s.json", in: folder) == [
        "valid", "valid", "invalid limit since token window/width", "invalid window",
      ])
  }

  @Test func aJSONSchemaReadsBackAsTheSameSchema() throws {
    let folder = try TestFolder()
    let sample = TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.schema.yaml").path
    #expect(
      try TestSupport.prefs(["schema", "export", sample, "--json-schema", "-o", folder.path("s.json")]).status == 0)
    let back = try TestSupport.prefs(["schema", "export", folder.path("s.json"), "-o", folder.path("back.yaml")])
    #expect(back.status == 0, "\(back.stderr)")
    // The same keys, types, defaults and values as the sample; JSON Schema has no words
    // for where the code reads a key or how its data is encoded.
    let scanOnly = [
      "keys.*.read-at", "keys.*.written-at", "keys.*.encoding", "keys.*.content", "keys.*.decode-fallback",
    ]
    let same = try TestSupport.prefs(
      ["diff", folder.path("back.yaml"), sample] + scanOnly.flatMap { ["--exclude", $0] })
    #expect(same.stdout == "")
    #expect(same.status == 0)
    // Without -o: the schema document on standard output, as JSON when asked.
    let json = try TestSupport.prefs(["schema", "export", folder.path("s.json"), "--to", "json"])
    #expect(json.stdout.hasPrefix("{\n  \"keys\": {\n    \"username\": {"))
  }

  @Test func aJSONSchemaServesLintImportAndExport() throws {
    let folder = try TestFolder()
    let store = try TestFolder()
    let schema = folder.path("s.json")
    #expect(try TestSupport.prefs(["schema", "export", "user-settings", "--json-schema", "-o", schema]).status == 0)
    try folder.write("d.yaml", "isAccountPrivate: \"false\"\nringtone: Bells\n")
    let lint = try TestSupport.prefs(["lint", folder.path("d.yaml"), "--schema", schema])
    #expect(lint.status == 1)
    #expect(
      lint.stdout == (try TestSupport.prefs(["lint", folder.path("d.yaml"), "--schema", "user-settings"]).stdout))
    let imported = try TestSupport.prefs(
      ["import", "com.example.app", "--schema", schema], input: Data("isAccountPrivate: \"no\"\n".utf8),
      store: store.url)
    #expect(imported.status == 0, "\(imported.stderr)")
    let effective = try TestSupport.prefs(
      ["export", "com.example.app", "--schema", schema, "--effective", "--format", "json", "--compact"],
      store: store.url)
    #expect(effective.stdout == #"{"isAccountPrivate":false,"ringtone":"Chimes","username":""}"# + "\n")
  }

  @Test(arguments: [
    (["--settings"], "--settings shapes the JSON Schema; give --json-schema too"),
    (
      ["--json-schema", "--settings"],
      "--settings needs --domain NAME, the domain the schema's keys are for: the schema names none"
    ),
    (["--json-schema", "--domain", "d"], "--domain names the entry of a settings file; give --settings too"),
    (["--json-schema", "--to", "yaml"], "JSON Schema is JSON; leave --to out"),
  ])
  func optionsThatDoNotGoTogetherAreUsageErrors(options: [String], message: String) throws {
    let result = try TestSupport.prefs(["schema", "export", "user-settings"] + options)
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == "prefs: error: \(message)\nUsage: \(usageOfExport)\nSee 'prefs help schema export'.\n")
  }

  let usageOfExport = "prefs schema export SCHEMA [--json-schema] [--settings] [--domain NAME] [-o FILE] [--to FMT]"

  @Test func badSchemasAndSubcommandsAreOneLineErrors() throws {
    let folder = try TestFolder()
    try folder.write("two.json", #"{"type": "object", "properties": {"a": {"type": ["string", "integer"]}}}"#)
    let two = try TestSupport.prefs(["schema", "export", folder.path("two.json"), "-o", folder.path("out.yaml")])
    #expect(two.status == 65)
    #expect(
      two.stderr
        == "prefs: error: \(folder.path("two.json")):1:35: schema: properties.a: allows string or integer; a key has one type\n"
    )
    #expect(!FileManager.default.fileExists(atPath: folder.path("out.yaml")))
    let missing = try TestSupport.prefs(["schema", "export", folder.path("none.json")])
    #expect(missing.status == 66)
    #expect(missing.stderr == "prefs: error: \(folder.path("none.json")): no such file\n")
    let unknown = try TestSupport.prefs(["schema", "exprot", "user-settings"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.hasPrefix("prefs: error: unknown schema subcommand 'exprot'; did you mean 'export'?\n"))
    let bare = try TestSupport.prefs(["schema"])
    #expect(bare.status == 64)
    #expect(bare.stderr.hasPrefix("prefs: error: missing argument SUBCOMMAND\nUsage: prefs schema SUBCOMMAND\n"))
    let help = try TestSupport.prefs(["help", "schema"])
    #expect(help.stdout.contains("\nSUBCOMMANDS:\n  scan                    Print the schema"))
    #expect(help.stdout.contains("\n  export                  Write a schema"))
    #expect(help.stdout.contains("\n  infer                   Write a schema of the types"))
    #expect(try TestSupport.prefs(["help", "schema", "nope"]).status == 64)
  }

  @Test func inferWritesTheTypesAndReportsDisagreements() throws {
    let folder = try TestFolder()
    try folder.write("a.yaml", "ringtone: Chimes\nvolume: 3\nwindow: {width: 800}\n")
    try folder.write("b.plist", "")
    #expect(
      try TestSupport.prefs(
        ["convert", "-", "-o", folder.path("b.plist")], input: Data("ringtone: Waves\nvolume: 0.5\n".utf8)
      ).status == 0)
    try folder.write("c.json", #"{"ringtone": "Chimes", "volume": 4}"#)
    let result = try TestSupport.prefs(["schema", "infer", "a.yaml", "b.plist", "c.json"], in: folder.url)
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "prefs: warning: volume: integer in a.yaml, c.json; real in b.plist; the schema says integer (seen most)\n")
    #expect(
      result.stdout == """
        description: "Inferred from 3 inputs: a.yaml, b.plist, c.json."
        keys:
          ringtone:
            type: string
            values:
            - Chimes
            - Waves
          volume:
            type: integer
          window:
            type: dict
            keys:
              width:
                type: integer

        """)
    // Read back by --schema: b.plist holds the real the others do not.
    let written = try TestSupport.prefs(["schema", "infer", "a.yaml", "c.json", "-o", "s.json"], in: folder.url)
    #expect(written.status == 0)
    #expect(written.stdout == "")
    let lint = try TestSupport.prefs(["lint", "b.plist", "--schema", "s.json"], in: folder.url)
    #expect(lint.stdout.hasPrefix("prefs: error: b.plist:"))
    #expect(lint.stdout.contains("volume: stored as real 0.5"))
  }

  @Test func inferFromADomainAndFromNothingThere() throws {
    let store = try TestFolder()
    #expect(try TestSupport.prefs(["write", "com.example.app", "k", "-int", "1"], store: store.url).status == 0)
    let domain = try TestSupport.prefs(["schema", "infer", "com.example.app"], store: store.url)
    #expect(
      domain.stdout == "description: \"Inferred from one input: com.example.app.\"\nkeys:\n  k:\n    type: integer\n")
    let missing = try TestSupport.prefs(
      ["schema", "infer", "com.example.ap", "-o", store.path("out.yaml")], store: store.url)
    #expect(missing.status == 66)
    #expect(missing.stderr.hasPrefix("prefs: error: com.example.ap: no such domain"))
    #expect(!FileManager.default.fileExists(atPath: store.path("out.yaml")))
    let broken = try TestSupport.prefs(["schema", "infer", "-"], input: Data("a: [1\n".utf8))
    #expect(broken.status == 65)
    #expect(broken.stderr.hasPrefix("prefs: error: <stdin>:"))
  }
}
