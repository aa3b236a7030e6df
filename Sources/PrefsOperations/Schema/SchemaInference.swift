import PrefsModel

/// A key that holds values of more than one type across the inputs of
/// ``SchemaInference/infer(_:)``.
public struct TypeConflict: Sendable, Equatable, CustomStringConvertible {
  /// One type the key holds, and the inputs that hold it so.
  public struct Occurrence: Sendable, Equatable {
    public var type: ValueText.TypeName
    /// The inputs' names, in the order given, each once.
    public var inputs: [String]
    /// How many values of this type were seen (an array's items count one each).
    public var count: Int
  }

  /// The key path as messages name it; `[]` stands for every item of an array
  /// (`servers[].port`).
  public var path: String
  /// The types, in the order first seen.
  public var occurrences: [Occurrence]
  /// The type the schema gives the key: the one seen most often, the first seen of a tie.
  public var chosen: ValueText.TypeName

  /// `volume: integer in a.plist; real in b.plist; the schema says integer (seen most)`.
  public var description: String {
    let seen = occurrences.map { "\($0.type.rawValue) in \($0.inputs.joined(separator: ", "))" }
    return "\(path): \(seen.joined(separator: "; ")); the schema says \(chosen.rawValue) (seen most)"
  }
}

/// What ``SchemaInference/infer(_:)`` finds: the schema, and the keys whose type the
/// inputs disagree on.
public struct InferredSchema: Sendable, Equatable {
  public var schema: Schema
  public var conflicts: [TypeConflict]
}

/// `prefs schema infer`: a schema of the types some domains hold, for a domain that
/// has no code to scan and no published schema.
///
/// The rules, kept honest about what values alone can say:
/// - Each key gets the type it holds; nested dictionaries become nested keys, and an
///   array's items their own schema (`items`), from every item of every input.
/// - No default is invented: what an app falls back on is not in its data.
/// - A string or integer key lists its `values` when it holds a few of them: between
///   2 and ``maxValues`` distinct values, and fewer distinct values than values seen,
///   so that at least one value repeats (across inputs, or across the items of an
///   array). One input with one value per key never lists values.
/// - A key holding several types across the inputs is reported (``TypeConflict``)
///   and takes the type seen most often.
/// - A value with no schema type (a null, a keyed-archive uid) says nothing of its key.
public enum SchemaInference {
  /// The most distinct values a key may hold and still list them as its `values`.
  public static let maxValues = 4

  /// The schema of `inputs`, each a name (for messages) and a domain's contents.
  public static func infer(_ inputs: [(name: String, contents: PrefDictionary)]) -> InferredSchema {
    let root = Node()
    for input in inputs { root.observe(.dictionary(input.contents), from: input.name) }
    var conflicts: [TypeConflict] = []
    let keys = root.childKeys(under: "", conflicts: &conflicts)
    let names = inputs.map(\.name)
    let description =
      "Inferred from \(names.count == 1 ? "one input" : "\(names.count) inputs"): \(names.joined(separator: ", "))."
    return InferredSchema(schema: Schema(description: description, keys: keys), conflicts: conflicts)
  }

  /// Every value seen at one place (a key path, or an array's items), and below it.
  private final class Node {
    var values: [(value: PrefValue, input: String)] = []
    var childNames: [String] = []
    var children: [ScalarKey: Node] = [:]
    var items: Node?

    func observe(_ value: PrefValue, from input: String) {
      values.append((value, input))
      switch value {
      case .dictionary(let dict):
        for (key, item) in dict {
          let child: Node
          if let existing = children[ScalarKey(key)] {
            child = existing
          } else {
            child = Node()
            children[ScalarKey(key)] = child
            childNames.append(key)
          }
          child.observe(item, from: input)
        }
      case .array(let elements):
        let node = items ?? Node()
        items = node
        for element in elements { node.observe(element, from: input) }
      default: break
      }
    }

    func childKeys(under path: String, conflicts: inout [TypeConflict]) -> [SchemaKey] {
      childNames.compactMap { name in
        let place = (path.isEmpty ? "" : path + ".") + PrefKeyPath([.key(name)]).nameInMessages
        return children[ScalarKey(name)]?.key(name, at: place, conflicts: &conflicts)
      }
    }

    /// The key for what this node saw, or nil when nothing it saw has a type.
    func key(_ name: String, at place: String, conflicts: inout [TypeConflict]) -> SchemaKey? {
      var occurrences: [TypeConflict.Occurrence] = []
      for (value, input) in values {
        guard let type = ValueText.TypeName.allCases.first(where: { $0 != .null && $0.kind == value.kind }) else {
          continue
        }
        if let index = occurrences.firstIndex(where: { $0.type == type }) {
          occurrences[index].count += 1
          if !occurrences[index].inputs.contains(input) { occurrences[index].inputs.append(input) }
        } else {
          occurrences.append(TypeConflict.Occurrence(type: type, inputs: [input], count: 1))
        }
      }
      guard let chosen = occurrences.max(by: { $0.count < $1.count })?.type else { return nil }
      // `max` keeps the last of equal counts; a tie goes to the first seen.
      let type = occurrences.first { $0.count == occurrences.first(where: { $0.type == chosen })!.count }!.type
      if occurrences.count > 1 {
        conflicts.append(TypeConflict(path: place, occurrences: occurrences, chosen: type))
      }
      var key = SchemaKey(name: name, type: type)
      switch type {
      case .string, .integer:
        let seen = values.map(\.value).filter { $0.kind == type.kind }
        var distinct: [PrefValue] = []
        for value in seen where !distinct.contains(value) { distinct.append(value) }
        if distinct.count >= 2, distinct.count <= SchemaInference.maxValues, distinct.count < seen.count {
          key.values = distinct.sorted(by: Self.ascending)
        }
      case .dict:
        let nested = childKeys(under: place, conflicts: &conflicts)
        if !nested.isEmpty { key.keys = Schema(keys: nested) }
      case .array:
        key.items = items?.key("items", at: place + "[]", conflicts: &conflicts)
      default: break
      }
      return key
    }

    /// Strings by code point, integers by value.
    static func ascending(_ a: PrefValue, _ b: PrefValue) -> Bool {
      switch (a, b) {
      case (.string(let x), .string(let y)): x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
      case (.integer(let x), .integer(let y)): x < y
      case (.integer, .unsignedInteger): true
      case (.unsignedInteger(let x), .unsignedInteger(let y)): x < y
      default: false
      }
    }
  }
}
