// A small program that uses UserDefaults(suiteName:) the way an app does; the
// domain tests build it to check that prefs and Foundation agree on every file.
//
//   probe read SUITE    prints each key as KEY<TAB>KIND<TAB>VALUE, then the
//                       tutorial's typed reads with their fallbacks
//   probe write SUITE   stores one value of every kind and synchronizes
//   probe change SUITE  changes what `write` stored as a settings screen would: a
//                       setting of every kind changed, one retyped, one added,
//                       one removed, an array grown and a dictionary nested deeper
//   probe casts SUITE   prints each key as KEY then, TAB-separated, what
//                       `object(forKey:) as? T` gives for Bool, String, Int,
//                       Double, Date, Data, [Any] and [String: Any] (nil: fails)
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let defaults = UserDefaults(suiteName: arguments[2]) else {
  FileHandle.standardError.write(Data("usage: probe read|write|change|casts SUITE\n".utf8))
  exit(64)
}
let suite = arguments[2]

/// KIND<TAB>VALUE, telling booleans from numbers by their objCType.
func describe(_ value: Any) -> String {
  switch value {
  case let number as NSNumber:
    switch String(cString: number.objCType) {
    case "c", "B": return "bool\t\(number.boolValue)"
    case "f", "d": return "real\t\(number.doubleValue)"
    default: return "integer\t\(number.int64Value)"
    }
  case let string as String: return "string\t\(string)"
  case let date as Date: return "date\t\(date.timeIntervalSinceReferenceDate)"
  case let data as Data: return "data\t\(data.map { String(format: "%02x", $0) }.joined())"
  case let array as [Any]: return "array\t[" + array.map(describe).joined(separator: ", ") + "]"
  case let dict as [String: Any]:
    return "dict\t{" + dict.keys.sorted().map { "\($0): \(describe(dict[$0]!))" }.joined(separator: ", ") + "}"
  default: return "other\t\(value)"
  }
}

switch arguments[1] {
case "read":
  let domain = defaults.persistentDomain(forName: suite) ?? [:]
  for key in domain.keys.sorted() { print("\(key)\t\(describe(domain[key]!))") }
  // The tutorial's settings model: typed casts with fallbacks.
  let username = defaults.object(forKey: "username") as? String ?? ""
  let isAccountPrivate = defaults.object(forKey: "isAccountPrivate") as? Bool ?? true
  let ringtone = defaults.object(forKey: "ringtone") as? String ?? "Chimes"
  print("app reads: username=\(username) isAccountPrivate=\(isAccountPrivate) ringtone=\(ringtone)")
case "write":
  defaults.set("Signal", forKey: "ringtone")
  defaults.set(false, forKey: "isAccountPrivate")
  defaults.set("ada", forKey: "username")
  defaults.set(42, forKey: "count")
  defaults.set(1.5, forKey: "ratio")
  defaults.set(Date(timeIntervalSinceReferenceDate: 721_692_800), forKey: "since")
  defaults.set(Data([1, 2, 255]), forKey: "blob")
  defaults.set(["a", "b"], forKey: "list")
  defaults.set(["nested": 1], forKey: "table")
  guard defaults.synchronize() else { exit(74) }
case "change":
  defaults.set("Waves", forKey: "ringtone")
  defaults.set(true, forKey: "isAccountPrivate")
  defaults.set("42", forKey: "count")
  defaults.set(7, forKey: "level")
  defaults.set(2.25, forKey: "ratio")
  defaults.set(Date(timeIntervalSinceReferenceDate: 721_779_200), forKey: "since")
  defaults.set(Data([9, 8, 7]), forKey: "blob")
  defaults.set(["a", "b", "c"], forKey: "list")
  defaults.set(
    ["nested": 2, "more": ["deep": true, "when": Date(timeIntervalSinceReferenceDate: 0)]], forKey: "table")
  defaults.removeObject(forKey: "username")
  guard defaults.synchronize() else { exit(74) }
case "casts":
  func text(_ value: Any?) -> String { value.map { "\($0)" } ?? "nil" }
  for key in (defaults.persistentDomain(forName: suite) ?? [:]).keys.sorted() {
    let object = defaults.object(forKey: key)
    let casts = [
      text(object as? Bool), text(object as? String), text(object as? Int), text(object as? Double),
      text((object as? Date)?.timeIntervalSinceReferenceDate),
      text((object as? Data)?.map { String(format: "%02x", $0) }.joined()),
      text((object as? [Any]).map { "\($0.count) items" }), text((object as? [String: Any]).map { "\($0.count) keys" }),
    ]
    print(([key] + casts).joined(separator: "\t"))
  }
default:
  exit(64)
}
