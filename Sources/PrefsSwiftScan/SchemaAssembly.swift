import PrefsKit

/// One read of a resolved key, ready to be gathered with the other reads of its key.
private struct Observation {
  var type: ValueText.TypeName
  var values: [PrefValue]?
  /// The fallback written at the read (or a declaration's default).
  var fallback: PrefValue?
  /// A fallback that is not a literal: its text.
  var fallbackText: String?
  /// The fallback is a getter's implicit one (or none): a registered default replaces it.
  var implicit: Bool
  var suite: String?
  var read: ReadFact
}

/// A property wrapper of the app's own over `UserDefaults`: which of its stored
/// properties holds the key, which the default.
private struct WrapperShape {
  var keyProperty: String
  var defaultProperty: String?
  var getterType: ValueText.TypeName?
}

extension SchemaBuilder {
  /// The schema of every key the scanned code reads.
  func build() -> Schema {
    var reads = files.flatMap(\.reads).sorted { $0.location < $1.location }
    let shapes = wrapperShapes(consuming: &reads)
    reads += files.flatMap(\.wrapperUses).compactMap { wrapperRead($0, shapes) }
    reads += readsThroughReaderFunctions()
    reads.sort { $0.location < $1.location }

    var order: [String] = []
    var observations: [String: [Observation]] = [:]
    var written: [String: [SourceLocation]] = [:]
    var dynamic: [DynamicKeyRead] = []
    for read in reads {
      let (reads, suite) = defaults(read.receiver, for: read.kind)
      guard reads else { continue }
      let (name, pattern) = key(read.key)
      if case .write = read.kind {
        if let name { written[name, default: []].append(read.location) }
        continue
      }
      let observation = observe(read, suite: suite)
      guard let name else {
        if let index = dynamic.firstIndex(where: { $0.expression == read.key.text && $0.pattern == pattern }) {
          dynamic[index].readAt.append(read.location.text)
        } else {
          dynamic.append(
            DynamicKeyRead(
              expression: read.key.text, pattern: pattern, type: observation?.type, readAt: [read.location.text]))
        }
        continue
      }
      guard let observation else { continue }
      if observations[name] == nil { order.append(name) }
      observations[name, default: []].append(observation)
    }

    var registered: [String: ValueExpression] = [:]
    for entry in files.flatMap(\.registered) {
      if let name = key(entry.key).name, registered[name] == nil { registered[name] = entry.value }
    }

    var schema = Schema(keys: [])
    for name in order {
      let all = observations[name]!
      let first = all[0]
      var schemaKey = SchemaKey(name: name, type: first.type)
      let registeredValue = registered[name].flatMap { value($0, as: first.type) }
      schemaKey.defaultValue = first.implicit ? (registeredValue ?? first.fallback) : first.fallback
      if first.fallback == nil, !first.implicit, let text = first.fallbackText {
        schemaKey.description = "falls back to \(text)"
      }
      schemaKey.values = all.lazy.compactMap(\.values).first ?? listedValues(for: all, type: first.type)
      schemaKey.suite = all.lazy.compactMap(\.suite).first
      schemaKey.readAt = all.map(\.read.location.text)
      schemaKey.writtenAt = (written[name] ?? []).map(\.text)
      if first.type == .data { describeData(&schemaKey, reads: all.map(\.read), writes: written[name] ?? []) }
      schema.keys.append(schemaKey)

      // Reads that disagree: another type, or another fallback where both have one.
      var distinct: [Observation] = []
      for observation in all {
        let effective = observation.implicit ? (registeredValue ?? observation.fallback) : observation.fallback
        let differs = distinct.allSatisfy { seen in
          let seenFallback = seen.implicit ? (registeredValue ?? seen.fallback) : seen.fallback
          if seen.type != observation.type { return true }
          guard let effective, let seenFallback else { return false }
          return effective != seenFallback
        }
        if distinct.isEmpty || differs { distinct.append(observation) }
      }
      if distinct.count > 1 {
        schema.conflicts.append(
          ReadConflict(
            key: name,
            reads: distinct.map {
              KeyRead(
                type: $0.type, defaultValue: $0.implicit ? (registeredValue ?? $0.fallback) : $0.fallback,
                readAt: $0.read.location.text)
            }))
      }
    }
    schema.dynamicKeys = dynamic
    return schema
  }

  /// The type and fallback of one read.
  private func observe(_ read: ReadFact, suite: String?) -> Observation? {
    var type: ValueText.TypeName?
    var values: [PrefValue]?
    var optional = false
    var implicit = false
    var fallback: PrefValue?
    if case .getter(let getterType, let implicitFallback) = read.kind {
      type = getterType
      if read.fallback == nil {
        implicit = true
        fallback = implicitFallback
      }
    }
    var enumType: TypeFact?
    if let swiftType = read.swiftType {
      let shape = keyType(of: swiftType)
      if let found = shape.type {
        type = found
        values = shape.values
        optional = shape.optional
        enumType = shape.enumType
      }
    }
    guard let type else { return nil }
    var fallbackText: String?
    if let written = read.fallback, !read.forced, !optional || read.kind.isCast {
      // A case of the key's own enum (`.lastCopiedAt`) before any other name.
      if let enumType, case .member(let reference) = written, reference.names.count <= 2,
        let found = enumType.cases.first(where: { $0.name == reference.names.last })
      {
        fallback = found.raw
      } else {
        fallback = value(written, as: type)
      }
      if fallback == nil {
        switch written {
        case .other(let text): fallbackText = text
        case .member(let reference):
          fallbackText = (reference.isImplicitMember ? "." : "") + reference.names.joined(separator: ".")
        default: break
        }
      }
    } else if read.fallback == nil, case .object = read.kind {
      implicit = true
    }
    return Observation(
      type: type, values: values, fallback: fallback, fallbackText: fallbackText, implicit: implicit, suite: suite,
      read: read)
  }

  /// The values a key is picked from when the code lists them: the list a `Picker`
  /// bound to the key's property offers, or an array beside that property named for
  /// it (`ringtone` and `ringtones`), holding the fallback.
  private func listedValues(for observations: [Observation], type: ValueText.TypeName) -> [PrefValue]? {
    guard type == .string || type == .integer else { return nil }
    for observation in observations {
      guard let bound = observation.read.boundName else { continue }
      var candidates: [ValueExpression] = []
      for picker in files.flatMap(\.pickers) where picker.property == bound {
        if let list = resolve(picker.list) { candidates.append(list) }
      }
      let capitalised = bound.prefix(1).uppercased() + bound.dropFirst()
      for name in [
        bound + "s", bound + "es", "all" + capitalised + "s", bound + "Options", "available" + capitalised + "s",
      ] {
        if let list = resolve(NameReference(names: [name], scope: observation.read.scope)),
          observation.read.scope.isEmpty ? true : constantsInScope(name, observation.read.scope)
        {
          candidates.append(list)
        }
      }
      for candidate in candidates {
        guard case .array(let items)? = value(candidate, as: .array), !items.isEmpty,
          items.allSatisfy({ $0.kind == type.kind })
        else { continue }
        if let fallback = observation.fallback, !items.contains(fallback) { continue }
        return items
      }
    }
    return nil
  }

  /// Whether `name` is a constant of the type `scope` names (not one found anywhere).
  private func constantsInScope(_ name: String, _ scope: [String]) -> Bool {
    files.contains { file in file.constants.contains { $0.qualifiedName == scope + [name] } }
  }

  /// The encoding and shape of a data key: a `decode` in the function that reads it,
  /// or an `encode` in one that stores it.
  private func describeData(_ schemaKey: inout SchemaKey, reads: [ReadFact], writes: [SourceLocation]) {
    let coders = files.flatMap(\.coders)
    for read in reads {
      guard let function = read.function,
        let decode = coders.first(where: { $0.function == function && $0.swiftType != nil })
      else { continue }
      schemaKey.encoding = decode.encoding
      schemaKey.content = content(of: decode.swiftType!, encoding: decode.encoding)
      schemaKey.decodeFallback = decode.fallback.flatMap { value($0, as: nil) }
      return
    }
    let writeFunctions = Set(
      files.flatMap(\.reads).filter { read in
        if case .write = read.kind, writes.contains(read.location) { return true }
        return false
      }.compactMap(\.function))
    if let encode = coders.first(where: { writeFunctions.contains($0.function) }) {
      schemaKey.encoding = encode.encoding
    }
  }

  /// The property wrappers of the app's own, by name; their inner reads are taken
  /// out of `reads` (their key is the wrapper's property, not a key).
  private func wrapperShapes(consuming reads: inout [ReadFact]) -> [String: WrapperShape] {
    var shapes: [String: WrapperShape] = [:]
    let wrappers = files.flatMap(\.types).filter(\.isPropertyWrapper)
    for wrapper in wrappers {
      let storedNames = Set(wrapper.stored.map(\.name))
      reads.removeAll { read in
        guard read.scope.starts(with: wrapper.qualifiedName), read.key.parts.count == 1,
          case .reference(let reference) = read.key.parts[0], reference.names.count == 1,
          storedNames.contains(reference.names[0])
        else { return false }
        if case .write = read.kind { return true }
        var shape = shapes[wrapper.qualifiedName.last!] ?? WrapperShape(keyProperty: reference.names[0])
        if case .member(let fallback)? = read.fallback, fallback.names.count == 1,
          storedNames.contains(fallback.names[0])
        {
          shape.defaultProperty = fallback.names[0]
        }
        if case .getter(let type, _) = read.kind { shape.getterType = type }
        shapes[wrapper.qualifiedName.last!] = shape
        return true
      }
    }
    return shapes
  }

  /// Each call of a function that reads the key it is passed, as a read of that key
  /// where the call is.
  private func readsThroughReaderFunctions() -> [ReadFact] {
    var readers: [String: [ReaderFunction]] = [:]
    for reader in files.flatMap(\.readerFunctions) { readers[reader.signature.name, default: []].append(reader) }
    guard !readers.isEmpty else { return [] }
    let calls = files.flatMap(\.calls)
    func matching(_ call: CallFact) -> [ReaderFunction] {
      readers[call.name]?.filter { $0.signature.labels == call.labels } ?? []
    }
    // A function that passes its own parameter to a reader reads that key too
    // (`fontSize(for key:)` calling `int(for: key)`), a few levels deep.
    var passing: [Int] = []
    for (index, call) in calls.enumerated() {
      if let enclosing = call.enclosing,
        call.arguments.contains(where: { argument in
          if case .reference(let reference)? = argument.parts.first, argument.parts.count == 1 {
            return enclosing.parameters.contains(reference.names[0]) && reference.names.count == 1
          }
          return false
        })
      {
        passing.append(index)
      }
    }
    var consumed = Set<Int>()
    for _ in 0..<3 {
      for index in passing where !consumed.contains(index) {
        let call = calls[index]
        for reader in matching(call) {
          guard case .reference(let reference)? = call.arguments[reader.keyParameter].parts.first,
            let parameter = call.enclosing!.parameters.firstIndex(of: reference.names[0])
          else { continue }
          readers[call.enclosing!.name, default: []].append(
            ReaderFunction(signature: call.enclosing!, keyParameter: parameter, read: reader.read))
          consumed.insert(index)
        }
      }
    }
    var called = Set<String>()
    let throughCalls = calls.enumerated().flatMap { index, call -> [ReadFact] in
      let readers = matching(call)
      if !readers.isEmpty { called.insert(call.name + call.labels.map { ($0 ?? "_") + ":" }.joined()) }
      guard !consumed.contains(index) else { return [] }
      return readers.map { reader in
        var read = reader.read
        read.key = call.arguments[reader.keyParameter]
        read.location = call.location
        read.scope = call.scope
        read.function = call.function
        read.boundName = nil
        return read
      }
    }
    // A reader no call passes a key to: its read stays, a key built at run time.
    let uncalled = files.flatMap(\.readerFunctions).filter { reader in
      !called.contains(reader.signature.name + reader.signature.labels.map { ($0 ?? "_") + ":" }.joined())
    }
    return throughCalls + uncalled.map(\.read)
  }

  /// A property declared with one of the app's wrappers, as a read of its key.
  private func wrapperRead(_ use: WrapperUse, _ shapes: [String: WrapperShape]) -> ReadFact? {
    let name = String(use.attribute.prefix { $0 != "<" })
    guard let shape = shapes[name] else { return nil }
    let keyArgument =
      use.arguments.first { $0.label == shape.keyProperty } ?? use.arguments.first { $0.label == nil }
    guard let keyArgument else { return nil }
    let defaultLabels = [shape.defaultProperty, "defaultValue", "default"].compactMap { $0 }
    let fallback = use.arguments.first { $0.label.map(defaultLabels.contains) ?? false }?.value ?? use.initialValue
    var swiftType = use.swiftType
    if swiftType == nil, let fallback { swiftType = SwiftTypeShapes.literalType(of: fallback) }
    if swiftType == nil, let getter = shape.getterType { swiftType = getter.swiftName }
    return ReadFact(
      kind: .declaration, key: keyArgument.key, receiver: .standard, swiftType: swiftType, fallback: fallback,
      location: use.location, boundName: use.boundName, scope: use.scope, function: nil)
  }
}

extension ReadFact.Kind {
  /// A cast (`as? T ?? d`) or a declaration, whose fallback applies even to an optional type.
  var isCast: Bool {
    if case .object = self { return true }
    return false
  }
}
