import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// `prefs import`: a dictionary stored in a domain, replacing what it holds or merged
/// into it. Keys that the excludes match are neither imported nor removed.
public struct DomainImport: Sendable {
  /// How the input meets what the domain holds.
  public enum Mode: Sendable {
    /// The domain becomes the input (keeping what the excludes match).
    case replace
    /// The input's top-level keys are set in the domain; the others stay.
    case merge
  }

  public var mode: Mode
  /// The keys left alone on both sides.
  public var excludes: [KeyGlob]

  /// An import that replaces or merges, leaving alone what `excludes` match.
  public init(mode: Mode = .replace, excluding excludes: [KeyGlob] = []) {
    self.mode = mode
    self.excludes = excludes
  }

  /// `input` without the keys the excludes match: what the import stores.
  public func incoming(_ input: PrefDictionary) -> PrefDictionary {
    PrefValue.dictionary(input).excluding(excludes).dictionaryValue ?? PrefDictionary()
  }

  /// What the domain holds after importing `input` into `contents`.
  public func imported(_ input: PrefDictionary, into contents: PrefDictionary?) -> PrefDictionary? {
    let incoming = incoming(input)
    switch mode {
    case .merge:
      var merged = contents ?? PrefDictionary()
      for (key, value) in incoming { merged[key] = value }
      return merged
    case .replace:
      // Replace, but keep what the excludes protect.
      let old = PrefValue.dictionary(contents ?? PrefDictionary())
      return PrefValue.dictionary(incoming).merging(old.onlyMatching(excludes)).dictionaryValue
    }
  }

  /// Imports `input` into `domain` under its lock (``PreferenceDomain/modify(force:dryRun:options:dropNulls:warnings:_:)``):
  /// with `dryRun` nothing is written, and the change says what would change. A domain
  /// in the store is a plist, which holds no null: a null in `input` is refused by its
  /// key path, or left out with a warning under `dropNulls`.
  public func run(
    _ input: PrefDictionary, into domain: any PreferenceDomain, dryRun: Bool = false, force: Bool = false,
    options: ReadOptions = ReadOptions(), dropNulls: Bool = false, warnings: Warnings = Warnings()
  ) throws -> DomainChange {
    let (before, after) = try domain.modify(
      force: force, dryRun: dryRun, options: options, dropNulls: dropNulls, warnings: warnings
    ) { contents in
      contents = imported(input, into: contents)
    }
    return DomainChange(before: before, after: after)
  }

  /// What fitting an import's input to a schema gives.
  public struct SchemaFit: Sendable {
    /// The input with the schema's coercions made.
    public var fitted: PrefDictionary
    /// The coercions made, to be reported; none under `strict`, which refuses instead.
    public var coercions: [Coercion]
    /// What the schema notes that does not refuse the import.
    public var warnings: [SchemaFinding]
    /// What refuses the import (nothing is imported then): a value the app would
    /// still discard, or under `strict` any value of the wrong type.
    public var refusals: [SchemaFinding]
  }

  /// `input` fitted to `schema` by its documented coercions (``Schema/coerce(_:at:)``).
  /// Data that does not decode as the app's `Codable` type refuses the import unless
  /// `acceptingUndecodableData`, when it is a warning.
  public static func fit(
    _ input: PrefDictionary, to schema: Schema, strict: Bool, acceptingUndecodableData: Bool = false
  ) -> SchemaFit {
    let (coerced, coercions, remaining) = schema.coerce(input)
    func refuses(_ finding: SchemaFinding) -> Bool {
      if acceptingUndecodableData, case .undecodable = finding.problem { return false }
      return finding.isError
    }
    let refusals = strict ? schema.check(input).filter(refuses) : remaining.filter(refuses)
    return SchemaFit(
      fitted: coerced, coercions: strict ? [] : coercions, warnings: remaining.filter { !refuses($0) },
      refusals: refusals)
  }

  /// The key globs the export that made the backup folder `folder` left out (its
  /// ``DomainExport/excludedKeysFile``), none when it left none out.
  public static func backupExcludes(in folder: String) throws -> [KeyGlob] {
    let file = folder.appendingPathComponent(DomainExport.excludedKeysFile)
    guard FileManager.default.fileExists(atPath: file) else { return [] }
    guard let data = FileManager.default.contents(atPath: file) else {
      throw PrefsError(.other(.badInput, "cannot read the record of the keys the backup left out"), file: file)
    }
    return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
      .map { KeyGlob(String($0)) }
  }

  /// This import, for a restore of the backup folder `folder`: it also leaves alone,
  /// in every domain, the keys the backup left out (``backupExcludes(in:)``), which a
  /// replace would otherwise remove.
  public func restoring(from folder: String) throws -> DomainImport {
    var restore = self
    for glob in try Self.backupExcludes(in: folder) where !restore.excludes.contains(glob) {
      restore.excludes.append(glob)
    }
    return restore
  }

  /// The files of a backup folder (as `export --all` writes it) that have a format's
  /// extension, sorted, each with the domain its name gives (`com.example.app.yaml`).
  public static func backupFiles(in folder: String) throws -> [(domain: String, file: String)] {
    guard isFolder(folder) == true else {
      throw PrefsError(.notFound(.folder), file: folder)
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    return names.compactMap { file in
      guard !file.hasPrefix("."), Format.forPath(file) != nil else { return nil }
      let name = file.deletingPathExtension
      return (name, folder.appendingPathComponent(file))
    }
  }
}
