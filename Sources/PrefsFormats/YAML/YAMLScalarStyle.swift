import PrefsModel
import PrefsText

/// How the writer presents a string: plain, double-quoted, or as a literal block.
///
/// libyaml's emitter silently swaps a requested style it cannot write for another
/// (plain becomes single-quoted). To keep one quoting style, the writer asks here
/// first; these checks mirror libyaml 0.2.5's scalar analysis for block context.
enum YAMLScalarStyle: Equatable {
  case plain
  case doubleQuoted
  case literal

  typealias Bytes = UnsafeBufferPointer<UInt8>

  /// The style for a string value (`isKey`: a mapping key, never a block scalar).
  static func choose(for text: String, isKey: Bool) -> YAMLScalarStyle {
    var copy = text
    return copy.withUTF8 { bytes in
      let scan = analyze(bytes)
      if scan.lineBreaks {
        return !isKey && scan.literalAllowed ? .literal : .doubleQuoted
      }
      return !scan.plainAllowed || YAMLResolver.readsAsOtherKind(bytes) ? .doubleQuoted : .plain
    }
  }

  private struct Analysis {
    var plainAllowed = false
    var literalAllowed = false
    var lineBreaks = false
  }

  /// libyaml's `yaml_emitter_analyze_scalar`, reduced to what block context needs.
  /// Line breaks other than `\n` (`\r`, U+0085, U+2028, U+2029) disallow the literal
  /// style: YAML 1.1 and 1.2 do not agree that they are breaks, and `\r` would be
  /// normalised away.
  private static func analyze(_ s: Bytes) -> Analysis {
    var result = Analysis()
    let n = s.count
    guard n > 0 else { return result }
    if isOrdinaryASCII(s) {
      result.plainAllowed = true
      result.literalAllowed = true
      return result
    }
    var blockIndicators = false
    var special = false
    var lineBreaks = false
    var oddBreaks = false
    var leadingSpace = false
    var leadingBreak = false
    var trailingSpace = false
    var trailingBreak = false
    var breakSpace = false
    var spaceBreak = false
    var previousSpace = false
    var previousBreak = false

    if n >= 3,
      (s[0] == UInt8(ascii: "-") && s[1] == UInt8(ascii: "-") && s[2] == UInt8(ascii: "-"))
        || (s[0] == UInt8(ascii: ".") && s[1] == UInt8(ascii: ".") && s[2] == UInt8(ascii: "."))
    {
      blockIndicators = true
    }
    var precededByWhitespace = true
    var i = 0
    while i < n {
      let c = s[i]
      let w = width(c)
      // libyaml's followed_by_whitespace, needed only for ':', '?' and '-'.
      func followedByWhitespace() -> Bool { isBlankOrEnd(s, i + w) }
      if i == 0 {
        switch c {
        case UInt8(ascii: "#"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
          UInt8(ascii: "}"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
          UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
          UInt8(ascii: "`"):
          blockIndicators = true
        case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: "-"):
          if followedByWhitespace() { blockIndicators = true }
        default: break
        }
      } else {
        if c == UInt8(ascii: ":"), followedByWhitespace() { blockIndicators = true }
        if c == UInt8(ascii: "#"), precededByWhitespace { blockIndicators = true }
      }
      // Printable ASCII other than a space is the common case: no break, no space.
      if c > 0x20 && c < 0x7F {
        previousSpace = false
        previousBreak = false
        precededByWhitespace = false
        i += 1
        continue
      }
      if !isPrintable(s, i) { special = true }
      let isBreak = isBreak(s, i)
      if isBreak {
        lineBreaks = true
        if c != 0x0A { oddBreaks = true }
      }
      if c == 0x20 {
        if i == 0 { leadingSpace = true }
        if i + w == n { trailingSpace = true }
        if previousBreak { breakSpace = true }
        previousSpace = true
        previousBreak = false
      } else if isBreak {
        if i == 0 { leadingBreak = true }
        if i + w == n { trailingBreak = true }
        if previousSpace { spaceBreak = true }
        previousSpace = false
        previousBreak = true
      } else {
        previousSpace = false
        previousBreak = false
      }
      precededByWhitespace = c == 0x20 || c == 0x09 || isBreak
      i += w
    }
    result.lineBreaks = lineBreaks
    result.plainAllowed =
      !(leadingSpace || leadingBreak || trailingSpace || trailingBreak || breakSpace || spaceBreak
      || special
      || lineBreaks || blockIndicators)
    result.literalAllowed = !(trailingSpace || spaceBreak || special || oddBreaks)
    return result
  }

  /// The common case, decided in one pass: printable ASCII without `:` or `#`, not
  /// starting with an indicator or a space, not ending with a space, and not a
  /// document marker. Such a string may be plain as far as libyaml is concerned.
  private static func isOrdinaryASCII(_ s: Bytes) -> Bool {
    let first = s[0]
    guard first > 0x20, first < 0x7F, !startIndicators[Int(first)], s[s.count - 1] != 0x20 else { return false }
    for c in s where c < 0x20 || c > 0x7E || c == UInt8(ascii: ":") || c == UInt8(ascii: "#") {
      return false
    }
    // `---` and `...` at the start mark documents.
    return
      !(s.count >= 3 && (first == UInt8(ascii: "-") || first == UInt8(ascii: ".")) && s[1] == first
      && s[2] == first)
  }

  /// Bytes that may not start a plain scalar (or only when followed by a space, for
  /// `?`, `:` and `-`, which the general analysis handles).
  private static let startIndicators: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for c in "#,[]{}&*!|>'\"%@`?:-" { table[Int(c.asciiValue!)] = true }
    return table
  }()

  private static func width(_ lead: UInt8) -> Int {
    lead & 0x80 == 0
      ? 1 : lead & 0xE0 == 0xC0 ? 2 : lead & 0xF0 == 0xE0 ? 3 : lead & 0xF8 == 0xF0 ? 4 : 1
  }

  private static func byte(_ s: Bytes, _ i: Int) -> UInt8 { i < s.count ? s[i] : 0 }

  /// libyaml's IS_BLANKZ at offset `i`: space, tab, a break, or the end.
  private static func isBlankOrEnd(_ s: Bytes, _ i: Int) -> Bool {
    guard i < s.count else { return true }
    let c = s[i]
    return c == 0x20 || c == 0x09 || isBreak(s, i)
  }

  /// libyaml's IS_BREAK: `\r`, `\n`, U+0085, U+2028, U+2029.
  private static func isBreak(_ s: Bytes, _ i: Int) -> Bool {
    let c = s[i]
    if c == 0x0A || c == 0x0D { return true }
    if c == 0xC2 { return byte(s, i + 1) == 0x85 }
    if c == 0xE2 {
      return byte(s, i + 1) == 0x80 && (byte(s, i + 2) == 0xA8 || byte(s, i + 2) == 0xA9)
    }
    return false
  }

  /// libyaml's IS_PRINTABLE: `\n`, printable ASCII, and the BMP without C1 controls,
  /// surrogates, U+FEFF, U+FFFE and U+FFFF. Characters outside the BMP count as not
  /// printable, so libyaml 0.2.5 would write them escaped in a double-quoted string:
  /// the writer gives it stand-ins for them instead (``YAMLWideCharacters``).
  private static func isPrintable(_ s: Bytes, _ i: Int) -> Bool {
    let c = s[i]
    if c == 0x0A || (c >= 0x20 && c <= 0x7E) { return true }
    let c1 = byte(s, i + 1)
    let c2 = byte(s, i + 2)
    if c == 0xC2 { return c1 >= 0xA0 }
    if c > 0xC2 && c < 0xED { return true }
    if c == 0xED { return c1 < 0xA0 }
    if c == 0xEE { return true }
    if c == 0xEF {
      return !(c1 == 0xBB && c2 == 0xBF) && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF))
    }
    return false
  }
}
