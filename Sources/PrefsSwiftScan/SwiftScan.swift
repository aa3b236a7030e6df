import Dispatch
import PrefsKit

/// The scanner behind `prefs schema scan`: reads an app's Swift sources with
/// SwiftSyntax and gives the schema of every key the app reads from `UserDefaults`.
///
/// Files are parsed in parallel, each walked once for its facts (``FileFacts``);
/// names, wrappers and `Codable` types are then resolved across all of them.
public enum SwiftScan {
  /// The schema of the Swift files in `paths` (files, or folders searched for
  /// `.swift` files). Locations name a file by its path inside the folder given, or
  /// by its name when the file itself was given.
  public static func scan(_ paths: [String]) throws -> Schema {
    let sources = try sourceFiles(paths)
    var results = [FileFacts?](repeating: nil, count: sources.count)
    let lock = Lock()
    let failure = Lock()
    nonisolated(unsafe) var firstError: PrefsError?
    results.withUnsafeMutableBufferPointer { buffer in
      nonisolated(unsafe) let buffer = buffer
      DispatchQueue.concurrentPerform(iterations: sources.count) { index in
        let source = sources[index]
        do {
          let data = try InputFile.read(source.path)
          let text = String(decoding: data, as: UTF8.self)
          let facts = FactCollector.facts(of: text, file: source.name, order: index)
          lock.withLock { buffer[index] = facts }
        } catch let error as PrefsError {
          failure.withLock { if firstError == nil { firstError = error } }
        } catch {
          failure.withLock {
            if firstError == nil { firstError = PrefsError(.other(.io, "\(error)"), file: source.path) }
          }
        }
      }
    }
    if let firstError { throw firstError }
    return SchemaBuilder(results.compactMap { $0 }).build()
  }

  /// Folders skipped while looking for sources: build products and fetched packages.
  static let skippedFolders: Set<String> = [".build", "Pods", "Carthage", "DerivedData", "node_modules"]

  /// The `.swift` files of `paths`, sorted, each with the name locations give it.
  static func sourceFiles(_ paths: [String]) throws -> [(path: String, name: String)] {
    var files: [(path: String, name: String)] = []
    for path in paths {
      guard let isFolder = isFolder(path) else { throw PrefsError(.notFound(.file), file: path) }
      guard isFolder else {
        files.append((path, path.lastPathComponent))
        continue
      }
      var found: [String] = []
      collect(in: path, relative: "", into: &found)
      files += found.sorted().map { (path.appendingPathComponent($0), $0) }
    }
    return files
  }

  private static func collect(in folder: String, relative: String, into found: inout [String]) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where !name.hasPrefix(".") && !skippedFolders.contains(name) {
      let path = folder.appendingPathComponent(name)
      let inside = relative.isEmpty ? name : relative + "/" + name
      if isFolder(path) == true {
        collect(in: path, relative: inside, into: &found)
      } else if name.hasSuffix(".swift") {
        found.append(inside)
      }
    }
  }
}
