import PrefsKit
internal import SwiftParser
internal import SwiftSyntax

/// Walks one file's syntax tree and notes every fact the schema needs: reads and
/// stores of keys, declarations that name keys, types, constants, variables holding
/// a `UserDefaults`, registered defaults, property-wrapper uses and `Codable` coders.
/// Names are resolved later, across files (``SchemaBuilder``).
final class FactCollector: SyntaxVisitor {
  private(set) var facts = FileFacts()
  private let converter: SourceLocationConverter
  private let file: String
  /// The file's place among the files scanned.
  private let order: Int
  /// The enclosing type names, outermost first.
  private var scope: [String] = []
  /// Whether each enclosing type is an extension of `UserDefaults`.
  private var extendsDefaults: [Bool] = []
  /// The enclosing functions, by number.
  private var functions: [Int] = []
  private var nextFunction: Int
  /// The declared type of the variable being initialised, for `.init("k", default: d)`.
  private var declaredTypes: [String?] = []

  init(file: String, order: Int, tree: SourceFileSyntax, functionBase: Int) {
    self.file = file
    self.order = order
    self.converter = SourceLocationConverter(fileName: file, tree: tree)
    self.nextFunction = functionBase
    super.init(viewMode: .sourceAccurate)
  }

  /// The facts of one file's source.
  static func facts(of source: String, file: String, order: Int) -> FileFacts {
    let tree = Parser.parse(source: source)
    // Function numbers are unique across files: a coder and a read pair up only
    // inside one function.
    let collector = FactCollector(file: file, order: order, tree: tree, functionBase: order << 32)
    collector.walk(tree)
    return collector.facts
  }

  private func location(_ node: some SyntaxProtocol) -> SourceLocation {
    let place = node.startLocation(converter: converter)
    return SourceLocation(file: file, order: order, line: place.line, column: place.column)
  }

  // MARK: Scopes

  private func enter(_ name: String, extendsDefaults: Bool = false) {
    scope.append(name)
    self.extendsDefaults.append(extendsDefaults)
  }

  private func leave() {
    scope.removeLast()
    extendsDefaults.removeLast()
  }

  /// A type's facts noted, and its name entered as the scope of what it declares.
  private func enterType(_ node: some DeclGroupSyntax & NamedDeclSyntax, isEnum: Bool) -> SyntaxVisitorContinueKind {
    noteType(node.name.text, node.attributes, node.inheritanceClause, node.memberBlock, isEnum: isEnum, node)
    enter(node.name.text)
    return .visitChildren
  }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node, isEnum: false) }
  override func visitPost(_ node: StructDeclSyntax) { leave() }
  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node, isEnum: false) }
  override func visitPost(_ node: ClassDeclSyntax) { leave() }
  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node, isEnum: false) }
  override func visitPost(_ node: ActorDeclSyntax) { leave() }
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node, isEnum: true) }
  override func visitPost(_ node: EnumDeclSyntax) { leave() }

  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    let extended = node.extendedType.trimmedDescription
    let components = extended.split(separator: ".").map(String.init)
    scope.append(contentsOf: components.dropLast())
    extendsDefaults.append(contentsOf: components.dropLast().map { _ in false })
    enter(components.last ?? extended, extendsDefaults: Self.defaultsTypes.contains(extended))
    return .visitChildren
  }
  override func visitPost(_ node: ExtensionDeclSyntax) {
    let count = node.extendedType.trimmedDescription.split(separator: ".").count
    for _ in 0..<max(count, 1) { leave() }
  }

  private func enterFunction() {
    functions.append(nextFunction)
    nextFunction += 1
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    enterFunction()
    let parameters = node.signature.parameterClause.parameters.map { parameter in
      (
        label: parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text,
        name: (parameter.secondName ?? parameter.firstName).text
      )
    }
    signatures.append(
      FunctionSignature(name: node.name.text, labels: parameters.map(\.label), parameters: parameters.map(\.name)))
    return .visitChildren
  }
  override func visitPost(_ node: FunctionDeclSyntax) {
    functions.removeLast()
    signatures.removeLast()
  }

  /// The functions being walked, innermost last: a read whose key is one of their
  /// parameters makes the function a reader of the key its callers pass.
  private var signatures: [FunctionSignature] = []

  /// `read`, or when its key is a parameter of the function it is in, that function
  /// as a reader of the key its callers pass.
  private func note(_ read: ReadFact) {
    if read.key.parts.count == 1, case .reference(let reference) = read.key.parts[0], reference.names.count == 1,
      !reference.isImplicitMember, let signature = signatures.last,
      let index = signature.parameters.firstIndex(of: reference.names[0])
    {
      facts.readerFunctions.append(ReaderFunction(signature: signature, keyParameter: index, read: read))
      return
    }
    facts.reads.append(read)
  }
  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    enterFunction()
    return .visitChildren
  }
  override func visitPost(_ node: InitializerDeclSyntax) { functions.removeLast() }
  override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind {
    enterFunction()
    return .visitChildren
  }
  override func visitPost(_ node: AccessorDeclSyntax) { functions.removeLast() }

  static let defaultsTypes: Set<String> = ["UserDefaults", "NSUserDefaults", "Foundation.UserDefaults"]

  // MARK: Types

  private func noteType(
    _ name: String, _ attributes: AttributeListSyntax, _ inheritance: InheritanceClauseSyntax?,
    _ members: MemberBlockSyntax, isEnum: Bool, _ node: some SyntaxProtocol
  ) {
    let inherited = inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
    var cases: [(name: String, raw: PrefValue?)] = []
    var stored: [TypeFact.StoredProperty] = []
    var codingKeys: [(name: String, key: String)]?
    var nextInteger: Int64 = 0
    let rawType = isEnum ? inherited.first : nil
    for member in members.members {
      if let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) {
        for element in caseDecl.elements {
          var raw: PrefValue?
          if let written = element.rawValue?.value, case .value(let value) = Self.value(of: written) {
            raw = value
            if case .integer(let n) = value { nextInteger = n + 1 }
          } else if rawType == "String" {
            raw = .string(element.name.text)
          } else if let rawType, SwiftTypeShapes.integerNames.contains(rawType) {
            raw = .integer(nextInteger)
            nextInteger += 1
          }
          cases.append((element.name.text, raw))
        }
      } else if let variable = member.decl.as(VariableDeclSyntax.self), !Self.isStatic(variable.modifiers) {
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        for binding in variable.bindings {
          guard let propertyName = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
          if let accessors = binding.accessorBlock, Self.isComputed(accessors) { continue }
          var swiftType = binding.typeAnnotation?.type.trimmedDescription
          if swiftType == nil, let initial = binding.initializer?.value {
            swiftType = SwiftTypeShapes.literalType(of: Self.value(of: initial))
          }
          stored.append(
            TypeFact.StoredProperty(
              name: propertyName, swiftType: swiftType, isFixed: isLet && binding.initializer != nil))
        }
      } else if let nested = member.decl.as(EnumDeclSyntax.self), nested.name.text == "CodingKeys" {
        codingKeys = nested.memberBlock.members.flatMap { item -> [(name: String, key: String)] in
          guard let caseDecl = item.decl.as(EnumCaseDeclSyntax.self) else { return [] }
          return caseDecl.elements.map { element in
            let key = element.rawValue?.value.as(StringLiteralExprSyntax.self)?.representedLiteralValue
            return (element.name.text, key ?? element.name.text)
          }
        }
      }
    }
    let isWrapper = attributes.contains {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "propertyWrapper"
    }
    facts.types.append(
      TypeFact(
        qualifiedName: scope + [name], isEnum: isEnum, inherited: inherited, cases: cases, stored: stored,
        codingKeys: codingKeys, isPropertyWrapper: isWrapper, location: location(node)))
  }

  private static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
  }

  /// Whether a property's accessors compute it (a getter), rather than observe it.
  private static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
    switch block.accessors {
    case .getter: return true
    case .accessors(let list):
      return list.contains {
        $0.accessorSpecifier.tokenKind != .keyword(.willSet) && $0.accessorSpecifier.tokenKind != .keyword(.didSet)
      }
    @unknown default: return true
    }
  }

  // MARK: Variables

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    for binding in node.bindings {
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
      let declared = binding.typeAnnotation?.type.trimmedDescription
      let initial = binding.initializer?.value
      if let initial {
        let value = Self.value(of: initial)
        if case .other = value {
        } else {
          facts.constants.append(ConstantFact(qualifiedName: scope + [name], value: value))
        }
      }
      // A variable holding a UserDefaults: declared so, or made from one.
      let made = initial.map { Self.receiver(of: $0, extendsDefaults: extendsDefaults.last ?? false, scope: scope) }
      if let declared, Self.defaultsTypes.contains(declared.trimmingOptional) {
        let receiver: DefaultsReceiver
        switch made {
        case .suite?, .variable?: receiver = made!
        default: receiver = .standard
        }
        facts.defaultsVariables.append(DefaultsVariableFact(qualifiedName: scope + [name], receiver: receiver))
      } else if let made, let initial, Self.mentionsDefaults(initial) || Self.isDefaultsReceiver(made) {
        switch made {
        case .standard, .suite, .variable:
          facts.defaultsVariables.append(DefaultsVariableFact(qualifiedName: scope + [name], receiver: made))
        default: break
        }
      }
      for attribute in node.attributes {
        guard let attribute = attribute.as(AttributeSyntax.self) else { continue }
        noteAttribute(attribute, name: name, declared: declared, initial: initial)
      }
    }
    declaredTypes.append(node.bindings.first?.typeAnnotation?.type.trimmedDescription)
    return .visitChildren
  }
  override func visitPost(_ node: VariableDeclSyntax) { declaredTypes.removeLast() }

  /// Whether the expression names `UserDefaults` itself (not merely `.standard` of
  /// something else).
  private static func mentionsDefaults(_ expression: ExprSyntax) -> Bool {
    // The leftmost name of the expression, found without rendering its text.
    var current = expression
    while true {
      if let call = current.as(FunctionCallExprSyntax.self) {
        current = call.calledExpression
      } else if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
        current = base
      } else if let unwrapped = current.as(ForceUnwrapExprSyntax.self) {
        current = unwrapped.expression
      } else if let chained = current.as(OptionalChainingExprSyntax.self) {
        current = chained.expression
      } else {
        return current.as(DeclReferenceExprSyntax.self).map { defaultsTypes.contains($0.baseName.text) } ?? false
      }
    }
  }

  private static func isDefaultsReceiver(_ receiver: DefaultsReceiver) -> Bool {
    switch receiver {
    case .suite: true
    case .standard: false
    case .variable(let reference): reference.names.first.map(defaultsTypes.contains) ?? false
    case .none, .other: false
    }
  }

  private func noteAttribute(_ attribute: AttributeSyntax, name: String, declared: String?, initial: ExprSyntax?) {
    let attributeName = attribute.attributeName.trimmedDescription
    guard case .argumentList(let arguments)? = attribute.arguments else { return }
    if attributeName == "AppStorage" || attributeName == "SceneStorage" {
      guard let first = arguments.first, first.label == nil else { return }
      var receiver = DefaultsReceiver.standard
      if let store = arguments.first(where: { $0.label?.text == "store" }) {
        receiver = Self.receiver(of: store.expression, extendsDefaults: false, scope: scope)
      }
      facts.reads.append(
        ReadFact(
          kind: .declaration, key: key(of: first.expression), receiver: receiver,
          swiftType: declared ?? initial.flatMap(Self.inferredType(of:)),
          fallback: initial.map(Self.value(of:)), location: location(attribute), boundName: name, scope: scope,
          function: functions.last))
      return
    }
    facts.wrapperUses.append(
      WrapperUse(
        attribute: attributeName,
        arguments: arguments.map { ($0.label?.text, key(of: $0.expression), Self.value(of: $0.expression)) },
        swiftType: declared, initialValue: initial.map(Self.value(of:)), location: location(attribute),
        boundName: name, scope: scope))
  }

  /// The type Swift infers for a property from its initial value: a literal's, or
  /// the type an enum case is written with (`Level.mid`).
  static func inferredType(of initial: ExprSyntax) -> String? {
    if let literal = SwiftTypeShapes.literalType(of: value(of: initial)) { return literal }
    if let member = initial.as(MemberAccessExprSyntax.self), let base = member.base,
      base.is(DeclReferenceExprSyntax.self) || base.is(MemberAccessExprSyntax.self)
    {
      return base.trimmedDescription
    }
    return nil
  }

  // MARK: Calls

  /// The typed getters of `UserDefaults`: type and implicit fallback.
  static let getters: [String: (ValueText.TypeName, PrefValue?)] = [
    "bool": (.bool, .bool(false)), "integer": (.integer, .integer(0)), "double": (.real, .real(0)),
    "float": (.real, .real(0)), "string": (.string, nil), "array": (.array, nil), "dictionary": (.dict, nil),
    "data": (.data, nil), "url": (.string, nil), "stringArray": (.array, nil),
  ]

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    let arguments = Array(node.arguments)
    let labels = arguments.map { $0.label?.text }
    let callee = node.calledExpression
    let member = callee.as(MemberAccessExprSyntax.self)
    let method = member?.declName.baseName.text ?? callee.as(DeclReferenceExprSyntax.self)?.baseName.text
    let receiverExpression = member?.base
    if let method {
      if labels == ["forKey"], method == "object" || method == "value" || Self.getters[method] != nil {
        noteRead(node, method: method, receiver: receiverExpression, key: arguments[0].expression)
      } else if labels.count == 2, labels[1] == "forKey", method == "set" || method == "setValue" {
        noteWrite(node, receiver: receiverExpression, key: arguments[1].expression)
      } else if method == "register", labels == ["defaults"] {
        // A dictionary written in the call, or in a variable of the file.
        if let dictionary = arguments[0].expression.as(DictionaryExprSyntax.self) {
          noteRegistered(dictionary)
        } else if let name = arguments[0].expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
          let dictionary = dictionaries[name]
        {
          noteRegistered(dictionary)
        }
      } else if method == "decode", labels.count == 2, labels[0] == nil, labels[1] == "from", let receiverExpression,
        let encoding = coderEncoding(receiverExpression), let function = functions.last
      {
        let typeText = arguments[0].expression.as(MemberAccessExprSyntax.self).flatMap { access in
          access.declName.baseName.text == "self" ? access.base?.trimmedDescription : nil
        }
        facts.coders.append(
          CoderFact(function: function, encoding: encoding, swiftType: typeText, fallback: decodeFallback(of: node)))
      } else if method == "encode", let receiverExpression, let encoding = coderEncoding(receiverExpression),
        let function = functions.last
      {
        facts.coders.append(CoderFact(function: function, encoding: encoding, swiftType: nil, fallback: nil))
      } else if method == "Picker", let selection = arguments.first(where: { $0.label?.text == "selection" }) {
        notePicker(node, selection: selection.expression)
      }
    }
    noteKeyDeclaration(node, callee: callee, arguments: arguments)
    // A call that may be of a reader function (`AppDefaults.bool(for: Key.x)`), matched
    // with the readers once every file is read: only calls passing a name or a string.
    if let method, !arguments.isEmpty,
      arguments.contains(where: { Self.mayBeKey($0.expression) })
    {
      let keys = arguments.map {
        Self.mayBeKey($0.expression) ? key(of: $0.expression) : KeyExpression(parts: [.unknown], text: "…")
      }
      if keys.contains(where: { if case .unknown = $0.parts.first { false } else { $0.parts.count == 1 } }) {
        facts.calls.append(
          CallFact(
            name: method, labels: labels, arguments: keys, location: location(node), scope: scope,
            function: functions.last, enclosing: signatures.last))
      }
    }
    return .visitChildren
  }

  /// Whether an argument can be a key a reader function is passed: a name or a string.
  static func mayBeKey(_ expression: ExprSyntax) -> Bool {
    expression.is(DeclReferenceExprSyntax.self) || expression.is(MemberAccessExprSyntax.self)
      || expression.is(StringLiteralExprSyntax.self)
  }

  /// The dictionary literals the file assigns to a name, for `register(defaults: name)`.
  private var dictionaries: [String: DictionaryExprSyntax] = [:]

  private func noteRegistered(_ dictionary: DictionaryExprSyntax) {
    guard case .elements(let elements) = dictionary.content else { return }
    for element in elements {
      facts.registered.append(RegisteredDefault(key: key(of: element.key), value: Self.value(of: element.value)))
    }
  }

  /// `Key<Bool>("k", default: true)`, `DefaultsKey<Int?>("k")`, `.init("k", defaultValue: 1)`
  /// in a variable declared `DefaultsKey<Int>`: a generic type over the value's type,
  /// made with the key first and its default by label.
  private func noteKeyDeclaration(_ node: FunctionCallExprSyntax, callee: ExprSyntax, arguments: [LabeledExprSyntax]) {
    guard let first = arguments.first, first.label == nil,
      first.expression.is(StringLiteralExprSyntax.self) || first.expression.is(MemberAccessExprSyntax.self)
        || first.expression.is(DeclReferenceExprSyntax.self)
    else { return }
    var valueType: String?
    if let generic = callee.as(GenericSpecializationExprSyntax.self),
      generic.genericArgumentClause.arguments.count == 1
    {
      valueType = generic.genericArgumentClause.arguments.first?.argument.trimmedDescription
    } else if callee.as(MemberAccessExprSyntax.self).map({ $0.base == nil && $0.declName.baseName.text == "init" })
      ?? false, let declared = declaredTypes.last ?? nil, let open = declared.firstIndex(of: "<"),
      declared.hasSuffix(">"), !declared.contains(",")
    {
      valueType = String(declared[declared.index(after: open)..<declared.index(before: declared.endIndex)])
    }
    guard let valueType else { return }
    let fallback = arguments.first { $0.label?.text == "default" || $0.label?.text == "defaultValue" }
    guard fallback != nil || valueType.isOptionalType else { return }
    guard arguments.dropFirst().allSatisfy({ $0.label != nil }) else { return }
    var receiver = DefaultsReceiver.standard
    if let suite = arguments.first(where: { $0.label?.text == "suite" }) {
      receiver = Self.receiver(of: suite.expression, extendsDefaults: false, scope: scope)
    }
    facts.reads.append(
      ReadFact(
        kind: .declaration, key: key(of: first.expression), receiver: receiver, swiftType: valueType,
        fallback: fallback.map { Self.value(of: $0.expression) }, location: location(node), boundName: nil,
        scope: scope, function: functions.last))
  }

  private func noteRead(
    _ node: FunctionCallExprSyntax, method: String, receiver: ExprSyntax?, key keyExpression: ExprSyntax
  ) {
    let defaultsReceiver = receiver.map {
      Self.receiver(of: $0, extendsDefaults: extendsDefaults.last ?? false, scope: scope)
    }
    let kind: ReadFact.Kind
    if let (type, implicit) = Self.getters[method] {
      kind = .getter(type, implicit: implicit)
    } else {
      kind = .object
    }
    var read = ReadFact(
      kind: kind, key: key(of: keyExpression),
      receiver: defaultsReceiver ?? (extendsDefaults.last == true ? .standard : .none),
      swiftType: nil, fallback: nil, location: location(node), boundName: nil, scope: scope,
      function: functions.last)
    // `object(forKey:) as? T ?? d`: the cast and the fallback follow the call in its sequence.
    var outer = Syntax(node)
    if let (cast, forced, castEnd) = Self.cast(after: outer) {
      read.swiftType = cast
      read.forced = forced
      outer = castEnd
    }
    if let fallback = Self.fallback(after: outer) {
      read.fallback = Self.value(of: fallback)
    }
    read.boundName = Self.boundName(of: Syntax(node))
    note(read)
  }

  private func noteWrite(_ node: FunctionCallExprSyntax, receiver: ExprSyntax?, key keyExpression: ExprSyntax) {
    let defaultsReceiver = receiver.map {
      Self.receiver(of: $0, extendsDefaults: extendsDefaults.last ?? false, scope: scope)
    }
    note(
      ReadFact(
        kind: .write, key: key(of: keyExpression),
        receiver: defaultsReceiver ?? (extendsDefaults.last == true ? .standard : .none), swiftType: nil,
        fallback: nil, location: location(node), boundName: nil, scope: scope, function: functions.last))
  }

  /// `Picker(selection: $model.ringtone) { ForEach(model.ringtones, …) }`.
  private func notePicker(_ node: FunctionCallExprSyntax, selection: ExprSyntax) {
    let text = selection.trimmedDescription
    guard text.hasPrefix("$"), let property = text.split(separator: ".").last.map(String.init) else { return }
    final class ForEachFinder: SyntaxVisitor {
      var list: ExprSyntax?
      override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if list == nil, node.calledExpression.trimmedDescription == "ForEach", let first = node.arguments.first {
          list = first.expression
        }
        return .visitChildren
      }
    }
    let finder = ForEachFinder(viewMode: .sourceAccurate)
    if let closure = node.trailingClosure { finder.walk(closure) }
    guard let list = finder.list, let reference = Self.reference(list, scope: scope) else { return }
    facts.pickers.append((property, reference))
  }

  /// The coder a receiver is: `JSONDecoder()`, `PropertyListEncoder()`, or a variable
  /// the file makes as one.
  private func coderEncoding(_ receiver: ExprSyntax) -> DataEncoding? {
    var text = receiver.trimmedDescription
    if let name = Self.reference(receiver, scope: [])?.names.last, let made = facts.coderVariables[name] {
      text = made
    }
    if text.hasPrefix("JSONDecoder") || text.hasPrefix("JSONEncoder") { return .json }
    if text.hasPrefix("PropertyListDecoder") || text.hasPrefix("PropertyListEncoder") { return .plist }
    return nil
  }

  override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
    if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      let dictionary = node.initializer?.value.as(DictionaryExprSyntax.self)
    {
      dictionaries[name] = dictionary
    }
    if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      let initial = node.initializer?.value.as(FunctionCallExprSyntax.self),
      let made = initial.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
    {
      if ["JSONDecoder", "JSONEncoder", "PropertyListDecoder", "PropertyListEncoder"].contains(made) {
        facts.coderVariables[name] = made
      }
    }
    return .visitChildren
  }

  /// What the app uses when the decode fails: `try? … ?? d`, or `catch { return d }`.
  private func decodeFallback(of node: FunctionCallExprSyntax) -> ValueExpression? {
    var current = Syntax(node)
    while let parent = current.parent {
      if let tryExpression = parent.as(TryExprSyntax.self), tryExpression.questionOrExclamationMark != nil {
        // `try? a ?? b` is `try? (a ?? b)`; `(try? a) ?? b` has the fallback outside.
        return (Self.fallback(after: Syntax(node)) ?? Self.fallback(after: parent)).map(Self.value(of:))
      }
      if let doStatement = parent.as(DoStmtSyntax.self) {
        for clause in doStatement.catchClauses {
          for item in clause.body.statements {
            if let returned = item.item.as(ReturnStmtSyntax.self)?.expression { return Self.value(of: returned) }
          }
        }
        return nil
      }
      if parent.is(FunctionDeclSyntax.self) || parent.is(ClosureExprSyntax.self) { return nil }
      current = parent
    }
    return nil
  }

  // MARK: Expressions

  /// The cast after a read in its sequence (`as? T`, `as! T`): the type, whether
  /// forced, and the node the cast ends (for a fallback after it).
  static func cast(after node: Syntax) -> (String, Bool, Syntax)? {
    guard let (sequence, index) = element(of: node) else { return nil }
    let elements = Array(sequence.elements)
    guard index + 2 < elements.count, let cast = elements[index + 1].as(UnresolvedAsExprSyntax.self),
      let type = elements[index + 2].as(TypeExprSyntax.self)
    else { return nil }
    let forced = cast.questionOrExclamationMark?.tokenKind == .exclamationMark
    // `(x as? T) ?? d`: the parenthesised sequence is what a fallback follows.
    var end = Syntax(sequence)
    if elements.count == 3, let tuple = sequence.parent?.parent?.parent?.as(TupleExprSyntax.self),
      tuple.elements.count == 1
    {
      end = Syntax(tuple)
    } else {
      end = Syntax(elements[index + 2])
    }
    return (type.type.trimmedDescription, forced, end)
  }

  /// The fallback after `node` in its sequence: the element after `??`.
  static func fallback(after node: Syntax) -> ExprSyntax? {
    guard let (sequence, index) = element(of: node) else { return nil }
    let elements = Array(sequence.elements)
    var next = index + 1
    // After a cast, the fallback follows the type.
    if next < elements.count, elements[next].is(UnresolvedAsExprSyntax.self) { next += 2 }
    guard next + 1 < elements.count, elements[next].as(BinaryOperatorExprSyntax.self)?.operator.text == "??" else {
      return nil
    }
    return elements[next + 1]
  }

  /// The sequence `node` stands in (through `try`, `!`, `?`, `await` and parentheses),
  /// and its index there.
  static func element(of node: Syntax) -> (SequenceExprSyntax, Int)? {
    var current = node
    while let parent = current.parent {
      if parent.is(ExprListSyntax.self), let sequence = parent.parent?.as(SequenceExprSyntax.self) {
        guard let index = sequence.elements.firstIndex(where: { $0.id == current.id }) else { return nil }
        return (sequence, sequence.elements.distance(from: sequence.elements.startIndex, to: index))
      }
      // Through parentheses too: `(try? a) ?? b`.
      let parenthesised = parent.as(TupleExprSyntax.self).map { $0.elements.count == 1 } ?? false
      guard
        parent.is(TryExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self)
          || parent.is(OptionalChainingExprSyntax.self) || parent.is(AwaitExprSyntax.self)
          || parent.is(TypeExprSyntax.self) || parent.is(LabeledExprSyntax.self)
          || parent.is(LabeledExprListSyntax.self) || parenthesised
      else { return nil }
      current = parent
    }
    return nil
  }

  /// The property or variable a read's value goes to: `self.x = read`, `let x = read`.
  static func boundName(of node: Syntax) -> String? {
    var current = node
    for _ in 0..<8 {
      guard let parent = current.parent else { return nil }
      if let binding = parent.as(PatternBindingSyntax.self) {
        return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      }
      if let sequence = parent.as(ExprListSyntax.self).flatMap({ $0.parent?.as(SequenceExprSyntax.self) }) {
        let elements = Array(sequence.elements)
        if elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) {
          let target = elements[0].trimmedDescription
          return target.split(separator: ".").last.map(String.init)
        }
      }
      current = parent
    }
    return nil
  }

  /// The receiver of a read: which `UserDefaults` it is.
  static func receiver(of expression: ExprSyntax, extendsDefaults: Bool, scope: [String]) -> DefaultsReceiver {
    var expression = expression
    while true {
      if let unwrapped = expression.as(ForceUnwrapExprSyntax.self) {
        expression = unwrapped.expression
      } else if let chained = expression.as(OptionalChainingExprSyntax.self) {
        expression = chained.expression
      } else if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
        let only = tuple.elements.first?.expression
      {
        expression = only
      } else {
        break
      }
    }
    if let call = expression.as(FunctionCallExprSyntax.self) {
      guard
        call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calledExpression.is(MemberAccessExprSyntax.self)
      else { return .other }
      let callee = call.calledExpression.trimmedDescription
      guard defaultsTypes.contains(callee) || callee.hasSuffix("UserDefaults.init") else { return .other }
      if let suite = call.arguments.first(where: { $0.label?.text == "suiteName" }) {
        return .suite(
          KeyExpression(parts: keyParts(of: suite.expression, scope: scope), text: text(of: suite.expression)))
      }
      return .standard
    }
    if let member = expression.as(MemberAccessExprSyntax.self) {
      let name = member.declName.baseName.text
      guard let base = member.base else { return name == "standard" ? .standard : .other }
      let baseName = base.as(DeclReferenceExprSyntax.self)?.baseName.text
      if let baseName, defaultsTypes.contains(baseName) {
        return name == "standard" ? .standard : .variable(NameReference(names: ["UserDefaults", name], scope: scope))
      }
      if baseName == "self" {
        return .variable(NameReference(names: [name], scope: scope))
      }
      if let reference = reference(ExprSyntax(member), scope: scope) { return .variable(reference) }
      return .other
    }
    if let declReference = expression.as(DeclReferenceExprSyntax.self) {
      let name = declReference.baseName.text
      if name == "self" || name == "Self" { return extendsDefaults ? .standard : .other }
      return .variable(NameReference(names: [name], scope: scope))
    }
    return .other
  }

  /// A dotted name (`a`, `A.b`, `.b`, `self.a`), without a trailing `.rawValue`.
  static func reference(_ expression: ExprSyntax, scope: [String]) -> NameReference? {
    var names: [String] = []
    var current: ExprSyntax? = expression
    var implicit = false
    while let node = current {
      if let member = node.as(MemberAccessExprSyntax.self) {
        names.insert(member.declName.baseName.text, at: 0)
        current = member.base
        if member.base == nil { implicit = true }
      } else if let declReference = node.as(DeclReferenceExprSyntax.self) {
        names.insert(declReference.baseName.text, at: 0)
        current = nil
      } else {
        return nil
      }
    }
    if names.first == "self" || names.first == "Self" { names.removeFirst() }
    if names.last == "rawValue" { names.removeLast() }
    guard !names.isEmpty else { return nil }
    return NameReference(names: names, scope: scope, isImplicitMember: implicit)
  }

  private func key(of expression: ExprSyntax) -> KeyExpression {
    KeyExpression(parts: Self.keyParts(of: expression, scope: scope), text: Self.text(of: expression))
  }

  /// A key expression's parts: literals, names, interpolations and `+`.
  static func keyParts(of expression: ExprSyntax, scope: [String]) -> [KeyPart] {
    if let string = expression.as(StringLiteralExprSyntax.self) {
      if let literal = string.representedLiteralValue { return [.literal(literal)] }
      return string.segments.flatMap { segment -> [KeyPart] in
        if let text = segment.as(StringSegmentSyntax.self) { return [.literal(text.content.text)] }
        if let interpolation = segment.as(ExpressionSegmentSyntax.self), interpolation.expressions.count == 1,
          let inner = interpolation.expressions.first?.expression
        {
          return keyParts(of: inner, scope: scope)
        }
        return [.unknown]
      }
    }
    if let sequence = expression.as(SequenceExprSyntax.self) {
      let elements = Array(sequence.elements)
      guard elements.count % 2 == 1,
        stride(from: 1, to: elements.count, by: 2).allSatisfy({
          elements[$0].as(BinaryOperatorExprSyntax.self)?.operator.text == "+"
        })
      else { return [.unknown] }
      return stride(from: 0, to: elements.count, by: 2).flatMap { keyParts(of: elements[$0], scope: scope) }
    }
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return keyParts(of: only.expression, scope: scope)
    }
    if let reference = reference(expression, scope: scope) { return [.reference(reference)] }
    return [.unknown]
  }

  /// A value as written: a literal, an array of them, an enum case, or other text.
  static func value(of expression: ExprSyntax) -> ValueExpression {
    if let string = expression.as(StringLiteralExprSyntax.self) {
      return string.representedLiteralValue.map { .value(.string($0)) } ?? .other(text(of: expression))
    }
    if let integer = expression.as(IntegerLiteralExprSyntax.self), let n = integer.representedLiteralValue {
      return .value(.integer(Int64(n)))
    }
    if let real = expression.as(FloatLiteralExprSyntax.self), let r = real.representedLiteralValue {
      return .value(.real(r))
    }
    if let bool = expression.as(BooleanLiteralExprSyntax.self) {
      return .value(.bool(bool.literal.tokenKind == .keyword(.true)))
    }
    if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
      switch value(of: prefix.expression) {
      case .value(.integer(let n)): return .value(.integer(-n))
      case .value(.real(let r)): return .value(.real(-r))
      default: return .other(text(of: expression))
      }
    }
    if let array = expression.as(ArrayExprSyntax.self) {
      return .array(array.elements.map { value(of: $0.expression) })
    }
    if let dictionary = expression.as(DictionaryExprSyntax.self), case .colon = dictionary.content {
      return .value(.dictionary(PrefDictionary()))
    }
    if expression.is(MemberAccessExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self),
      let reference = reference(expression, scope: [])
    {
      return .member(reference)
    }
    return .other(text(of: expression))
  }

  /// An expression's text, for messages; a long one (a closure, a call over lines)
  /// is not rendered, as rendering every initializer would cost the scan its speed.
  static func text(of expression: ExprSyntax) -> String {
    expression.totalLength.utf8Length <= 200 ? expression.trimmedDescription : "…"
  }
}

extension String {
  /// `Int?` to `Int`, `Optional<Int>` to `Int`.
  var trimmingOptional: String {
    if hasSuffix("?") || hasSuffix("!") { return String(dropLast()) }
    if hasPrefix("Optional<"), hasSuffix(">") { return String(dropFirst(9).dropLast()) }
    return self
  }

  /// Whether the type text is an optional.
  var isOptionalType: Bool { hasSuffix("?") || hasPrefix("Optional<") }
}
