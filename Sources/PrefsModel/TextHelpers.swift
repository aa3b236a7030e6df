// Small text operations the binary would otherwise take from Foundation, which
// FoundationEssentials lacks (`String(format:)`, `replacingOccurrences`,
// `trimmingCharacters`): using them links all of Foundation into the binary.

/// `value` in hexadecimal, zero-padded to `width` digits, as `%0*x` (or `%0*X` when
/// `uppercase`) writes it.
package func hexDigits(_ value: some BinaryInteger, width: Int, uppercase: Bool = false) -> String {
  zeroPadded(String(value, radix: 16, uppercase: uppercase), width)
}

/// `value` in decimal, zero-padded to `width` digits, as `%0*u` writes it.
package func decimalDigits(_ value: some BinaryInteger, width: Int) -> String {
  zeroPadded(String(value), width)
}

private func zeroPadded(_ digits: String, _ width: Int) -> String {
  digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// The hexadecimal digits, lowercase, as bytes: the one table every writer of hex uses.
package let lowercaseHexDigits: [UInt8] = Array("0123456789abcdef".utf8)

/// The value of the hexadecimal digit `byte` (either case), or nil: the one reading of
/// a hex digit.
package func hexDigitValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
  default: nil
  }
}

/// Bytes as two lowercase hexadecimal digits each: `0a1b`.
package func hexBytes(_ bytes: some Sequence<UInt8>) -> String {
  let digits = lowercaseHexDigits
  var text: [UInt8] = []
  text.reserveCapacity(bytes.underestimatedCount * 2)
  for byte in bytes {
    text.append(digits[Int(byte >> 4)])
    text.append(digits[Int(byte & 0x0F)])
  }
  return String(decoding: text, as: UTF8.self)
}

/// `text` in double quotes, with `"`, `\\`, line feed, carriage return and tab escaped
/// by a backslash, and each other control character (C0 and DEL) as `control` spells it:
/// what Swift literals and JSON strings have in common.
package func doubleQuoted(_ text: String, control: (Unicode.Scalar) -> String) -> String {
  var result = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case "\t": result += "\\t"
    default:
      if scalar.value < 0x20 || scalar.value == 0x7F {
        result += control(scalar)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
  }
  return result + "\""
}

extension StringProtocol {
  /// Every `target` replaced by `replacement`, matched by Unicode scalars as
  /// `NSString` matches (so the `\n` of a `\r\n` is found, which matching by
  /// `Character` would miss). It stands in for `replacingOccurrences(of:with:)`,
  /// which FoundationEssentials lacks.
  package func replacingAll(_ target: String, with replacement: String) -> String {
    let pattern = Array(target.unicodeScalars)
    let scalars = Array(unicodeScalars)
    guard let first = pattern.first, scalars.count >= pattern.count else { return String(self) }
    var result = String.UnicodeScalarView()
    var i = 0
    while i < scalars.count {
      if scalars[i] == first, i + pattern.count <= scalars.count, scalars[i..<i + pattern.count].elementsEqual(pattern)
      {
        result.append(contentsOf: replacement.unicodeScalars)
        i += pattern.count
      } else {
        result.append(scalars[i])
        i += 1
      }
    }
    return String(result)
  }
}

extension StringProtocol {
  /// The string without the spaces and tabs at either end, as
  /// `trimmingCharacters(in: .whitespaces)` gives it.
  package var trimmingSpaces: String {
    let isSpace = { (c: Character) in
      c == " " || c == "\t" || c.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
    }
    return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
  }
}
