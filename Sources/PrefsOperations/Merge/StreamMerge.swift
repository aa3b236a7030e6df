import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// The three-way merge of YAML streams of several documents, document by document:
/// lined up by name (`Kind/name`) when every document of the three has one, else by
/// position when the three hold as many. Each document CURRENT shares with the others
/// is merged by value and patched in its own bytes; a document OTHER added is
/// appended with its own text, one OTHER removed (and CURRENT left alone) goes, and
/// every other byte of CURRENT's stream stays.
enum StreamMerge {
  /// The merge of the streams, nil when none of the three holds several documents (or
  /// CURRENT's text is not UTF-8): the merge of single documents then applies.
  static func merge(
    current: FileMerge.Version, base: FileMerge.Version, other: FileMerge.Version, readOptions: ReadOptions,
    options: ThreeWayMerge.Options, labels: ConflictMarkers.Labels, warnings: Warnings
  ) throws -> FileMerge.Outcome? {
    // Only a text with a `---` may hold several documents: others pay no second read.
    let separator = Array("---".utf8)
    guard [current, base, other].contains(where: { contains($0.data, separator) }),
      [current, base, other].allSatisfy({ Format.detect($0.data, path: $0.path) == .yaml })
    else { return nil }
    let stream: DocumentStream
    var values: [[PrefValue]] = []
    var otherStream: YAMLStream
    do {
      guard let read = try DocumentStream(current.data, options: readOptions, warnings: current.warnings) else {
        return nil
      }
      stream = read
    } catch let error as PrefsError where error.category == .badInput {
      return .byLines(FileMerge.Refusal(side: .current, error: error.inFile(current.name)))
    }
    do {
      values.append(try YAMLStream.read(base.data, options: readOptions, warnings: base.warnings).values)
    } catch let error as PrefsError where error.category == .badInput {
      return .byLines(FileMerge.Refusal(side: .base, error: error.inFile(base.name)))
    }
    do {
      otherStream = try YAMLStream.read(other.data, options: readOptions, warnings: other.warnings)
    } catch let error as PrefsError where error.category == .badInput {
      return .byLines(FileMerge.Refusal(side: .other, error: error.inFile(other.name)))
    }
    let (baseValues, currentValues, otherValues) = (values[0], stream.values, otherStream.values)
    guard [baseValues, currentValues, otherValues].contains(where: { $0.count > 1 }) else { return nil }

    let plan: Plan
    do {
      plan = try Plan(base: baseValues, current: currentValues, other: otherValues)
    } catch let error as PrefsError {
      return .byLines(FileMerge.Refusal(side: nil, error: error))
    }
    var replacements: [Int: Data] = [:]
    var conflicts: [MergeConflict] = []
    var notes: [String] = []
    var merged = currentValues
    do {
      for (index, counterpart) in plan.merges {
        let result = ThreeWayMerge.merge(
          base: counterpart.base.map { baseValues[$0] } ?? .dictionary(PrefDictionary()),
          current: currentValues[index], other: otherValues[counterpart.other], options: options)
        merged[index] = result.value
        conflicts += result.conflicts.map { conflict in
          var named = conflict
          named.document = counterpart.label
          return named
        }
        guard result.value != currentValues[index] || !result.conflicts.isEmpty else { continue }
        try FileMerge.refuseConflictsThroughAliases(result, in: stream.documents[index])
        let marked = try FileMerge.keepingAliases(
          ConflictMarkers.text(of: stream.documents[index], merged: result, labels: labels, warnings: warnings),
          merged: result.value)
        replacements[index] = marked.data
        notes += marked.patch.notes.map { "\(counterpart.label) \($0)" }
      }
    } catch let error as PrefsError where error.category == .badInput {
      return .byLines(FileMerge.Refusal(side: nil, error: error))
    }
    let otherData = other.data.startIndex == 0 ? other.data : Data(other.data)
    let appended = plan.appended.map { Data(otherData[otherStream.documents[$0].range]) }
    merged =
      merged.enumerated().filter { !plan.removed.contains($0.offset) }.map(\.element)
      + plan.appended.map { otherValues[$0] }
    let data = stream.replacing(replacements, removing: plan.removed, appending: appended)
    return .merged(
      FileMerge.Merged(
        result: ThreeWayMerge.Result(value: .array(merged), conflicts: conflicts), format: .yaml, data: data,
        hasMarkers: !conflicts.isEmpty, notes: notes))
  }

  /// Whether `data` holds the bytes `needle`.
  private static func contains(_ data: Data, _ needle: [UInt8]) -> Bool {
    data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard bytes.count >= needle.count else { return false }
      return (0...(bytes.count - needle.count)).contains { start in
        bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle)
      }
    }
  }

  /// What happens to each document: which of CURRENT's are merged with which of the
  /// others, which go, and which of OTHER's are appended.
  struct Plan {
    /// CURRENT's documents that OTHER has too, by index, with their counterparts.
    var merges: [(Int, (base: Int?, other: Int, label: String))] = []
    /// CURRENT's documents that OTHER removed and CURRENT did not change.
    var removed: Set<Int> = []
    /// OTHER's documents that only it has, in its order.
    var appended: [Int] = []

    /// Lines the three streams up, or says why they cannot be.
    init(base: [PrefValue], current: [PrefValue], other: [PrefValue]) throws {
      guard let baseNames = YAMLStream.uniqueNames(of: base), let currentNames = YAMLStream.uniqueNames(of: current),
        let otherNames = YAMLStream.uniqueNames(of: other)
      else {
        guard base.count == current.count, current.count == other.count else {
          throw PrefsError(
            .unalignedDocuments(
              problem: "base, current and other hold \(base.count), \(current.count) and \(other.count) documents, "
                + "and not every document has a kind and a metadata.name to match them by"))
        }
        merges = current.indices.map { ($0, (base: $0, other: $0, label: "[\($0)]")) }
        return
      }
      func indexes(_ names: [String]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
      }
      let (inBase, inCurrent, inOther) = (indexes(baseNames), indexes(currentNames), indexes(otherNames))
      for (index, name) in currentNames.enumerated() {
        let label = "[\(name)]"
        switch (inBase[name], inOther[name]) {
        case (let b, let o?):
          merges.append((index, (base: b, other: o, label: label)))
        case (let b?, nil):
          guard base[b] == current[index] else {
            throw PrefsError(.unalignedDocuments(problem: "other removed \(label), which current changed"))
          }
          removed.insert(index)
        case (nil, nil):
          break
        }
      }
      for (index, name) in otherNames.enumerated() where inCurrent[name] == nil {
        if let b = inBase[name] {
          guard base[b] == other[index] else {
            throw PrefsError(.unalignedDocuments(problem: "current removed [\(name)], which other changed"))
          }
        } else {
          appended.append(index)
        }
      }
    }
  }
}
