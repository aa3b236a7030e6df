import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// Names and paths cannot escape the store, symlinks are written through, modes and
/// owners are kept, and no tag or `$` key builds anything outside the value model.
@Suite struct SecurityTests {
  @Test(arguments: ["..", "a..b", ".hidden", "a\u{1}b", "a\nb", "", "..."])
  func domainNamesThatCouldEscapeAreRefused(name: String) throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    let result = try TestSupport.prefs(["write", name, "k", "v"], store: store)
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("prefs: error: invalid domain name"))
    #expect(result.stderr.split(separator: "\n").count == 2, "one error line and one hint")
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.path).isEmpty)
  }

  @Test func aDomainWithASlashIsAPathNeverAStoreName() throws {
    let store = try TestSupport.temporaryFolder()
    // The work folder sits in a private one, so that `x` beside it is no other program's file.
    let outer = try TestSupport.temporaryFolder()
    let work = outer.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
    defer {
      try? FileManager.default.removeItem(at: store)
      try? FileManager.default.removeItem(at: outer)
    }
    // `a` does not exist, so `a/../../x` names nothing that can be created.
    let result = try TestSupport.prefs(["write", "a/../../x", "k", "v"], in: work, store: store)
    #expect(result.status == 73, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("prefs: error: a/../../"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.path).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: work.deletingLastPathComponent().appendingPathComponent("x").path))
  }

  @Test func aRelativeSymlinkIsWrittenThroughAndSurvives() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    let real = store.appendingPathComponent("real")
    try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
    try Data("<plist><dict/></plist>".utf8).write(to: real.appendingPathComponent("com.example.app.plist"))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o604], ofItemAtPath: real.appendingPathComponent("com.example.app.plist").path)
    let link = store.appendingPathComponent("com.example.app.plist")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real/com.example.app.plist")
    #expect(try TestSupport.prefs(["write", "com.example.app", "a", "1"], store: store).status == 0)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real/com.example.app.plist")
    let target = real.appendingPathComponent("com.example.app.plist").path
    #expect((try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int) == 0o604)
    #expect(try TestSupport.prefs(["read", target, "a"]).stdout == "1\n")
    // The temporary file went beside the target, not beside the link.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: store.path).sorted() == ["com.example.app.plist", "real"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: real.path) == ["com.example.app.plist"])
  }

  @Test(.enabled(if: geteuid() == 0, "not root; the owner test needs chown"))
  func ownerAndGroupAreKept() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    #expect(try TestSupport.prefs(["write", "com.example.app", "a", "1"], store: store).status == 0)
    let file = store.appendingPathComponent("com.example.app.plist").path
    #expect(chown(file, 65534, 65534) == 0)
    #expect(try TestSupport.prefs(["write", "com.example.app", "b", "2"], store: store).status == 0)
    var info = stat()
    #expect(stat(file, &info) == 0)
    #expect(info.st_uid == 65534 && info.st_gid == 65534)
    #expect(info.st_mode & 0o7777 == 0o600)
    #expect(try TestSupport.prefs(["read", "com.example.app", "b"], store: store).stdout == "2\n")
  }

  static let sharedMemoryIsWritable = access("/dev/shm", W_OK) == 0

  /// A regular file is replaced whatever its path says: `/dev/shm` holds ordinary
  /// files, which are never appended to, and a store can be made there.
  @Test(.enabled(if: sharedMemoryIsWritable, "/dev/shm is not writable"))
  func regularFilesUnderDevAreReplacedNotAppendedTo() throws {
    var template = Array("/dev/shm/prefs-test-XXXXXX".utf8CString)
    let folder = try #require(
      template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/x.yaml"
    try Data("a: 1\n".utf8).write(to: URL(fileURLWithPath: file))
    #expect(try TestSupport.prefs(["set", file, "a", "2"]).status == 0)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "a: 2\n")
    for _ in 0..<2 {
      #expect(try TestSupport.prefs(["convert", file, "-o", folder + "/y.json"]).status == 0)
      #expect(try TestSupport.prefs(["export", file, "-o", folder + "/z.yaml"]).status == 0)
    }
    #expect(try String(contentsOfFile: folder + "/y.json", encoding: .utf8) == "{\n  \"a\": 2\n}\n")
    #expect(try String(contentsOfFile: folder + "/z.yaml", encoding: .utf8).components(separatedBy: "a: 2").count == 2)
    let store = URL(fileURLWithPath: folder + "/store")
    #expect(try TestSupport.prefs(["write", "com.example.app", "k", "-int", "1"], store: store).status == 0)
    #expect(try TestSupport.prefs(["read", "com.example.app", "k"], store: store).stdout == "1\n")
  }

  /// A pipe named by a path (`-o /dev/stdout`) is written in place.
  @Test func aPipeNamedByAPathIsWrittenInPlace() throws {
    let folder = try TestFolder()
    try folder.write("x.yaml", "a: 1\n")
    let result = try TestSupport.prefs(["convert", folder.path("x.yaml"), "--to", "json", "-o", "/dev/stdout"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "{\n  \"a\": 1\n}\n")
  }

  /// Runs `prefs arguments` in `folder` under `umask`.
  static func prefs(_ arguments: [String], umask mask: String, in folder: URL, store: URL? = nil) throws
    -> TestSupport.ProcessResult
  {
    var environment = ProcessInfo.processInfo.environment
    environment["PREFS_DEFAULTS_DIR"] = store?.path
    environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
    return try TestSupport.run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "cd \"$0\" && umask \(mask) && exec \"$@\"", folder.path, TestSupport.prefsBinary.path] + arguments,
      environment: environment)
  }

  static func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
  }

  /// New files honour the umask, and a file made from a private one stays private.
  @Test func newFilesHonourTheUmaskAndKeepAPrivateSourcesMode() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    try folder.write("open.yaml", "a: 1\n")
    #expect(try Self.prefs(["convert", "open.yaml", "-o", "new.json"], umask: "077", in: folder.url).status == 0)
    #expect(Self.mode(folder.path("new.json")) == 0o600)
    #expect(try Self.prefs(["convert", "open.yaml", "-o", "shared.json"], umask: "022", in: folder.url).status == 0)
    #expect(Self.mode(folder.path("shared.json")) == 0o644)
    // A private source: the merge's output and its conflict list stay private.
    try folder.write("base.yaml", "a: 1\n")
    try folder.write("current.yaml", "a: 2\n")
    try folder.write("other.yaml", "a: 3\n")
    chmod(folder.path("current.yaml"), 0o600)
    let merge = try Self.prefs(
      ["merge", "current.yaml", "base.yaml", "other.yaml", "-o", "merged.yaml", "--conflicts", "conflicts.yaml"],
      umask: "022", in: folder.url)
    #expect(merge.status == 1, "\(merge.stderr)")
    #expect(Self.mode(folder.path("merged.yaml")) == 0o600)
    #expect(Self.mode(folder.path("conflicts.yaml")) == 0o600)
    // Domains of the store are 0600: a settings file of them and a capture stay 0600.
    try folder.write("settings.yaml", "com.example.app:\n  k: 1\ncom.example.other:\n  k: 1\n")
    #expect(try Self.prefs(["apply", "settings.yaml"], umask: "022", in: folder.url, store: store).status == 0)
    let export = try Self.prefs(
      ["export", "com.example.app", "com.example.other", "-o", "both.yaml"], umask: "022", in: folder.url,
      store: store)
    #expect(export.status == 0, "\(export.stderr)")
    #expect(Self.mode(folder.path("both.yaml")) == 0o600)
    try folder.write("more.yaml", "com.example.app:\n  k: 2\n")
    #expect(try Self.prefs(["apply", "more.yaml"], umask: "022", in: folder.url, store: store).status == 0)
    let snapshot = try Self.prefs(["snapshots"], umask: "022", in: folder.url, store: store).stdout
    let id = String(snapshot.split(separator: "\n").last?.prefix { $0 != " " } ?? "")
    let capture = try Self.prefs(
      ["capture", "--since", id, "-o", "captured.yaml"], umask: "022", in: folder.url, store: store)
    #expect(capture.status == 0, "\(capture.stderr)")
    #expect(Self.mode(folder.path("captured.yaml")) == 0o600)
  }

  /// Bytes from a file never reach the terminal as control characters: an XML
  /// `encoding=` name (in the message and in the iconv command it suggests), keys in
  /// error messages and hints, keys in diff lines.
  @Test func controlCharactersFromFilesAreEscapedForTheTerminal() throws {
    let folder = try TestFolder()
    let xml = try folder.write(
      "e.plist", "<?xml version=\"1.0\" encoding=\"x\u{1B}]0;title\u{07}\"?>\n<plist><dict/></plist>\n")
    let encoding = try TestSupport.prefs(["convert", xml])
    #expect(encoding.status == 65)
    #expect(!encoding.stderr.contains("\u{1B}") && !encoding.stderr.contains("\u{07}"), "\(encoding.stderr)")
    #expect(encoding.stderr.contains("encoding 'x\\x1B]0;title\\x07'"), "\(encoding.stderr)")
    #expect(encoding.stderr.contains("(iconv -f x\\x1B]0;title\\x07 -t UTF-8)"), "\(encoding.stderr)")
    let keyed = try folder.write("k.json", #"{"a\u001b[2Jb\nfake": 1}"#)
    let empty = try folder.write("empty.json", "{}")
    let diff = try TestSupport.prefs(["diff", keyed, empty])
    #expect(diff.status == 1)
    #expect(diff.stdout == "- a\\x1B[2Jb\\x0Afake: 1\n")
    let missing = try TestSupport.prefs(["get", keyed, "a\u{1B}[2Jc\nfake"])
    #expect(missing.status == 66)
    #expect(!missing.stderr.contains("\u{1B}"), "\(missing.stderr)")
    #expect(missing.stderr.split(separator: "\n").count == 2, "an error and a did-you-mean: \(missing.stderr)")
  }

  /// A bidirectional override in a key ("Trojan Source") would show a diff line in
  /// another order than its bytes: messages and diff lines escape it as the form does.
  @Test func bidirectionalControlsFromFilesAreEscapedForTheTerminal() throws {
    let folder = try TestFolder()
    let keyed = try folder.write("k.json", #"{"admin\u202E\u2066x": 1}"#)
    let empty = try folder.write("empty.json", "{}")
    let diff = try TestSupport.prefs(["diff", keyed, empty])
    #expect(diff.status == 1)
    #expect(diff.stdout == "- admin\\u{202E}\\u{2066}x: 1\n")
    let missing = try TestSupport.prefs(["get", empty, "a\u{202E}b"])
    #expect(missing.status == 66)
    #expect(!missing.stderr.unicodeScalars.contains { $0.value == 0x202E }, "\(missing.stderr)")
    #expect(missing.stderr.contains("a\\u{202E}b"), "\(missing.stderr)")
  }

  /// `--force` keeps a copy of an unreadable domain as `.bak`: a symlink planted at that
  /// name is replaced, never written through.
  @Test func theBackupOfForceReplacesASymlinkPlantedAtItsName() throws {
    let folder = try TestFolder()
    let store = folder.url.appendingPathComponent("store")
    #expect(try TestSupport.prefs(["write", "com.example.app", "k", "v"], store: store).status == 0)
    let domain = store.appendingPathComponent("com.example.app.plist").path
    try Data("not a plist <".utf8).write(to: URL(fileURLWithPath: domain))
    let victim = try folder.write("victim", "mine\n")
    try FileManager.default.createSymbolicLink(atPath: domain + ".bak", withDestinationPath: victim)
    let result = try TestSupport.prefs(["write", "com.example.app", "k", "w", "--force"], store: store)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try folder.read("victim") == "mine\n")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: domain + ".bak")) == nil)
    #expect(try String(contentsOfFile: domain + ".bak", encoding: .utf8) == "not a plist <")
  }

  /// A read-only domain file is not replaced without a word: refused, or with
  /// `--force` replaced keeping its mode.
  @Test func aReadOnlyFileIsRefusedUnlessForced() throws {
    let folder = try TestFolder()
    let file = try folder.write("ro.yaml", "a: 1\n")
    chmod(file, 0o444)
    let refused = try TestSupport.prefs(["set", file, "a", "2"])
    #expect(refused.status == 73)
    #expect(refused.stderr.hasPrefix("prefs: error: \(file): is read-only (mode 0444); it was not replaced\nhint: "))
    #expect(try folder.read("ro.yaml") == "a: 1\n")
    #expect(try TestSupport.prefs(["set", file, "a", "2", "--force"]).status == 0)
    #expect(try folder.read("ro.yaml") == "a: 2\n")
    #expect(Self.mode(file) == 0o444)
  }

  /// A file of another user in one's own folder could be replaced (the folder allows
  /// it) but not kept that user's: refused, as the manual promises owner and group.
  @Test(
    .enabled(
      if: geteuid() == 0 && TestSupport.executable(named: "setpriv") != nil, "needs root and setpriv to act as nobody"))
  func aFileWhoseOwnerCannotBeKeptIsRefused() throws {
    let folder = try TestFolder()
    chmod(folder.url.path, 0o755)
    let home = folder.url.appendingPathComponent("home")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
    #expect(chown(home.path, 65534, 65534) == 0)
    let file = home.appendingPathComponent("root.yaml").path
    try Data("a: 1\n".utf8).write(to: URL(fileURLWithPath: file))
    chmod(file, 0o644)
    let setpriv = try #require(TestSupport.executable(named: "setpriv"))
    let result = try TestSupport.run(
      setpriv,
      ["--reuid=65534", "--regid=65534", "--clear-groups", TestSupport.prefsBinary.path, "set", file, "a", "2"])
    #expect(result.status == 73, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("prefs: error: \(file): belongs to user 0 and group 0"), "\(result.stderr)")
    var info = stat()
    #expect(stat(file, &info) == 0 && info.st_uid == 0)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "a: 1\n")
  }

  /// Tags outside the contract: each an error naming its position, never an object.
  @Test(arguments: [
    "!!python/object:os.system [echo]", "!!python/name:os.system",
    "!<tag:yaml.org,2002:python/object/apply:os.system> [x]",
    "!ruby/object:Gem::Installer {}", "!!set {a: null}", "!!omap [a: 1]", "!!pairs [a: 1]", "!!value =",
    "!!yaml x", "!foo bar", "!!merge x", "!!str [a]", "!!int x", "!!float x", "!!bool maybe",
    "!!timestamp yesterday", "!!binary '!!!'", "!!map [a]", "!!seq {a: 1}", "!uid -1", "!uid x",
  ])
  func yamlTagsOutsideTheContractAreErrors(_ node: String) throws {
    let error = try #require(throws: PrefsError.self) {
      try Format.yaml.codec.decode(Data("k: \(node)\n".utf8))
    }
    #expect(error.category == .badInput)
    #expect(error.position != nil, "\(error)")
  }

  /// Tags of the contract build exactly their kind.
  @Test func yamlTagsOfTheContractBuildTheirKinds() throws {
    let text = """
      s: !!str 1
      i: !!int "2"
      r: !!float "3"
      b: !!bool "true"
      t: !!timestamp 2023-11-14T22:13:20Z
      d: !!binary AQL/
      m: !!map {a: 1}
      q: !!seq [1]
      u: !uid 5

      """
    let value = try Format.yaml.codec.decode(Data(text.utf8))
    let kinds = value.dictionaryValue?.map { "\($0.key)=\($0.value.kind.rawValue)" }
    #expect(
      kinds == ["s=string", "i=integer", "r=real", "b=bool", "t=date", "d=data", "m=dictionary", "q=array", "u=uid"])
  }

  /// Every `$` key, with each kind of content, alone or with another key: a value of
  /// the model (the typed kind, or an ordinary dictionary) or a positioned error.
  @Test func jsonDollarKeysBuildOnlyModelKinds() throws {
    let keys = ["$date", "$data", "$real", "$uid", "$dict", "$class", "$foo", "$"]
    let contents = [
      "\"2023-11-14T22:13:20Z\"", "\"AQL/\"", "\"inf\"", "\"nan\"", "5", "-1", "4294967296", "1.5", "null", "true",
      "[]", "{}", "{\"a\": 1}", "\"x\"",
    ]
    var outcomes: [String: Int] = [:]
    for key in keys {
      for content in contents {
        for extra in ["", ", \"b\": 1"] {
          let text = "{\"\(key)\": \(content)\(extra)}"
          do {
            let value = try Format.json.codec.decode(Data(text.utf8))
            outcomes[value.kind.rawValue, default: 0] += 1
            // A typed object is one key: with another beside it, it is a dictionary.
            if !extra.isEmpty { #expect(value.kind == .dictionary, "\(text)") }
            // What was read writes back and reads again the same.
            #expect(try Format.json.codec.decode(try Format.json.codec.encode(value)) == value, "\(text)")
          } catch let error as PrefsError {
            #expect(error.category == .badInput, "\(text)")
            #expect(error.position != nil, "\(text): \(error)")
            outcomes["error", default: 0] += 1
          }
        }
      }
    }
    #expect(Set(outcomes.keys).isSubset(of: Set(PrefValue.Kind.allCases.map(\.rawValue) + ["error"])))
    #expect(outcomes["date"] == 1 && outcomes["data"] == 1 && outcomes["uid"] == 2, "\(outcomes)")
  }
}
