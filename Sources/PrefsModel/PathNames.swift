/// File path arithmetic on plain strings, as `NSString` has it on macOS. These stand
/// in for `NSString`'s methods, which FoundationEssentials lacks and which would link
/// all of Foundation into the binary (and whose Linux versions trap on a name
/// without a slash).
extension String {
  /// The path without its trailing slashes; a path of slashes only stays `/`.
  private var trimmedPath: Substring {
    var path = self[...]
    while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
    return path
  }

  /// The last component: `b` of `/a/b/`; `/` of `/`.
  package var lastPathComponent: String {
    let path = trimmedPath
    guard path != "/", let slash = path.lastIndex(of: "/") else { return String(path) }
    return String(path[path.index(after: slash)...])
  }

  /// The path without its last component: `/a` of `/a/b`, `/` of `/a`, empty for a bare name.
  package var deletingLastPathComponent: String {
    let path = trimmedPath
    guard path != "/", let slash = path.lastIndex(of: "/") else { return path == "/" ? "/" : "" }
    var parent = path[..<slash]
    while parent.hasSuffix("/") { parent = parent.dropLast() }
    return parent.isEmpty ? "/" : String(parent)
  }

  /// The path with `component` appended after one slash.
  package func appendingPathComponent(_ component: String) -> String {
    let tail = component.drop { $0 == "/" }
    if isEmpty { return component }
    if tail.isEmpty { return String(trimmedPath) }
    return (hasSuffix("/") ? self : self + "/") + tail
  }

  /// The extension of the last component (`gz` of `x.tar.gz`); empty when it has
  /// none, or only a leading dot (`.bashrc`).
  package var pathExtension: String {
    let name = lastPathComponent
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// The path without the last component's extension: `a/x.tar` of `a/x.tar.gz`.
  package var deletingPathExtension: String {
    let path = trimmedPath
    let name = path.lastPathComponentStart
    guard let dot = path[name...].lastIndex(of: "."), dot != name, path.index(after: dot) != path.endIndex
    else { return String(path) }
    return String(path[..<dot])
  }
}

extension Substring {
  /// Where the last component starts.
  fileprivate var lastPathComponentStart: Index {
    lastIndex(of: "/").map { index(after: $0) } ?? startIndex
  }
}
