import PrefsKit

/// Resolves what every file said (``FileFacts``) into one schema: names to keys and
/// values, reads of one key gathered, property-wrapper uses matched to the wrappers,
/// defaults registered, `Codable` data given its shape, conflicting reads found.
struct SchemaBuilder {
  let files: [FileFacts]
  private var constants: [String: ValueExpression] = [:]
  private var constantsByName: [String: [ConstantFact]] = [:]
  private var types: [String: TypeFact] = [:]
  private var typesByName: [String: [TypeFact]] = [:]
  private var defaultsVariables: [String: DefaultsReceiver] = [:]
  private var defaultsVariablesByName: [String: [DefaultsVariableFact]] = [:]

  init(_ files: [FileFacts]) {
    self.files = files
    for file in files {
      for constant in file.constants {
        constants[constant.qualifiedName.joined(separator: ".")] = constant.value
        constantsByName[constant.qualifiedName.last!, default: []].append(constant)
      }
      for type in file.types {
        types[type.qualifiedName.joined(separator: ".")] = type
        typesByName[type.qualifiedName.last!, default: []].append(type)
      }
      for variable in file.defaultsVariables {
        defaultsVariables[variable.qualifiedName.joined(separator: ".")] = variable.receiver
        defaultsVariablesByName[variable.qualifiedName.last!, default: []].append(variable)
      }
    }
  }

  // MARK: Names

  /// The value a name stands for: a constant, or an enum case's raw value, looked up
  /// from the innermost scope out, then by its last components anywhere.
  func resolve(_ reference: NameReference, depth: Int = 0) -> ValueExpression? {
    guard depth < 8 else { return nil }
    let names = reference.names
    for length in stride(from: reference.scope.count, through: 0, by: -1) {
      let prefix = Array(reference.scope.prefix(length))
      if let value = constants[(prefix + names).joined(separator: ".")] { return follow(value, depth) }
      if names.count >= 2, let type = types[(prefix + names.dropLast()).joined(separator: ".")], type.isEnum,
        let found = type.cases.first(where: { $0.name == names.last! })
      {
        return found.raw.map(ValueExpression.value)
      }
    }
    // By the last components, anywhere (an extension member, an implicit member);
    // a plain name (`key`) only through its scopes above, as Swift looks it up.
    guard names.count > 1 || reference.isImplicitMember else { return nil }
    if let candidates = constantsByName[names.last!] {
      let matching = candidates.filter { $0.qualifiedName.suffix(names.count).elementsEqual(names) }
      if let first = matching.first { return follow(first.value, depth) }
    }
    if names.count >= 2, let enums = typesByName[names[names.count - 2]] {
      for type in enums where type.isEnum {
        if let found = type.cases.first(where: { $0.name == names.last! }) {
          return found.raw.map(ValueExpression.value)
        }
      }
    }
    if names.count == 1 {
      for type in files.lazy.flatMap(\.types) where type.isEnum {
        if let found = type.cases.first(where: { $0.name == names[0] }), let raw = found.raw { return .value(raw) }
      }
    }
    return nil
  }

  private func follow(_ value: ValueExpression, _ depth: Int) -> ValueExpression? {
    if case .member(let inner) = value { return resolve(inner, depth: depth + 1) ?? value }
    return value
  }

  /// The key an expression gives; else the glob of the keys it may give.
  func key(_ expression: KeyExpression) -> (name: String?, pattern: String?) {
    var text = ""
    var pattern = ""
    var known = true
    var literal = false
    for part in expression.parts {
      switch part {
      case .literal(let piece):
        text += piece
        pattern += Self.globEscaped(piece)
        literal = true
      case .reference(let reference):
        if case .value(.string(let piece))? = resolve(reference) {
          text += piece
          pattern += Self.globEscaped(piece)
          literal = true
        } else {
          known = false
          if !pattern.hasSuffix("*") { pattern += "*" }
        }
      case .unknown:
        known = false
        if !pattern.hasSuffix("*") { pattern += "*" }
      }
    }
    if known { return (text, nil) }
    return (nil, literal ? pattern : nil)
  }

  private static func globEscaped(_ text: String) -> String {
    var out = ""
    for c in text {
      if "*?[]\\".contains(c) { out.append("\\") }
      out.append(c)
    }
    return out
  }

  /// A value as `type`, with enum cases as their raw values; nil when not a literal.
  func value(_ expression: ValueExpression, as type: ValueText.TypeName?) -> PrefValue? {
    switch expression {
    case .value(let value):
      if type == .real, case .integer(let n) = value { return .real(Double(n)) }
      if let type, value.kind != type.kind { return nil }
      return value
    case .member(let reference):
      guard let resolved = resolve(reference) else { return nil }
      if case .member = resolved { return nil }
      return value(resolved, as: type)
    case .array(let items):
      guard type == nil || type == .array else { return nil }
      let values = items.compactMap { value($0, as: nil) }
      return values.count == items.count ? .array(values) : nil
    case .other:
      return nil
    }
  }

  /// Whether a read goes through a `UserDefaults`, and its suite.
  func defaults(_ receiver: DefaultsReceiver, for kind: ReadFact.Kind, depth: Int = 0) -> (reads: Bool, suite: String?)
  {
    switch receiver {
    case .standard: return (true, nil)
    case .suite(let expression): return (true, key(expression).name)
    case .none: return (false, nil)
    case .other:
      if case .getter = kind { return (true, nil) }
      return (false, nil)
    case .variable(let reference):
      if depth < 4, let found = defaultsVariable(reference) { return defaults(found, for: kind, depth: depth + 1) }
      let name = reference.names.last!.lowercased()
      if reference.names.contains(where: { $0.hasSuffix("KeyValueStore") || $0 == "Keychain" }) { return (false, nil) }
      if case .getter = kind { return (true, nil) }
      if case .declaration = kind { return (true, nil) }
      return (name.contains("defaults"), nil)
    }
  }

  private func defaultsVariable(_ reference: NameReference) -> DefaultsReceiver? {
    for length in stride(from: reference.scope.count, through: 0, by: -1) {
      let qualified = (Array(reference.scope.prefix(length)) + reference.names).joined(separator: ".")
      if let found = defaultsVariables[qualified] { return found }
    }
    return defaultsVariablesByName[reference.names.last!]?.first {
      $0.qualifiedName.suffix(reference.names.count).elementsEqual(reference.names)
    }?.receiver
  }

  // MARK: Types

  /// The type a key has for a Swift type: a plain kind, or an enum's raw type with
  /// its raw values.
  func keyType(of swiftType: String) -> (
    type: ValueText.TypeName?, optional: Bool, values: [PrefValue]?, enumType: TypeFact?
  ) {
    let optional = swiftType.isOptionalType
    if let kind = SwiftTypeShapes.kind(of: swiftType) { return (kind, optional, nil, nil) }
    if let type = appType(swiftType.trimmingOptional), type.isEnum, let raw = type.inherited.first,
      let kind = SwiftTypeShapes.kind(of: raw), kind == .string || kind == .integer
    {
      let values = type.cases.compactMap(\.raw)
      return (kind, optional, values.isEmpty ? nil : values, type)
    }
    return (nil, optional, nil, nil)
  }

  private func appType(_ text: String) -> TypeFact? {
    if let type = types[text] { return type }
    let last = text.split(separator: ".").last.map(String.init) ?? text
    return typesByName[last]?.first
  }

  /// The shape an encoder writes for a Swift type: its stored properties (by coding
  /// key), optionals, arrays and nested types of the app's own.
  func content(of swiftType: String, encoding: DataEncoding, depth: Int = 0) -> SchemaContent {
    let optional = swiftType.isOptionalType
    let text = swiftType.trimmingOptional.trimmingModule
    if let element = SwiftTypeShapes.elementType(of: text) {
      return SchemaContent(
        type: .array, swiftType: depth == 0 ? swiftType : nil, isOptional: optional,
        items: depth < 16 ? content(of: element, encoding: encoding, depth: depth + 1) : nil)
    }
    if let kind = SwiftTypeShapes.encodedKind(of: text, encoding: encoding) {
      return SchemaContent(type: kind, isOptional: optional)
    }
    guard let type = appType(text), depth < 16 else {
      return SchemaContent(type: nil, swiftType: text, isOptional: optional)
    }
    if type.isEnum {
      let raw = type.inherited.first.flatMap { SwiftTypeShapes.encodedKind(of: $0, encoding: encoding) }
      return SchemaContent(type: raw, swiftType: text, isOptional: optional)
    }
    var fields: [SchemaField] = []
    for property in type.stored where !property.isFixed {
      let codingKey: String
      if let codingKeys = type.codingKeys {
        guard let found = codingKeys.first(where: { $0.name == property.name }) else { continue }
        codingKey = found.key
      } else {
        codingKey = property.name
      }
      let fieldContent =
        property.swiftType.map { content(of: $0, encoding: encoding, depth: depth + 1) }
        ?? SchemaContent(type: nil)
      fields.append(SchemaField(name: codingKey, content: fieldContent))
    }
    return SchemaContent(type: .dict, swiftType: text, isOptional: optional, fields: fields)
  }
}
