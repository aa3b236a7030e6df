import PrefsKit

/// What the command adds to the library's errors: the library says what failed, in
/// words that name no option; the command knows its options, and names the one that
/// helps. Every error the command reports passes through here.
enum ErrorAdvice {
  /// The error's message, with the option a value typed for it was read for.
  static func message(of error: PrefsError) -> String {
    switch error.kind {
    case .invalidData(_, .hex, _): error.message + ", which -data takes"
    case .invalidData(_, .base64, _), .ambiguousData: error.message + ", which --type data takes"
    default: error.message
    }
  }

  /// The hints naming options, after the error's own hints; those of the error a
  /// kind wraps come first, as the wrapping came later.
  static func hints(for kind: PrefsError.Kind) -> [String] {
    switch kind {
    case .null:
      return ["use --drop-nulls to leave nulls out of the property list"]
    case .jsonInPlistFile(let cause):
      return hints(for: cause) + [
        "the file holds JSON, not a property list: read it with --from json, or rename it to .json"
      ]
    case .unreadableDomain(let backup, let cause):
      return hints(for: cause) + ["the domain was not changed; --force replaces it, keeping a copy in \(backup)"]
    case .nonFiniteReal(let real, _):
      return ["without --plain it is written as {\"$real\": \"\(TextForms.nonFiniteWord(real))\"}"]
    case .typeMismatch(let text, _, let kind):
      return [
        "give the type to change it on purpose (-string \(text), --type string)"
          + (typeWord(kind).map { "; or write \(kind.article) \(kind.rawValue) (\($0) …)" } ?? "")
      ]
    case .invalidData(_, .hex, readsAsOther: true):
      return ["it reads as base64: give base64 with --type data"]
    case .invalidData(_, .base64, readsAsOther: true):
      return ["it reads as hex: give hex with -data"]
    case .ambiguousData(let text, let base64):
      return [
        "for the bytes \(text) in hex, give -data \(text); "
          + "for what it means in base64, give those bytes in hex: -data \(hexBytes(base64))"
      ]
    case .embeddedStructure(let format, let cause):
      return hints(for: cause) + [
        "the data holds \(format == "json" ? "JSON" : "a binary plist"): --expand-data goes on into it"
      ]
    case .severalDocuments:
      return ["convert, get, set and remove pick one with --document N (from 0) or --document KIND/NAME"]
    case .noSuchKey(_, _, _, needsParents: true):
      return ["-p creates missing dictionaries on the way"]
    case .readOnly:
      return ["make it writable first (chmod u+w), or give --force to replace it keeping its mode"]
    case .ownerNotKept:
      return ["run it as that user, or give --force to replace it with a file of your own"]
    case .noHostUUID:
      return [
        "name the host with --host-uuid UUID (on its Mac, ioreg -rd1 -c IOPlatformExpertDevice shows IOPlatformUUID)"
      ]
    case .severalHostUUIDs:
      return ["pick one with --host-uuid UUID"]
    case .otherHost:
      return ["-currentHost is this Mac's; a copied Preferences folder's are --defaults-dir DIR --host-uuid UUID"]
    case .changedSinceApply:
      return ["nothing was restored; --force restores the snapshot all the same, losing those changes"]
    default:
      return []
    }
  }

  /// The warning for `text` stored as a string at `key` though it reads as `value`
  /// (``ValueText/parseUntyped(_:existing:key:)``), naming the word that stores that.
  static func storedAsString(_ text: String, at key: String, readsAs value: PrefValue) -> String {
    let word = typeWord(value.kind).map { "\($0) \(text)" } ?? text
    return "stored '\(text)' at '\(key)' as a string; \(word) stores \(value.kind.article) \(value.kind.rawValue)"
  }

  /// The `defaults`-style word that writes a value of `kind`, for the scalars a text
  /// without a type keeps the type of.
  private static func typeWord(_ kind: PrefValue.Kind) -> String? {
    switch kind {
    case .string: "-string"
    case .integer: "-int"
    case .real: "-float"
    case .bool: "-bool"
    case .date: "-date"
    case .null: "--type null"
    case .data, .array, .dictionary, .uid: nil
    }
  }
}
