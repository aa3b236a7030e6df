import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore

/// YAML streams of several documents: the stream model (each document's value and
/// bytes), patching one document, lining two streams up, and merging three.
@Suite struct YAMLStreamTests {
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
    # between documents
    --- !!map
    kind: ConfigMap
    metadata:
      name: settings
    data:
      1: one

    """

  static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

  /// The kind of the error `body` throws; nil when it throws none.
  static func errorKind(_ body: () throws -> Void) -> PrefsError.Kind? {
    do {
      try body()
      return nil
    } catch {
      return (error as? PrefsError)?.kind
    }
  }

  @Test func aStreamsDocumentsCoverItsBytesAndEachReadsAlone() throws {
    let data = Data(Self.manifests.utf8)
    let stream = try YAMLStream.read(data)
    #expect(stream.names == ["Deployment/web", "Service/web", "ConfigMap/settings"])
    #expect(stream.documents.map(\.range.lowerBound) == [0] + [8, 17].map { Self.manifests.offset(ofLine: $0) })
    #expect(stream.documents.last?.range.upperBound == data.count)
    // `...` and the comments after it belong to the document they follow.
    #expect(Self.text(data[stream.documents[1].range]).hasSuffix("...\n# between documents\n"))
    for document in stream.documents {
      #expect(try Format.yaml.decode(Data(data[document.range])) == document.value)
    }
    #expect(stream.documents[2].value.dictionaryValue?["data"] == ["1": "one"])
    // The reader of one document refuses the stream, naming its documents.
    #expect(Self.errorKind { _ = try Format.yaml.decode(data) } == .severalDocuments(names: stream.names))
    #expect(throws: PrefsError.self) { try YAMLStream.read(Data()) }
    #expect(try YAMLStream.read(Data("---\n---\na: 1\n".utf8)).values == [.null, ["a": 1]])
  }

  @Test func aSelectorPicksADocumentByIndexOrName() throws {
    let stream = try YAMLStream.read(Data(Self.manifests.utf8))
    #expect(try stream.index(of: "0") == 0)
    #expect(try stream.index(of: "-1") == 2)
    #expect(try stream.index(of: "Service/web") == 1)
    for missing in ["3", "-4", "Service/api", "web"] {
      #expect(
        Self.errorKind { _ = try stream.index(of: missing) } == .noSuchDocument(selector: missing, names: stream.names))
    }
    // A name two documents share picks neither.
    #expect(YAMLStream.index(of: "Service/web", in: ["Service/web", "Service/web"]) == nil)
  }

  @Test func patchingOneDocumentKeepsEveryOtherByte() throws {
    let data = Data(Self.manifests.utf8)
    let stream = try #require(try DocumentStream(data))
    let service = stream.documents[1]
    let patch = try service.patched(
      to: service.value.setting(.integer(8080), at: PrefKeyPath.parse("spec.ports.0.port")))
    let patched = Self.text(stream.replacing([1: patch.data]))
    #expect(patched == Self.manifests.replacingOccurrences(of: "port: 80\n", with: "port: 8080\n"))
    // A document written whole gets the `---` line that separates it; one removed
    // takes its bytes with it; one appended comes after the last.
    let rewritten = Self.text(stream.replacing([2: Data("kind: Secret\n".utf8)], appending: [Data("a: 1\n".utf8)]))
    #expect(rewritten.hasSuffix("...\n# between documents\n---\nkind: Secret\n---\na: 1\n"))
    let removed = Self.text(stream.replacing([:], removing: [0]))
    #expect(removed == String(Self.manifests[Self.manifests.range(of: "---\n# its service")!.lowerBound...]))
  }

  @Test func documentsLineUpByNameWhenAllHaveOneElseByPosition() throws {
    let old: [PrefValue] = [
      ["kind": "Deployment", "metadata": ["name": "web"], "spec": ["replicas": 2]],
      ["kind": "Service", "metadata": ["name": "web"]],
    ]
    let new: [PrefValue] = [
      ["kind": "Service", "metadata": ["name": "web"]],
      ["kind": "Deployment", "metadata": ["name": "web"], "spec": ["replicas": 3]],
      ["kind": "Secret", "metadata": ["name": "key"]],
    ]
    let byName = DocumentAlignment(old, new)
    #expect(byName.byName)
    #expect(byName.pairs.map(\.label) == ["[Deployment/web]", "[Service/web]", "[Secret/key]"])
    #expect(byName.pairs.map(\.new) == [1, 0, 2])
    let lines = StructuralDiff.changes(fromDocuments: old, to: new).map { $0.change.line(inDocument: $0.document) }
    #expect(
      lines == [
        "~ [Deployment/web] spec.replicas: 2 -> 3", #"+ [Secret/key]: {"kind": "Secret", "metadata": {"name": "key"}}"#,
      ])

    let byPosition = DocumentAlignment([["a": 1], ["b": 1]], [["a": 2]])
    #expect(!byPosition.byName)
    #expect(byPosition.pairs.map(\.label) == ["[0]", "[1]"])
    let removed = StructuralDiff.changes(fromDocuments: [["a": 1], ["b": 1]], to: [["a": 2]])
    #expect(removed.map { $0.change.line(inDocument: $0.document) } == ["~ [0] a: 1 -> 2", #"- [1]: {"b": 1}"#])
  }

  /// The merge of three YAML streams, each version named by its side.
  static func merge(_ current: String, _ base: String, _ other: String) throws -> FileMerge.Outcome {
    func version(_ text: String, _ name: String) -> FileMerge.Version {
      FileMerge.Version(Data(text.utf8), path: "k.yaml", name: name)
    }
    return try FileMerge.merge(
      current: version(current, "current"), base: version(base, "base"), other: version(other, "other"))
  }

  static func merged(_ outcome: FileMerge.Outcome) -> FileMerge.Merged? {
    if case .merged(let merged) = outcome { return merged }
    return nil
  }

  static func refusal(_ outcome: FileMerge.Outcome) -> FileMerge.Refusal? {
    if case .byLines(let refusal) = outcome { return refusal }
    return nil
  }

  static func isUnaligned(_ kind: PrefsError.Kind) -> Bool {
    if case .unalignedDocuments = kind { return true }
    return false
  }

  @Test func streamsMergeDocumentByDocumentInCurrentsText() throws {
    let base = Self.manifests
    let current = base.replacingOccurrences(of: "replicas: 2", with: "replicas: 3")
    let other =
      base.replacingOccurrences(of: "port: 80", with: "port: 8080")
      + "---\nkind: Secret\nmetadata: {name: key}  # added\n"
    let merged = try #require(Self.merged(try Self.merge(current, base, other)))
    #expect(merged.result.conflicts.isEmpty && !merged.hasMarkers)
    #expect(
      Self.text(merged.data)
        == current.replacingOccurrences(of: "port: 80", with: "port: 8080")
        + "---\nkind: Secret\nmetadata: {name: key}  # added\n")

    // A document OTHER removed and CURRENT left alone goes.
    let withoutService = base.replacingOccurrences(
      of: "---\n# its service\nkind: Service\nmetadata: {name: web}\nspec:\n  ports:\n    - port: 80\n...\n", with: "")
    let removed = try #require(Self.merged(try Self.merge(current, base, withoutService)))
    #expect(!Self.text(removed.data).contains("Service") && Self.text(removed.data).contains("replicas: 3"))
  }

  @Test func aConflictNamesItsDocument() throws {
    let base = "a: 1\n---\nb: 1\n"
    let merged = try #require(Self.merged(try Self.merge("a: 1\n---\nb: 2\n", base, "a: 1\n---\nb: 3\n")))
    #expect(merged.result.conflicts.map(\.location) == ["[1] b"])
    #expect(merged.result.conflicts.first?.document == "[1]")
    #expect(merged.hasMarkers)
    #expect(Self.text(merged.data).hasPrefix("a: 1\n---\n<<<<<<< "))
  }

  @Test func streamsThatDoNotLineUpMergeByLines() throws {
    // Unnamed documents, not as many on each side.
    let refusal = try #require(Self.refusal(try Self.merge("a: 1\n---\nb: 2\n", "a: 1\n", "a: 2\n")))
    #expect(Self.isUnaligned(refusal.error.kind), "\(refusal.error.kind)")
    #expect(refusal.side == nil)
    // A document one side removed and the other changed.
    let base = "kind: A\nmetadata: {name: a}\nx: 1\n---\nkind: B\nmetadata: {name: b}\n"
    let changed = base.replacingOccurrences(of: "x: 1", with: "x: 2")
    let removed = "kind: B\nmetadata: {name: b}\n"
    let deleted = try #require(Self.refusal(try Self.merge(changed, base, removed)))
    #expect(Self.isUnaligned(deleted.error.kind), "\(deleted.error.kind)")
  }

  @Test func aFileDomainIsOneDocumentOfTheStream() throws {
    let folder = try TestFolder()
    let path = try folder.write("k.yaml", Self.manifests)
    let domain = FileDomain(path: path, document: "ConfigMap/settings")
    #expect(try domain.read()?["data"] == ["1": "one"])
    try domain.modify { $0?["data"] = ["1": "uno"] }
    #expect(
      try String(contentsOfFile: path, encoding: .utf8) == Self.manifests.replacingOccurrences(of: "one", with: "uno"))
    // Without a document, the stream is refused as several documents, never as unreadable.
    #expect(
      Self.errorKind { try FileDomain(path: path).modify { $0?["x"] = 1 } }
        == .severalDocuments(names: ["Deployment/web", "Service/web", "ConfigMap/settings"]))
    // A stream in UTF-16 is read, but never written whole for one document's change.
    let wide = folder.path("wide.yaml")
    try Data([0xFF, 0xFE] + Array("a: 1\n---\nb: 2\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
      .write(to: URL(fileURLWithPath: wide))
    #expect(try FileDomain(path: wide, document: "1").read() == ["b": 2])
    let before = try Data(contentsOf: URL(fileURLWithPath: wide))
    #expect(throws: PrefsError.self) { try FileDomain(path: wide, document: "1").modify(force: true) { $0?["b"] = 3 } }
    #expect(try Data(contentsOf: URL(fileURLWithPath: wide)) == before)
    #expect(
      Self.errorKind { _ = try FileDomain(path: path, document: "7").read() }
        == .noSuchDocument(selector: "7", names: ["Deployment/web", "Service/web", "ConfigMap/settings"]))
  }
}

extension String {
  /// The byte offset where line `line` (1-based) starts.
  fileprivate func offset(ofLine line: Int) -> Int {
    var offset = 0
    for (index, text) in split(separator: "\n", omittingEmptySubsequences: false).enumerated() where index < line - 1 {
      offset += text.utf8.count + 1
    }
    return offset
  }
}
