import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// `prefs export` to files: a domain's contents written anew in one format, or with
/// ``updating`` patched into the export that is there, and every domain of a store
/// one file each (`export --all`).
public struct DomainExport: Sendable {
  /// The format of a file written anew.
  public var format: Format
  /// How files written anew are written (an export sorts its keys).
  public var options: WriteOptions
  /// The keys left out.
  public var excludes: [KeyGlob]
  /// Whether an existing file is patched rather than written anew (``update(_:with:options:warnings:)``).
  public var updating: Bool
  /// The format asked for, which a file that is updated must already have; nil when
  /// none was asked for.
  public var askedFormat: Format?

  /// An export in `format`.
  public init(
    format: Format, options: WriteOptions = WriteOptions(sortKeys: true), excluding excludes: [KeyGlob] = [],
    updating: Bool = false, askedFormat: Format? = nil
  ) {
    self.format = format
    self.options = options
    self.excludes = excludes
    self.updating = updating
    self.askedFormat = askedFormat
  }

  /// `contents` without the keys the excludes match: what the export holds.
  public func exported(_ contents: PrefDictionary) -> PrefValue {
    PrefValue.dictionary(contents).excluding(excludes)
  }

  /// Whether writing to `path` updates the file there rather than writing it anew.
  public func updates(_ path: String) -> Bool {
    updating && FileManager.default.fileExists(atPath: path)
  }

  /// Refreshes the export at `path` to hold `value`, under its lock: only the bytes of
  /// what changed change (its comments and key order stay), new keys go where the
  /// canonical order puts them, and the file keeps its own format; asking for another
  /// (``askedFormat``) is a usage error.
  @discardableResult
  public func update(
    _ path: String, with value: PrefValue, options: ReadOptions = ReadOptions(),
    warnings: Warnings = Warnings()
  ) throws -> DomainChange {
    if let asked = askedFormat, let data = FileManager.default.contents(atPath: path),
      let found = Format.detect(data, path: path), found != asked
    {
      throw PrefsError(
        .usage("\(RawPath.display(path)) is \(found.name), not \(asked.name): an update keeps the file's format"))
    }
    let (before, after) = try FileDomain(path: path).modify(
      force: false, dryRun: false, options: options, dropNulls: self.options.dropNulls, warnings: warnings
    ) { contents in
      // New keys go where the canonical order puts them, after their neighbours.
      contents = value.dictionaryValue?.sortedDeep()
    }
    return DomainChange(before: before, after: after)
  }

  /// Whether writing an export anew over the file at `path` would lose text of the
  /// file's own: it reads as a text format, and is not what that format's writer
  /// gives back from its value (it holds comments, blank lines, another key order or
  /// layout), or it does not read at all. A missing file and a binary plist, which
  /// holds no text, lose nothing.
  public func overwriteLosesText(at path: String) -> Bool {
    guard let data = FileManager.default.contents(atPath: path) else { return false }
    guard let (value, found) = try? Format.read(data, path: path) else { return true }
    guard found != .binary else { return false }
    let written = try? found.encode(value, options: found == format ? options : WriteOptions(sortKeys: true))
    return written != data
  }

  /// Writes `value` anew to the file at `path`, atomically. With `mode` (the source's),
  /// a new file gets it and an existing one is narrowed to it, so that a copy of a
  /// private domain stays private.
  public func write(_ value: PrefValue, to path: String, mode: mode_t?, warnings: Warnings = Warnings()) throws {
    var options = options
    // A `.strings` file is written as genstrings writes one.
    options.stringsFile = format == .openStep && path.hasSuffix(".strings")
    try AtomicFile.write(to: path, newFileMode: mode ?? 0o644, modeLimit: mode ?? 0o7777) { writer in
      try format.write(value, to: writer, options: options, warnings: warnings)
    }
  }

  /// Exports the domains of `store` called `names` (for `export --all`, all of them:
  /// ``DomainStore/domainNames()``) into `folder` (made when missing), one file each
  /// named by ``fileName(for:)``: written anew, or updated when ``updating`` and the
  /// file is there. A domain that is gone by the time it is read is skipped. What
  /// reading and writing warn of is added to `warnings`, naming the domain or file;
  /// `willExport` is told each domain's name before it is exported. The keys left out
  /// are recorded in the folder (``recordExcludes(in:)``), for a restore to leave alone.
  public func export(
    _ names: [String], of store: any DomainStore, into folder: String, readOptions: ReadOptions = ReadOptions(),
    warnings: Warnings = Warnings(), willExport: (String) -> Void = { _ in }
  ) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try recordExcludes(in: folder)
    for name in names {
      willExport(name)
      let domain = try store.domain(named: name)
      let readWarnings = Warnings()
      let found = try domain.read(options: readOptions, warnings: readWarnings)
      warnings.add(readWarnings, file: domain.location)
      guard let contents = found else { continue }
      let file = folder.appendingPathComponent(fileName(for: name))
      let fileWarnings = Warnings()
      if updates(file) {
        defer { warnings.add(fileWarnings, file: file) }
        try update(file, with: exported(contents), options: readOptions, warnings: fileWarnings)
      } else {
        let shown = RawPath.display(file)
        do {
          try write(exported(contents), to: file, mode: domain.fileMode, warnings: fileWarnings)
        } catch let error as PrefsError {
          throw error.inFile(shown)
        }
        warnings.add(fileWarnings, file: shown)
      }
    }
  }

  /// The file an export into a folder leaves there when it left keys out: the key
  /// globs, one a line, that a restore of the folder (``DomainImport/restoring(from:)``)
  /// leaves alone in every domain, since the backup does not hold them. A hidden file,
  /// so that no domain is named by it.
  public static let excludedKeysFile = ".prefs-excluded"

  /// Records in `folder` the keys this export leaves out (``excludedKeysFile``), or
  /// removes an earlier record when it leaves none out, so that the record always
  /// says what the folder's files lack.
  public func recordExcludes(in folder: String) throws {
    let file = folder.appendingPathComponent(Self.excludedKeysFile)
    let patterns = excludes.map(\.pattern).filter { !$0.contains("\n") }
    guard !patterns.isEmpty else {
      if FileManager.default.fileExists(atPath: file) { try FileManager.default.removeItem(atPath: file) }
      return
    }
    try AtomicFile.write(Data(patterns.map { $0 + "\n" }.joined().utf8), to: file)
  }

  /// The name of the file an export into a folder gives a domain: its name and the format's
  /// extension, `.plist` for both plist formats.
  public func fileName(for domain: String) -> String {
    "\(domain).\(format.isPlist ? "plist" : format.extensions.first ?? format.name)"
  }
}
