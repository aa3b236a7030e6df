import PrefsKit

/// Where something stands in the scanned code: `File.swift:LINE:COL`.
struct SourceLocation: Sendable, Comparable {
  var file: String
  /// The file's place among the files scanned: keys are listed in that order.
  var order: Int
  var line: Int
  var column: Int

  var text: String { "\(file):\(line):\(column)" }

  static func < (a: SourceLocation, b: SourceLocation) -> Bool {
    (a.order, a.line, a.column) < (b.order, b.line, b.column)
  }
}

/// A name as the code spells it (`userDefaultsKey`, `Keys.volume`, `.volume`), with
/// the types it is written in, resolved once every file has been read.
struct NameReference: Sendable {
  /// The dotted components: `["Keys", "volume"]`.
  var names: [String]
  /// The enclosing types where it is written, outermost first.
  var scope: [String]
  /// An implicit member (`.volume`): its type is whatever the context wants.
  var isImplicitMember = false
}

/// One part of a key expression.
enum KeyPart: Sendable {
  case literal(String)
  case reference(NameReference)
  /// Something only the running app knows (a parameter, a call).
  case unknown
}

/// A key as the code writes it: a literal, a name, an interpolation or a `+` of them.
struct KeyExpression: Sendable {
  var parts: [KeyPart]
  /// The expression's text, for a key built at run time.
  var text: String
}

/// A value as the code writes it (a fallback, a registered default, a list).
indirect enum ValueExpression: Sendable {
  case value(PrefValue)
  /// An enum case, `.dark` or `Theme.dark`.
  case member(NameReference)
  case array([ValueExpression])
  /// Not a literal: the text.
  case other(String)
}

/// The `UserDefaults` a read goes through.
enum DefaultsReceiver: Sendable {
  /// `UserDefaults.standard`, `.standard`, or `self` in an extension of `UserDefaults`.
  case standard
  /// `UserDefaults(suiteName: …)`.
  case suite(KeyExpression)
  /// A variable or static member that may hold one (`defaults`, `UserDefaults.group`).
  case variable(NameReference)
  /// No receiver, outside an extension of `UserDefaults`.
  case none
  /// Something else (a call, a subscript).
  case other
}

/// One read (or store) of a key.
struct ReadFact: Sendable {
  enum Kind: Sendable {
    /// `object(forKey:)`, `value(forKey:)`: typed by a cast, if any.
    case object
    /// A typed getter, `bool(forKey:)`: its type and implicit fallback.
    case getter(ValueText.TypeName, implicit: PrefValue?)
    /// A declaration that names the key with its type (`@AppStorage`, `Defaults.Key<T>`).
    case declaration
    /// `set(_:forKey:)`.
    case write
  }

  var kind: Kind
  var key: KeyExpression
  var receiver: DefaultsReceiver
  /// The Swift type the read gives (a cast, a declared type), as written.
  var swiftType: String?
  /// `as!`: no fallback, the app crashes instead.
  var forced = false
  /// The fallback written at the read (`?? d`, a declaration's default).
  var fallback: ValueExpression?
  var location: SourceLocation
  /// The property or variable the value goes to (`self.ringtone = …`), and where.
  var boundName: String?
  var scope: [String]
  /// The function, accessor or initializer the read is in (for `Codable` data).
  var function: Int?
}

/// A type declared in the scanned code.
struct TypeFact: Sendable {
  struct StoredProperty: Sendable {
    var name: String
    var swiftType: String?
    /// `let x = 1`: not decoded.
    var isFixed: Bool
  }

  var qualifiedName: [String]
  var isEnum: Bool
  /// An enum's raw type (`String`, `Int`), the first inherited type otherwise.
  var inherited: [String]
  /// An enum's cases with their raw values (a `String` enum's case names, an `Int`
  /// enum's counted values where not written).
  var cases: [(name: String, raw: PrefValue?)]
  var stored: [StoredProperty]
  /// `CodingKeys`: property name to coding key.
  var codingKeys: [(name: String, key: String)]?
  var isPropertyWrapper: Bool
  var location: SourceLocation
}

/// A constant (`let`, `static let`, an instance property with a literal value).
struct ConstantFact: Sendable {
  var qualifiedName: [String]
  var value: ValueExpression
}

/// A variable holding a `UserDefaults` (`let defaults = UserDefaults(suiteName: …)!`).
struct DefaultsVariableFact: Sendable {
  var qualifiedName: [String]
  var receiver: DefaultsReceiver
}

/// `register(defaults: [k: v])`: one entry.
struct RegisteredDefault: Sendable {
  var key: KeyExpression
  var value: ValueExpression
}

/// A custom attribute with arguments on a property (`@UserDefault("k", defaultValue: 1)`),
/// matched with the property wrappers of the scanned code once all are read.
struct WrapperUse: Sendable {
  var attribute: String
  var arguments: [(label: String?, key: KeyExpression, value: ValueExpression)]
  var swiftType: String?
  var initialValue: ValueExpression?
  var location: SourceLocation
  var boundName: String
  var scope: [String]
}

/// A `decode(T.self, from:)` or `encode(_:)` through a JSON or property list coder.
struct CoderFact: Sendable {
  var function: Int
  var encoding: DataEncoding
  /// The decoded type (`[Item]`); nil for an encode.
  var swiftType: String?
  /// What the app uses when decoding fails (`try? … ?? []`, `catch { return [] }`).
  var fallback: ValueExpression?
}

/// A function's name and argument labels, as a call spells them, and its parameters' names.
struct FunctionSignature: Sendable {
  var name: String
  var labels: [String?]
  var parameters: [String]
}

/// A function that reads (or stores) the key its caller passes
/// (`func bool(for key: String) -> Bool { defaults.bool(forKey: key) }`).
struct ReaderFunction: Sendable {
  var signature: FunctionSignature
  /// The parameter that holds the key.
  var keyParameter: Int
  /// The read inside, whose key and place each call replaces.
  var read: ReadFact
}

/// A call passing a name or a string, which may be of a ``ReaderFunction``.
struct CallFact: Sendable {
  var name: String
  var labels: [String?]
  var arguments: [KeyExpression]
  var location: SourceLocation
  var scope: [String]
  var function: Int?
  /// The function the call is in: it reads a key too when it passes its own parameter.
  var enclosing: FunctionSignature?
}

/// Everything one file says.
struct FileFacts: Sendable {
  var reads: [ReadFact] = []
  var types: [TypeFact] = []
  var constants: [ConstantFact] = []
  var defaultsVariables: [DefaultsVariableFact] = []
  var registered: [RegisteredDefault] = []
  var wrapperUses: [WrapperUse] = []
  var coders: [CoderFact] = []
  /// `Picker(selection: $model.ringtone) { ForEach(model.ringtones …) }`: the property
  /// a picker sets and the list it offers.
  var pickers: [(property: String, list: NameReference)] = []
  /// Variables the file makes as coders (`let decoder = JSONDecoder()`): name to type.
  var coderVariables: [String: String] = [:]
  var readerFunctions: [ReaderFunction] = []
  var calls: [CallFact] = []
}
