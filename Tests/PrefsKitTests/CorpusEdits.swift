import Foundation
import PrefsKit
import PrefsTestSupport

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// The text documents of the corpora and seeded edits of their values, shared by the
/// tests that edit them (``CorpusEditTests``) and merge them (``MergeCorpusTests``).
enum CorpusEdits {
  static let corpus = TestSupport.corpus("")

  /// The text files of the corpora that prefs reads, with their formats.
  static func documents(includingYAMLTestSuite: Bool = true, includingOpenStep: Bool = true) -> [(
    name: String, data: Data, format: Format
  )] {
    guard let corpus else { return [] }
    var found: [(String, Data, Format)] = []
    func add(_ url: URL, _ format: Format) {
      guard let data = try? Data(contentsOf: url), data.count < 1 << 20,
        (try? TextDocument(data, format: format)) != nil
      else { return }
      found.append((url.path.replacingOccurrences(of: corpus.path, with: ""), data, format))
    }
    let suite = corpus.appendingPathComponent("yaml-test-suite")
    if includingYAMLTestSuite {
      for test in TestSupport.files(in: suite) { add(test.appendingPathComponent("in.yaml"), .yaml) }
    }
    for folder in ["autopkg/pairs", "autopkg/unpaired"] {
      for url in TestSupport.files(in: corpus.appendingPathComponent(folder)) {
        add(url, url.pathExtension == "yaml" ? .yaml : .xml)
      }
    }
    for folder in ["plist/fixtures", "plist/real-world", "xcode"] {
      for url in TestSupport.files(in: corpus.appendingPathComponent(folder)) {
        guard let data = try? Data(contentsOf: url), let format = Format.detect(data, path: url.path),
          includingOpenStep || format != .openStep
        else { continue }
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
    case .null: .string("was null")
    case .array, .dictionary: .string("was a container")
    }
  }

  /// A value of another type than `value`'s, that `format` can hold.
  static func otherType(_ value: PrefValue, in format: Format = .json) -> PrefValue {
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
  static func edit(
    _ value: PrefValue, _ kind: Edit, in format: Format = .json, using rng: inout SeededGenerator
  ) throws -> (PrefValue, [String])? {
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
}
