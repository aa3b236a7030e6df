import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// One thing `prefs lint` reports: a syntax error, a plain YAML scalar that YAML 1.1
/// and 1.2 read differently, or a schema finding.
public struct LintFinding: Sendable, Equatable, CustomStringConvertible {
  /// Errors make `lint` exit 1; warnings alone do not.
  public enum Severity: String, Sendable {
    case error, warning
  }

  public var severity: Severity
  /// The file (or domain file) the finding is in.
  public var file: String
  /// Where in the file, for syntax errors and YAML ambiguities.
  public var position: SourcePosition?
  /// The key path, for schema findings.
  public var keyPath: PrefKeyPath?
  public var message: String
  /// Extra lines that help fix it.
  public var hints: [String]
  /// What failed, for a finding that is a reading error (a syntax error, a null).
  public var kind: PrefsError.Kind?

  public init(
    _ severity: Severity, file: String, position: SourcePosition? = nil, keyPath: PrefKeyPath? = nil, message: String,
    hints: [String] = [], kind: PrefsError.Kind? = nil
  ) {
    self.severity = severity
    self.file = file
    self.position = position
    self.keyPath = keyPath
    self.message = message
    self.hints = hints
    self.kind = kind
  }

  /// The finding for a reading error.
  init(_ error: PrefsError, file: String) {
    self.init(
      .error, file: file, position: error.position, message: error.message, hints: error.hints, kind: error.kind)
  }

  /// The finding `lines` lines further down: where it is in a stream whose document
  /// starts there.
  func movedDown(by lines: Int) -> LintFinding {
    var moved = self
    if case .lineColumn(let line, let column)? = position {
      moved.position = .lineColumn(line: line + lines, column: column)
    }
    return moved
  }

  /// `FILE:LINE:COL: message`, `FILE: at byte N: message`, `FILE: keypath: message`
  /// or `FILE: message`; a key path follows the position where the file has lines
  /// (`FILE:LINE:COL: keypath: message`).
  public var description: String {
    let text = keyPath.map { "\($0.nameInMessages): \(message)" } ?? message
    return PrefsError.located(text, file: file, position: position)
  }
}

/// `prefs lint`: checks one document, or each document of a YAML stream, and returns
/// what it finds; prints nothing.
public enum Lint {
  /// The findings for `data`, named `file` in them: the first syntax error of any
  /// format (with its position, and then nothing else); every plain YAML scalar that
  /// YAML 1.1 and 1.2 read differently; and with `schema`, the schema's findings, and
  /// a warning for every null (a file checked against a schema is meant for a domain,
  /// and a domain, a property list, holds no null). With `schemas`, a folder, the
  /// schema is the one for `domain`, else for the domain `path`'s file name gives
  /// (``SchemaDirectory/schema(forFile:)``); a domain the folder has no schema for is a warning.
  ///
  /// A configuration profile (``ConfigurationProfile``) is checked payload by
  /// payload: each domain's settings against `schema`, or the folder's schema for
  /// that domain, the findings naming their key paths in the profile.
  public static func check(
    _ data: Data, file: String, path: String? = nil, declared: Format? = nil, options: ReadOptions = ReadOptions(),
    schema: Schema? = nil, schemas: SchemaDirectory? = nil, domain: String? = nil
  ) -> [LintFinding] {
    let warnings = Warnings()
    let value: PrefValue
    let document: TextDocument?
    var options = options
    options.warnsOfYAMLAmbiguities = true
    do {
      (value, _, document) = try TextDocument.read(
        data, declared: declared, path: path, options: options, warnings: warnings)
    } catch let error as PrefsError {
      if case .severalDocuments = error.kind, let stream = try? YAMLStream.read(data, options: options) {
        // A YAML stream is checked document by document, each finding at its line in the stream.
        let text = [UInt8](data)
        return stream.documents.flatMap { document in
          guard case .lineColumn(let line, _) = SourcePosition.of(offset: document.range.lowerBound, in: text) else {
            return [LintFinding]()
          }
          return check(
            Data(text[document.range]), file: file, path: path, declared: .yaml, options: options, schema: schema,
            schemas: schemas, domain: domain
          ).map { $0.movedDown(by: line - 1) }
        }
      }
      return [LintFinding(error, file: file)]
    } catch {
      return [LintFinding(.error, file: file, message: "\(error)")]
    }
    var findings = warnings.all.map { warning in
      LintFinding(.warning, file: file, position: warning.position, message: warning.message)
    }
    if case .dictionary = value, let uid = firstUID(in: value) {
      findings.append(
        LintFinding(
          .warning, file: file, position: document?.position(of: uid), keyPath: uid,
          message: "holds a keyed-archive uid; on Linux, UserDefaults reads a domain holding one as empty, "
            + "so the app falls back on every key"))
    }
    if ConfigurationProfile.isProfile(value), schema != nil || schemas != nil {
      do {
        for part in try ConfigurationProfile(value).domainParts() {
          let found = try schemas.map { try $0.schema(for: part.domain) } ?? schema
          guard let found else {
            findings.append(noSchema(for: part.domain, in: schemas, file: file, at: part.path, document))
            continue
          }
          findings += schemaFindings(found.check(part.settings, at: part.path), file: file, document)
        }
      } catch let error as PrefsError {
        findings.append(LintFinding(error, file: file))
      } catch {
        findings.append(LintFinding(.error, file: file, message: "\(error)"))
      }
      return inLineOrder(findings)
    }
    var schema = schema
    if let schemas {
      let name = domain ?? path.map(SchemaDirectory.domainName(ofFile:)) ?? file
      do {
        schema = try domain == nil && path != nil ? schemas.schema(forFile: path!) : schemas.schema(for: name)
      } catch let error as PrefsError {
        return findings + [LintFinding(error, file: error.file ?? file)]
      } catch {
        return findings + [LintFinding(.error, file: file, message: "\(error)")]
      }
      if schema == nil { findings.append(noSchema(for: name, in: schemas, file: file, at: nil, document)) }
    }
    if let schema {
      guard case .dictionary(let contents) = value else {
        findings.append(
          LintFinding(
            .error, file: file, keyPath: PrefKeyPath(),
            message: "a domain is a dictionary, but this holds \(value.kind.article) \(value.kind.rawValue)"))
        return findings
      }
      findings += schemaFindings(schema.check(contents), file: file, document)
      findings += value.nullPaths.map { path in
        let refused = PrefsError.Kind.null(path: path)
        return LintFinding(
          .warning, file: file, position: document?.position(of: path), message: refused.message, kind: refused)
      }
    }
    return inLineOrder(findings)
  }

  /// Findings in the order a person reads the file: by position, those without
  /// one last, each group keeping the order it was found in.
  static func inLineOrder(_ findings: [LintFinding]) -> [LintFinding] {
    func place(_ position: SourcePosition?) -> (Int, Int, Int) {
      switch position {
      case .lineColumn(let line, let column)?: (0, line, column)
      case .byteOffset(let offset)?: (0, offset, 0)
      case nil: (1, 0, 0)
      }
    }
    return findings.enumerated().sorted { a, b in
      let (placeA, placeB) = (place(a.element.position), place(b.element.position))
      return placeA != placeB ? placeA < placeB : a.offset < b.offset
    }.map(\.element)
  }

  /// Schema findings as lint findings, each at its key path's position.
  private static func schemaFindings(_ found: [SchemaFinding], file: String, _ document: TextDocument?)
    -> [LintFinding]
  {
    found.map { finding in
      LintFinding(
        finding.isError ? .error : .warning, file: file,
        position: document.flatMap { nearestPosition(of: finding.path, in: $0) }, keyPath: finding.path,
        message: finding.message)
    }
  }

  /// The warning for a domain whose schema a folder lacks.
  private static func noSchema(
    for domain: String, in folder: SchemaDirectory?, file: String, at path: PrefKeyPath?, _ document: TextDocument?
  ) -> LintFinding {
    LintFinding(
      .warning, file: file, position: path.flatMap { path in document.flatMap { nearestPosition(of: path, in: $0) } },
      keyPath: path,
      message: "\(folder?.path ?? "the schema folder") holds no schema whose payload type is '\(domain)'; "
        + "the values are not checked")
  }

  /// Where `path` stands in `document`, or where the nearest dictionary or array
  /// holding it does (a missing key is reported at its parent).
  static func nearestPosition(of path: PrefKeyPath, in document: TextDocument) -> SourcePosition? {
    var components = path.components
    while true {
      if let position = document.position(of: PrefKeyPath(components)) { return position }
      guard !components.isEmpty else { return nil }
      components.removeLast()
    }
  }

  /// The key path of the first uid in `value`, depth first.
  static func firstUID(in value: PrefValue, at path: PrefKeyPath = PrefKeyPath()) -> PrefKeyPath? {
    switch value {
    case .uid: return path
    case .array(let items):
      for (index, item) in items.enumerated() {
        if let found = firstUID(in: item, at: path.appending(index: index)) { return found }
      }
      return nil
    case .dictionary(let dict):
      for (key, item) in dict {
        if let found = firstUID(in: item, at: path.appending(key: key)) { return found }
      }
      return nil
    default: return nil
    }
  }

}
