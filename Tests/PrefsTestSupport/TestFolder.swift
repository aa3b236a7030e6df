import Foundation

/// A temporary folder for one test, removed when the test lets go of it.
public final class TestFolder {
  public let url: URL
  public init() throws { url = try TestSupport.temporaryFolder() }
  deinit { try? FileManager.default.removeItem(at: url) }

  /// The path of `name` inside the folder.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `text` to `name` and returns its path.
  @discardableResult
  public func write(_ name: String, _ text: String) throws -> String {
    try Data(text.utf8).write(to: url.appendingPathComponent(name))
    return path(name)
  }

  public func read(_ name: String) throws -> String {
    try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
  }

  public func data(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

  /// The file's modification time, to the nanosecond.
  public func modified(_ name: String) throws -> Date {
    try FileManager.default.attributesOfItem(atPath: path(name))[.modificationDate] as! Date
  }
}
