import PrefsModel

/// The names Xcode writes beside the object IDs of a project file, as comments:
/// `AAAAAAAAAAAAAAAAAAAAAAAA /* A.swift */`. A value holds the IDs alone; these names
/// let a YAML view of the project say which object each ID is.
public struct ObjectNames: Sendable {
  /// The name of each ID that has one, by ID.
  public let names: [String: String]

  /// The names in an OpenStep text: every unquoted word followed, on its line, by a
  /// `/* … */` comment.
  public init(openStepText data: Data) {
    let bytes = [UInt8](data)
    var names: [String: String] = [:]
    var index = 0
    while index + 1 < bytes.count {
      guard bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "*") else {
        index += 1
        continue
      }
      let open = index
      index += 2
      // The comment's end; an unclosed one ends the scan.
      while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
        index += 1
      }
      guard index + 1 < bytes.count else { break }
      let close = index
      index += 2
      var end = open
      while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
      var start = end
      while start > 0, OpenStepReader.isUnquoted(bytes[start - 1]) { start -= 1 }
      guard start < end, let id = String(validating: bytes[start..<end], as: UTF8.self),
        let name = String(validating: bytes[(open + 2)..<close], as: UTF8.self)
      else { continue }
      let trimmed = name.trimmingSpaces
      if !trimmed.isEmpty, !trimmed.contains("\n"), names[id] == nil { names[id] = trimmed }
    }
    self.names = names
  }

  /// YAML text (as the YAML writer writes it, one key or item a line) with ` # name`
  /// after each line whose key or scalar value is a named ID, so that the names show
  /// and the text still reads as the same value.
  public func annotating(yaml data: Data) -> Data {
    guard !names.isEmpty else { return data }
    var out = Data()
    out.reserveCapacity(data.count + data.count / 8)
    for line in data.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast(data.last == 0x0A ? 1 : 0) {
      out.append(contentsOf: line)
      if let text = String(validating: line, as: UTF8.self) {
        let found = Self.scalars(of: text).compactMap { names[$0] }
        if !found.isEmpty { out.append(contentsOf: Array(" # \(found.joined(separator: ", "))".utf8)) }
      }
      out.append(0x0A)
    }
    if data.last != 0x0A, !data.isEmpty { out.removeLast() }
    return out
  }

  /// The key and the value a YAML line holds (`- ` items unwrapped, quotes removed).
  private static func scalars(of line: String) -> [String] {
    var rest = Substring(line).drop { $0 == " " }
    while rest.hasPrefix("- ") { rest = rest.dropFirst(2).drop { $0 == " " } }
    func unquoted(_ text: Substring) -> String {
      if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
        return String(text.dropFirst().dropLast())
      }
      return String(text)
    }
    if rest.hasSuffix(":") { return [unquoted(rest.dropLast())] }
    guard let colon = rest.indices.first(where: { rest[$0] == ":" && rest[rest.index(after: $0)...].hasPrefix(" ") })
    else { return [unquoted(rest)] }
    return [unquoted(rest[..<colon]), unquoted(rest[rest.index(colon, offsetBy: 2)...])]
  }
}
