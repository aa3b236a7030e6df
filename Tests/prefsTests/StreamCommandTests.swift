import Foundation
import PrefsTestSupport
import Testing

/// YAML streams of several documents through the commands, and YAML keys that are
/// not strings: read by every command, changed one document at a time, compared and
/// merged document by document, in real git repositories too.
@Suite struct StreamCommandTests {
  static let manifests = """
    # the app
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: web
    spec:
      replicas: 2  # two for now
    ---
    # its service
    kind: Service
    metadata: {name: web}
    spec:
      ports:
        - port: 80
    ...
    ---
    kind: ConfigMap
    metadata:
      name: settings
    data:
      1: one
      yes: y

    """

  static let listed = "3 YAML documents (0 Deployment/web, 1 Service/web, 2 ConfigMap/settings)"
  static let hint = "hint: convert, get, set and remove pick one with --document N (from 0) or --document KIND/NAME\n"

  @Test func convertKeepsTheStreamInYAMLAndJSONAndRefusesOneForAPlist() throws {
    let folder = try TestFolder()
    let path = try folder.write("k.yaml", Self.manifests)
    let yaml = try TestSupport.prefs(["convert", path, "-q"])
    #expect(yaml.status == 0 && yaml.stderr == "", "\(yaml.stderr)")
    #expect(yaml.stdout.components(separatedBy: "\n---\n").count == 3)
    #expect(
      yaml.stdout.hasSuffix(
        "---\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  \"1\": one\n  \"yes\": \"y\"\n"))

    let json = try TestSupport.prefs(["convert", path, "--to", "json", "--compact", "-q"])
    #expect(json.status == 0)
    #expect(
      json.stdout == """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2}}
        {"kind":"Service","metadata":{"name":"web"},"spec":{"ports":[{"port":80}]}}
        {"kind":"ConfigMap","metadata":{"name":"settings"},"data":{"1":"one","yes":"y"}}

        """)

    let plist = try TestSupport.prefs(["convert", path, "-o", folder.path("k.plist"), "-q"])
    #expect(plist.status == 65)
    #expect(plist.stderr == "prefs: error: \(path): \(Self.listed), and a xml file holds one\n" + Self.hint)
    #expect(!FileManager.default.fileExists(atPath: folder.path("k.plist")))
    let one = try TestSupport.prefs(["convert", path, "--document", "Service/web", "-o", folder.path("k.plist")])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(try TestSupport.prefs(["get", folder.path("k.plist"), "spec.ports.0.port"]).stdout == "80\n")
    let streamOut = try TestSupport.prefs(["convert", path, "-o", folder.path("out.yaml"), "-q"])
    #expect(streamOut.status == 0)
    #expect(try folder.read("out.yaml") == yaml.stdout)
  }

  @Test func textconvShowsEachDocumentCanonicallyAfterItsSeparator() throws {
    let folder = try TestFolder()
    let path = try folder.write("k.yaml", "b: 1\na: 2\n---\n- x\n")
    let shown = try TestSupport.prefs(["textconv", path])
    #expect(shown.status == 0 && shown.stdout == "a: 2\nb: 1\n---\n- x\n" && shown.stderr == "")
  }

  @Test func diffGoesDocumentByDocumentNamingEach() throws {
    let folder = try TestFolder()
    let old = try folder.write("old.yaml", Self.manifests)
    let new = try folder.write(
      "new.yaml",
      Self.manifests.replacingOccurrences(of: "replicas: 2", with: "replicas: 3")
        .replacingOccurrences(
          of: "---\nkind: ConfigMap", with: "---\nkind: Secret\nmetadata: {name: key}\n---\nkind: ConfigMap"))
    let plain = try TestSupport.prefs(["diff", old, new])
    #expect(plain.status == 1 && plain.stderr == "")
    #expect(
      plain.stdout == "~ [Deployment/web] spec.replicas: 2 -> 3\n"
        + #"+ [Secret/key]: {"kind": "Secret", "metadata": {"name": "key"}}"# + "\n")
    let unified = try TestSupport.prefs(["diff", "-u", old, new])
    #expect(unified.status == 1)
    #expect(unified.stdout.contains("-  replicas: 2\n+  replicas: 3\n"))
    #expect(unified.stdout.contains("+--- # [Secret/key]\n+kind: Secret\n"), "\(unified.stdout)")
    #expect(try TestSupport.prefs(["diff", old, old]).status == 0)

    // Without names, by position.
    let a = try folder.write("a.yaml", "a: 1\n---\nb: 1\n")
    let b = try folder.write("b.yaml", "a: 1\n---\nb: 2\n---\nc: 1\n")
    #expect(try TestSupport.prefs(["diff", a, b]).stdout == "~ [1] b: 1 -> 2\n+ [2]: {\"c\": 1}\n")
    let unnamed = try TestSupport.prefs(["diff", "-u", a, b]).stdout
    #expect(unnamed.contains(" --- # [1]\n-b: 1\n+b: 2\n+--- # [2]\n+c: 1\n"), "\(unnamed)")
  }

  @Test func getSetAndRemoveTakeADocumentAndSayWhichThereAre() throws {
    let folder = try TestFolder()
    let path = try folder.write("k.yaml", Self.manifests)
    let unpicked = try TestSupport.prefs(["get", path, "spec"])
    #expect(unpicked.status == 65 && unpicked.stdout == "")
    #expect(unpicked.stderr.hasSuffix("several documents where one is expected: \(Self.listed)\n" + Self.hint))
    #expect(try TestSupport.prefs(["get", path, "spec.replicas", "--document", "0"]).stdout == "2\n")
    #expect(try TestSupport.prefs(["get", path, "data.1", "--document", "-1"]).stdout == "one\n")
    let missing = try TestSupport.prefs(["get", path, "spec", "--document", "Service/api"])
    #expect(missing.status == 66)
    #expect(
      missing.stderr
        == "prefs: error: \(path): no document 'Service/api' among the stream's 3 (0 Deployment/web, 1 Service/web, 2 ConfigMap/settings)\n"
    )

    // A domain of the store has no documents.
    let domain = try TestSupport.prefs(["get", "com.example.app", "a", "--document", "0"], store: folder.url)
    #expect(domain.status == 64)
    #expect(domain.stderr.hasPrefix("prefs: error: --document picks a document of a YAML file, not of a domain"))

    let refused = try TestSupport.prefs(["set", path, "spec.replicas", "5"])
    #expect(refused.status == 65 && refused.stderr.hasSuffix(Self.hint), "\(refused.stderr)")
    #expect(try folder.read("k.yaml") == Self.manifests)

    let set = try TestSupport.prefs(["set", path, "spec.ports.0.port", "8080", "--document", "Service/web"])
    #expect(set.status == 0 && set.stderr == "", "\(set.stderr)")
    var expected = Self.manifests.replacingOccurrences(of: "port: 80\n", with: "port: 8080\n")
    #expect(try folder.read("k.yaml") == expected)
    let remove = try TestSupport.prefs(["remove", path, "data.yes", "--document", "2"])
    #expect(remove.status == 0 && remove.stderr == "", "\(remove.stderr)")
    expected = expected.replacingOccurrences(of: "  yes: y\n", with: "")
    #expect(try folder.read("k.yaml") == expected)

    // Standard input is patched the same way onto standard output.
    let piped = try TestSupport.prefs(
      ["set", "-", "spec.replicas", "4", "--document", "Deployment/web"], input: Data(Self.manifests.utf8))
    #expect(
      piped.status == 0 && piped.stdout == Self.manifests.replacingOccurrences(of: "replicas: 2", with: "replicas: 4"))
  }

  @Test func lintChecksEachDocumentAtItsLineAndCommandsNeedingOneSaySo() throws {
    let folder = try TestFolder()
    let path = try folder.write("k.yaml", "a: 1\n---\nb: off\n")
    let lint = try TestSupport.prefs(["lint", path])
    #expect(lint.status == 0)
    #expect(lint.stdout.hasPrefix("prefs: warning: \(path):3:4: 'off' is a string in YAML 1.2"), "\(lint.stdout)")
    let importing = try TestSupport.prefs(["import", "com.example.k", path], store: folder.url)
    #expect(importing.status == 65)
    #expect(importing.stderr.contains("several documents where one is expected: 2 YAML documents (0, 1)"))
  }

  @Test func keysThatAreNotStringsKeepTheirTextWhenTheFileIsPatched() throws {
    let folder = try TestFolder()
    let text = "# status codes\n200: ok\n404: missing\nyes: y\nnull: n\ntrue: t\nname: x\n"
    let path = try folder.write("codes.yaml", text)
    #expect(try TestSupport.prefs(["get", path, "404"]).stdout == "missing\n")
    let set = try TestSupport.prefs(["set", path, "name", "z"])
    #expect(set.status == 0 && set.stderr == "", "\(set.stderr)")
    let remove = try TestSupport.prefs(["remove", path, "null"])
    #expect(remove.status == 0 && remove.stderr == "", "\(remove.stderr)")
    #expect(try folder.read("codes.yaml") == "# status codes\n200: ok\n404: missing\nyes: y\ntrue: t\nname: z\n")
    // Where the file's YAML is carried elsewhere, what YAML readers make of the keys is said.
    let convert = try TestSupport.prefs(["convert", path, "--to", "json", "--compact"])
    #expect(convert.stdout == #"{"200":"ok","404":"missing","yes":"y","true":"t","name":"z"}"# + "\n")
    #expect(
      convert.stderr.contains("\(path):2:1: the key 200 is an integer for YAML readers; read as the string \"200\""))
    #expect(convert.stderr.contains("\(path):5:1: the key true is a bool for YAML readers"))
    let lint = try TestSupport.prefs(["lint", path])
    #expect(lint.status == 0 && lint.stdout.contains("the key 404 is an integer for YAML readers"))
    // The same key twice, once quoted, is a duplicate; a key that is a collection is refused.
    let duplicate = try TestSupport.prefs(["get", try folder.write("d.yaml", "1: a\n\"1\": b\n"), "1"])
    #expect(duplicate.status == 65 && duplicate.stderr.contains("duplicate key \"1\""))
    #expect(try TestSupport.prefs(["get", try folder.write("c.yaml", "? [a, b]\n: c\n"), "a"]).status == 65)
  }

  // MARK: git

  /// A repository set up by `prefs git-setup yaml` holding `k.yaml`, with two branches
  /// from it: `topic` changed by `topicChange`, `main` by `mainChange`.
  static func branches(
    _ text: String, main mainChange: [String], topic topicChange: [String]
  ) throws -> MergeCommandTests.Repository {
    let repo = try MergeCommandTests.Repository(git: try #require(MergeCommandTests.git))
    #expect(try repo.prefs(["git-setup", "yaml"]).status == 0)
    try Data(text.utf8).write(to: URL(fileURLWithPath: repo.path("k.yaml")))
    try repo.run(["add", "-A"])
    try repo.run(["commit", "-q", "-m", "base"])
    try repo.run(["checkout", "-q", "-b", "topic"])
    let topic = try repo.prefs(topicChange)
    #expect(topic.status == 0, "\(topic.stderr)")
    try repo.run(["commit", "-q", "-am", "topic"])
    try repo.run(["checkout", "-q", "main"])
    let main = try repo.prefs(mainChange)
    #expect(main.status == 0, "\(main.stderr)")
    try repo.run(["commit", "-q", "-am", "main"])
    return repo
  }

  @Test(.enabled(if: MergeCommandTests.git != nil, "git is not installed"))
  func gitMergesBranchesThatEditDifferentDocumentsCleanlyAndByteForByte() throws {
    let repo = try Self.branches(
      Self.manifests, main: ["set", "k.yaml", "spec.replicas", "3", "--document", "Deployment/web"],
      topic: ["set", "k.yaml", "data.2", "two", "--document", "ConfigMap/settings"])
    let merged = try repo.run(["merge", "-q", "--no-edit", "topic"])
    #expect(merged.status == 0 && merged.stderr == "", "\(merged.stdout)\(merged.stderr)")
    let expected = Self.manifests.replacingOccurrences(of: "replicas: 2", with: "replicas: 3")
      .replacingOccurrences(of: "  yes: y\n", with: "  yes: y\n  \"2\": two\n")
    let result = try String(contentsOfFile: repo.path("k.yaml"), encoding: .utf8)
    #expect(result == expected)
    // Where git's own line merge is clean, the result is the same bytes.
    let sides = try ["HEAD^1", "topic"].map { try repo.run(["show", "\($0):k.yaml"]).stdout }
    #expect(try MergeCommandTests.gitMergeFile(sides[0], Self.manifests, sides[1]) == result)
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "")
    let log = try repo.run(["log", "-p", "-1", "--no-color", "topic", "--", "k.yaml"]).stdout
    #expect(log.contains("+  \"2\": two\n"), "\(log)")
  }

  @Test(.enabled(if: MergeCommandTests.git != nil, "git is not installed"))
  func gitMergeOfTheSameChangeInOneDocumentConflictsNamingIt() throws {
    let repo = try Self.branches(
      Self.manifests, main: ["set", "k.yaml", "spec.replicas", "5", "--document", "Deployment/web"],
      topic: ["set", "k.yaml", "spec.replicas", "7", "--document", "Deployment/web"])
    let merged = try repo.run(["merge", "-q", "--no-edit", "topic"])
    #expect(merged.status != 0)
    #expect(
      merged.stderr.contains(
        "prefs: conflict: k.yaml: [Deployment/web] spec.replicas: base 2, HEAD 5, topic 7"), "\(merged.stderr)")
    let text = try String(contentsOfFile: repo.path("k.yaml"), encoding: .utf8)
    #expect(text.contains("<<<<<<< HEAD\n  replicas: 5  # two for now\n=======\n"), "\(text)")
    #expect(text.hasSuffix(Self.manifests[Self.manifests.range(of: "---\n# its service")!.lowerBound...]))
    #expect(try repo.run(["status", "--porcelain", "--untracked-files=no"]).stdout == "UU k.yaml\n")
    // git diff shows YAML as its own text.
    #expect(try repo.run(["diff", "--no-color"]).stdout.contains("++<<<<<<< HEAD"))
  }

  @Test(.enabled(if: MergeCommandTests.git != nil, "git is not installed"))
  func streamsThatCannotBeLinedUpAreMergedLineByLineAsGitDoes() throws {
    let folder = try TestFolder()
    let base = try folder.write("base.yaml", "a: 1\n---\nb: 1\n")
    let current = try folder.write("current.yaml", "a: 2\n---\nb: 1\n")
    let other = try folder.write("other.yaml", "a: 1\n---\nb: 1\n---\nc: 1\n")
    let merged = try TestSupport.prefs(["merge", current, base, other, "-o", "-", "--path", "s.yaml"])
    #expect(merged.status == 0)
    #expect(merged.stdout == "a: 2\n---\nb: 1\n---\nc: 1\n")
    #expect(
      merged.stderr
        == "prefs: s.yaml: the YAML streams cannot be merged document by document: base, current and other hold "
        + "2, 2 and 3 documents, and not every document has a kind and a metadata.name to match them by; "
        + "merged line by line, as git does\n")
  }
}
