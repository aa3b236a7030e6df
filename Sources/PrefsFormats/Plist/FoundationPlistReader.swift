import PrefsModel
import PrefsText

// Needs all of Foundation: built with the FullFoundation trait (on by default).
#if FullFoundation

  import Foundation

  /// Reads XML and OpenStep property lists through `PropertyListSerialization` (the
  /// reference reader) and converts its `Any` tree to a ``PrefValue`` exactly.
  /// ``PlistCodec`` reads every plist natively; tests use this reader as the reference
  /// for the native XML and OpenStep readers, and PrefsKit's Foundation bridge
  /// (`PrefValue(propertyList:)`, `FoundationPlistCodec`) converts through it.
  ///
  /// What this Foundation does that the conversion has to undo or work around:
  /// - `is Bool` and `as? Bool` succeed for the numbers 0 and 1 (and even 1.0); a
  ///   plist boolean is told apart by the `NSNumber`'s `objCType`, which is `"c"`
  ///   only for booleans here.
  /// - UIDs (`CF$UID` dictionaries) arrive as an internal `_NSKeyedArchiverUID` class
  ///   whose 32-bit `value` is reached by reflection.
  /// - Dictionaries lose their key order; keys are given back sorted by code point.
  /// - `UserDefaults.persistentDomain(forName:)` gives its values as `Optional<Any>`:
  ///   they are unwrapped; a nil, like an `NSNull` (as `JSONSerialization` gives a
  ///   JSON null), is ``PrefValue/null``. No property list holds either.
  /// - Errors are `NSError`s whose only position is a line inside `NSDebugDescription`,
  ///   and several texts are misleading; ``error(from:isXML:)`` rewrites them.
  package enum FoundationPlistReader {
    /// Reads `data` (XML or OpenStep) and converts it.
    package static func read(_ data: Data, isXML: Bool, maxDepth: Int) throws -> PrefValue {
      if isXML { try refuseEntityDeclarations(data) }
      // Foundation's binary reader crashes on some broken files (a set it cannot
      // bridge): binary plists are only ever read by the native reader.
      guard !data.starts(with: BinaryPlistReader.magic) else {
        throw PrefsError.syntax(in: .binary, "a binary plist is read by the binary reader, not as text", offset: 0)
      }
      let object: Any
      do {
        object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
      } catch {
        throw self.error(from: error as NSError, isXML: isXML)
      }
      return try convert(object, maxDepth: maxDepth)
    }

    /// Converts what `PropertyListSerialization` returned.
    package static func convert(_ object: Any, maxDepth: Int) throws -> PrefValue {
      var converter = Converter(maxDepth: maxDepth)
      return try converter.convert(object, depth: 0)
    }

    // MARK: Conversion

    private struct Converter {
      let maxDepth: Int
      var path: [PrefKeyPath.Component] = []

      mutating func convert(_ object: Any, depth: Int) throws -> PrefValue {
        if let optional = object as? any WrappedValue {
          guard let wrapped = optional.wrapped else { return .null }
          return try convert(wrapped, depth: depth)
        }
        switch object {
        case is NSNull:
          return .null
        case let string as String:
          return .string(string)
        case let number as NSNumber:
          return try Self.number(number, type: type(of: object), at: path)
        case let date as Date:
          return .date(date)
        case let data as Data:
          return .data(data)
        case let array as [Any]:
          guard depth < maxDepth else { throw tooDeep() }
          var items: [PrefValue] = []
          items.reserveCapacity(array.count)
          for (i, item) in array.enumerated() {
            path.append(.index(i))
            items.append(try convert(item, depth: depth + 1))
            path.removeLast()
          }
          return .array(items)
        case let dictionary as [AnyHashable: Any]:
          guard depth < maxDepth else { throw tooDeep() }
          var pairs: [(key: String, value: Any)] = []
          pairs.reserveCapacity(dictionary.count)
          for (key, value) in dictionary {
            guard let key = key.base as? String else {
              throw PrefsError.syntax(
                "dictionary key at \(plistPath(path)) is not a string", format: "xml", stage: .composer)
            }
            pairs.append((key, value))
          }
          // Foundation keeps no order; give a stable one.
          pairs.sort { PrefDictionary.codePointOrder($0.key, $1.key) }
          var result = PrefDictionary()
          for (key, value) in pairs {
            path.append(.key(key))
            result.insertNew(key, try convert(value, depth: depth + 1))
            path.removeLast()
          }
          return .dictionary(result)
        default:
          if let uid = Self.uid(object) { return .uid(uid) }
          throw PrefsError.syntax(
            "value of unexpected type \(type(of: object)) at \(plistPath(path))", format: "xml", stage: .composer)
        }
      }

      func tooDeep() -> PrefsError {
        PrefsError(.tooDeep(limit: maxDepth, detail: "at \(plistPath(path))"))
      }

      static func number(_ number: NSNumber, type: Any.Type, at path: [PrefKeyPath.Component]) throws
        -> PrefValue
      {
        // A plist boolean bridges as Swift `Bool` (objCType "c"); integers never use "c"
        // except a Swift `Int8` handed over by a program.
        if type == Bool.self { return .bool(number.boolValue) }
        if type == Int8.self { return .integer(number.int64Value) }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "c"), UInt8(ascii: "B"): return .bool(number.boolValue)
        case UInt8(ascii: "d"): return .real(number.doubleValue)
        case UInt8(ascii: "f"): return .real(Double(number.floatValue))
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"),
          UInt8(ascii: "C"):
          return .integer(exactly: number.uint64Value)
        case UInt8(ascii: "q"), UInt8(ascii: "l"), UInt8(ascii: "i"), UInt8(ascii: "s"):
          return .integer(number.int64Value)
        default:
          let code = String(cString: number.objCType)
          throw PrefsError.syntax(
            "number of unexpected kind '\(code)' at \(plistPath(path))", format: "xml", stage: .composer)
        }
      }

      /// The value of Foundation's internal UID class, which is not public on Linux.
      static func uid(_ object: Any) -> UInt64? {
        guard String(describing: type(of: object)).hasSuffix("KeyedArchiverUID") else { return nil }
        for child in Mirror(reflecting: object).children where child.label == "value" {
          if let value = child.value as? UInt32 { return UInt64(value) }
          if let value = child.value as? UInt64 { return value }
        }
        return nil
      }
    }

    // MARK: Errors

    /// Turns a Foundation parse error into one positioned line in our words.
    static func error(from error: NSError, isXML: Bool) -> PrefsError {
      var text: String
      if isXML {
        text = error.userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
      } else {
        // OpenStep text: the old-style parser's error is the one that applies.
        let inner = error.userInfo["kCFPropertyListOldStyleParsingError"] as? NSError
        text =
          inner?.userInfo[NSDebugDescriptionErrorKey] as? String
          ?? error.userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
      }
      let line = lineNumber(in: text)
      text = ourWords(for: stripLine(from: text), isXML: isXML)
      if text.isEmpty {
        text = isXML ? "malformed XML property list" : "malformed OpenStep property list"
      }
      // Foundation names no line for faults of the whole document (an unknown
      // encoding); point at its start so every text-format error has a position.
      return .syntax(in: isXML ? .xml : .openStep, text, line: line ?? 1, column: 1)
    }

    /// The number after the last "line " in Foundation's text.
    static func lineNumber(in text: String) -> Int? {
      guard let range = text.range(of: "line ", options: .backwards) else { return nil }
      let digits = text[range.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
      return Int(digits)
    }

    /// Foundation's text without its "at line N" / "on line N" clause.
    static func stripLine(from text: String) -> String {
      var result = text
      for pattern in [" at line ", " on line ", ", failing on line ", " line "] {
        guard let range = result.range(of: pattern) else { continue }
        var end = range.upperBound
        while end < result.endIndex, result[end].isNumber { end = result.index(after: end) }
        result.removeSubrange(range.lowerBound..<end)
        break
      }
      while result.hasSuffix(".") || result.hasSuffix(" ") { result.removeLast() }
      return result
    }

    /// Rewrites texts that mislead, and lower-cases the rest to match our grammar.
    static func ourWords(for text: String, isXML: Bool) -> String {
      let rewrites: [(String, String)] = [
        (
          "Encountered improper CDATA opening",
          "'<!' inside an element's text: Foundation reads only <![CDATA[ there (no comments or declarations)"
        ),
        (
          "Encountered unknown ampersand-escape sequence",
          "unknown entity reference ('&' must be written '&amp;')"
        ),
        ("while looking for open tag", "text outside any element where a tag was expected"),
        ("Too many nested arrays or dictionaries", "nesting too deep for Foundation's XML reader"),
        (
          "Could not interpret <date>",
          "malformed <date> (Foundation reads only YYYY-MM-DDThh:mm:ssZ)"
        ),
        (
          "Unexpected character", isXML ? "not an XML property list" : "not an OpenStep property list"
        ),
        ("Conversion of string failed", "text is not in a supported encoding"),
      ]
      for (needle, replacement) in rewrites where text.contains(needle) {
        // Keep Foundation's detail for the generic "unexpected character" case.
        if needle == "Unexpected character" { return "\(replacement): \(lowerFirst(text))" }
        return replacement
      }
      return lowerFirst(text)
    }

    private static func lowerFirst(_ text: String) -> String {
      guard let first = text.first, first.isUppercase, text.dropFirst().first?.isUppercase != true
      else { return text }
      return first.lowercased() + text.dropFirst()
    }

    // MARK: Entity declarations

    /// Refuses a DOCTYPE with an internal subset (`[ … ]`), where entity declarations
    /// live: plists never need one, and entity expansion is a classic attack.
    /// Foundation's own text for it ("unexpected character [ … while parsing DTD") does
    /// not say what is wrong.
    static func refuseEntityDeclarations(_ data: Data) throws {
      let bytes = data.prefix(4096)
      guard let doctype = firstRange(of: Array("<!DOCTYPE".utf8), in: bytes) else { return }
      let subset = bytes.withUnsafeBytes { raw in
        XMLMarkup.firstUnquoted(
          in: raw.bindMemory(to: UInt8.self), from: doctype.upperBound - bytes.startIndex, where: XMLMarkup.endsDoctype)
      }
      guard let subset, bytes[bytes.startIndex + subset] == UInt8(ascii: "[") else { return }
      throw PrefsError.syntax(
        XMLMarkup.internalSubsetRefusal, format: Format.xml.name, stage: .parser,
        position: .of(offset: subset, in: bytes))
    }

    private static func firstRange(of needle: [UInt8], in bytes: Data) -> Range<Data.Index>? {
      guard bytes.count >= needle.count else { return nil }
      var i = bytes.startIndex
      while i + needle.count <= bytes.endIndex {
        if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) {
          return i..<(i + needle.count)
        }
        i += 1
      }
      return nil
    }
  }

  /// An `Optional` of any type, seen through `Any`.
  private protocol WrappedValue {
    var wrapped: Any? { get }
  }

  extension Optional: WrappedValue {
    fileprivate var wrapped: Any? { map { $0 as Any } }
  }

#endif
