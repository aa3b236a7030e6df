/// The exact text forms of reals and dates that every text format writes and reads
/// (ARCHITECTURE.md, "Choices"), in one place so that JSON, YAML and the command line agree.
public enum TextForms {
  // MARK: Numbers

  /// The longest number literal any reader accepts, in characters. A real needs at
  /// most 17 significant digits; a longer literal is only ever an attack, and
  /// converting a 100 MB one costs seconds.
  public static let maxNumberLength = 1024

  /// The error text for a number literal of `length` characters.
  package static func numberTooLong(_ length: Int) -> String {
    "number of \(length) characters is longer than the limit of \(maxNumberLength)"
  }

  // MARK: Reals

  /// A finite real as text that always carries a `.` and, when it has one, a signed
  /// exponent (`1.0`, `0.1`, `1.0e+20`, `1.0e-07`, `-0.0`), with the shortest digits
  /// that read back to the same `Double`. Non-finite values give `nil`.
  public static func real(_ value: Double) -> String? {
    guard value.isFinite else { return nil }
    // Swift's description is already the shortest round-tripping form; it omits
    // the `.` before an exponent (`1e+20`), which YAML 1.1 would read as a string.
    let text = value.description
    // Scan bytes, not characters: this runs once per real in every text writer.
    guard let e = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    else { return text }
    let mantissa = text[..<e]
    let exponent = text[text.utf8.index(after: e)...]
    let sign = exponent.first == "-" || exponent.first == "+" ? "" : "+"
    return (mantissa.contains(".") ? String(mantissa) : mantissa + ".0") + "e" + sign + exponent
  }

  /// Any real as YAML spells it and messages show it: ``real(_:)`` for a finite one,
  /// else `.inf`, `-.inf` or `.nan`.
  public static func realOrSpecial(_ value: Double) -> String {
    real(value) ?? (value < 0 ? "-." + nonFiniteWord(-value) : "." + nonFiniteWord(value))
  }

  /// A real that is not finite in the plain words `defaults`, JSON's `$real` and
  /// `Double(_:)` use: `inf`, `-inf` or `nan` (NaN has no sign worth showing).
  public static func nonFiniteWord(_ value: Double) -> String {
    value.isNaN ? "nan" : value < 0 ? "-inf" : "inf"
  }

  /// Any real in those plain words: ``real(_:)`` for a finite one, else
  /// ``nonFiniteWord(_:)``.
  public static func realOrWord(_ value: Double) -> String { real(value) ?? nonFiniteWord(value) }

  /// Reads a decimal real (`1.5`, `-2e10`, `.5`, `5.`); `nil` when the text is not
  /// one (hexadecimal `0x1p3`, `inf`, `nan`: Swift's `Double(_:)` reads those) or is
  /// out of range both ways (`1e400` is an error, never infinity, and `1e-400` is
  /// one, never a silent `0.0`).
  public static func parseReal(_ text: Substring) -> Double? {
    guard isDecimalReal(text), let value = Double(text), value.isFinite else { return nil }
    if value == 0,
      text.utf8.prefix(while: { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") })
        .contains(where: { $0 > UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    {
      return nil
    }
    return value
  }

  /// Whether `text` has the shape of a decimal real: `[+-]digits[.digits][e[+-]digits]`,
  /// with digits on at least one side of the point.
  public static func isDecimalReal(_ text: Substring) -> Bool {
    var bytes = text.utf8[...]
    func digits() -> Int {
      let count = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
      bytes = bytes.dropFirst(count)
      return count
    }
    if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    var mantissa = digits()
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      mantissa += digits()
    }
    guard mantissa > 0 else { return false }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
      guard digits() > 0 else { return false }
    }
    return bytes.isEmpty
  }

  // MARK: Dates

  /// The dates every reader and writer holds, in seconds since 2001: from
  /// 0001-01-01T00:00:00Z up to (not including) 10000-01-01T00:00:00Z. Years 0001 to
  /// 9999 are what ISO 8601 text, Foundation's XML reader and Python's `datetime`
  /// (PyYAML, ruamel) all take; a date outside them is refused when read, so that no
  /// writer meets one it cannot write.
  public static let dateRange: Range<Double> = -63_113_904_000..<252_423_993_600

  /// Why a date outside ``dateRange`` is refused.
  public static let dateRangeProblem = "outside the years 0001 to 9999"

  /// Whether `date` is finite and within ``dateRange``.
  public static func isInDateRange(_ date: Date) -> Bool {
    dateRange.contains(date.timeIntervalSinceReferenceDate)
  }

  /// A date as UTC ISO 8601 text: `2023-11-14T22:13:20Z`, or with the shortest
  /// fraction of a second that reads back to exactly the same `Double`.
  public static func date(_ date: Date) -> String {
    let t = date.timeIntervalSinceReferenceDate
    guard t.isFinite else { return t > 0 ? "+inf" : t < 0 ? "-inf" : "nan" }
    let whole = t.rounded(.down)
    guard abs(whole) < 1e15 else { return String(t) }
    if whole == t, let text = wholeSecondText(Int64(whole)) { return text }
    let base = civil(fromSecondsSinceReference: Int64(whole))
    if whole == t { return base + "Z" }
    // Try fractions of growing length until one reads back to the same bits.
    let fraction = t - whole
    for digits in 1...17 {
      let scale = pow(10.0, Double(digits))
      let scaled = (fraction * scale).rounded()
      // Rounding up to a whole second is no candidate (and `scale - 1` is not even
      // a Double at 17 digits).
      if scaled >= scale { continue }
      var digitsText = String(Int64(scaled))
      digitsText = String(repeating: "0", count: digits - digitsText.count) + digitsText
      let candidate = base + "." + digitsText + "Z"
      if let back = parseDate(candidate), back.timeIntervalSinceReferenceDate.bitPattern == t.bitPattern {
        return candidate
      }
    }
    // Otherwise (a tiny offset from a whole second, or just before one, where
    // `t - whole` rounds): the shortest decimal of `t` itself, moved onto the
    // calendar exactly. Before 2001 the fraction is the complement of `t`'s digits.
    if let (negative, integer, digits) = plainDecimal(t), !digits.isEmpty {
      let seconds = negative ? -(integer + 1) : integer
      let candidate = civil(fromSecondsSinceReference: seconds) + "." + (negative ? complement(digits) : digits) + "Z"
      if let back = parseDate(candidate), back.timeIntervalSinceReferenceDate.bitPattern == t.bitPattern {
        return candidate
      }
    }
    // No text form reads back exactly (`-0.0`); ``exactDate(_:)`` reports these.
    return base + "Z"
  }

  /// `value` as sign, whole part and fraction digits (no trailing zeros), from its
  /// shortest round-tripping text; nil when the whole part does not fit 64 bits.
  private static func plainDecimal(_ value: Double) -> (negative: Bool, integer: Int64, digits: String)? {
    var text = Substring(value.description)
    let negative = text.first == "-"
    if negative { text = text.dropFirst() }
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      guard let x = Int(text[text.index(after: e)...]) else { return nil }
      exponent = x
      text = text[..<e]
    }
    let point = text.firstIndex(of: ".")
    var digits = point.map { String(text[..<$0] + text[text.index(after: $0)...]) } ?? String(text)
    // Where the point stands in `digits`, after the exponent.
    var pointAt = (point.map { text.distance(from: text.startIndex, to: $0) } ?? text.count) + exponent
    if pointAt < 0 {
      digits = String(repeating: "0", count: -pointAt) + digits
      pointAt = 0
    }
    if pointAt > digits.count { digits += String(repeating: "0", count: pointAt - digits.count) }
    let whole = digits.prefix(pointAt)
    var fraction = Substring(digits.dropFirst(pointAt))
    while fraction.last == "0" { fraction = fraction.dropLast() }
    guard let integer = whole.isEmpty ? 0 : Int64(whole) else { return nil }
    return (negative, integer, String(fraction))
  }

  /// The decimal digits of `1 - 0.digits`, as many as `digits` has (`001` gives `999`).
  /// `digits` has no trailing zeros and is not all zeros.
  private static func complement(_ digits: String) -> String {
    var out = Array(digits.utf8)
    var k = out.count - 1
    out[k] = UInt8(ascii: "0") + 10 - (out[k] - UInt8(ascii: "0"))
    while k > 0 {
      k -= 1
      out[k] = UInt8(ascii: "0") + 9 - (out[k] - UInt8(ascii: "0"))
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The text of `date` when it reads back to exactly the same `Double`, else `nil`:
  /// not finite, outside ``dateRange``, or `-0.0`. Text writers refuse such a date
  /// rather than change it.
  public static func exactDate(_ date: Date) -> String? {
    guard isInDateRange(date) else { return nil }
    let text = Self.date(date)
    guard let back = parseDate(text),
      back.timeIntervalSinceReferenceDate.bitPattern == date.timeIntervalSinceReferenceDate.bitPattern
    else { return nil }
    return text
  }

  /// Reads an ISO 8601 date-time: `YYYY-MM-DD`, optionally followed by `T` or `t` or
  /// spaces and `hh:mm[:ss[.fraction]]` with an optional zone (`Z`, `±hh`, `±hh:mm`,
  /// `±hhmm`); no zone means UTC. The fraction keeps every digit given, and the
  /// result is the `Double` nearest the exact time. Nil for a malformed date, second
  /// 60 (leap seconds have no `Double`), or a date outside ``dateRange``.
  public static func parseDate(_ text: String) -> Date? {
    guard case .date(let date) = readDate(text) else { return nil }
    return date
  }

  /// What a date text holds.
  package enum DateReading: Equatable {
    case date(Date)
    case malformed
    /// Well-formed, but outside ``dateRange``.
    case outOfRange
  }

  /// Reads a date as ``parseDate(_:)`` does, telling a malformed text from one out of range.
  package static func readDate(_ text: String) -> DateReading {
    var scanner = DateScanner(Array(text.utf8))
    guard let (seconds, digits) = scanner.scan() else { return .malformed }
    let value: Double
    if digits.isEmpty || digits.allSatisfy({ $0 == "0" }) {
      value = Double(seconds)
    } else if seconds >= 0 {
      value = Double("\(seconds).\(digits)")!
    } else {
      // One rounding, not two: -(|s| - 0.ddd) = -((|s| - 1) + 0.(complement)).
      var trimmed = Substring(digits)
      while trimmed.last == "0" { trimmed = trimmed.dropLast() }
      value = Double("-\(-seconds - 1).\(complement(String(trimmed)))")!
    }
    guard dateRange.contains(value) else { return .outOfRange }
    return .date(Date(timeIntervalSinceReferenceDate: value))
  }

  /// Seconds between 1970-01-01 and 2001-01-01, the plist epoch.
  package static let referenceEpochOffset: Int64 = 978_307_200

  /// `YYYY-MM-DDThh:mm:ssZ` for whole seconds in the years 0 to 9999, built as bytes
  /// (the common case, and the only one XML plists hold).
  private static func wholeSecondText(_ seconds: Int64) -> String? {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      guard writeWholeSecondDate(seconds, into: buffer) else { return nil }
      return String(decoding: buffer, as: UTF8.self)
    }
  }

  /// Writes `YYYY-MM-DDThh:mm:ssZ` (20 bytes) for whole seconds since the 2001
  /// reference date; false, writing nothing, outside the years 0 to 9999.
  package static func writeWholeSecondDate(_ seconds: Int64, into out: UnsafeMutableBufferPointer<UInt8>) -> Bool {
    // Within years 0 to 9999 with room to spare; the fields decide exactly.
    guard seconds > -64_000_000_000, seconds < 253_000_000_000, out.count >= 20 else { return false }
    let f = civilFields(fromSecondsSinceReference: seconds)
    guard f.year >= 0, f.year <= 9999 else { return false }
    func put(_ n: Int64, _ width: Int, at position: Int) {
      var n = n
      for k in stride(from: position + width - 1, through: position, by: -1) {
        out[k] = UInt8(truncatingIfNeeded: 0x30 + n % 10)
        n /= 10
      }
    }
    put(f.year, 4, at: 0)
    out[4] = UInt8(ascii: "-")
    put(f.month, 2, at: 5)
    out[7] = UInt8(ascii: "-")
    put(f.day, 2, at: 8)
    out[10] = UInt8(ascii: "T")
    put(f.hour, 2, at: 11)
    out[13] = UInt8(ascii: ":")
    put(f.minute, 2, at: 14)
    out[16] = UInt8(ascii: ":")
    put(f.second, 2, at: 17)
    out[19] = UInt8(ascii: "Z")
    return true
  }

  /// `YYYY-MM-DDThh:mm:ss` for whole seconds since the 2001 reference date (UTC).
  private static func civil(fromSecondsSinceReference seconds: Int64) -> String {
    let f = civilFields(fromSecondsSinceReference: seconds)
    return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2))T\(pad(f.hour, 2)):"
      + "\(pad(f.minute, 2)):\(pad(f.second, 2))"
  }

  /// `yyyyMMddTHHmmss.SSSZ` in UTC, milliseconds truncated: a timestamp for names
  /// that sort by time (`20261130T141502.123Z`).
  package static func compactTimestamp(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSinceReferenceDate * 1000).rounded(.down))
    let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    let whole = fraction < 0 ? seconds - 1 : seconds
    let f = civilFields(fromSecondsSinceReference: whole)
    return "\(pad(f.year, 4))\(pad(f.month, 2))\(pad(f.day, 2))T\(pad(f.hour, 2))\(pad(f.minute, 2))"
      + "\(pad(f.second, 2)).\(pad((fraction + 1000) % 1000, 3))Z"
  }

  /// `n` in decimal, zero-padded to `width` digits after its sign.
  private static func pad(_ n: Int64, _ width: Int) -> String {
    (n < 0 ? "-" : "") + decimalDigits(n.magnitude, width: width)
  }

  /// The UTC calendar fields of whole seconds since the 2001 reference date.
  private static func civilFields(fromSecondsSinceReference seconds: Int64) -> (
    year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
  ) {
    let unix = seconds + referenceEpochOffset
    let days = unix >= 0 ? unix / 86400 : (unix - 86399) / 86400
    let secondOfDay = unix - days * 86400
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
  }

  /// The number of days in `month` (1...12) of the proleptic Gregorian `year`.
  package static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to the given civil date (Howard Hinnant's days_from_civil).
  package static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = month > 2 ? month - 3 : month + 9
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}

/// A small hand-written ISO 8601 reader: `ISO8601DateFormatter` keeps only
/// milliseconds on Linux and would lose the exact `Double`.
private struct DateScanner {
  package let bytes: [UInt8]
  var i = 0
  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func digits(_ count: Int) -> Int64? {
    guard i + count <= bytes.count else { return nil }
    var n: Int64 = 0
    for _ in 0..<count {
      let b = bytes[i]
      guard b >= 0x30 && b <= 0x39 else { return nil }
      n = n * 10 + Int64(b - 0x30)
      i += 1
    }
    return n
  }

  /// One or two digits: YAML timestamps allow a one-digit hour (`1:59:43`).
  mutating func oneOrTwoDigits() -> Int64? {
    guard let first = digits(1) else { return nil }
    if i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, let second = digits(1) {
      return first * 10 + second
    }
    return first
  }

  mutating func expect(_ byte: UInt8) -> Bool {
    guard i < bytes.count, bytes[i] == byte else { return false }
    i += 1
    return true
  }

  /// Whole seconds since 2001 and the digits of the fraction of a second.
  mutating func scan() -> (Int64, String)? {
    guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2),
      expect(UInt8(ascii: "-")), let day = digits(2), (1...12).contains(month), day >= 1,
      day <= TextForms.daysIn(month: month, year: year)
    else { return nil }
    var seconds = TextForms.daysFromCivil(year: year, month: month, day: day) * 86400
    var fraction = ""
    if i < bytes.count {
      // Separator: `T`, `t`, or one or more spaces/tabs.
      if bytes[i] == UInt8(ascii: "T") || bytes[i] == UInt8(ascii: "t") {
        i += 1
      } else {
        let start = i
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        guard i > start else { return nil }
      }
      guard let hour = oneOrTwoDigits(), expect(UInt8(ascii: ":")), let minute = digits(2),
        hour < 24, minute < 60
      else { return nil }
      var second: Int64 = 0
      if expect(UInt8(ascii: ":")) {
        guard let s = digits(2), s < 60 else { return nil }
        second = s
        if expect(UInt8(ascii: ".")) {
          let start = i
          while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
          guard i > start else { return nil }
          fraction = String(decoding: bytes[start..<i], as: UTF8.self)
        }
      }
      seconds += hour * 3600 + minute * 60 + second
      // Zone: spaces allowed before it (YAML 1.1 timestamps).
      while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
      if i < bytes.count {
        if bytes[i] == UInt8(ascii: "Z") || bytes[i] == UInt8(ascii: "z") {
          i += 1
        } else if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
          let sign: Int64 = bytes[i] == UInt8(ascii: "-") ? -1 : 1
          i += 1
          guard let zh = oneOrTwoDigits(), zh < 24 else { return nil }
          var zm: Int64 = 0
          if expect(UInt8(ascii: ":")) {
            guard let m = digits(2), m < 60 else { return nil }
            zm = m
          } else if i < bytes.count {
            guard let m = digits(2), m < 60 else { return nil }
            zm = m
          }
          seconds -= sign * (zh * 3600 + zm * 60)
        } else {
          return nil
        }
      }
    }
    guard i == bytes.count else { return nil }
    return (seconds - TextForms.referenceEpochOffset, fraction)
  }
}
