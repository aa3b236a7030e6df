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
