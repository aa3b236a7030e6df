import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText

/// A domain kept in one file: a file of the Linux store, or any preference file
/// named by path. Writes go through ``AtomicFile`` under a ``FileLock`` on the file
/// (or on its folder while it does not exist yet): no lock file is made.
public struct FileDomain: PreferenceDomain {
  public let path: String
  public let name: String
  /// The format of a new file; an existing file keeps the format it has.
  public let newFileFormat: Format
  /// The mode of a new file.
  public let newFileMode: mode_t
  /// Whether a missing folder is created on the first write, as the store's is.
  public let createsFolder: Bool
  /// The mode of a folder created on the first write (and of any missing above it).
  public let newFolderMode: mode_t
  /// The document of a YAML stream the domain is (an index from 0, or `Kind/name`):
  /// a change patches that document's bytes alone. Nil: the file holds one document.
  public let document: String?

  /// A domain in the file at `path`, called `name` in messages.
  public init(
    path: String, name: String? = nil, newFileFormat: Format? = nil, newFileMode: mode_t = 0o644,
    createsFolder: Bool = false, newFolderMode: mode_t = 0o700, document: String? = nil
  ) {
    self.path = path
    self.name = name ?? path
    let byExtension = Format.forPath(path)
    self.newFileFormat = newFileFormat ?? (byExtension?.isWritable == true ? byExtension! : .xml)
    self.newFileMode = newFileMode
    self.createsFolder = createsFolder
    self.newFolderMode = newFolderMode
    self.document = document
  }

  public var location: String { path }

  public var fileMode: mode_t? {
    var info = stat()
    return RawPath.withCString(path, { stat($0, &info) }) == 0 ? info.st_mode & 0o777 : nil
  }

  public func read(options: ReadOptions = ReadOptions()) throws -> PrefDictionary? {
    try load(options: options)?.contents
  }

  public func read(options: ReadOptions, warnings: Warnings) throws -> PrefDictionary? {
    try load(options: options, warnings: warnings)?.contents
  }

  /// The file's value whatever its root (a Munki catalog is an array), or nil when
  /// there is no file: a file named by path, which need not be a domain.
  public func readValue(options: ReadOptions = ReadOptions()) throws -> PrefValue? {
    try loadValue(options: options)?.value
  }

  /// The file's contents and format, or nil when there is no file. `forEditing` reads a
  /// text file with its source map, for writing changes back into its text.
  func load(options: ReadOptions, forEditing: Bool = false, warnings: Warnings = Warnings()) throws -> (
    contents: PrefDictionary, format: Format, document: TextDocument?, stream: (DocumentStream, index: Int)?
  )? {
    guard let loaded = try loadValue(options: options, forEditing: forEditing, warnings: warnings) else { return nil }
    guard case .dictionary(let dict) = loaded.value else {
      throw PrefsError(.domainNotDictionary(holds: loaded.value.kind), file: path)
    }
    return (dict, loaded.format, loaded.document, loaded.stream)
  }

  /// The file's value, whatever its root, and its format, or nil when there is no file;
  /// an empty file is an empty dictionary.
  func loadValue(options: ReadOptions, forEditing: Bool = false, warnings: Warnings = Warnings()) throws -> (
    value: PrefValue, format: Format, document: TextDocument?, stream: (DocumentStream, index: Int)?
  )? {
    var info = stat()
    guard RawPath.withCString(path, { stat($0, &info) }) == 0 else {
      if errno == ENOENT { return nil }
      throw PrefsError(.io(.status, errno: errno), file: path)
    }
    let data = try InputFile.read(path, limit: options.maxInputBytes)
    // An empty file holds nothing to lose: it reads as an empty domain, as a byte
    // order mark alone does in every reader.
    if TextEncoding.isBlank(data) {
      return (.dictionary(PrefDictionary()), newFileFormat, nil, nil)
    }
    do {
      var document: TextDocument?
      var stream: (DocumentStream, index: Int)?
      let value: PrefValue
      let format: Format
      if let selector = self.document {
        (value, document, stream) = try load(
          selector, of: data, options: options, forEditing: forEditing, warnings: warnings)
        format = .yaml
      } else if forEditing {
        (value, format, document) = try TextDocument.read(data, path: path, options: options, warnings: warnings)
      } else {
        (value, format) = try Format.read(data, path: path, options: options, warnings: warnings)
      }
      return (value, format, document, stream)
    } catch let error as PrefsError {
      throw error.inFile(path)
    }
  }

  /// The document `selector` picks in the YAML stream `data`, with the stream to
  /// patch it in when `forEditing`.
  private func load(_ selector: String, of data: Data, options: ReadOptions, forEditing: Bool, warnings: Warnings)
    throws -> (PrefValue, TextDocument?, (DocumentStream, index: Int)?)
  {
    guard Format.detect(data, path: path) ?? .yaml == .yaml else {
      throw PrefsError(
        .noSuchDocument(selector: selector, names: [nil]), hints: ["only a YAML stream holds several documents"])
    }
    if forEditing {
      // Written whole, one document would replace the stream: only its own bytes may change.
      guard let stream = try DocumentStream(data, options: options, warnings: warnings) else {
        throw PrefsError(
          .other(.cannotCreate, "a YAML stream that is not UTF-8 cannot be changed one document at a time"))
      }
      let index = try stream.index(of: selector)
      return (stream.documents[index].value, stream.documents[index], (stream, index))
    }
    let stream = try YAMLStream.read(data, options: options, warnings: warnings)
    return (stream.documents[try stream.index(of: selector)].value, nil, nil)
  }

  /// The file's bytes and mode, or ``DomainSnapshot/missing`` when there is no file.
  public func snapshot() throws -> DomainSnapshot {
    var info = stat()
    guard RawPath.withCString(path, { stat($0, &info) }) == 0 else {
      if errno == ENOENT { return .missing }
      throw PrefsError(.io(.status, errno: errno), file: path)
    }
    return .file(contents: try InputFile.read(path), mode: info.st_mode & 0o7777)
  }

  /// Writes the snapshot's bytes back (an existing file keeps its mode, a new one gets
  /// the snapshot's), or removes the file when there was none; a value is written as a
  /// change would write it.
  public func restore(_ snapshot: DomainSnapshot) throws {
    if case .value(let contents) = snapshot {
      try modify { $0 = contents }
      return
    }
    let file = try LockedFile(path)
    try withExtendedLifetime(file) {
      if case .file(let contents, let mode) = snapshot {
        try file.write(contents, newFileMode: mode)
      } else {
        try file.remove()
      }
    }
  }

  @discardableResult
  public func modify(
    force: Bool = false, dryRun: Bool = false, options: ReadOptions = ReadOptions(), dropNulls: Bool = false,
    warnings: Warnings = Warnings(), _ body: (inout PrefDictionary?) throws -> Void
  ) throws -> (before: PrefDictionary?, after: PrefDictionary?) {
    let (before, after) = try modifyValue(
      force: force, dryRun: dryRun, options: options, dropNulls: dropNulls, warnings: warnings, anyRoot: false
    ) { value in
      var contents = value?.dictionaryValue
      try body(&contents)
      value = contents.map(PrefValue.dictionary)
    }
    return (before?.dictionaryValue, after?.dictionaryValue)
  }

  /// Changes the file as ``modify(force:dryRun:options:dropNulls:warnings:_:)`` does,
  /// handing `body` its value whatever its root when `anyRoot` (a Munki catalog or an
  /// Xcode snippet is an array): a file named by path is a file, where a domain is a
  /// dictionary. Without `anyRoot`, a root that is not a dictionary is an unreadable
  /// domain, as for a domain.
  @discardableResult
  public func modifyValue(
    force: Bool = false, dryRun: Bool = false, options: ReadOptions = ReadOptions(), dropNulls: Bool = false,
    warnings: Warnings = Warnings(), anyRoot: Bool = true, _ body: (inout PrefValue?) throws -> Void
  ) throws -> (before: PrefValue?, after: PrefValue?) {
    if createsFolder, !dryRun {
      let folder = path.deletingLastPathComponent
      if !folder.isEmpty { try makeFolders(folder, mode: newFolderMode, what: "the folder") }
    }
    let file = try LockedFile(path, removingStaleTemporaries: !dryRun)
    defer { withExtendedLifetime(file) {} }

    var before: PrefValue?
    var format = newFileFormat
    var corrupt: Data?
    var document: TextDocument?
    var stream: (DocumentStream, index: Int)?
    // A key a dictionary gives twice (read under `allowDuplicateKeys`) has no one place
    // to patch: such a file is written anew, each key once with its last value.
    var dropsDuplicates = false
    // What reading the domain notes (a duplicate key kept last, a null dropped) is
    // told; the YAML 1.1 readings of its own scalars are not what a change asked about.
    var domainOptions = options
    domainOptions.warnsOfYAMLAmbiguities = false
    do {
      if let loaded = try loadValue(options: domainOptions, forEditing: !dryRun, warnings: warnings) {
        if !anyRoot, loaded.value.dictionaryValue == nil {
          throw PrefsError(.domainNotDictionary(holds: loaded.value.kind), file: path)
        }
        before = loaded.value
        format = loaded.format
        document = loaded.document
        stream = loaded.stream
        if options.allowDuplicateKeys, document?.map.hasDuplicateKeys == true {
          document = nil
          dropsDuplicates = true
        }
      }
    } catch let error as PrefsError where error.category == .badInput {
      // A stream read as one document is not broken: it wants a document picked.
      if case .severalDocuments = error.kind { throw error }
      guard force else {
        var refusal = error
        refusal.kind = .unreadableDomain(backup: path + ".bak", cause: error.kind)
        throw refusal
      }
      corrupt = try InputFile.read(path)
    }
    if !format.isWritable { format = .xml }

    var after = before
    try body(&after)
    // A plist holds no null: left out here when asked, else refused by the writer.
    if format.isPlist, let contents = after {
      if dropNulls {
        after = contents.droppingNulls(warnings: warnings)
      } else if dryRun, let refusal = contents.nullRefusal {
        // What the write would refuse, a trial refuses too.
        throw refusal.inFile(path)
      }
    }
    if dryRun { return (before, after) }

    if let corrupt {
      // A symlink planted at the backup's name is replaced, never written through.
      try AtomicFile.write(corrupt, to: path + ".bak", newFileMode: 0o600, force: true, followingLinks: false)
    }
    if let after {
      if corrupt == nil, let document {
        // A text file is the user's: only the bytes of what changed change (and none
        // when nothing did).
        let patch = try document.patched(to: after, warnings: warnings)
        for note in patch.notes { warnings.add(note) }
        // In a stream, the other documents keep their bytes.
        let data = stream.map { $0.replacing([$1: patch.data]) } ?? patch.data
        if patch.changed { try file.write(data, newFileMode: newFileMode, force: force) }
      } else if after != before || corrupt != nil || before == nil {
        if dropsDuplicates {
          warnings.add(
            "written anew without its duplicate keys (the last value of each kept); its comments and layout were not kept"
          )
        }
        if let (stream, index) = stream {
          let written = try format.codec.encode(after, options: WriteOptions(), warnings: warnings)
          try file.write(stream.replacing([index: written]), newFileMode: newFileMode, force: force)
        } else {
          try file.write(newFileMode: newFileMode, force: force) { writer in
            try format.codec.write(after, to: writer, options: WriteOptions(), warnings: warnings)
          }
        }
      }
    } else if before != nil || corrupt != nil {
      try file.remove()
    }
    return (before, after)
  }
}
