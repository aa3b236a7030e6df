import Foundation
import PrefsTestSupport
import Testing

@testable import PrefsKit

/// Seeded random edits on every text file of the corpora: each result reads back as
/// the edited value, and every line outside the edited entry and its neighbours stays
/// byte for byte.
@Suite struct CorpusEditTests {
  static let corpus = TestSupport.corpus("")

  /// The text files of the corpora that prefs reads, with their formats.
  static func documents() -> [(name: String, data: Data, format: Format)] {
    guard let corpus else { return [] }
    var found: [(String, Data, Format)] = []
    func add(_ url: URL, _ format: Format) {
      guard let data = try? Data(contentsOf: url), data.count < 1 << 20,
        (try? TextDocument(data, format: format)) != nil
      else { return }
      found.append((url.path.replacingOccurrences(of: corpus.path, with: ""), data, format))
    }
    let suite = corpus.appendingPathComponent("yaml-test-suite")
    for test in TestSupport.files(in: suite) { add(test.appendingPathComponent("in.yaml"), .yaml) }
    for folder in ["autopkg/pairs", "autopkg/unpaired"] {
      for url in TestSupport.files(in: corpus.appendingPathComponent(folder)) {
        add(url, url.pathExtension == "yaml" ? .yaml : .xml)
      }
    }
    for folder in ["plist/fixtures", "plist/real-world", "xcode"] {
      for url in TestSupport.files(in: corpus.appendingPathComponent(folder)) {
        guard let data = try? Data(contentsOf: url), let format = Format.detect(data, path: url.path) else { continue }
        add(url, format)
      }
    }
    for url in TestSupport.files(in: corpus.appendingPathComponent("json-test-suite/test_parsing"))
    where url.lastPathComponent.hasPrefix("y_") {
      add(url, .json)
    }
    return found
  }

  enum Edit: CaseIterable { case setScalar, changeType, remove, addKey, append }

  /// Every node of a value with its path, the root first.
  static func nodes(_ value: PrefValue, at path: [String] = []) -> [(path: [String], value: PrefValue)] {
    var all = [(path, value)]
    switch value {
    case .dictionary(let d): for (k, v) in d { all += nodes(v, at: path + [k]) }
    case .array(let a): for (i, v) in a.enumerated() { all += nodes(v, at: path + [String(i)]) }
    default: break
    }
    return all
  }

  static func changedScalar(_ value: PrefValue) -> PrefValue {
    switch value {
    case .string(let s): .string(s + " edited")
    case .integer(let n): .integer(n == .max ? 0 : n + 1)
    case .unsignedInteger: .integer(7)
    case .real(let r): .real(r.isFinite ? r * 2 + 0.5 : 1.5)
    case .bool(let b): .bool(!b)
    case .date(let d): .date(d.addingTimeInterval(1))
    case .data(let d): .data(d + [0x2A])
    case .uid(let u): .uid(u + 1)
    case .array, .dictionary: .string("was a container")
    }
  }

  static func otherType(_ value: PrefValue, in format: Format) -> PrefValue {
    // OpenStep holds only strings, data, arrays and dictionaries.
    if format == .openStep { return value.kind == .string ? .data(Data("other".utf8)) : .string("other") }
    return switch value {
    case .string: .integer(42)
    case .integer: .string("42")
    case .bool(let b): .string(b ? "true" : "false")
    default: .bool(true)
    }
  }

  /// One seeded edit of `value`: the new value and the path of the node it touches
  /// (for an insertion, the container).
  static func edit(_ value: PrefValue, _ kind: Edit, in format: Format, using rng: inout SeededGenerator) throws
    -> (PrefValue, [String])?
  {
    let all = nodes(value)
    func pick(_ matching: (PrefValue) -> Bool) -> (path: [String], value: PrefValue)? {
      let candidates = all.filter { matching($0.value) }
      return candidates.isEmpty ? nil : candidates[Int(rng.next() % UInt64(candidates.count))]
    }
    switch kind {
    case .setScalar:
      guard let target = pick({ $0.arrayValue == nil && $0.dictionaryValue == nil }), !target.path.isEmpty else {
        return nil
      }
      return (try value.setting(changedScalar(target.value), at: target.path), target.path)
    case .changeType:
      guard let target = pick({ $0.arrayValue == nil && $0.dictionaryValue == nil }), !target.path.isEmpty else {
        return nil
      }
      return (try value.setting(otherType(target.value, in: format), at: target.path), target.path)
    case .remove:
      guard let target = pick({ _ in true }), !target.path.isEmpty else { return nil }
      return (try value.removing(at: target.path), Array(target.path.dropLast()))
    case .addKey:
      guard let target = pick({ $0.dictionaryValue != nil }) else { return nil }
      // OpenStep holds only strings, data, arrays and dictionaries.
      let number: PrefValue = format == .openStep ? .string("1") : .integer(1)
      let new: PrefValue =
        rng.next() % 2 == 0 ? .string("added value") : .dictionary(["inner": number, "list": .array([number])])
      return (try value.setting(new, at: target.path + ["prefsAdded"]), target.path)
    case .append:
      guard let target = pick({ $0.arrayValue != nil }), let items = target.value.arrayValue else { return nil }
      return (try value.setting(.string("appended"), at: target.path + [String(items.count)]), target.path)
    }
  }

  /// The lines of `text` (with their line ends).
  static func lines(_ text: Data) -> [Data] {
    var out: [Data] = []
    var start = text.startIndex
    for i in text.indices where text[i] == 0x0A {
      out.append(text[start...i])
      start = i + 1
    }
    if start < text.endIndex { out.append(text[start...]) }
    return out
  }

  @Test(
    .enabled(if: corpus != nil, "the corpus at ../shared/corpus is absent"))
  func seededEditsChangeOnlyTheirLines() throws {
    let documents = Self.documents()
    #expect(documents.count > 300, "only \(documents.count) corpus documents read")
    var changedLines: [Int: Int] = [:]
    var rewrittenEntries = 0
    var edits = 0
    var wholeRewrites: [String] = []
    for (fileIndex, document) in documents.enumerated() {
      let mapped = try #require(try TextDocument(document.data, format: document.format))
      for (k, kind) in Edit.allCases.enumerated() {
        var rng = SeededGenerator(state: UInt64(fileIndex * 16 + k))
        guard let (expected, touched) = try Self.edit(mapped.value, kind, in: document.format, using: &rng)
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
        // Lines outside the touched node's entry (and the lines of its neighbours,
        // where separators change) are the same.
        let old = Self.lines(document.data)
        let new = Self.lines(patch.data)
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
    // The YAML test suite is made of corner cases (anchors redefined, compact nested
    // sequences, tags everywhere); real files are patched.
    let real = wholeRewrites.filter { !$0.hasPrefix("/yaml-test-suite/") }
    #expect(documents.contains { $0.format == .openStep }, "no Xcode project was edited")
    #expect(real.count * 100 <= edits, "more than 1% of the edits of real files rewrote the whole document")
    #expect(wholeRewrites.count * 100 <= edits * 6, "more than 6% of the edits rewrote the whole document")
  }

  /// The lines an edit of the node at `path` may touch: its parent's entry for a
  /// removal (separators of the siblings), the node's own entry otherwise.
  static func region(of path: [String], in document: TextDocument, kind: Edit) throws -> Range<Int> {
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
      let lines = Self.lines(Data(text))
      let previous = String(decoding: lines[line - 1], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard previous.hasPrefix("#") || previous.hasPrefix("<!--") || previous.hasPrefix("//") else { break }
      line -= 1
    }
    let end = text[..<min(span.value.upperBound, text.count)].filter { $0 == 0x0A }.count + 1
    return line..<end
  }
}
