import PrefsModel
import PrefsText

/// What an untagged plain YAML scalar means under one version's rules.
enum YAMLPlainReading: Equatable, Sendable {
  /// Not matched by any pattern: the text itself.
  case string
  /// `null`, `~` or nothing at all.
  case null
  /// A bool, integer, real or date.
  case scalar(PrefValue)
  /// `<<`: a merge key when it stands as a mapping key.
  case merge
  /// Matches a pattern, but the value does not fit (`1e400`, a 21-digit integer,
  /// `2001-02-30`): an error, never a string or a float.
  case invalid(String)

  /// A short text for messages and for `prefs lint`.
  var summary: String {
    switch self {
    case .string: "string"
    case .null: "null"
    case .merge: "merge key"
    case .invalid(let message): "error (\(message))"
    case .scalar(let value):
      switch value {
      case .bool(let b): "bool \(b)"
      case .integer(let n): "integer \(n)"
      case .unsignedInteger(let n): "integer \(n)"
      case .real(let r): "real \(TextForms.realOrSpecial(r))"
      case .date(let d): "date \(TextForms.date(d))"
      default: "\(value.kind.rawValue)"
      }
    }
  }
}

/// The one place where plain scalars get their meaning: the reader, the writer's
/// quoting decision and the ambiguity scan all ask it.
///
/// YAML 1.2 is the core schema (`true`/`false` in three cases, decimal, `0o` and `0x`
/// integers, floats with `.inf`/`.nan`, `null`/`~`/empty) plus the YAML timestamp
/// pattern. YAML 1.1 follows PyYAML's implicit resolver exactly: `yes/no/on/off` in
/// three cases (but not `y`/`n`), `0755` octal, `0b` binary, `_` in numbers,
/// sexagesimal `1:20`, and floats only with a `.`.
enum YAMLResolver {
  typealias Bytes = UnsafeBufferPointer<UInt8>

  /// Resolves the text of an untagged plain scalar.
  static func resolve(_ text: Bytes, version: YAMLVersion) -> YAMLPlainReading {
    guard let first = text.first else { return .null }
    switch first {
    case UInt8(ascii: "~"):
      return text.count == 1 ? .null : .string
    case UInt8(ascii: "n"), UInt8(ascii: "N"):
      if isWord(text, "null") { return .null }
      if version == .v1_1, isWord(text, "no") { return .scalar(.bool(false)) }
      return .string
    case UInt8(ascii: "t"), UInt8(ascii: "T"):
      return isWord(text, "true") ? .scalar(.bool(true)) : .string
    case UInt8(ascii: "f"), UInt8(ascii: "F"):
      return isWord(text, "false") ? .scalar(.bool(false)) : .string
    case UInt8(ascii: "y"), UInt8(ascii: "Y"):
      return version == .v1_1 && isWord(text, "yes") ? .scalar(.bool(true)) : .string
    case UInt8(ascii: "o"), UInt8(ascii: "O"):
      guard version == .v1_1 else { return .string }
      if isWord(text, "on") { return .scalar(.bool(true)) }
      if isWord(text, "off") { return .scalar(.bool(false)) }
      return .string
    case UInt8(ascii: "<"):
      return text.count == 2 && text[1] == UInt8(ascii: "<") ? .merge : .string
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
      UInt8(ascii: "."):
      if first != UInt8(ascii: "-"), first != UInt8(ascii: "+"), first != UInt8(ascii: "."),
        let date = timestamp(text)
      {
        return date
      }
      return version == .v1_2 ? number12(text) : number11(text)
    default:
      return .string
    }
  }

  /// Resolves a Swift string (for the writer and tests).
  static func resolve(_ text: String, version: YAMLVersion) -> YAMLPlainReading {
    var copy = text
    return copy.withUTF8 { resolve($0, version: version) }
  }

  /// `word` (given in lower case) in lower case, Capitalised or UPPER case, as both schemas allow.
  private static func isWord(_ text: Bytes, _ word: StaticString) -> Bool {
    let n = word.utf8CodeUnitCount
    guard text.count == n else { return false }
    let w = word.utf8Start
    var lower = true
    var upper = true
    var capitalised = true
    for i in 0..<n {
      let l = w[i]
      let u = l &- 32
      let c = text[i]
      if c != l { lower = false }
      if c != u { upper = false }
      if c != (i == 0 ? u : l) { capitalised = false }
    }
    return lower || upper || capitalised
  }

  // MARK: Numbers, YAML 1.2 core

  private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
  private static func isHex(_ c: UInt8) -> Bool { hexDigitValue(c) != nil }

  /// Whether `text` starts with `-` (or `+`), and where its digits start.
  private static func sign(of text: Bytes) -> (negative: Bool, start: Int) {
    text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") ? (text[0] == UInt8(ascii: "-"), 1) : (false, 0)
  }

  private static func number12(_ text: Bytes) -> YAMLPlainReading {
    let n = text.count
    // 0o17 and 0x1F take no sign in the core schema.
    if n > 2, text[0] == UInt8(ascii: "0") {
      if text[1] == UInt8(ascii: "o") {
        guard text[2...].allSatisfy({ $0 >= 0x30 && $0 <= 0x37 }) else { return .string }
        return integer(digits: text[2...], radix: 8, negative: false)
      }
      if text[1] == UInt8(ascii: "x") {
        guard text[2...].allSatisfy(isHex) else { return .string }
        return integer(digits: text[2...], radix: 16, negative: false)
      }
    }
    var (negative, i) = sign(of: text)
    if let special = infinityOrNaN(text, signed: i == 1, negative: negative) { return special }
    // [0-9]+ is an integer; [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? a float.
    let intStart = i
    while i < n, isDigit(text[i]) { i += 1 }
    let intDigits = i - intStart
    if i == n {
      guard intDigits > 0 else { return .string }
      return integer(digits: text[intStart..<n], radix: 10, negative: negative)
    }
    var fracDigits = 0
    if text[i] == UInt8(ascii: ".") {
      i += 1
      let s = i
      while i < n, isDigit(text[i]) { i += 1 }
      fracDigits = i - s
    }
    guard intDigits > 0 || fracDigits > 0 else { return .string }
    if i < n, text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E") {
      i += 1
      if i < n, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") { i += 1 }
      let s = i
      while i < n, isDigit(text[i]) { i += 1 }
      guard i > s else { return .string }
    }
    guard i == n else { return .string }
    return real(text, removingUnderscores: false)
  }

  /// `.inf`, `+.inf`, `-.inf` (three cases) and unsigned `.nan` (three cases): the same in both versions.
  private static func infinityOrNaN(_ text: Bytes, signed: Bool, negative: Bool)
    -> YAMLPlainReading?
  {
    let rest = signed ? Bytes(rebasing: text[1...]) : text
    guard rest.count == 4, rest[0] == UInt8(ascii: ".") else { return nil }
    let word = Bytes(rebasing: rest[1...])
    if isWord(word, "inf") { return .scalar(.real(negative ? -.infinity : .infinity)) }
    // `.nan`, `.NaN`, `.NAN` (not `.Nan`).
    let (c0, c1, c2) = (word[0], word[1], word[2])
    let (n, N, a, A) = (UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "a"), UInt8(ascii: "A"))
    if !signed, (c0, c1, c2) == (n, a, n) || (c0, c1, c2) == (N, a, N) || (c0, c1, c2) == (N, A, N) {
      return .scalar(.real(.nan))
    }
    return nil
  }

  // MARK: Numbers, YAML 1.1 (PyYAML)

  private static func number11(_ text: Bytes) -> YAMLPlainReading {
    let n = text.count
    let (negative, i) = sign(of: text)
    if let special = infinityOrNaN(text, signed: i == 1, negative: negative) { return special }
    guard i < n else { return .string }
    let body = text[i..<n]
    let isDigitOrUnderscore = { (c: UInt8) in isDigit(c) || c == UInt8(ascii: "_") }
    // \.[0-9][0-9_]*([eE][-+][0-9]+)?  (no sign allowed by PyYAML)
    if text[i] == UInt8(ascii: ".") {
      guard i == 0, n > 1, isDigit(text[1]) else { return .string }
      var j = 2
      while j < n, isDigitOrUnderscore(text[j]) { j += 1 }
      guard exponent11(text, from: j) else { return .string }
      return real(text, removingUnderscores: true)
    }
    guard isDigit(text[i]) else { return .string }
    if body.count > 2, text[i] == UInt8(ascii: "0") {
      let marker = text[i + 1]
      let digits = text[(i + 2)...]
      if marker == UInt8(ascii: "b") {
        guard digits.allSatisfy({ $0 == 0x30 || $0 == 0x31 || $0 == UInt8(ascii: "_") }) else {
          return .string
        }
        return integer(digits: digits, radix: 2, negative: negative, underscores: true)
      }
      if marker == UInt8(ascii: "x") {
        guard digits.allSatisfy({ isHex($0) || $0 == UInt8(ascii: "_") }) else { return .string }
        return integer(digits: digits, radix: 16, negative: negative, underscores: true)
      }
    }
    // Scan [0-9][0-9_]* then decide by what follows.
    var j = i
    while j < n, isDigitOrUnderscore(text[j]) { j += 1 }
    if j == n {
      if text[i] == UInt8(ascii: "0") {
        // 0 alone, or 0[0-7_]+ octal.
        if body.count == 1 { return .scalar(.integer(0)) }
        guard text[(i + 1)...].allSatisfy({ ($0 >= 0x30 && $0 <= 0x37) || $0 == UInt8(ascii: "_") })
        else { return .string }
        // `0_`, `-0__`: PyYAML drops the underscores and reads what is left, `0`.
        if text[(i + 1)...].allSatisfy({ $0 == UInt8(ascii: "_") }) { return .scalar(.integer(0)) }
        return integer(digits: text[(i + 1)...], radix: 8, negative: negative, underscores: true)
      }
      return integer(digits: body, radix: 10, negative: negative, underscores: true)
    }
    if text[j] == UInt8(ascii: ".") {
      var k = j + 1
      while k < n, isDigitOrUnderscore(text[k]) { k += 1 }
      guard exponent11(text, from: k) else { return .string }
      return real(text, removingUnderscores: true)
    }
    if text[j] == UInt8(ascii: ":") {
      return sexagesimal(text, from: i, negative: negative)
    }
    return .string
  }

  /// ([eE][-+][0-9]+)? up to the end: PyYAML wants a sign in the exponent.
  private static func exponent11(_ text: Bytes, from start: Int) -> Bool {
    var k = start
    if k == text.count { return true }
    guard text[k] == UInt8(ascii: "e") || text[k] == UInt8(ascii: "E") else { return false }
    k += 1
    guard k < text.count, text[k] == UInt8(ascii: "-") || text[k] == UInt8(ascii: "+") else {
      return false
    }
    k += 1
    let s = k
    while k < text.count, isDigit(text[k]) { k += 1 }
    return k > s && k == text.count
  }

  /// `[1-9][0-9_]*(:[0-5]?[0-9])+` (an integer) or the same with `.[0-9_]*` after it
  /// (a real, whose first part may start with 0), base 60.
  private static func sexagesimal(_ text: Bytes, from start: Int, negative: Bool)
    -> YAMLPlainReading
  {
    let n = text.count
    var parts: [Range<Int>] = []
    var j = start
    while j < n, isDigit(text[j]) || text[j] == UInt8(ascii: "_") { j += 1 }
    parts.append(start..<j)
    var fraction: Range<Int>? = nil
    while j < n {
      if text[j] == UInt8(ascii: ":") {
        let s = j + 1
        var k = s
        while k < n, isDigit(text[k]), k - s < 2 { k += 1 }
        // [0-5]?[0-9]
        let width = k - s
        guard width >= 1 else { return .string }
        if width == 2, text[s] > UInt8(ascii: "5") { return .string }
        parts.append(s..<k)
        j = k
      } else if text[j] == UInt8(ascii: ".") {
        let s = j
        var k = j + 1
        while k < n, isDigit(text[k]) || text[k] == UInt8(ascii: "_") { k += 1 }
        guard k == n else { return .string }
        fraction = s..<k
        j = k
      } else {
        return .string
      }
    }
    guard parts.count >= 2 else { return .string }
    if let fraction {
      // PyYAML sums from the last part up, multiplying the base by 60 each time.
      var value = 0.0
      var base = 1.0
      var first = true
      for part in parts.reversed() {
        var digits = String(decoding: text[part].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        if first {
          digits += String(
            decoding: text[fraction].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
          first = false
        }
        guard let d = Double(digits) else { return .string }
        value += d * base
        base *= 60
      }
      guard value.isFinite else { return .invalid("real out of range") }
      return .scalar(.real(negative ? -value : value))
    }
    // The integer form wants a non-zero first digit.
    guard text[start] != UInt8(ascii: "0") else { return .string }
    var total: UInt64 = 0
    for part in parts {
      guard
        case .scalar(let v) = integer(
          digits: text[part], radix: 10, negative: false, underscores: true)
      else { return .invalid("integer out of range") }
      let p: UInt64
      switch v {
      case .integer(let x): p = UInt64(x)
      case .unsignedInteger(let x): p = x
      default: return .invalid("integer out of range")
      }
      let (m, o1) = total.multipliedReportingOverflow(by: 60)
      let (s, o2) = m.addingReportingOverflow(p)
      guard !o1, !o2 else { return .invalid("integer out of range") }
      total = s
    }
    return signed(total, negative: negative)
  }

  // MARK: Values

  /// The integer written by `digits` in `radix`: Int64, UInt64 above Int64.max, else an error.
  private static func integer(
    digits: Slice<Bytes>, radix: UInt64, negative: Bool, underscores: Bool = false
  ) -> YAMLPlainReading {
    guard digits.count <= TextForms.maxNumberLength else { return .invalid(TextForms.numberTooLong(digits.count)) }
    var value: UInt64 = 0
    var any = false
    for c in digits {
      if underscores, c == UInt8(ascii: "_") { continue }
      let d: UInt64
      switch c {
      case 0x30...0x39: d = UInt64(c - 0x30)
      case 0x61...0x66: d = UInt64(c - 0x61 + 10)
      case 0x41...0x46: d = UInt64(c - 0x41 + 10)
      default: return .string
      }
      let (m, o1) = value.multipliedReportingOverflow(by: radix)
      let (s, o2) = m.addingReportingOverflow(d)
      guard !o1, !o2 else { return .invalid("integer out of range") }
      value = s
      any = true
    }
    // `0b_` matches PyYAML's pattern but has no digits; PyYAML fails on it too.
    guard any else { return .invalid("integer has no digits") }
    return signed(value, negative: negative)
  }

  private static func signed(_ magnitude: UInt64, negative: Bool) -> YAMLPlainReading {
    if !negative { return .scalar(PrefValue.integer(exactly: magnitude)) }
    if magnitude <= UInt64(Int64.max) { return .scalar(.integer(-Int64(magnitude))) }
    if magnitude == UInt64(Int64.max) + 1 { return .scalar(.integer(.min)) }
    return .invalid("integer out of range")
  }

  /// A finite decimal real through the shared text form reader; out of range is an error.
  private static func real(_ text: Bytes, removingUnderscores: Bool) -> YAMLPlainReading {
    guard text.count <= TextForms.maxNumberLength else { return .invalid(TextForms.numberTooLong(text.count)) }
    let string: String
    if removingUnderscores, text.contains(UInt8(ascii: "_")) {
      string = String(decoding: text.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
    } else {
      string = String(decoding: text, as: UTF8.self)
    }
    guard let value = TextForms.parseReal(Substring(string)) else {
      return .invalid("real out of range")
    }
    return .scalar(.real(value))
  }

  // MARK: Timestamps

  /// The YAML timestamp pattern (the same in both versions):
  /// `YYYY-MM-DD`, or `YYYY-M-D` followed by `T`, `t` or blanks, `h:mm:ss`, an optional
  /// `.fraction` and an optional zone (`Z`, `±h`, `±hh:mm`, after optional blanks).
  /// The date itself is read by ``TextForms/parseDate(_:)``.
  static func timestamp(_ text: Bytes) -> YAMLPlainReading? {
    let n = text.count
    guard n >= 8, text[4] == UInt8(ascii: "-"), text[0..<4].allSatisfy(isDigit) else { return nil }
    var i = 5
    func oneOrTwoDigits() -> Range<Int>? {
      let s = i
      while i < n, isDigit(text[i]), i - s < 2 { i += 1 }
      return i > s ? s..<i : nil
    }
    guard let month = oneOrTwoDigits(), i < n, text[i] == UInt8(ascii: "-") else { return nil }
    i += 1
    guard let day = oneOrTwoDigits() else { return nil }
    if i == n {
      // The date-only form wants two-digit month and day.
      guard month.count == 2, day.count == 2 else { return nil }
      return date(String(decoding: text, as: UTF8.self))
    }
    // Separator: T, t or [ \t]+.
    let separator = i
    if text[i] == UInt8(ascii: "T") || text[i] == UInt8(ascii: "t") {
      i += 1
    } else {
      while i < n, text[i] == 0x20 || text[i] == 0x09 { i += 1 }
      guard i > separator else { return nil }
    }
    guard let hour = oneOrTwoDigits(), i + 6 <= n, text[i] == UInt8(ascii: ":"), isDigit(text[i + 1]),
      isDigit(text[i + 2]), text[i + 3] == UInt8(ascii: ":"), isDigit(text[i + 4]), isDigit(text[i + 5])
    else { return nil }
    let minutesAndSeconds = i..<(i + 6)
    i += 6
    var fraction = i..<i
    if i < n, text[i] == UInt8(ascii: ".") {
      let s = i
      i += 1
      while i < n, isDigit(text[i]) { i += 1 }
      fraction = s..<i
    }
    let zoneStart = i
    while i < n, text[i] == 0x20 || text[i] == 0x09 { i += 1 }
    if i < n {
      if text[i] == UInt8(ascii: "Z") {
        i += 1
      } else if text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
        i += 1
        guard oneOrTwoDigits() != nil else { return nil }
        if i < n, text[i] == UInt8(ascii: ":") {
          guard i + 3 == n, isDigit(text[i + 1]), isDigit(text[i + 2]) else { return nil }
          i += 3
        }
      } else {
        return nil
      }
      guard i == n else { return nil }
    } else if zoneStart != n {
      // Trailing blanks without a zone do not match.
      return nil
    }
    // Most timestamps are already in the form parseDate reads; rebuild the others
    // (one-digit month, day or hour, a `t` or blanks as separator, a bare `.`).
    if month.count == 2, day.count == 2, hour.count == 2, text[separator] == UInt8(ascii: "T"), fraction.count != 1 {
      return date(String(decoding: text, as: UTF8.self))
    }
    func part(_ r: Range<Int>, width: Int = 0) -> String {
      String(repeating: "0", count: max(0, width - r.count)) + String(decoding: text[r], as: UTF8.self)
    }
    var normal = part(0..<5) + part(month, width: 2) + "-" + part(day, width: 2) + "T" + part(hour, width: 2)
    normal += part(minutesAndSeconds) + (fraction.count > 1 ? part(fraction) : "") + part(zoneStart..<n)
    return date(normal)
  }

  private static func date(_ text: String) -> YAMLPlainReading {
    switch TextForms.readDate(text) {
    case .date(let d): return .scalar(.date(d))
    case .malformed: return .invalid("invalid date")
    case .outOfRange: return .invalid("date \(TextForms.dateRangeProblem)")
    }
  }

  // MARK: Quoting (the writer)

  /// Whether a one-line string reads as something other than this string in YAML 1.1
  /// (PyYAML) or YAML 1.2, or might in a loader that goes by the YAML 1.1 spec (`y`,
  /// `n`, and PyYAML's `=`) or allows `_` in YAML 1.2 numbers. The writer quotes such
  /// strings (and those libyaml would not write plain: ``YAMLScalarStyle``).
  static func readsAsOtherKind(_ bytes: Bytes) -> Bool {
    if resolve(bytes, version: .v1_1) != .string || resolve(bytes, version: .v1_2) != .string { return true }
    if bytes.count == 1 {
      switch bytes[0] {
      case UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "="):
        return true
      default: break
      }
    }
    if let first = bytes.first,
      isDigit(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "."),
      bytes.contains(UInt8(ascii: "_"))
    {
      let stripped = bytes.filter { $0 != UInt8(ascii: "_") }
      if stripped.withUnsafeBufferPointer({ resolve($0, version: .v1_2) }) != .string { return true }
    }
    return matchesRuamelNumber(bytes)
  }

  /// Whether ruamel.yaml's YAML 1.2 resolver (the 1.2 loader the contract names)
  /// takes the text for a number: its patterns allow a sign before `0o`/`0x`/`0b`
  /// and `_` anywhere among digits, so it reads `-0o17` as an integer and fails to
  /// load `-_`, `0o_` or `+.__`. Such strings are quoted, whatever they convert to.
  static func matchesRuamelNumber(_ s: Bytes) -> Bool {
    let n = s.count
    var i = 0
    if i < n, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") { i += 1 }
    guard i < n else { return false }
    let underscore = UInt8(ascii: "_")
    func nonEmpty(from start: Int, _ allowed: (UInt8) -> Bool) -> Bool {
      start < n && s[start...].allSatisfy(allowed)
    }
    // Integers: [-+]?0b[0-1_]+, [-+]?0o?[0-7_]+, [-+]?[0-9_]+, [-+]?0x[0-9a-fA-F_]+.
    if s[i] == UInt8(ascii: "0"), i + 1 < n {
      switch s[i + 1] {
      case UInt8(ascii: "b"): if nonEmpty(from: i + 2, { $0 == 0x30 || $0 == 0x31 || $0 == underscore }) { return true }
      case UInt8(ascii: "o"):
        if nonEmpty(from: i + 2, { ($0 >= 0x30 && $0 <= 0x37) || $0 == underscore }) { return true }
      case UInt8(ascii: "x"): if nonEmpty(from: i + 2, { isHex($0) || $0 == underscore }) { return true }
      default: break
      }
    }
    if nonEmpty(from: i, { isDigit($0) || $0 == underscore }) { return true }
    // Reals: [-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)? (with a point or an
    // exponent), [-+]?\.[0-9_]+([eE][-+]?[0-9]+)?.
    var j = i
    func skipDigits() -> Int {
      let start = j
      while j < n, isDigit(s[j]) || s[j] == underscore { j += 1 }
      return j - start
    }
    func exponent(required: Bool) -> Bool {
      guard j < n else { return !required }
      guard s[j] == UInt8(ascii: "e") || s[j] == UInt8(ascii: "E") else { return false }
      j += 1
      if j < n, s[j] == UInt8(ascii: "+") || s[j] == UInt8(ascii: "-") { j += 1 }
      let start = j
      while j < n, isDigit(s[j]) { j += 1 }
      return j > start && j == n
    }
    if isDigit(s[j]) {
      _ = skipDigits()
      guard j < n else { return false }
      if s[j] == UInt8(ascii: ".") {
        j += 1
        _ = skipDigits()
        return exponent(required: false)
      }
      return exponent(required: true)
    }
    if s[j] == UInt8(ascii: ".") {
      j += 1
      return skipDigits() > 0 && exponent(required: false)
    }
    return false
  }
}
