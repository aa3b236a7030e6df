import Foundation

@testable import PrefsFormats
@testable import PrefsModel

/// What every fuzz target checks once a reader has accepted its input: the value
/// re-encodes in each writable format that can hold it and reads back equal
/// (type-strict `==`). Any difference stops the run with the input kept.
enum RoundTrip {
  /// Formats that hold every value of the model exactly.
  static let lossless: [Format] = [.json, .yaml, .binary]

  /// Checks `value` (read as `source`) through every lossless format and, where it
  /// can hold the value, XML.
  static func check(_ value: PrefValue, source: Format?) {
    for format in lossless { expectSame(value, through: format) }
    if source == .xml || source == .binary || source == .openStep { checkXML(value) }
    // Whatever the OpenStep reader accepts, the OpenStep writer holds.
    if source == .openStep { expectSame(value, through: .openStep) }
  }

  /// Encodes `value` as `format`, reads it back, and traps on any difference. An
  /// encoding error is a bug here: these formats hold every value of the model.
  static func expectSame(_ value: PrefValue, through format: Format, yamlVersions: [YAMLVersion] = [.v1_2, .v1_1]) {
    let encoded: Data
    do {
      encoded = try format.codec.encode(value)
    } catch {
      // Text formats refuse, with an error, a date no ISO 8601 text reads back exactly.
      if format != .binary, !textHolds(value) { return }
      fatalError("\(format) refused to write a value it must hold: \(error)\n\(value)")
    }
    let versions = format == .yaml ? yamlVersions : [.v1_2]
    for version in versions {
      let options = ReadOptions(yamlVersion: version)
      let again: PrefValue
      do {
        again = try format.codec.read(encoded, options: options, warnings: Warnings())
      } catch {
        fatalError(
          "\(format) (YAML \(version.rawValue)) could not read back what it wrote: \(error)\n"
            + String(decoding: encoded, as: UTF8.self))
      }
      guard again == value else {
        fatalError(
          "\(format) (YAML \(version.rawValue)) round trip changed the value\nbefore: \(value)\nafter: \(again)\n"
            + String(decoding: encoded, as: UTF8.self))
      }
    }
  }

  /// XML plists cannot hold every value: a date with a fraction is rounded (with a
  /// warning), a dictionary that looks like `CF$UID` reads back as a UID, some
  /// control characters have no XML form (refused). Check the rest.
  static func checkXML(_ value: PrefValue) {
    guard xmlHolds(value) else { return }
    let encoded: Data
    do {
      encoded = try Format.xml.codec.encode(value)
    } catch {
      return  // a clean refusal (a character XML cannot hold) is allowed
    }
    do {
      let again = try Format.xml.codec.read(encoded, options: ReadOptions(), warnings: Warnings())
      guard again == value else {
        fatalError(
          "xml round trip changed the value\nbefore: \(value)\nafter: \(again)\n"
            + String(decoding: encoded, as: UTF8.self))
      }
    } catch {
      fatalError("xml could not read back what it wrote: \(error)\n" + String(decoding: encoded, as: UTF8.self))
    }
  }

  /// Whether every date in `value` has an exact ISO 8601 text form (years 0000-9999,
  /// not `-0.0`, a fraction that text can carry).
  static func textHolds(_ value: PrefValue) -> Bool {
    switch value {
    case .date(let date): return TextForms.exactDate(date) != nil
    case .array(let items): return items.allSatisfy(textHolds)
    case .dictionary(let dict): return dict.allSatisfy { textHolds($0.value) }
    default: return true
    }
  }

  /// Whether XML holds `value` exactly: no fractional dates, no `CF$UID` look-alikes.
  static func xmlHolds(_ value: PrefValue) -> Bool {
    switch value {
    case .date(let date):
      let t = date.timeIntervalSinceReferenceDate
      return t.isFinite && t == t.rounded() && t.bitPattern != (-0.0).bitPattern
    case .array(let items): return items.allSatisfy(xmlHolds)
    case .dictionary(let dict):
      if dict.count == 1, dict["CF$UID"] != nil { return false }
      return dict.allSatisfy { xmlHolds($0.value) }
    default: return true
    }
  }

  /// Checks that reading the root dictionary with several readers (`read(parts)`, at
  /// any size) gives what one reader gives: the same value (`==`) with its root keys
  /// in the same order and the same warnings, or the same error.
  static func checkParts(_ read: (Int) throws -> (PrefValue, [String])) {
    func outcome(_ parts: Int) -> (value: PrefValue?, keys: [String], warnings: [String], error: String?) {
      do {
        let (value, warnings) = try read(parts)
        guard case .dictionary(let root) = value else { return (value, [], warnings, nil) }
        return (value, root.keys, warnings, nil)
      } catch {
        return (nil, [], [], "\(error)")
      }
    }
    let one = outcome(1)
    for parts in 2...3 {
      let many = outcome(parts)
      guard many.value == one.value, many.keys == one.keys, many.warnings == one.warnings, many.error == one.error
      else { fatalError("\(parts) readers differ from one\none: \(one)\nmany: \(many)") }
    }
  }

  /// Runs `read` on the fuzzer's bytes; a thrown ``PrefsError`` is a clean refusal,
  /// anything else a bug.
  static func run(_ bytes: UnsafePointer<UInt8>, _ count: Int, _ read: (Data) throws -> (PrefValue, Format?)) {
    let data = Data(bytes: bytes, count: count)
    let result: (PrefValue, Format?)
    do {
      result = try read(data)
    } catch is PrefsError {
      return
    } catch {
      fatalError("a reader threw something other than PrefsError: \(error)")
    }
    check(result.0, source: result.1)
  }
}
