import PrefsModel
import PrefsText

/// Writes a large YAML document with one libyaml emitter per processor, as
/// ``ParallelPolicy`` says.
///
/// The emitter is most of the time a big conversion to YAML takes, and an emitter runs
/// on one thread. The entries of a root dictionary are cut into consecutive parts of
/// about the same size; each part gets its own emitter (the first writes straight to
/// the output, the others into memory) and the parts are joined in order. Block-style
/// entries at the root do not depend on one another, so the bytes are the ones a
/// single emitter writes. The exception is a literal block that keeps its trailing
/// line breaks (`|+`): libyaml may then end the stream with a `...` line, depending
/// on what follows and on its version, so a document with one outside its last part
/// is written by a single emitter.
enum YAMLParts {
  /// Writes `value` as ``YAMLEmitter/document(_:)`` does, in parallel when it is a
  /// large dictionary.
  static func write(
    _ value: PrefValue, to writer: ByteWriter, sortKeys: Bool, expansions: [Data: EmbeddedData.Expansion] = [:],
    directives: [PrefKeyPath: SettingsDirective]? = nil,
    parallelism: ParallelPolicy
  ) throws {
    // Embedded data shown as structure is not in the size estimates of the parts: one
    // emitter writes it. (Counting processors reads /proc: only for a large document.)
    guard expansions.isEmpty, directives == nil, case .dictionary(let dictionary) = value, dictionary.count > 1,
      let slices = split(dictionary, sortKeys: sortKeys, parallelism: parallelism)
    else {
      return try YAMLEmitter(writer: writer, sortKeys: sortKeys, expansions: expansions, directives: directives)
        .document(value)
    }
    // Only the first part's thread touches the output writer.
    nonisolated(unsafe) let output = writer
    let written = try inParallel(slices.count) { i, _ in
      let target = i == 0 ? output : ByteWriter()
      let emitter = try YAMLEmitter(writer: target, sortKeys: sortKeys)
      try emitter.documentPart(slices[i], isLast: i == slices.count - 1)
      return i == 0 ? Data() : try target.data
    }
    for data in written { try writer.write(data) }
  }

  /// The entries cut into parts of about equal estimated size, or nil when the document
  /// is too small to gain or holds a `|+` block outside its last part.
  static func split(
    _ dictionary: PrefDictionary, sortKeys: Bool, parallelism: ParallelPolicy
  ) -> [ArraySlice<PrefDictionary.Element>]? {
    // Estimated in the dictionary's order; sorted only when the document is large.
    var measured: [(entry: PrefDictionary.Element, size: Int, keepsBreaks: Bool)] = []
    measured.reserveCapacity(dictionary.count)
    var total = 0
    for entry in dictionary {
      var estimate = Estimate()
      estimate.add(entry.key, isKey: true)
      estimate.add(entry.value)
      measured.append((entry, estimate.size, estimate.keepsBreaks))
      total += estimate.size
    }
    let parts = parallelism.parts(forSize: total)
    guard parts > 1 else { return nil }
    if sortKeys { measured.sort { PrefDictionary.codePointOrder($0.entry.key, $1.entry.key) } }
    let entries = measured.map(\.entry)
    let sizes = measured.map(\.size)
    let lastKeepsBreaks = measured.lastIndex { $0.keepsBreaks } ?? -1
    var slices: [ArraySlice<PrefDictionary.Element>] = []
    var start = 0
    var filled = 0
    for (i, size) in sizes.enumerated() where slices.count < parts - 1 {
      filled += size
      if filled >= total * (slices.count + 1) / parts, i + 1 < entries.count {
        slices.append(entries[start...i])
        start = i + 1
      }
    }
    slices.append(entries[start...])
    // A `|+` block must sit in the last part (see above).
    guard slices.count > 1, lastKeepsBreaks < 0 || lastKeepsBreaks >= start else { return nil }
    return slices
  }

  /// About how many bytes of YAML a value takes, and whether it holds a string libyaml
  /// may write as a literal block keeping its trailing breaks.
  private struct Estimate {
    var size = 0
    var keepsBreaks = false

    mutating func add(_ text: String, isKey: Bool = false) {
      let utf8 = text.utf8
      size += utf8.count + 4
      // Keys are never blocks. libyaml keeps the breaks of a block ending in two of
      // them, or of a lone break.
      if !isKey, utf8.last == 0x0A, utf8.count == 1 || utf8.dropLast().last == 0x0A { keepsBreaks = true }
    }

    mutating func add(_ value: PrefValue) {
      switch value {
      case .string(let s): add(s)
      case .data(let d): size += d.count * 4 / 3 + 16
      case .array(let items): for item in items { add(item) }
      case .dictionary(let dict):
        for (key, item) in dict {
          add(key, isKey: true)
          add(item)
        }
      case .integer, .unsignedInteger, .real, .bool, .date, .uid, .null: size += 16
      }
    }
  }
}
