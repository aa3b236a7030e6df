extension PrefsError {
  /// What failed: one case for each failure a caller may handle. The error's
  /// ``PrefsError/category`` and ``PrefsError/message`` follow from it; no message
  /// names a command-line option, so a program words its own advice from the kind.
  ///
  /// A format is named by its name in the format table (`xml`, `binary`, `json`,
  /// `yaml`, `openstep`).
  public indirect enum Kind: Sendable, Equatable {
    // MARK: Reading

    /// The input breaks its format's grammar, found at `stage` of reading it.
    case syntax(format: String, stage: SyntaxStage, problem: String)
    /// A dictionary gives `key` twice.
    case duplicateKey(String)
    /// Arrays and dictionaries nest deeper than `limit` levels; `detail` says how
    /// (which YAML alias brought the levels).
    case tooDeep(limit: Int, detail: String? = nil)
    /// YAML aliases expand to more than `limit` nodes in all.
    case aliasBudget(limit: Int)
    /// The input is larger than `limit` bytes: `size` bytes, or (from a pipe) more.
    case inputTooLarge(size: Int?, limit: Int)
    /// A YAML stream holds several documents where one is expected: each document's
    /// name (`Kind/name`, from `kind` and `metadata.name`) or nil, in order. With
    /// `target`, the format asked for holds one document.
    case severalDocuments(names: [String?], target: String? = nil)
    /// No document of a YAML stream is the one `selector` picks (an index from 0, or
    /// `Kind/name`); `names` are the stream's, as in ``severalDocuments(names:target:)``.
    case noSuchDocument(selector: String, names: [String?])
    /// The documents of three YAML streams cannot be lined up for a merge: `problem`
    /// says why (not all named and not as many, or a document one side removed and
    /// the other changed).
    case unalignedDocuments(problem: String)
    /// A file named as a property list holds JSON, and reading it as a plist failed
    /// with `cause`.
    case jsonInPlistFile(cause: Kind)
    /// The input is plainly binary and no property list (an executable, an image,
    /// an archive): no format of the table reads it.
    case notAPreferenceFile
    /// A domain's file holds something other than a dictionary.
    case domainNotDictionary(holds: PrefValue.Kind)
    /// A domain's file cannot be read (`cause`), so it was not changed; forcing the
    /// change replaces it and keeps the old bytes in `backup`.
    case unreadableDomain(backup: String, cause: Kind)

    // MARK: Writing

    /// A null at `path`, which a property list (and so a domain) cannot hold: refused
    /// where a plist is written, unless the writer is asked to drop nulls
    /// (`WriteOptions.dropNulls`).
    case null(path: PrefKeyPath)

    /// A value of `kind` at `path` (when known) that `format` cannot hold.
    case unrepresentable(format: String, kind: PrefValue.Kind, path: PrefKeyPath?, problem: String)
    /// A real (infinity or NaN) that plain JSON cannot hold.
    case nonFiniteReal(Double, path: PrefKeyPath)
    /// The library `writer` (libyaml, `PropertyListSerialization`) refused to write.
    case writerFailed(writer: String, problem: String)

    // MARK: Values typed as text

    /// `text` does not read as what was asked for (`expected`: `an integer (64 bits)`).
    case invalidValue(text: String, expected: String)
    /// `text`, given without a type, does not read as the `holds` kind that `key` has.
    case typeMismatch(text: String, key: String, holds: PrefValue.Kind)
    /// `text` is not data in the `expected` spelling; `readsAsOther`: the other
    /// spelling reads it.
    case invalidData(text: String, expected: DataSpelling, readsAsOther: Bool)
    /// `text` reads both as hex and as base64 (as base64 it is `base64`).
    case ambiguousData(text: String, base64: Data)

    // MARK: Key paths

    /// The dictionary at `in` has no key `key` (nor `dotted`, the rest of the path
    /// read as one key with dots). `needsParents`: the path goes on past the missing
    /// key, and creating missing dictionaries on the way would make it.
    case noSuchKey(in: PrefKeyPath, key: String, dotted: String? = nil, needsParents: Bool = false)
    /// `index` names no item of the array at `in`, of `count` items.
    case noSuchIndex(in: PrefKeyPath, index: String, count: Int)
    /// The value at `at` is of `kind`, which holds no `key`.
    case notAContainer(at: PrefKeyPath, kind: PrefValue.Kind, key: String)
    /// A key path goes on into data that holds a JSON document or a binary plist
    /// (`format`: `json`, `binary`), which the walk was not asked to open: `cause` is
    /// what the data gives as data.
    case embeddedStructure(format: String, cause: Kind)

    // MARK: Files and domains

    /// A file, folder, domain or snapshot that must exist does not.
    case notFound(Missing)
    /// A folder where a file was to be read, or (`writing`) written.
    case isDirectory(writing: Bool)
    /// A system call failed with `errno`.
    case io(IOOperation, errno: Int32)
    /// Another process held the lock for `seconds`.
    case lockTimeout(seconds: Int)
    /// A file whose mode lets no one write it (`mode`), which a write would replace.
    case readOnly(mode: mode_t)
    /// A file owned by `uid` and `gid`, which this process cannot give a new file.
    case ownerNotKept(uid: UInt32, gid: UInt32)
    /// A domain name that could escape the store or names nothing (`problem` says which).
    case invalidDomainName(String, problem: String)
    /// Text given as a host's UUID that is not one: a per-host (ByHost) file name
    /// carries 8-4-4-4-12 hex digits, or the 12 of an older Mac's Ethernet address.
    case invalidHostUUID(String)
    /// No host to address a store's per-host preferences with: none was given, and no
    /// file in `folder` (`DOMAIN.UUID.plist`) names one.
    case noHostUUID(folder: String)
    /// The per-host files of a store are of several hosts (`uuids`, as the files spell
    /// them, sorted), and none was chosen.
    case severalHostUUIDs([String])
    /// CFPreferences reaches the current host's preferences only, not those of the
    /// host `uuid` names.
    case otherHost(uuid: String)
    /// Standard input was given as a domain to change.
    case standardInputNotChangeable
    /// The preferences daemon did not save a domain (macOS).
    case notSaved
    /// Memory ran out in libyaml, `doing` something (`reading YAML`).
    case outOfMemory(doing: String)

    // MARK: Formats and operations

    /// A format name the table does not have; `suggestion`: a near one.
    case unknownFormat(String, suggestion: String?)
    /// A schema that is itself wrong at `path`.
    case schema(path: PrefKeyPath, problem: String)
    /// A settings file whose shape is wrong (a domain's settings that are no dictionary).
    case settings(problem: String)
    /// A configuration profile whose shape is wrong: no payloads, a payload without a
    /// type, a signed profile whose DER or CMS structure breaks off.
    case profile(problem: String)
    /// A configuration-profile payload whose value at `path` (from the domain) its
    /// device-management schema refuses.
    case payloadRefused(path: PrefKeyPath, problem: String)
    /// A file that is not a snapshot of `apply`.
    case notASnapshot
    /// `id` is the start of `count` snapshots' names.
    case ambiguousSnapshot(id: String, count: Int)
    /// A file or folder that must be the user's own and is not (another owner, a
    /// mode that lets others in, a symbolic link), or a snapshot entry naming a place
    /// its domain is not: `problem` says which.
    case untrusted(problem: String)
    /// Merged text that cannot be read back to place conflict markers in.
    case conflictMarkers(format: String)
    /// Domains changed since an apply wrote them, which putting back its snapshot
    /// would lose: each with the key paths that changed.
    case changedSinceApply([ChangedKeys])

    // MARK: Other

    /// The program was called wrongly, in its own words.
    case usage(String)
    /// A failure the library does not classify: a program's own, or another
    /// library's error carried in words.
    case other(Category, String)
  }

  /// One domain's key paths that changed (``Kind/changedSinceApply(_:)``).
  public struct ChangedKeys: Sendable, Hashable {
    /// The domain's name, as messages use it.
    public var domain: String
    /// The key paths that changed, in canonical order; the empty path is the whole domain.
    public var paths: [PrefKeyPath]

    /// The key paths `paths` of `domain`.
    public init(domain: String, paths: [PrefKeyPath]) {
      self.domain = domain
      self.paths = paths
    }
  }

  /// Where in reading a syntax error was found. Every reader works in these stages,
  /// as libyaml does: bytes to characters, characters to tokens, tokens to structure,
  /// structure to values.
  public enum SyntaxStage: String, Sendable, Equatable {
    /// The bytes are not text in the expected encoding (invalid UTF-8, a control
    /// character where none may be).
    case reader
    /// A token is malformed (an unterminated string, a bad escape, a tab indenting YAML).
    case scanner
    /// The tokens do not make the format's structure (a missing `]`, a tag not closed).
    case parser
    /// The structure does not make a value (an unknown tag or alias, a number out of
    /// range, a key that is not a string).
    case composer
  }

  /// The two spellings of data typed as text.
  public enum DataSpelling: String, Sendable, Equatable {
    /// Two hex digits a byte (`0a1b2c`), as `defaults` takes data.
    case hex
    /// Base64 text.
    case base64
  }

  /// What is missing, for ``Kind/notFound(_:)``.
  public enum Missing: Sendable, Equatable {
    /// A file to read.
    case file
    /// A folder to read the files of.
    case folder
    /// A domain, looked for at `location`.
    case domain(location: String)
    /// A snapshot called `id`.
    case snapshot(id: String)
    /// A schema for `domain` in a folder of schemas.
    case schema(domain: String)
  }

  /// The system call that failed, for ``Kind/io(_:errno:)``.
  public enum IOOperation: Sendable, Equatable {
    /// stat(2) of a file to read.
    case status
    /// Opening a file to read.
    case open
    /// Opening a domain's file to lock it.
    case openForLock
    /// Opening a file or device to write into.
    case openForWriting
    /// read(2) of an input.
    case read
    /// write(2) of an output.
    case write
    /// fsync(2) of a written file.
    case sync
    /// close(2) of a written file.
    case close
    /// Deleting a file.
    case delete
    /// Creating a file in `folder`.
    case createFile(in: String)
    /// Creating `what`, a folder (`the folder`, `the snapshot folder`).
    case createFolder(String)
    /// Renaming the written file over the old one.
    case replace
    /// Renaming a snapshot to mark it undone.
    case markSnapshotUndone

    var category: Category {
      switch self {
      case .open: .noInput
      case .openForWriting, .createFile, .createFolder, .replace: .cannotCreate
      default: .io
      }
    }

    /// What failed, before the C library's words for the error; `nil`: those words alone.
    var words: String? {
      switch self {
      case .status: nil
      case .open, .openForLock, .openForWriting: "cannot open"
      case .read: "read failed"
      case .write: "write failed"
      case .sync: "cannot sync"
      case .close: "cannot close"
      case .delete: "cannot delete"
      case .createFile(let folder): "cannot create a file in \(folder)"
      case .createFolder(let what): "cannot create \(what)"
      case .replace: "cannot replace the file"
      case .markSnapshotUndone: "cannot mark the snapshot undone"
      }
    }

    /// Reading words the C library's text in lower case, as the rest of a sentence.
    var lowercasesReason: Bool {
      switch self {
      case .status, .open, .openForLock, .read: true
      default: false
      }
    }
  }
}

extension PrefsError.Kind {
  /// What went wrong, broadly; the command maps it to an exit status.
  public var category: PrefsError.Category {
    switch self {
    case .syntax, .duplicateKey, .tooDeep, .aliasBudget, .inputTooLarge, .null, .domainNotDictionary,
      .severalDocuments, .unalignedDocuments,
      .notAPreferenceFile,
      .unrepresentable, .nonFiniteReal, .writerFailed, .invalidValue, .typeMismatch, .invalidData, .ambiguousData,
      .schema, .settings, .profile, .payloadRefused, .notASnapshot, .conflictMarkers, .untrusted,
      .changedSinceApply:
      .badInput
    case .jsonInPlistFile(let cause), .unreadableDomain(_, let cause), .embeddedStructure(_, let cause):
      cause.category
    case .noSuchKey, .noSuchIndex, .notAContainer, .notFound, .noSuchDocument: .noInput
    case .isDirectory(let writing): writing ? .cannotCreate : .noInput
    case .io(let operation, let code):
      // A file that may not be read is missing input, not a failing disk.
      code == EACCES && (operation == .status || operation == .openForLock) ? .noInput : operation.category
    case .notSaved, .outOfMemory: .io
    case .lockTimeout: .temporary
    case .readOnly, .ownerNotKept: .cannotCreate
    case .invalidDomainName, .standardInputNotChangeable, .unknownFormat, .ambiguousSnapshot, .usage: .usage
    case .invalidHostUUID, .severalHostUUIDs, .otherHost: .usage
    case .noHostUUID: .noInput
    case .other(let category, _): category
    }
  }

  /// The one-line message.
  public var message: String {
    switch self {
    case .syntax(_, _, let problem), .unrepresentable(_, _, _, let problem),
      .settings(let problem), .profile(let problem), .usage(let problem), .other(_, let problem),
      .untrusted(let problem):
      return problem
    case .payloadRefused(let path, let problem): return "\(path.nameInMessages): \(problem)"
    case .duplicateKey(let key): return "duplicate key \"\(key)\""
    case .severalDocuments(let names, let target):
      let count = "\(names.count) YAML documents (\(Self.documentList(names)))"
      guard let target else { return "several documents where one is expected: \(count)" }
      return "\(count), and a \(target) file holds one"
    case .noSuchDocument(let selector, let names):
      return "no document '\(selector)' among the stream's \(names.count) (\(Self.documentList(names)))"
    case .unalignedDocuments(let problem): return "the YAML streams cannot be merged document by document: \(problem)"

    case .null(let path): return "null at \(path.nameInMessages) has no plist form"
    case .tooDeep(let limit, let detail):
      return "nesting deeper than \(limit) levels" + (detail.map { " (\($0))" } ?? "")
    case .aliasBudget(let limit): return "aliases expand to more than \(limit) nodes; refusing (an alias bomb?)"
    case .inputTooLarge(let size, let limit):
      return
        "input of \(size.map(String.init) ?? "more than \(limit)") bytes is larger than the limit of \(limit) bytes"
    case .jsonInPlistFile(let cause), .unreadableDomain(_, let cause), .embeddedStructure(_, let cause):
      return cause.message
    case .notAPreferenceFile: return "not a plist, JSON or YAML file"
    case .domainNotDictionary(let kind): return "the domain holds \(kind.article) \(kind.rawValue), not a dictionary"
    case .nonFiniteReal(let real, let path): return "\(real) at \(path.nameInMessages) has no plain JSON form"
    case .writerFailed(let writer, let problem): return "\(writer): \(problem)"
    case .invalidValue(let text, let expected): return "'\(text)' is not \(expected)"
    case .typeMismatch(let text, let key, let kind):
      return "'\(text)' is not \(kind.article) \(kind.rawValue), and '\(key)' holds \(kind.article) \(kind.rawValue)"
    case .invalidData(let text, .hex, _): return "'\(text)' is not hex data (0a1b2c…)"
    case .invalidData(let text, .base64, _): return "'\(text)' is not base64 data"
    case .ambiguousData(let text, _): return "'\(text)' reads both as hex and as base64"
    case .noSuchKey(let walked, let key, let dotted, _):
      return "no key \(dotted.map { "'\(key)' or '\($0)'" } ?? "'\(key)'") in \(walked.nameInMessages)"
    case .noSuchIndex(let walked, let index, let count):
      let range =
        count == 0
        ? "it is empty" : "it has \(count) item\(count == 1 ? "" : "s"): 0 to \(count - 1), or -\(count) to -1"
      guard index.first != "+", Int(index) != nil else {
        return "'\(index)' is not an index of \(walked.nameInMessages), an array (\(range))"
      }
      return "no index \(index) in \(walked.nameInMessages) (\(range))"
    case .notAContainer(let path, let kind, let key):
      return "\(path.nameInMessages) is \(kind.article) \(kind.rawValue), which has no '\(key)'"
    case .notFound(.file): return "no such file"
    case .notFound(.folder): return "no such folder"
    case .notFound(.domain(let location)): return "no such domain (there is no \(location))"
    case .notFound(.snapshot(let id)): return "no snapshot called '\(id)'"
    case .notFound(.schema(let domain)): return "no schema whose payload type is '\(domain)'"
    case .isDirectory: return "is a directory"
    case .io(let operation, let code):
      let reason = operation.lowercasesReason ? systemErrorText(code).lowercased() : systemErrorText(code)
      return operation.words.map { "\($0): \(reason)" } ?? reason
    case .lockTimeout(let seconds):
      return "gave up after waiting \(seconds) seconds for the lock, which another process holds"
    case .readOnly(let mode): return "is read-only (mode 0\(String(mode, radix: 8))); it was not replaced"
    case .ownerNotKept(let uid, let gid):
      return "belongs to user \(uid) and group \(gid), which a file written now could not keep; it was not replaced"
    case .invalidDomainName(let name, let problem):
      let shown = name.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
      return "invalid domain name '\(shown)': \(problem)"
    case .invalidHostUUID(let text):
      let shown = text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
      return "'\(shown)' is not a host UUID (8-4-4-4-12 hex digits, or the 12 of an older Mac's Ethernet address)"
    case .noHostUUID(let folder): return "no host UUID: no per-host file (DOMAIN.UUID.plist) in \(folder)"
    case .severalHostUUIDs(let uuids):
      return "the per-host files are of \(uuids.count) hosts: \(uuids.joined(separator: ", "))"
    case .otherHost(let uuid): return "CFPreferences reaches this host's preferences only, not those of host \(uuid)"
    case .standardInputNotChangeable: return "'-' is standard input, which this command cannot change"
    case .notSaved: return "cfprefsd did not save the domain"
    case .outOfMemory(let doing): return "out of memory \(doing)"
    case .unknownFormat(let name, let suggestion):
      return "unknown format '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .schema(let path, let problem): return "schema: \(path.components.isEmpty ? "" : "\(path): ")\(problem)"
    case .notASnapshot: return "not a snapshot of prefs apply"
    case .ambiguousSnapshot(let id, let count): return "'\(id)' names \(count) snapshots"
    case .conflictMarkers(let format): return "the merged \(format) text cannot be read back for conflict markers"
    case .changedSinceApply(let domains):
      let listed = domains.map { "\($0.domain): \($0.paths.map(\.nameInMessages).joined(separator: ", "))" }
      return "changed since the apply, which restoring the snapshot would undo: \(listed.joined(separator: "; "))"
    }
  }

  /// The kind under any that only wrap another (a plist-named JSON file, an
  /// unreadable domain left unchanged, data not opened): what failed in the first place.
  public var cause: PrefsError.Kind {
    switch self {
    case .jsonInPlistFile(let cause), .unreadableDomain(_, let cause), .embeddedStructure(_, let cause): cause.cause
    default: self
    }
  }
}

extension PrefsError {
  /// A syntax error of `format` at `stage`.
  public static func syntax(
    _ problem: String, format: String, stage: SyntaxStage, position: SourcePosition? = nil, hints: [String] = []
  ) -> PrefsError {
    PrefsError(.syntax(format: format, stage: stage, problem: problem), position: position, hints: hints)
  }
}

extension PrefsError.Kind {
  /// A stream's documents as messages list them: `0 Deployment/web, 1 Service/web, 2`,
  /// the first ten of them.
  static func documentList(_ names: [String?]) -> String {
    let shown = names.prefix(10).enumerated().map { index, name in name.map { "\(index) \($0)" } ?? "\(index)" }
    return shown.joined(separator: ", ") + (names.count > 10 ? ", … \(names.count - 1)" : "")
  }
}
