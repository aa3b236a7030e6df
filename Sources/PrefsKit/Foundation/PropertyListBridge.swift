import PrefsFormats
import PrefsModel
import PrefsText

// Needs all of Foundation: built with the FullFoundation trait (on by default).
#if FullFoundation

  import Foundation

  extension PrefValue {
    /// The value of a property list object as `UserDefaults` and
    /// `PropertyListSerialization` give and take them: `String`/`NSString`,
    /// `NSNumber` and Swift's numbers and `Bool`, `Date`, `Data`, arrays and
    /// dictionaries with `String` keys, at any depth.
    ///
    /// A boolean stays a `.bool` and the numbers 0 and 1 stay `.integer` (on Linux
    /// `NSNumber(1) as? Bool` succeeds, so booleans are told apart by the number's
    /// `objCType`, as the Foundation plist reader does); a `Double`, even a whole one,
    /// is a `.real`. Dictionaries come out with their keys sorted by code point, as
    /// Foundation keeps no order. An `NSNull` or a `nil` (as `JSONSerialization` and
    /// optionals give them) is ``PrefValue/null``, which no property list holds: writing
    /// one as a plist refuses it by its key path.
    ///
    /// - Throws: ``PrefsError`` naming the key path of an object of another type (a
    ///   non-string key, a class the model has no kind for) or of nesting deeper than
    ///   512 levels.
    public init(validatingPropertyList object: Any) throws {
      self = try FoundationPlistReader.convert(object, maxDepth: ReadOptions().maxDepth)
    }

    /// The value of a property list object, as ``init(validatingPropertyList:)`` reads
    /// it; nil for an object that is not one (which that initializer names).
    public init?(propertyList object: Any) {
      guard let value = try? PrefValue(validatingPropertyList: object) else { return nil }
      self = value
    }

    /// The value as a property list object for `UserDefaults` and
    /// `PropertyListSerialization`: `String`, `Int` (`UInt64` above `Int64.max`),
    /// `Double`, `Bool`, `Date`, `Data`, `[Any]` and `[String: Any]`; a null is `NSNull`,
    /// as `JSONSerialization` takes it (`UserDefaults` and `PropertyListSerialization`
    /// refuse it: write a value holding one through ``FoundationPlistCodec``, which names
    /// its key path).
    ///
    /// Each reads back through ``init(propertyList:)`` as the same value (a `Bool`
    /// writes `<true/>`, a whole `Double` stays a real), except in two ways Foundation
    /// imposes: a dictionary's key order is lost, and a `.uid`, which has no Foundation
    /// form on Linux, becomes the dictionary `["CF$UID": n]` that an XML plist writes
    /// for it, which reads back as a dictionary.
    public var propertyList: Any {
      switch self {
      case .string(let s): s
      case .integer(let n): Int(n)
      case .unsignedInteger(let n): n
      case .real(let r): r
      case .bool(let b): b
      case .date(let d): d
      case .data(let d): d
      case .array(let items): items.map(\.propertyList)
      case .dictionary(let dictionary):
        Dictionary(dictionary.map { ($0.key, $0.value.propertyList) }, uniquingKeysWith: { first, _ in first })
          as [String: Any]
      case .uid(let n): ["CF$UID": Int(truncatingIfNeeded: n)] as [String: Any]
      case .null: NSNull()
      }
    }
  }

  extension UserDefaults {
    /// The persistent domain `name` as a dictionary value, as
    /// `UserDefaults.standard.persistentDomain(forName:)` gives it (on Linux, the
    /// file `UserDefaults(suiteName: name)` keeps); nil when the domain holds nothing.
    ///
    /// Use it to export what a program stored, or to check its types, with the
    /// type-strict model (a stored `true` and a stored `1` are told apart).
    ///
    /// - Throws: ``PrefsError`` when the domain holds a value the model cannot hold.
    public static func prefValue(forSuite name: String) throws -> PrefValue? {
      guard let domain = standard.persistentDomain(forName: name), !domain.isEmpty else { return nil }
      return try PrefValue(validatingPropertyList: domain)
    }
  }

  /// A property list codec that reads and writes through Foundation's
  /// `PropertyListSerialization`, for a program that wants Foundation's own engine
  /// (to match another tool bit for bit, or to compare against it).
  ///
  /// The native codecs (``Format/xml``, ``Format/binary``) are the default because they
  /// are exact where Foundation on Linux is not: its XML writer drops the fraction of
  /// a date's second and the sign of `-0.0`, its reader loses the order of keys, and
  /// its OpenStep writer crashes (so this codec writes only XML and binary).
  ///
  /// Reading takes XML and OpenStep text through `PropertyListSerialization`; a binary
  /// plist is read by the native binary reader, because Foundation's crashes on some
  /// malformed files. Writing converts through ``PrefValue/propertyList`` (so a UID is
  /// written as a `CF$UID` dictionary, and keys are written sorted) and warns of each
  /// date fraction an XML plist drops. A null is refused by its key path, as the
  /// native writers refuse it, or left out with ``WriteOptions/dropNulls``.
  public struct FoundationPlistCodec: FormatCodec {
    /// The property list formats Foundation writes here.
    public enum Variant: Sendable {
      /// XML (`<?xml …><plist version="1.0">`).
      case xml
      /// Binary (`bplist00`).
      case binary
    }

    /// The format ``write(_:to:options:warnings:)`` produces.
    public let format: Variant

    /// A codec that writes `format` through `PropertyListSerialization`.
    public init(format: Variant) { self.format = format }

    /// Reads an XML or OpenStep property list through `PropertyListSerialization`,
    /// or a binary one natively.
    public func read(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue {
      if let error = options.sizeError(data.count) { throw error }
      if data.starts(with: Array("bplist".utf8)) {
        return try PlistCodec(variant: .binary).read(data, options: options, warnings: warnings)
      }
      let isXML = Format.sniffPlist(data) != .openStep
      return try FoundationPlistReader.read(data, isXML: isXML, maxDepth: options.maxDepth)
    }

    /// Writes `value` through `PropertyListSerialization` as ``format``.
    public func write(_ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings) throws {
      let value = options.dropNulls ? value.droppingNulls(warnings: warnings) : value
      if let refusal = value.nullRefusal { throw refusal }
      if format == .xml { Self.warnOfDateFractions(in: value, at: [], warnings: warnings) }
      let data: Data
      do {
        data = try PropertyListSerialization.data(
          fromPropertyList: value.propertyList, format: format == .xml ? .xml : .binary, options: 0)
      } catch {
        throw PrefsError(.writerFailed(writer: "PropertyListSerialization", problem: "\(error)"))
      }
      try data.withUnsafeBytes { try writer.write($0) }
    }

    /// Records a warning for each date whose fraction of a second an XML plist drops.
    private static func warnOfDateFractions(in value: PrefValue, at path: [PrefKeyPath.Component], warnings: Warnings) {
      switch value {
      case .date(let date):
        if let dropped = PlistCodec.droppedFraction(of: date, at: path) { warnings.add(dropped) }
      case .array(let items):
        for (i, item) in items.enumerated() {
          warnOfDateFractions(in: item, at: path + [.index(i)], warnings: warnings)
        }
      case .dictionary(let dictionary):
        for (key, item) in dictionary { warnOfDateFractions(in: item, at: path + [.key(key)], warnings: warnings) }
      case .string, .integer, .unsignedInteger, .real, .bool, .data, .uid, .null: break
      }
    }
  }

#endif
