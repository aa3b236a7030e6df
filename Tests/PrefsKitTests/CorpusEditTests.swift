import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// Seeded random edits on every text file of the corpora: each result reads back as
/// the edited value, and every line outside the edited entry and its neighbours stays
/// byte for byte.
@Suite struct CorpusEditTests {
  /// `line` without its ` /* … */` comments.
  static func withoutComments(_ line: Data) -> Data {
    var out = Data()
    var rest = line[...]
    while let open = rest.firstRange(of: Data(" /*".utf8)) {
      out += rest[..<open.lowerBound]
      guard let close = rest[open.upperBound...].firstRange(of: Data("*/".utf8)) else { return out + rest }
      rest = rest[close.upperBound...]
    }
    return out + rest
  }

  @Test(
    .enabled(if: CorpusEdits.corpus != nil, "the corpus at ../shared/corpus is absent"))
  func seededEditsChangeOnlyTheirLines() throws {
    let documents = CorpusEdits.documents()
    #expect(documents.count > 300, "only \(documents.count) corpus documents read")
    var changedLines: [Int: Int] = [:]
    var rewrittenEntries = 0
    var edits = 0
    var wholeRewrites: [String] = []
    var entryRewrites: [String] = []
    var commentedEdits = 0
    var lostComments: [String] = []
    for (fileIndex, document) in documents.enumerated() {
      let mapped = try #require(try TextDocument(document.data, format: document.format))
      for (k, kind) in CorpusEdits.Edit.allCases.enumerated() {
        var rng = SeededGenerator(state: UInt64(fileIndex * 16 + k))
        guard let (expected, touched) = try CorpusEdits.edit(mapped.value, kind, in: document.format, using: &rng)
        else { continue }
        edits += 1
        let patch = try mapped.patched(to: expected)
        let label = "\(document.name) \(kind) at \(touched.joined(separator: "."))"
        let reread = try document.format.codec.read(patch.data, options: ReadOptions(), warnings: Warnings())
        let held = try document.format.codec.read(
          document.format.codec.encode(expected), options: ReadOptions(), warnings: Warnings())
        #expect(reread == expected || reread == held, "\(label): reads back as another value")
        if let why = patch.rewrittenWhole {
          wholeRewrites.append("\(label): \(why)")
          continue
        }
        rewrittenEntries += patch.rewrittenEntries.count
        if !patch.rewrittenEntries.isEmpty { entryRewrites.append("\(label): \(patch.rewrittenEntries)") }
        // Every comment stays, but those of an entry the edit removes.
        let comments = Self.commentLines(document.data)
        if !comments.isEmpty, kind != .remove {
          commentedEdits += 1
          let kept = Self.commentLines(patch.data)
          if comments.contains(where: { kept[$0.key, default: 0] < $0.value }) { lostComments.append(label) }
        }
        // Lines outside the touched node's entry (and the lines of its neighbours,
        // where separators change) are the same.
        // In an Xcode project, the comments naming an object change wherever it is
        // referred to when its name changes, as Xcode writes them: those lines count
        // by what they hold beside the comments.
        let project = document.format == .openStep && document.data.starts(with: Data("// !$*UTF8*$!".utf8))
        let old = CorpusEdits.lines(document.data).map { project ? Self.withoutComments($0) : $0 }
        let new = CorpusEdits.lines(patch.data).map { project ? Self.withoutComments($0) : $0 }
        let same = zip(old, new).prefix { $0 == $1 }.count
        let sameAtEnd = zip(old.reversed(), new.reversed()).prefix { $0 == $1 }.count
        let changed = max(old.count, new.count) - min(same + sameAtEnd, min(old.count, new.count))
        changedLines[min(changed, 20), default: 0] += 1
        let region = try Self.region(of: touched, in: mapped, kind: kind)
        let firstChanged = same
        let lastChanged = old.count - sameAtEnd
        #expect(
          firstChanged >= region.lowerBound && lastChanged <= region.upperBound,
          "\(label): lines \(firstChanged + 1)-\(lastChanged) changed outside \(region.lowerBound + 1)-\(region.upperBound)"
        )
      }
    }
    print(
      "corpus edits: \(documents.count) documents, \(edits) edits, \(rewrittenEntries) entries written whole, "
        + "\(wholeRewrites.count) documents written whole; changed lines per edit: "
        + changedLines.sorted { $0.key < $1.key }.map { "\($0.key == 20 ? "20+" : String($0.key)): \($0.value)" }
        .joined(separator: ", "))
    for rewrite in wholeRewrites.prefix(10) { print("  written whole: \(rewrite)") }
    print(
      "corpus edits: \(lostComments.count) of \(commentedEdits) edits of commented documents lost a comment; "
        + "\(entryRewrites.count) of \(edits) edits wrote an entry whole")
    for label in (lostComments + entryRewrites).prefix(20) { print("  \(label)") }
    let realLost = lostComments.filter { !$0.hasPrefix("/yaml-test-suite/") }
    #expect(realLost.isEmpty, "edits of real files lost comments: \(realLost)")
    // The YAML test suite is made of corner cases (anchors redefined, compact nested
    // sequences, tags everywhere); real files are patched.
    let real = wholeRewrites.filter { !$0.hasPrefix("/yaml-test-suite/") }
    #expect(documents.contains { $0.format == .openStep }, "no Xcode project was edited")
    #expect(real.count * 100 <= edits, "more than 1% of the edits of real files rewrote the whole document")
    #expect(wholeRewrites.count * 100 <= edits * 6, "more than 6% of the edits rewrote the whole document")
  }

  /// The comment lines of a text (`#`, `//`, `/*`, `<!--` first on their line), trimmed, with how often each stands.
  static func commentLines(_ text: Data) -> [String: Int] {
    var found: [String: Int] = [:]
    for line in CorpusEdits.lines(text) {
      let trimmed = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      if ["#", "//", "/*", "<!--"].contains(where: trimmed.hasPrefix) { found[trimmed, default: 0] += 1 }
    }
    return found
  }

  /// The lines an edit of the node at `path` may touch: its parent's entry for a
  /// removal (separators of the siblings), the node's own entry otherwise.
  static func region(of path: [String], in document: TextDocument, kind: CorpusEdits.Edit) throws -> Range<Int> {
    var node = 0
    var parent = 0
    var value = document.value
    for part in path {
      parent = node
      let children = document.map.children(of: node)
      switch value {
      case .dictionary(let d):
        guard let child = document.map.child(of: node, named: part) else { return 0..<Int.max }
        node = child
        value = d[part]!
      case .array(let a):
        guard let index = Int(part), index < children.count else { return 0..<Int.max }
        node = children[index]
        value = a[index]
      default: return 0..<Int.max
      }
    }
    // The whole entry of the parent (a changed separator or an insertion after the
    // last sibling stays inside it), from the comment lines above it.
    let around = kind == .setScalar || kind == .changeType ? parent : node
    let span = document.map.nodes[around]
    let start = span.key?.lowerBound ?? span.value.lowerBound
    let text = document.text
    var line = text[..<start].filter { $0 == 0x0A }.count
    // Own comment lines above an entry go with it.
    while line > 0 {
      let lines = CorpusEdits.lines(Data(text))
      let previous = String(decoding: lines[line - 1], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard previous.hasPrefix("#") || previous.hasPrefix("<!--") || previous.hasPrefix("//") else { break }
      line -= 1
    }
    let end = text[..<min(span.value.upperBound, text.count)].filter { $0 == 0x0A }.count + 1
    return line..<end
  }
}
