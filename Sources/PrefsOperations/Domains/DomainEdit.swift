import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// What `prefs edit` does around the editor: the text it opens, and writing the
/// edit back only if the domain did not change meanwhile.
public struct DomainEdit: Sendable {
  /// How writing an edit back ended.
  public enum Outcome: Sendable, Equatable {
    /// The edit changed nothing; nothing was written.
    case unchanged
    /// The edit was written.
    case written
    /// The domain changed since it was read; nothing was overwritten.
    case changedMeanwhile
  }

  /// The domain edited.
  public let domain: any PreferenceDomain
  /// What it held when it was read.
  public let original: PrefValue?
  /// Whether the domain is a file whose root may be any value (a Munki catalog is an
  /// array), not only a dictionary.
  public let anyRoot: Bool
  /// The text of a YAML file, which is edited as it is (comments and all); nil for
  /// anything else, which is shown as YAML and patched back into its own format.
  public let ownText: Data?
  /// The text the editor opens.
  public let initialText: Data
  /// Whether the text shows data that holds JSON or a binary plist as structure.
  public let expandsData: Bool

  /// Reads `domain` for editing; with `anyRoot`, a file domain may hold any value at
  /// its root (a file named by path), else a dictionary.
  ///
  /// With `expandingData`, the text shows every blob that holds JSON (in any spacing
  /// or escaping) or a binary plist as structure (`!json`, `!plist`), as a view does;
  /// each blob left as data is a warning in `warnings`. Writing back keeps the bytes
  /// of each blob whose structure the edit left as it was. A YAML file, edited as its
  /// own text, is refused: its blobs are written there as its text writes them.
  public init(
    _ domain: any PreferenceDomain, options: ReadOptions = ReadOptions(), anyRoot: Bool = false,
    expandingData: Bool = false, warnings: Warnings = Warnings()
  ) throws {
    self.domain = domain
    let file = anyRoot ? domain as? FileDomain : nil
    self.anyRoot = file != nil
    original =
      try file.map { try $0.readValue(options: options) } ?? domain.read(options: options).map(PrefValue.dictionary)
    ownText = Self.yamlText(of: domain)
    expandsData = expandingData
    if expandingData, ownText != nil {
      throw PrefsError(
        .usage(
          "a YAML file is edited as its own text, which writes its data as it stands; data is shown "
            + "as structure only for other formats and domains"))
    }
    initialText =
      try ownText
      ?? Format.yaml.encode(
        original ?? .dictionary(PrefDictionary()), options: Self.textOptions(expandingData: expandingData),
        warnings: warnings)
  }

  /// How the text the editor opens is written: YAML in the value's own key order,
  /// its blobs shown as a view shows them when data is expanded.
  static func textOptions(expandingData: Bool) -> WriteOptions {
    var options = WriteOptions(expandData: expandingData)
    options.expansionMode = .view
    return options
  }

  /// The text of a YAML file, which is edited as it is; nil for anything else.
  static func yamlText(of domain: any PreferenceDomain) -> Data? {
    guard domain is FileDomain, let data = FileManager.default.contents(atPath: domain.location),
      Format.detect(data, path: domain.location) == .yaml
    else { return nil }
    return data
  }

  /// Writes the edit back: for a YAML file edited as its own text, `text` as it is;
  /// else `contents` (what `text` reads as) into the domain, changing only what
  /// changed. Under the domain's lock, what it holds is compared with what was read
  /// first; when it differs nothing is written. A null written into a plist domain is
  /// refused by its key path, or left out under `dropNulls`.
  public func writeBack(
    _ contents: PrefDictionary, text: Data, force: Bool = false, options: ReadOptions = ReadOptions(),
    dropNulls: Bool = false, warnings: Warnings = Warnings()
  ) throws -> Outcome {
    try writeBack(
      value: .dictionary(contents), text: text, force: force, options: options, dropNulls: dropNulls,
      warnings: warnings)
  }

  /// Writes the edit back as ``writeBack(_:text:force:options:dropNulls:warnings:)``
  /// does; `contents` may be any value where ``anyRoot``.
  public func writeBack(
    value contents: PrefValue, text: Data, force: Bool = false, options: ReadOptions = ReadOptions(),
    dropNulls: Bool = false, warnings: Warnings = Warnings()
  ) throws -> Outcome {
    if let ownText {
      if text == ownText { return .unchanged }
      let file = try LockedFile(domain.location)
      return try withExtendedLifetime(file) {
        try file.replace(expecting: ownText, with: text, newFileMode: 0o644, force: force)
          ? .written : .changedMeanwhile
      }
    }
    // Each blob shown as structure was read back as prefs writes it: the original
    // bytes where its structure is the same, else the original patched in its style.
    let contents = expandsData ? try contents.restoringBlobs(from: original) : contents
    if try Format.yaml.encode(contents, options: Self.textOptions(expandingData: expandsData)) == initialText {
      return .unchanged
    }
    guard anyRoot, let file = domain as? FileDomain else {
      let changedMeanwhile = try domain.write(
        contents.dictionaryValue ?? PrefDictionary(), ifStill: original?.dictionaryValue, force: force,
        options: options, dropNulls: dropNulls, warnings: warnings)
      return changedMeanwhile == nil ? .written : .changedMeanwhile
    }
    do {
      try file.modifyValue(force: force, options: options, dropNulls: dropNulls, warnings: warnings) { current in
        guard current == original else { throw ChangedMeanwhile() }
        current = contents
      }
    } catch is ChangedMeanwhile {
      return .changedMeanwhile
    }
    return .written
  }
}

extension PreferenceDomain {
  /// Writes `contents` into the domain (changing only what changed, through
  /// ``modify(force:dryRun:options:dropNulls:warnings:_:)``) if, under its lock, it
  /// still holds `original` (nil: it did not exist). Returns nil when written, else
  /// what the domain holds instead (nothing is then written).
  package func write(
    _ contents: PrefDictionary, ifStill original: PrefDictionary?, force: Bool = false,
    options: ReadOptions = ReadOptions(), dropNulls: Bool = false, warnings: Warnings = Warnings()
  ) throws -> PrefDictionary?? {
    var found: PrefDictionary?
    do {
      try modify(force: force, dryRun: false, options: options, dropNulls: dropNulls, warnings: warnings) {
        current in
        guard current == original else {
          found = current
          throw ChangedMeanwhile()
        }
        current = contents
      }
    } catch is ChangedMeanwhile {
      return .some(found)
    }
    return nil
  }
}

extension PrefValue {
  /// This value, an edit of `original`, with each blob in the bytes of the blob
  /// `original` holds at the same key path, where both hold structure of one kind:
  /// that blob's very bytes when the structure is the same, else its bytes for the new
  /// structure (``EmbeddedDocument/bytes(for:)``: its JSON patched in its own spacing
  /// and escaping). A blob inside a blob is restored first. A blob that cannot hold
  /// its new structure (plain JSON has no date) is refused by its key path.
  func restoringBlobs(from original: PrefValue?, at path: PrefKeyPath = PrefKeyPath()) throws -> PrefValue {
    guard let original else { return self }
    switch (self, original) {
    case (.data(let new), .data(let old)):
      guard new != old, let document = EmbeddedDocument(old), let edited = EmbeddedDocument(new),
        edited.kind == document.kind
      else { return self }
      let structure = try edited.value.restoringBlobs(from: document.value, at: path)
      do {
        return .data(try document.bytes(for: structure))
      } catch let error as PrefsError {
        guard case .unrepresentable(let format, let kind, nil, let problem) = error.kind else { throw error }
        throw PrefsError(
          .unrepresentable(format: format, kind: kind, path: path, problem: "\(path.nameInMessages): \(problem)"))
      }
    case (.dictionary(var dict), .dictionary(let old)):
      for (key, value) in dict {
        dict[key] = try value.restoringBlobs(from: old[key], at: path.appending(key: key))
      }
      return .dictionary(dict)
    case (.array(let items), .array(let old)):
      return .array(
        try items.enumerated().map { index, item in
          try item.restoringBlobs(from: index < old.count ? old[index] : nil, at: path.appending(index: index))
        })
    default:
      return self
    }
  }
}

/// Leaves a change without writing anything: the domain holds something else than what was read.
private struct ChangedMeanwhile: Error {}
