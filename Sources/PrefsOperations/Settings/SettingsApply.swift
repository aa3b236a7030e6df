import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsStore
import PrefsText

/// One domain's part of `prefs apply`: where it is, what it holds, and what the
/// settings make of it.
public struct ApplyStep: Sendable {
  /// The top-level key that named it first (`-g`, `com.example.app`, `~/x.plist`).
  public let target: String
  /// The domain, or nil when the key names none (the error says why).
  public let domain: (any PreferenceDomain)?
  /// The settings for it, in the order the files give them.
  public var settings: [DomainSettings]
  /// The file each of ``settings`` came from, for errors at a line and column.
  public var sources: [String] = []
  /// The contents now (nil: no such domain).
  public var before: PrefDictionary?
  /// The contents the settings make (nil: the domain is deleted, or stays missing).
  public var after: PrefDictionary?
  /// What `--schema` converted in the settings.
  public var coercions: [Coercion] = []
  /// Why the domain cannot be applied to, if it cannot.
  public var error: PrefsError?
  /// The domain's file does not parse and `force` replaces it (keeping a copy as `.bak`).
  public var replacesUnreadable = false

  /// The name messages use.
  public var name: String { domain?.name ?? target }

  /// The differences, as `prefs diff` shows them.
  public var changes: [PrefChange] {
    StructuralDiff.changes(from: .dictionary(before ?? PrefDictionary()), to: .dictionary(after ?? PrefDictionary()))
  }

  /// The changes that give a key another type (the bool `true` to the string
  /// `"yes"`): what an app reading the key's type would lose.
  public var typeChanges: [PrefChange] { changes.filter(\.changesType) }

  /// Whether applying would write anything: a changed value, or a domain deleted.
  public var changesAnything: Bool {
    error == nil
      && (replacesUnreadable || (before ?? PrefDictionary()) != (after ?? PrefDictionary())
        || (before != nil && after == nil))
  }
}

/// A domain that `prefs apply` could not apply to, and why.
public struct ApplyFailure: Sendable {
  /// The name messages use.
  public var name: String
  /// What went wrong, naming the domain.
  public var error: PrefsError
}

/// What applying a plan did.
public struct ApplyOutcome: Sendable {
  /// The snapshot saved before the first change; nil when nothing was to change.
  public var snapshot: Snapshot?
  /// The steps applied, each with the contents its domain had before and after.
  public var applied: [ApplyStep]
  /// The domains that were not applied to: those the plan could not read first, then
  /// those whose change failed.
  public var failures: [ApplyFailure]
}

/// Applying settings files to a store: the plan (read only, for `--dry-run` and
/// `--check`), then each domain changed atomically under its lock.
public enum SettingsApply {
  /// Applies the steps of a plan that change anything. A snapshot of their domains is
  /// saved first in `snapshots` (with `sources`, the settings files' names); when it
  /// cannot be saved nothing is changed, as there would be no undo. Then each domain
  /// changes on its own (``execute(_:force:options:dropNulls:warnings:)``): when one fails, the
  /// others are still applied, and the outcome lists each failure. What each change
  /// warns of is added to `warnings`, naming its domain; `willApply` is told of each
  /// step before it starts. What each domain was left holding is then recorded in the
  /// snapshot (``SnapshotStore/record(written:in:)``), so that an undo can tell what
  /// changed since.
  public static func apply(
    _ steps: [ApplyStep], sources: [String], snapshots: SnapshotStore, force: Bool = false,
    options: ReadOptions = ReadOptions(), dropNulls: Bool = false, warnings: Warnings = Warnings(),
    willApply: (ApplyStep) -> Void = { _ in }
  ) throws -> ApplyOutcome {
    var failures = steps.compactMap { step in step.error.map { ApplyFailure(name: step.name, error: $0) } }
    let changing = steps.filter(\.changesAnything)
    guard !changing.isEmpty else { return ApplyOutcome(snapshot: nil, applied: [], failures: failures) }
    var snapshot = try snapshots.save(changing, sources: sources)
    var applied: [ApplyStep] = []
    for step in changing {
      willApply(step)
      let stepWarnings = Warnings()
      do {
        var done = step
        (done.before, done.after) = try execute(
          step, force: force, options: options, dropNulls: dropNulls, warnings: stepWarnings)
        applied.append(done)
      } catch let error as PrefsError {
        failures.append(ApplyFailure(name: step.name, error: error.inFile(step.name)))
      } catch {
        failures.append(ApplyFailure(name: step.name, error: PrefsError(.other(.io, "\(error)"), file: step.name)))
      }
      warnings.add(stepWarnings, file: step.name)
    }
    // What was written, for an undo to tell what changed since. Without the record an
    // undo still restores, only without that check: not worth failing an applied run.
    var written: [String: PrefDictionary?] = [:]
    for step in applied { if let domain = step.domain { written[domain.location] = step.after } }
    if let recorded = try? snapshots.record(written: written, in: snapshot) { snapshot = recorded }
    return ApplyOutcome(snapshot: snapshot, applied: applied, failures: failures)
  }

  /// The domain a settings file's top-level key names: `-g`/`NSGlobalDomain`, a
  /// domain of `store`, or a file when the key holds a `/` or ends in a format's
  /// extension (`~/` is the home folder, a relative path starts from `folder`, the
  /// settings file's, else from the current folder). A file's path is made absolute.
  public static func domain(
    for target: String, in store: any DomainStore, relativeTo folder: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> any PreferenceDomain {
    if DomainName.isPath(target) {
      var path = target
      if path.hasPrefix("~/") {
        let home = homeFolder(in: environment)
        path = home.appendingPathComponent(String(path.dropFirst(2)))
      } else if !path.hasPrefix("/") {
        var base = folder ?? ""
        if !base.hasPrefix("/") {
          let current = FileManager.default.currentDirectoryPath
          base = base.isEmpty ? current : current.appendingPathComponent(base)
        }
        path = base.appendingPathComponent(path)
      }
      return FileDomain(path: path, name: target)
    }
    return try store.domain(named: target)
  }

  /// What applying `files` to `store` would do, one step per domain in the order the
  /// files first name them (two keys naming one domain, such as `-g` and
  /// `NSGlobalDomain`, make one step). Nothing is written. With `schema`, settings of
  /// the wrong type are coerced by its rules first. With `force`, a domain file that
  /// does not parse is planned as replaced (``ApplyStep/replacesUnreadable``).
  public static func plan(
    _ files: [SettingsFile], store: any DomainStore, schema: Schema? = nil, force: Bool = false,
    options: ReadOptions = ReadOptions(), environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [ApplyStep] {
    var steps: [ApplyStep] = []
    var byLocation: [String: Int] = [:]
    for file in files {
      for entry in file.entries {
        var settings = entry.settings
        var coercions: [Coercion] = []
        if let schema, settings.directive() == nil, case .dictionary(let dict) = settings.value {
          let result = schema.coerce(dict)
          settings.value = .dictionary(result.result)
          coercions = result.coercions
        }
        let domain: any PreferenceDomain
        do {
          domain = try self.domain(
            for: entry.target, in: store, relativeTo: entry.folder, environment: environment)
        } catch let error as PrefsError {
          steps.append(
            ApplyStep(target: entry.target, domain: nil, settings: [settings], error: error.inFile(entry.source)))
          continue
        } catch {
          steps.append(
            ApplyStep(
              target: entry.target, domain: nil, settings: [settings],
              error: PrefsError(.other(.io, "\(error)"), file: entry.source)))
          continue
        }
        if let index = byLocation[domain.location] {
          steps[index].settings.append(settings)
          steps[index].sources.append(entry.source)
          steps[index].coercions += coercions
        } else {
          byLocation[domain.location] = steps.count
          steps.append(
            ApplyStep(
              target: entry.target, domain: domain, settings: [settings], sources: [entry.source],
              coercions: coercions))
        }
      }
    }
    // Reading is the cost of a check over many domains: on all processors.
    let unread = steps
    let read =
      (try? inParallel(steps.count) { i, _ in
        var step = unread[i]
        guard let domain = step.domain, step.error == nil else { return step }
        do {
          do {
            step.before = try domain.read(options: options)
          } catch let error as PrefsError where force && error.category == .badInput && error.file == domain.location {
            // `force` replaces a domain file that does not parse (keeping a copy):
            // the settings apply to nothing.
            step.replacesUnreadable = true
          }
          step.after = try applied(step, to: step.before)
        } catch let error as PrefsError {
          step.error = error.inFile(domain.name)
        } catch {
          step.error = PrefsError(.other(.io, "\(error)"), file: domain.name)
        }
        return step
      }) ?? steps
    return read
  }

  /// `contents` with each of `settings` applied in turn; a missing domain that the
  /// settings leave empty stays missing.
  public static func applied(_ settings: [DomainSettings], to contents: PrefDictionary?) throws -> PrefDictionary? {
    var result = contents
    for item in settings {
      result = try SettingsMerge.apply(item, to: result)
    }
    if contents == nil, result?.isEmpty == true { return nil }
    return result
  }

  /// The step's settings applied to `contents`; an error at a position names the
  /// settings file it is in.
  static func applied(_ step: ApplyStep, to contents: PrefDictionary?) throws -> PrefDictionary? {
    var result = contents
    for (index, item) in step.settings.enumerated() {
      do {
        result = try SettingsMerge.apply(item, to: result)
      } catch let error as PrefsError where error.position != nil && index < step.sources.count {
        throw error.inFile(step.sources[index])
      }
    }
    if contents == nil, result?.isEmpty == true { return nil }
    return result
  }

  /// Applies one step for real: reads the domain again under its lock, applies the
  /// settings to what is there then, and writes it atomically (a text file keeps its
  /// text, changing only what changed) when anything changed. A null the settings
  /// give a plist domain is refused by its key path, or left out under `dropNulls`.
  /// Returns the contents before and after.
  @discardableResult
  public static func execute(
    _ step: ApplyStep, force: Bool = false, options: ReadOptions = ReadOptions(), dropNulls: Bool = false,
    warnings: Warnings = Warnings()
  ) throws -> (before: PrefDictionary?, after: PrefDictionary?) {
    if let error = step.error { throw error }
    guard let domain = step.domain else { throw PrefsError(.usage("no domain"), file: step.target) }
    return try domain.modify(force: force, dryRun: false, options: options, dropNulls: dropNulls, warnings: warnings) {
      contents in
      contents = try applied(step, to: contents)
    }
  }
}
