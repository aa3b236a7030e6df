import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// A three-way merge of three versions of one file, as git's merge driver needs it:
/// by value (``ThreeWayMerge``, written into CURRENT's text by ``ConflictMarkers``)
/// when all three versions read and the result can be written in CURRENT's format;
/// else why not (``Refusal``), so that the caller merges the lines instead, as git
/// itself would. YAML streams of several documents merge document by document
/// (`StreamMerge`). ``isBinary(_:)`` says when git could not merge lines either.
public enum FileMerge {
  /// One of the three versions of the file.
  public struct Version: Sendable {
    /// The version's bytes.
    public let data: Data
    /// The path whose extension decides the format (nil: the content alone decides).
    public let path: String?
    /// How errors and warnings name the version.
    public let name: String
    /// What reading the version warned of.
    public let warnings = Warnings()

    /// A version with these bytes, read as a file at `path` and called `name` in messages.
    public init(_ data: Data, path: String?, name: String) {
      self.data = data
      self.path = path
      self.name = name
    }
  }

  /// One side of a merge.
  public enum Side: Sendable, Equatable {
    /// Our version, which the result replaces.
    case current
    /// The common ancestor.
    case base
    /// Their version, whose changes are merged in.
    case other
  }

  /// Why the values cannot be merged.
  public struct Refusal: Sendable {
    /// The version that does not read as a value; nil when all three do but the merged
    /// value cannot be written in CURRENT's format.
    public let side: Side?
    /// What failed, naming the version.
    public let error: PrefsError
  }

  /// A merge by value.
  public struct Merged: Sendable {
    /// The merged value and its conflicts; for YAML streams, the merged documents as
    /// an array, and the conflicts of each naming their document.
    public let result: ThreeWayMerge.Result
    /// CURRENT's format, which the bytes are in.
    public let format: Format
    /// CURRENT's text holding the merge, with markers at the conflicts; or, for a
    /// binary plist, the merged value written whole (CURRENT's value at each conflict).
    public let data: Data
    /// Whether ``data`` holds conflict markers (text formats with conflicts).
    public let hasMarkers: Bool
    /// What the user should know of the patch (entries written whole, and why).
    public let notes: [String]
  }

  /// What ``merge(current:base:other:readOptions:options:labels:dropNulls:warnings:)`` gives.
  public enum Outcome: Sendable {
    /// Merged by value.
    case merged(Merged)
    /// Not mergeable by value; merge the lines instead.
    case byLines(Refusal)
  }

  /// Merges the changes from `base` to `other` into `current` by value, or says why
  /// that is not possible. Only errors of bad input (what a reader refuses, what a
  /// writer cannot hold, such as a null in a plist) are a ``Refusal``; others are
  /// thrown. With `dropNulls`, a plist leaves out the nulls the merge brings it (each
  /// with a warning) instead.
  public static func merge(
    current: Version, base: Version, other: Version, readOptions: ReadOptions = ReadOptions(),
    options: ThreeWayMerge.Options = ThreeWayMerge.Options(), labels: ConflictMarkers.Labels = .init(),
    dropNulls: Bool = false, warnings: Warnings = Warnings()
  ) throws -> Outcome {
    // YAML streams of several documents merge document by document.
    if let streams = try StreamMerge.merge(
      current: current, base: base, other: other, readOptions: readOptions, options: options, labels: labels,
      warnings: warnings)
    {
      return streams
    }
    let value: PrefValue
    let format: Format
    let document: TextDocument?
    do {
      (value, format, document) = try TextDocument.read(
        current.data, path: current.path, options: readOptions, warnings: current.warnings)
    } catch let error as PrefsError where error.category == .badInput {
      return .byLines(Refusal(side: .current, error: error.inFile(current.name)))
    }
    var values: [PrefValue] = []
    var otherDocument: TextDocument?
    for (side, version) in [(Side.base, base), (.other, other)] {
      // A file both branches added merges from an empty base; a side that emptied a
      // file removed every entry.
      if TextEncoding.isBlank(version.data) {
        values.append(.dictionary(PrefDictionary()))
        continue
      }
      do {
        if side == .other {
          // OTHER's text too: what OTHER adds comes over as OTHER wrote it.
          let read = try TextDocument.read(
            version.data, path: version.path, options: readOptions, warnings: version.warnings)
          values.append(read.value)
          otherDocument = read.document
        } else {
          values.append(
            try Format.read(version.data, path: version.path, options: readOptions, warnings: version.warnings).value)
        }
      } catch let error as PrefsError where error.category == .badInput {
        return .byLines(Refusal(side: side, error: error.inFile(version.name)))
      }
    }
    var result = ThreeWayMerge.merge(base: values[0], current: value, other: values[1], options: options)
    if format == .openStep {
      result = XcodeMerge.duplicatesFound(base: values[0], current: value, other: values[1], in: result)
    }
    if format.isPlist, dropNulls { result.value = result.value.droppingNulls(warnings: warnings) }
    do {
      guard let document else {
        // A binary plist has no text to patch: it is written whole.
        let data = try format.codec.encode(result.value, options: WriteOptions(), warnings: warnings)
        return .merged(Merged(result: result, format: format, data: data, hasMarkers: false, notes: []))
      }
      let marked = try marked(
        result, current: document, lineMerged: lineMerged(current: current, base: base, other: other, as: document),
        other: otherDocument, labels: labels, warnings: warnings)
      return .merged(
        Merged(
          result: result, format: format, data: marked.data, hasMarkers: !result.conflicts.isEmpty,
          notes: marked.patch.notes))
    } catch let error as PrefsError where error.category == .badInput {
      return .byLines(Refusal(side: nil, error: error))
    }
  }

  /// CURRENT's lines with OTHER's changes merged in line by line, CURRENT's lines kept
  /// where both changed a stretch: the text a merge by value patches, so that what
  /// OTHER wrote (its comments, quoting, blank lines, the place of a new entry) comes
  /// over as OTHER wrote it, as a line merge would bring it. Nil when the lines merge
  /// to CURRENT's text, when a version is binary (or UTF-16), or when the merged
  /// lines do not read cleanly in CURRENT's format.
  static func lineMerged(current: Version, base: Version, other: Version, as document: TextDocument)
    -> TextDocument?
  {
    guard ![current, base, other].contains(where: { isBinary($0.data) }) else { return nil }
    let lines = LineMerge.merged(base: Array(base.data), current: Array(current.data), other: Array(other.data))
    let data = Data(lines.text)
    guard data != current.data else { return nil }
    let warnings = Warnings()
    guard let merged = try? TextDocument(data, format: document.format, options: document.options, warnings: warnings),
      warnings.all.isEmpty
    else { return nil }
    return merged
  }

  /// The merged value written into the line-merged text when that patches in place,
  /// else into CURRENT's text.
  private static func marked(
    _ result: ThreeWayMerge.Result, current: TextDocument, lineMerged: TextDocument?, other: TextDocument?,
    labels: ConflictMarkers.Labels, warnings: Warnings
  ) throws -> ConflictMarkers.Marked {
    try refuseConflictsThroughAliases(result, in: current)
    let patchWarnings = Warnings()
    if let lineMerged,
      let marked = try? ConflictMarkers.text(
        of: lineMerged, merged: result, labels: labels, warnings: patchWarnings, other: other),
      marked.patch.rewrittenWhole == nil, marked.patch.expandedAliases.isEmpty
    {
      for warning in patchWarnings.all { warnings.add(warning) }
      return marked
    }
    return try keepingAliases(
      ConflictMarkers.text(of: current, merged: result, labels: labels, warnings: warnings, other: other),
      merged: result.value)
  }

  /// `marked`, unless its patch writes out what an alias or merge key gives (`*x`,
  /// `<<: *x`): a copy that no longer follows its anchor is not what either side wrote,
  /// so the lines are merged instead (a side changed a value that the text holds only
  /// through an alias, or removed an anchor still used).
  /// Refuses a conflict at a value that CURRENT's text holds only through an alias or
  /// merge key: its markers would copy the anchored value, and the same conflict
  /// stands at the anchor.
  static func refuseConflictsThroughAliases(_ result: ThreeWayMerge.Result, in current: TextDocument) throws {
    guard let conflict = result.conflicts.first(where: { current.reachesThroughAlias($0.path) }) else { return }
    throw PrefsError(
      .unrepresentable(
        format: "yaml", kind: result.value.existingValue(at: conflict.path)?.kind ?? .dictionary, path: conflict.path,
        problem: "the conflict at \(conflict.path.nameInMessages) stands where an alias gives the value"))
  }

  static func keepingAliases(_ marked: ConflictMarkers.Marked, merged value: PrefValue) throws
    -> ConflictMarkers.Marked
  {
    guard let path = marked.patch.expandedAliases.first else { return marked }
    throw PrefsError(
      .unrepresentable(
        format: "yaml", kind: value.existingValue(at: path)?.kind ?? .dictionary, path: path,
        problem: "writing \(path.nameInMessages) would copy what an alias gives instead of keeping the alias"))
  }

  /// Whether git takes `data` for binary, and so merges no lines in it: a NUL byte in
  /// its first 8,000 bytes, as git's own test says.
  public static func isBinary(_ data: Data) -> Bool { data.prefix(8_000).contains(0) }
}
