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

  /// `FILE:LINE:COL: message`, `FILE: at byte N: message`, `FILE: keypath: message`
  /// or `FILE: message`; a key path follows the position where the file has lines
  /// (`FILE:LINE:COL: keypath: message`).
  public var description: String {
    let text = keyPath.map { "\($0.nameInMessages): \(message)" } ?? message
    return PrefsError.located(text, file: file, position: position)
  }
}

/// `prefs lint`: checks one document and returns what it finds; prints nothing.
public enum Lint {
  /// The findings for `data`, named `file` in them: the first syntax error of any
  /// format (with its position, and then nothing else); every null, as an error
  /// unless `options.dropNulls` (the rest is checked as read with nulls dropped);
  /// every plain YAML scalar that YAML 1.1 and 1.2 read differently; and with
  /// `schema`, the schema's findings.
  public static func check(
    _ data: Data, file: String, path: String? = nil, declared: Format? = nil, options: ReadOptions = ReadOptions(),
    schema: Schema? = nil
  ) -> [LintFinding] {
    var warnings = Warnings()
    let value: PrefValue
    let document: TextDocument?
    var options = options
    options.warnsOfYAMLAmbiguities = true
    func read(_ options: ReadOptions, _ warnings: Warnings) throws -> (PrefValue, TextDocument?) {
      let (value, _, document) = try TextDocument.read(
        data, declared: declared, path: path, options: options, warnings: warnings)
      return (value, document)
    }
    var nullsAreErrors = false
    do {
      (value, document) = try read(options, warnings)
    } catch let error as PrefsError {
      let first = LintFinding(error, file: file)
      // A null stops the reader; read again with nulls dropped to find the rest,
      // each null then reported as an error.
      guard !options.dropNulls else { return [first] }
      var dropping = options
      dropping.dropNulls = true
      warnings = Warnings()
      do {
        (value, document) = try read(dropping, warnings)
      } catch let again as PrefsError {
        let second = LintFinding(again, file: file)
        return second == first ? [first] : [first, second]
      } catch {
        return [first]
      }
      nullsAreErrors = true
    } catch {
      return [LintFinding(.error, file: file, message: "\(error)")]
    }
    var findings = warnings.all.map { warning in
      guard nullsAreErrors, let refused = warning.refused, case .null = refused else {
        return LintFinding(.warning, file: file, position: warning.position, message: warning.message)
      }
      return LintFinding(.error, file: file, position: warning.position, message: refused.message, kind: refused)
    }
    if case .dictionary = value, let uid = firstUID(in: value) {
      findings.append(
        LintFinding(
          .warning, file: file, position: document?.position(of: uid), keyPath: uid,
          message: "holds a keyed-archive uid; on Linux, UserDefaults reads a domain holding one as empty, "
            + "so the app falls back on every key"))
    }
    if let schema {
      guard case .dictionary(let contents) = value else {
        findings.append(
          LintFinding(
            .error, file: file, keyPath: PrefKeyPath(),
            message: "a domain is a dictionary, but this holds \(value.kind.article) \(value.kind.rawValue)"))
        return findings
      }
      findings += schema.check(contents).map { finding in
        LintFinding(
          finding.isError ? .error : .warning, file: file,
          position: document.flatMap { nearestPosition(of: finding.path, in: $0) }, keyPath: finding.path,
          message: finding.message)
      }
    }
    return findings
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
