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
  public let original: PrefDictionary?
  /// The text of a YAML file, which is edited as it is (comments and all); nil for
  /// anything else, which is shown as YAML and patched back into its own format.
  public let ownText: Data?
  /// The text the editor opens.
  public let initialText: Data

  /// Reads `domain` for editing.
  public init(_ domain: any PreferenceDomain, options: ReadOptions = ReadOptions()) throws {
    self.domain = domain
    original = try domain.read(options: options)
    ownText = Self.yamlText(of: domain)
    initialText = try ownText ?? Format.yaml.codec.encode(.dictionary(original ?? PrefDictionary()))
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
    if let ownText {
      if text == ownText { return .unchanged }
      let file = try LockedFile(domain.location)
      return try withExtendedLifetime(file) {
        try file.replace(expecting: ownText, with: text, newFileMode: 0o644, force: force)
          ? .written : .changedMeanwhile
      }
    }
    if try Format.yaml.codec.encode(.dictionary(contents)) == initialText { return .unchanged }
    let changedMeanwhile = try domain.write(
      contents, ifStill: original, force: force, options: options, dropNulls: dropNulls, warnings: warnings)
    return changedMeanwhile == nil ? .written : .changedMeanwhile
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
    do {
      try modify(force: force, dryRun: false, options: options, dropNulls: dropNulls, warnings: warnings) {
        current in
        guard current == original else { throw ChangedMeanwhile(current: current) }
        current = contents
      }
    } catch let changed as ChangedMeanwhile {
      return .some(changed.current)
    }
    return nil
  }
}

/// Leaves a change without writing anything: the domain holds `current`, not what was read.
private struct ChangedMeanwhile: Error {
  let current: PrefDictionary?
}
