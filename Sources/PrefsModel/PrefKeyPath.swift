/// A path to a value inside a ``PrefValue``: dictionary keys and array indexes.
///
/// The text form is `plutil`'s: components joined by `.`, with `\.` for a dot
/// inside a key and `\\` for a backslash (`a.b.0.c`).
public struct PrefKeyPath: Sendable, Hashable, CustomStringConvertible {
  /// One step: a dictionary key or an array index.
  public enum Component: Sendable, Hashable {
    case key(String)
    case index(Int)
  }

  public var components: [Component]

  public init(_ components: [Component] = []) { self.components = components }

  /// The path one step further down.
  public func appending(_ component: Component) -> PrefKeyPath {
    PrefKeyPath(components + [component])
  }
  public func appending(key: String) -> PrefKeyPath { appending(.key(key)) }
  public func appending(index: Int) -> PrefKeyPath { appending(.index(index)) }

  /// The text form; the root is empty.
  public var description: String {
    components.map { component in
      switch component {
      case .index(let i): String(i)
      case .key(let key):
        String(key.flatMap { $0 == "." || $0 == "\\" ? ["\\", $0] : [$0] })
      }
    }.joined(separator: ".")
  }

  /// How every message and report names the path: its ``description``, or
  /// `the top level` for the root, which has no text of its own.
  public var nameInMessages: String { components.isEmpty ? "the top level" : description }

  /// The path as a user types it, keys joined by dots with nothing escaped
  /// (`com.apple.x.0`): what `--exclude` patterns are matched against.
  public var plainText: String {
    components.map { component in
      switch component {
      case .index(let i): String(i)
      case .key(let key): key
      }
    }.joined(separator: ".")
  }

  /// Splits a text key path (`a.b\.c.0`) into its parts, as written; whether a part
  /// is an index depends on the container it meets.
  public static func parse(_ text: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var escaping = false
    for ch in text {
      if escaping {
        current.append(ch)
        escaping = false
      } else if ch == "\\" {
        escaping = true
      } else if ch == "." {
        parts.append(current)
        current = ""
      } else {
        current.append(ch)
      }
    }
    if escaping { current.append("\\") }
    parts.append(current)
    return parts
  }
}
