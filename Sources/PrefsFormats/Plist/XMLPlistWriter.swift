import PrefsModel
import PrefsText

/// Writes an XML property list the way CF lays it out (header, Apple DOCTYPE, tab
/// indentation, base64 lines that shrink with depth), streaming bytes into a
/// ``ByteWriter`` without building strings for the document.
///
/// Where it differs from Foundation's own writer, on purpose:
/// - `-0.0` keeps its sign (Foundation writes `0.0`), and reals use the shortest
///   digits that read back exactly (`0.1`, not `0.10000000000000001`).
/// - A date with a fraction of a second loses the fraction, as Foundation's and
///   plistlib's writers drop it (`21:01:07.535` gives `21:01:07`), but with a warning
///   naming its key path; Foundation drops it silently, and its XML reader refuses
///   dates with one.
/// - `\r` is written `&#13;` so that XML parsers do not turn it into `\n`.
/// - Characters XML 1.0 cannot hold (most C0 controls, U+FFFE, U+FFFF) are refused
///   with the key path; Foundation writes them raw, which other XML readers reject.
/// - UIDs are written as `<dict><key>CF$UID</key><integer>N</integer></dict>`.
struct XMLPlistWriter {
  private let out: ByteWriter
  private let sortKeys: Bool
  private let warnings: Warnings
  private var path: [PrefKeyPath.Component] = []
  private var digits = [UInt8](repeating: 0, count: 24)
  /// One level of indentation (CF writes a tab), and what stands before every line:
  /// a fragment for the patcher takes both from the document it goes into.
  var indentUnit: [UInt8] = [0x09]
  var linePrefix: [UInt8] = []

  init(to out: ByteWriter, sortKeys: Bool, warnings: Warnings) {
    self.out = out
    self.sortKeys = sortKeys
    self.warnings = warnings
  }

  static let header = Array(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """.utf8)
  static let footer = Array("</plist>\n".utf8)

  mutating func write(_ value: PrefValue) throws {
    try out.write(Self.header)
    try element(value, depth: 0)
    try out.write(Self.footer)
  }

  private func indent(_ depth: Int) throws {
    if !linePrefix.isEmpty { try out.write(linePrefix) }
    if indentUnit == [0x09] {
      for _ in 0..<depth { try out.write(0x09) }
    } else {
      for _ in 0..<depth { try out.write(indentUnit) }
    }
  }

  /// Writes one entry of a dictionary (`<key>` line and value) or, without `key`, one
  /// item of an array, each line after ``linePrefix``: the text the patcher inserts.
  /// `path` is where it goes, for messages.
  mutating func fragment(key: String?, value: PrefValue, at path: PrefKeyPath) throws {
    self.path = path.components
    if let key {
      try indent(0)
      try raw("<key>")
      try escaped(key, what: "key")
      try raw("</key>\n")
    }
    try element(value, depth: 0)
  }

  private func line(_ text: StaticString, depth: Int) throws {
    try indent(depth)
    try out.write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    try out.write(0x0A)
  }

  private func raw(_ text: StaticString) throws {
    try out.write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private mutating func element(_ value: PrefValue, depth: Int) throws {
    switch value {
    case .string(let s):
      try indent(depth)
      try raw("<string>")
      try escaped(s, what: "string")
      try raw("</string>\n")
    case .integer(let n):
      try indent(depth)
      try raw("<integer>")
      try decimal(magnitude: n.magnitude, negative: n < 0)
      try raw("</integer>\n")
    case .unsignedInteger(let n):
      try indent(depth)
      try raw("<integer>")
      try decimal(magnitude: n, negative: false)
      try raw("</integer>\n")
    case .real(let r):
      try indent(depth)
      try raw("<real>")
      try real(r)
      try raw("</real>\n")
    case .bool(let b):
      try line(b ? "<true/>" : "<false/>", depth: depth)
    case .date(let d):
      try indent(depth)
      try raw("<date>")
      try date(d)
      try raw("</date>\n")
    case .data(let d):
      try line("<data>", depth: depth)
      try base64(d, depth: depth)
      try line("</data>", depth: depth)
    case .uid(let n):
      guard n <= UInt64(UInt32.max) else {
        throw PrefsError(
          .unrepresentable(
            format: "xml", kind: .uid, path: PrefKeyPath(path),
            problem: "UID \(n) at \(plistPath(path)) is wider than the 32 bits CF reads"))
      }
      try line("<dict>", depth: depth)
      try indent(depth + 1)
      try raw("<key>CF$UID</key>\n")
      try indent(depth + 1)
      try raw("<integer>")
      try decimal(magnitude: n, negative: false)
      try raw("</integer>\n")
      try line("</dict>", depth: depth)
    case .null:
      throw PrefsError(.null(path: PrefKeyPath(path)))
    case .array(let items):
      if items.isEmpty { return try line("<array/>", depth: depth) }
      try line("<array>", depth: depth)
      for (i, item) in items.enumerated() {
        path.append(.index(i))
        try element(item, depth: depth + 1)
        path.removeLast()
      }
      try line("</array>", depth: depth)
    case .dictionary(let dict):
      if dict.isEmpty { return try line("<dict/>", depth: depth) }
      try line("<dict>", depth: depth)
      for (key, item) in sortKeys ? dict.sortedByKey() : dict {
        path.append(.key(key))
        try indent(depth + 1)
        try raw("<key>")
        try escaped(key, what: "key")
        try raw("</key>\n")
        try element(item, depth: depth + 1)
        path.removeLast()
      }
      try line("</dict>", depth: depth)
    }
  }

  // MARK: Text

  /// Writes `text` with `&`, `<`, `>` and `\r` escaped; refuses what XML 1.0 cannot hold.
  private func escaped(_ text: String, what: String) throws {
    var text = text
    try text.withUTF8 { utf8 in
      var runStart = 0
      var i = 0
      func flush(upTo end: Int) throws {
        if end > runStart {
          try out.write(
            UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[runStart..<end]))
        }
      }
      let plain = Self.plainBytes
      while i < utf8.count {
        let b = utf8[i]
        // Most bytes need nothing: one table lookup instead of the switch.
        if plain[Int(b)] {
          i += 1
          continue
        }
        var replacement: StaticString? = nil
        switch b {
        case UInt8(ascii: "&"): replacement = "&amp;"
        case UInt8(ascii: "<"): replacement = "&lt;"
        case UInt8(ascii: ">"): replacement = "&gt;"
        case 0x0D: replacement = "&#13;"
        case 0x09, 0x0A: break
        case 0x00..<0x20:
          throw unwritable(scalar: UInt32(b), what: what)
        case 0xEF:
          // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.
          if i + 2 < utf8.count, utf8[i + 1] == 0xBF, utf8[i + 2] == 0xBE || utf8[i + 2] == 0xBF {
            throw unwritable(scalar: utf8[i + 2] == 0xBE ? 0xFFFE : 0xFFFF, what: what)
          }
        default: break
        }
        if let replacement {
          try flush(upTo: i)
          try raw(replacement)
          runStart = i + 1
        }
        i += 1
      }
      try flush(upTo: utf8.count)
    }
  }

  /// Bytes ``escaped(_:what:)`` copies as they are: all but `&`, `<`, `>`, C0 controls
  /// other than tab and line feed, and 0xEF (which may start U+FFFE or U+FFFF).
  private static let plainBytes: [Bool] = (0..<256).map { b in
    switch b {
    case 0x26, 0x3C, 0x3E, 0xEF: false
    case 0x09, 0x0A: true
    case 0x00..<0x20: false
    default: true
    }
  }

  private func unwritable(scalar: UInt32, what: String) -> PrefsError {
    let code = String(scalar, radix: 16, uppercase: true)
    let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
    return PrefsError(
      .unrepresentable(
        format: "xml", kind: .string, path: PrefKeyPath(path),
        problem:
          "\(what) at \(plistPath(path)) holds U+\(padded), which XML 1.0 cannot hold; write a binary plist instead"))
  }

  // MARK: Numbers

  private mutating func decimal(magnitude: UInt64, negative: Bool) throws {
    var n = magnitude
    var i = digits.count
    repeat {
      i -= 1
      digits[i] = UInt8(ascii: "0") + UInt8(n % 10)
      n /= 10
    } while n > 0
    if negative {
      i -= 1
      digits[i] = UInt8(ascii: "-")
    }
    try out.write(digits[i...])
  }

  private func real(_ value: Double) throws {
    if value.isNaN { return try raw("nan") }
    if value.isInfinite { return try raw(value > 0 ? "+infinity" : "-infinity") }
    // Shortest round-tripping digits; keeps the sign of -0.0.
    try out.write(TextForms.real(value)!)
  }

  // MARK: Dates and data

  private func date(_ date: Date) throws {
    let t = date.timeIntervalSinceReferenceDate
    guard t.isFinite else {
      throw PrefsError(
        .unrepresentable(
          format: "xml", kind: .date, path: PrefKeyPath(path),
          problem: "date at \(plistPath(path)) is not finite; XML plists cannot hold it"))
    }
    // The fraction goes, as Foundation and plistlib drop it: the second as written.
    let whole = t.rounded(.down)
    // Years 0001 to 9999: what Foundation's XML reader takes.
    guard TextForms.dateRange.contains(whole) else {
      throw PrefsError(
        .unrepresentable(
          format: "xml", kind: .date, path: PrefKeyPath(path),
          problem: "date at \(plistPath(path)) is \(TextForms.dateRangeProblem)"))
    }
    if let dropped = PlistCodec.droppedFraction(of: date, at: path) { warnings.add(dropped) }
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      guard TextForms.writeWholeSecondDate(Int64(whole), into: buffer) else {
        return try out.write(TextForms.date(Date(timeIntervalSinceReferenceDate: whole)))
      }
      try out.write(UnsafeRawBufferPointer(buffer))
    }
  }

  /// Base64 in lines of `76 - 8 * depth` characters, indented like CF (at most 8 tabs).
  /// A fragment's depth counts the levels of its ``linePrefix`` too, so that patched
  /// data keeps the lines CF gives it where it stands.
  private func base64(_ data: Data, depth: Int) throws {
    let prefixLevels = indentUnit.isEmpty ? 0 : linePrefix.count / indentUnit.count
    let tabs = min(depth + prefixLevels, 8)
    try Base64.encode(data, lineLength: 76 - 8 * tabs) { characters in
      // Tabs whatever the document's indentation, as CF writes them.
      for _ in 0..<tabs { try out.write(0x09) }
      try out.write(UnsafeRawBufferPointer(characters))
      try out.write(UInt8(ascii: "\n"))
    }
  }
}
