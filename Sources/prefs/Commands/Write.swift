import PrefsKit

/// `prefs write DOMAIN KEY VALUE [--type T]`, with the `defaults` type words.
enum Write {
  static let spec = CommandSpec(
    name: "write",
    summary: "Set one key of a domain, atomically and under the domain's lock.",
    discussion: """
      Without a type a value never changes a key's type: it keeps the type the key \
      holds when its text reads as one (false for a bool), and is refused otherwise; \
      a new key is a string, as with defaults write (with a warning when the text \
      reads as a number, bool or date). A value that starts with <, ( or { is a \
      property list, as defaults write reads it: an XML fragment \
      ('<dict><key>a</key><string>b</string></dict>', '<true/>') or OpenStep \
      ('(a, b)', '{a = 1;}'), also as an item of -array, -array-add, -dict and \
      -dict-add; one that does not read is refused, and -string stores the text. --type or a \
      defaults-style word gives another: -int 5, -bool yes, -date 2024-01-02T03:04:05Z, \
      -data 0a1b (hex), -array a b c, -array-add d, -dict k1 v1 k2 v2, -dict-add k3 v3. \
      Inside -array and -dict a type word types the next value (-array -int 1 -string a). \
      Negative numbers are values: write d k -int -1, write d k -float -inf. -data \
      takes hex and --type data base64; a text that reads both ways (0a1b) is \
      refused by --type data, with a hint to use -data.
      """,
    arguments: [
      ArgumentSpec(name: "DOMAIN", help: "A domain name (com.example.app, -g) or a file."),
      ArgumentSpec(name: "KEY", help: "A top-level key."),
      // Optional: -array and -dict alone write an empty one.
      ArgumentSpec(name: "VALUE", help: "The value, or several for -array and -dict.", optional: true, variadic: true),
    ],
    options: [Options.type] + Options.typeWords + [
      Options.force, Options.dropNulls, Options.allowDuplicateKeys,
    ] + Options.store,
    examples: [
      ("prefs write com.example.app ringtone Waves", "Store a string."),
      ("prefs write com.example.app isAccountPrivate -bool false", "Store a boolean."),
      ("prefs write com.example.app recent -array-add Signal", "Append to an array."),
      (
        "prefs write com.apple.dock persistent-apps -array-add '<dict><key>tile-type</key><string>spacer-tile</string></dict>'",
        "Append a property list, as defaults write reads one."
      ),
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
    let domain = try resolveDomain(arguments.positionals[0], in: arguments.store())
    let key = arguments.positionals[1]
    let edit = try parseEdit(arguments)
    var warning: String?
    try changeDomain(domain, arguments, console: console) { contents in
      var dict = contents ?? PrefDictionary()
      switch edit {
      case .set(let value):
        dict[key] = value
      case .setUntyped(let text):
        let (value, readsAs) = try inFile(domain.name) {
          try ValueText.parseUntyped(text, existing: dict[key], key: key)
        }
        dict[key] = value
        warning = readsAs.map { ErrorAdvice.storedAsString(text, at: key, readsAs: $0) }
      case .append(let items):
        switch dict[key] {
        case .array(let existing)?: dict[key] = .array(existing + items)
        case nil: dict[key] = .array(items)
        case let other?:
          throw wrongKind(key, other, expected: "an array", in: domain)
        }
      case .addEntries(let entries):
        switch dict[key] {
        case .dictionary(var existing)?:
          for (k, v) in entries { existing[k] = v }
          dict[key] = .dictionary(existing)
        case nil: dict[key] = .dictionary(entries)
        case let other?:
          throw wrongKind(key, other, expected: "a dictionary", in: domain)
        }
      }
      contents = dict
    }
    if let warning { console.err("prefs: warning: \(warning)") }
    return Console.Status.success
  }

  static func wrongKind(_ key: String, _ value: PrefValue, expected: String, in domain: any PreferenceDomain)
    -> PrefsError
  {
    PrefsError(
      .other(.badInput, "'\(key)' is \(value.kind.article) \(value.kind.rawValue), not \(expected)"), file: domain.name)
  }

  /// What a write does to the key.
  enum Edit {
    case set(PrefValue)
    /// A value given without a type: it takes the type of the value it replaces.
    case setUntyped(String)
    case append([PrefValue])
    case addEntries(PrefDictionary)
  }

  /// The type a type word or `--type` gives.
  static func typeName(ofOption name: String, value: String) throws -> ValueText.TypeName? {
    if name == Options.type.name { return try Options.typeName(value) }
    guard name.hasPrefix("word-") else { return nil }
    return ValueText.TypeName.named(String(name.dropFirst("word-".count)).replacingAll("-add", with: ""))
  }

  /// A value given without a type that starts with `<`, `(` or `{`: a property list,
  /// as `defaults write` reads it; text that does not read is refused, never stored
  /// as a string unless `-string` says so.
  static func propertyList(_ text: String) throws -> PrefValue {
    do {
      return try ValueText.parsePropertyList(text)
    } catch var error as PrefsError {
      error.hints.append("to store the text as it is, give it as a string: -string '\(text)'")
      throw error
    }
  }

  /// Reads the VALUE part of the command line, in order, after DOMAIN and KEY.
  static func parseEdit(_ arguments: ParsedArguments) throws -> Edit {
    var container: String?  // "array", "array-add", "dict", "dict-add"
    var pending: (type: ValueText.TypeName, hex: Bool)?
    var texts: [(text: String, type: (type: ValueText.TypeName, hex: Bool)?)] = []
    for token in arguments.sequence {
      switch token {
      case .positional(let text):
        texts.append((text, pending))
        if container != nil { pending = nil }
      case .option(let name, let value):
        let word = name.hasPrefix("word-") ? String(name.dropFirst("word-".count)) : nil
        if let word, ["array", "array-add", "dict", "dict-add"].contains(word) {
          guard container == nil, texts.count <= 2 else {
            throw ArgumentParser.usageError("-\(word) must come before the values", spec)
          }
          container = word
        } else if let type = try typeName(ofOption: name, value: value) {
          pending = (type, word == "data")
        }
      }
    }
    let raw = texts.dropFirst(2)  // DOMAIN and KEY
    guard let container else {
      guard raw.count == 1, let only = raw.first else {
        throw ArgumentParser.usageError(
          raw.isEmpty ? "missing argument VALUE" : "write takes one VALUE (use -array for several)", spec)
      }
      // A single value takes its type from wherever the type was given.
      guard let type = only.type ?? pending else {
        guard ValueText.startsAsPropertyList(only.text) else { return .setUntyped(only.text) }
        return .set(try propertyList(only.text))
      }
      return .set(try ValueText.parse(only.text, as: type.type, hexData: type.hex))
    }
    var values: [PrefValue] = []
    for (index, item) in raw.enumerated() {
      // Dictionary keys are always strings.
      let isKey = container.hasPrefix("dict") && index % 2 == 0
      let type = isKey ? nil : item.type
      if !isKey, type == nil, ValueText.startsAsPropertyList(item.text) {
        values.append(try propertyList(item.text))
      } else {
        values.append(try ValueText.parse(item.text, as: type?.type ?? .string, hexData: type?.hex ?? false))
      }
    }
    switch container {
    case "array": return .set(.array(values))
    case "array-add": return .append(values)
    default:
      guard values.count % 2 == 0 else {
        throw ArgumentParser.usageError("-\(container) takes KEY VALUE pairs", spec)
      }
      var dict = PrefDictionary()
      for pair in stride(from: 0, to: values.count, by: 2) {
        dict[values[pair].stringValue ?? ""] = values[pair + 1]
      }
      return container == "dict" ? .set(.dictionary(dict)) : .addEntries(dict)
    }
  }
}
