import PrefsModel
import PrefsText

/// Writes an OpenStep (old-style ASCII) property list in Xcode's layout: tab
/// indentation, `key = value;` one per line, array items each followed by `,`, and a
/// line break at the end.
///
/// Strings are written bare when Xcode writes them bare (letters, digits and
/// `$ _ . /`, not empty, without `//` or `___`), a subset of what CF reads bare;
/// otherwise quoted, with `\\`, `\"`, `\t`, `\n` escaped as Xcode escapes them and
/// the other control characters as `\r` or octal, so that CF's reader (and
/// ``OpenStepReader``) read back exactly the same string. Data is written
/// `<0fbd7712 …>`.
///
/// A project (a root dictionary with `archiveVersion` and an `objects` dictionary)
/// is written as Xcode writes `project.pbxproj`: the `// !$*UTF8*$!` line first,
/// objects grouped by `isa` between `/* Begin X section */` and `/* End X section */`
/// (sections by `isa` name, objects in their order), PBXBuildFile and
/// PBXFileReference objects on one line, and object references followed by Xcode's
/// comment naming the object (``XcodeComments``).
///
/// OpenStep has only strings, data, arrays and dictionaries: an integer, real, bool,
/// date or UID is refused with its key path before anything is written (CF's
/// OpenStep writer is not available; writing `1` and `true` as strings would lose
/// their type silently).
struct OpenStepWriter {
  private let out: ByteWriter
  private let sortKeys: Bool
  private var comments: [String: String] = [:]
  /// The project's name, for the comment of its configuration list; guessed from the
  /// targets' names when nil.
  private let projectName: String?

  /// A writer into `out`; `comments` name the object IDs a fragment of a project
  /// refers to (a whole project finds its own).
  init(to out: ByteWriter, sortKeys: Bool, projectName: String? = nil, comments: [String: String] = [:]) {
    self.out = out
    self.sortKeys = sortKeys
    self.projectName = projectName
    self.comments = comments
  }

  /// The `isa`s whose objects Xcode writes on one line.
  static let oneLineObjects: Set<String> = ["PBXBuildFile", "PBXFileReference"]

  mutating func write(_ value: PrefValue) throws {
    try Self.check(value)
    if case .dictionary(let root) = value, let objects = XcodeComments.projectObjects(root) {
      comments = XcodeComments.comments(for: objects, root: root, projectName: projectName)
      try out.write(literal: "// !$*UTF8*$!\n")
      try writeProject(sortKeys ? root.sortedByKey() : root, objects: objects)
    } else {
      try self.value(value, depth: 0, key: nil, oneLine: false)
    }
    try out.write(0x0A)
  }

  /// Refuses the first value OpenStep cannot hold, naming its key path (`value`
  /// standing at `base`).
  static func check(_ value: PrefValue, at base: PrefKeyPath = PrefKeyPath()) throws {
    var path = base.components
    try check(value, path: &path)
  }

  private static func check(_ value: PrefValue, path: inout [PrefKeyPath.Component]) throws {
    switch value {
    case .string, .data: return
    case .array(let items):
      for (index, item) in items.enumerated() {
        path.append(.index(index))
        try check(item, path: &path)
        path.removeLast()
      }
    case .dictionary(let dictionary):
      for (key, item) in dictionary {
        path.append(.key(key))
        try check(item, path: &path)
        path.removeLast()
      }
    case .null:
      throw PrefsError(.null(path: PrefKeyPath(path)))
    case .integer, .unsignedInteger, .real, .bool, .date, .uid:
      throw PrefsError(
        .unrepresentable(
          format: "openstep", kind: value.kind, path: PrefKeyPath(path),
          problem: "\(value.kind.rawValue) at \(plistPath(path)) has no OpenStep form"),
        hints: [
          "OpenStep property lists hold only strings, data, arrays and dictionaries; write xml or binary instead"
        ])
    }
  }

  // MARK: Projects

  private mutating func writeProject(_ root: PrefDictionary, objects: PrefDictionary) throws {
    try out.write(UInt8(ascii: "{"))
    try out.write(0x0A)
    for (key, item) in root {
      try indent(1)
      try string(key)
      try out.write(literal: " = ")
      if key == "objects" {
        try writeObjects(objects)
      } else {
        try value(item, depth: 1, key: key, oneLine: false)
      }
      try out.write(literal: ";\n")
    }
    try out.write(UInt8(ascii: "}"))
  }

  /// The objects, grouped in sections by `isa`.
  private mutating func writeObjects(_ objects: PrefDictionary) throws {
    var sections: [String: [(key: String, value: PrefValue)]] = [:]
    for entry in sortKeys ? objects.sortedByKey() : objects {
      let isa = entry.value.dictionaryValue?["isa"]?.stringValue ?? ""
      sections[isa, default: []].append(entry)
    }
    try out.write(literal: "{\n")
    for isa in sections.keys.sorted(by: PrefDictionary.codePointOrder) {
      try out.write(Array("\n/* Begin \(isa) section */\n".utf8))
      let oneLine = Self.oneLineObjects.contains(isa)
      for (id, object) in sections[isa]! {
        try indent(2)
        try string(id)
        try annotation(for: id)
        try out.write(literal: " = ")
        try value(object, depth: 2, key: nil, oneLine: oneLine)
        try out.write(literal: ";\n")
      }
      try out.write(Array("/* End \(isa) section */\n".utf8))
    }
    try indent(1)
    try out.write(UInt8(ascii: "}"))
  }

  private func annotation(for id: String) throws {
    guard let comment = comments[id] else { return }
    try out.write(literal: " /* ")
    try out.write(comment)
    try out.write(literal: " */")
  }

  /// Writes one entry of a dictionary (`key = value`, without its `;`) or, without
  /// `key`, one array item or value, at depth 0 and on one line when `oneLine`: the text
  /// the patcher inserts. With `namedKey`, the key is an object ID followed by its
  /// comment. What OpenStep cannot hold is refused as ``write(_:)`` refuses it.
  mutating func fragment(key: String?, value: PrefValue, oneLine: Bool, namedKey: Bool = false, at path: PrefKeyPath)
    throws
  {
    try Self.check(value, at: path)
    if let key {
      try string(key)
      if namedKey { try annotation(for: key) }
      try out.write(literal: " = ")
    }
    // A value alone is named as its key names it (no comment after `remoteGlobalIDString`).
    var valueKey = key
    if key == nil, case .key(let last)? = path.components.last { valueKey = last }
    try self.value(value, depth: 0, key: valueKey, oneLine: oneLine)
  }

  // MARK: Values

  private mutating func value(_ value: PrefValue, depth: Int, key: String?, oneLine: Bool) throws {
    switch value {
    case .string(let text):
      try string(text)
      // Xcode names the object a reference points to, except a proxy's remote ID.
      if !comments.isEmpty, key != "remoteGlobalIDString" { try annotation(for: text) }
    case .data(let data):
      try self.data(data)
    case .array(let items):
      try out.write(UInt8(ascii: "("))
      if !oneLine { try out.write(0x0A) }
      for item in items {
        if !oneLine { try indent(depth + 1) }
        try self.value(item, depth: depth + 1, key: nil, oneLine: oneLine)
        try out.write(literal: oneLine ? ", " : ",\n")
      }
      if !oneLine { try indent(depth) }
      try out.write(UInt8(ascii: ")"))
    case .dictionary(let dictionary):
      try out.write(UInt8(ascii: "{"))
      if !oneLine { try out.write(0x0A) }
      for (itemKey, item) in sortKeys ? dictionary.sortedByKey() : dictionary {
        if !oneLine { try indent(depth + 1) }
        try string(itemKey)
        try out.write(literal: " = ")
        try self.value(item, depth: depth + 1, key: itemKey, oneLine: oneLine)
        try out.write(literal: oneLine ? "; " : ";\n")
      }
      if !oneLine { try indent(depth) }
      try out.write(UInt8(ascii: "}"))
    default:
      // ``check(_:)`` has refused every other kind before writing began.
      preconditionFailure("OpenStepWriter.check lets only strings, data, arrays and dictionaries through")
    }
  }

  private func indent(_ depth: Int) throws {
    for _ in 0..<depth { try out.write(0x09) }
  }

  /// `<0fbd7712 0102>`: lower-case hex, a space after every four bytes.
  private func data(_ data: Data) throws {
    let digits = lowercaseHexDigits
    var text = [UInt8(ascii: "<")]
    text.reserveCapacity(data.count * 2 + data.count / 4 + 2)
    for (n, byte) in data.enumerated() {
      if n > 0, n % 4 == 0 { text.append(0x20) }
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    text.append(UInt8(ascii: ">"))
    try out.write(text)
  }

  /// A string, bare when Xcode would write it bare, else quoted.
  private func string(_ text: String) throws {
    if Self.isBare(text) {
      try out.write(text)
    } else {
      try out.write(Self.quoted(text))
    }
  }

  /// Whether Xcode writes `text` without quotes.
  static func isBare(_ text: String) -> Bool {
    let utf8 = text.utf8
    guard !utf8.isEmpty else { return false }
    var previous: UInt8 = 0
    var underscores = 0
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "$"),
        UInt8(ascii: "_"):
        break
      default: return false
      }
      // `//` would start a comment; Xcode also quotes `___` (template placeholders).
      if byte == UInt8(ascii: "/"), previous == UInt8(ascii: "/") { return false }
      underscores = byte == UInt8(ascii: "_") ? underscores + 1 : 0
      if underscores == 3 { return false }
      previous = byte
    }
    return true
  }

  /// `"…"` with the escapes CF reads back: Xcode's `\\ \" \t \n`, `\r`, and octal for
  /// the other C0 controls and DEL; everything else (UTF-8 included) as it is.
  static func quoted(_ text: String) -> [UInt8] {
    var result = [UInt8(ascii: "\"")]
    result.reserveCapacity(text.utf8.count + 2)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\\"): result += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "\""): result += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case 0x09: result += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0x0A: result += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: result += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x00..<0x20, 0x7F:
        result += [
          UInt8(ascii: "\\"), UInt8(ascii: "0") + (byte >> 6), UInt8(ascii: "0") + ((byte >> 3) & 7),
          UInt8(ascii: "0") + (byte & 7),
        ]
      default: result.append(byte)
      }
    }
    result.append(UInt8(ascii: "\""))
    return result
  }
}

/// The comments Xcode writes after an object's identifier in `project.pbxproj`
/// (`2DBA… /* Typealiases.swift in Sources */`), derived from the objects as Xcode
/// derives them. The reader skips comments, so they only make the text Xcode's.
package enum XcodeComments {
  /// The `objects` of a project, if `root` is one whose objects all have an `isa`.
  package static func projectObjects(_ root: PrefDictionary) -> PrefDictionary? {
    guard root.contains("archiveVersion"), case .dictionary(let objects)? = root["objects"] else { return nil }
    for (_, object) in objects {
      guard case .dictionary(let fields) = object, fields["isa"]?.stringValue != nil else { return nil }
    }
    return objects
  }

  /// Default names of build phases without a `name`.
  static let phaseNames: [String: String] = [
    "PBXSourcesBuildPhase": "Sources", "PBXFrameworksBuildPhase": "Frameworks",
    "PBXResourcesBuildPhase": "Resources", "PBXHeadersBuildPhase": "Headers",
    "PBXCopyFilesBuildPhase": "CopyFiles", "PBXShellScriptBuildPhase": "ShellScript",
    "PBXRezBuildPhase": "Rez", "PBXAppleScriptBuildPhase": "AppleScript",
  ]

  /// Comments by object identifier.
  package static func comments(for objects: PrefDictionary, root: PrefDictionary, projectName: String?)
    -> [String: String]
  {
    func fields(_ id: String) -> PrefDictionary? { objects[id]?.dictionaryValue }
    func text(_ id: String, _ key: String) -> String? { fields(id)?[key]?.stringValue }
    var comments: [String: String] = [:]
    var targetNames: [String] = []
    // The build phase holding each build file, and the owner of each configuration list.
    var phaseOf: [String: String] = [:]
    var ownerOf: [String: String] = [:]
    for (id, object) in objects {
      guard let object = object.dictionaryValue, let isa = object["isa"]?.stringValue else { continue }
      if phaseNames[isa] != nil, let files = object["files"]?.arrayValue {
        for file in files { if let file = file.stringValue { phaseOf[file] = id } }
      }
      if let list = object["buildConfigurationList"]?.stringValue { ownerOf[list] = id }
      if isa.hasSuffix("Target"), let name = object["name"]?.stringValue { targetNames.append(name) }
    }
    let project = projectName ?? guessedProjectName(targetNames)
    func name(_ id: String) -> String? {
      guard let isa = text(id, "isa") else { return nil }
      switch isa {
      case "PBXProject": return "Project object"
      case "PBXContainerItemProxy", "PBXTargetDependency": return isa
      case "XCSwiftPackageProductDependency": return text(id, "productName")
      case "XCRemoteSwiftPackageReference":
        guard let url = text(id, "repositoryURL") else { return nil }
        var repository = url.split(separator: "/").last.map(String.init) ?? url
        if repository.hasSuffix(".git") { repository.removeLast(4) }
        return "XCRemoteSwiftPackageReference \"\(repository)\""
      case "XCLocalSwiftPackageReference":
        return text(id, "relativePath").map { "XCLocalSwiftPackageReference \"\($0)\"" }
      case "PBXBuildFile":
        let file =
          text(id, "fileRef").flatMap(name) ?? text(id, "productRef").flatMap { text($0, "productName") }
        guard let file, let phase = phaseOf[id] else { return nil }
        return "\(file) in \(text(phase, "name") ?? phaseNames[text(phase, "isa") ?? ""] ?? "")"
      case "XCConfigurationList":
        guard let owner = ownerOf[id], let ownerIsa = text(owner, "isa") else { return nil }
        let ownerName = ownerIsa == "PBXProject" ? project : text(owner, "name") ?? ""
        return "Build configuration list for \(ownerIsa) \"\(ownerName)\""
      default:
        if let phase = phaseNames[isa] { return text(id, "name") ?? phase }
        return text(id, "name") ?? text(id, "path")
      }
    }
    for (id, _) in objects {
      if let comment = name(id) { comments[id] = comment }
    }
    return comments
  }

  /// The project's name as `text` (the project written by Xcode) gives it, in the
  /// comment on its configuration list: `Build configuration list for PBXProject "Foo"`.
  static func projectName(in text: [UInt8], root: PrefDictionary, objects: PrefDictionary) -> String? {
    let prefix = "Build configuration list for PBXProject \""
    guard let project = root["rootObject"]?.stringValue,
      let list = objects[project]?.dictionaryValue?["buildConfigurationList"]?.stringValue,
      let name = ObjectNames(openStepText: Data(text)).names[list], name.hasPrefix(prefix), name.hasSuffix("\"")
    else { return nil }
    return String(name.dropFirst(prefix.count).dropLast())
  }

  /// The words all target names start with (`Alamofire` for `Alamofire iOS` and
  /// `Alamofire macOS`): a project file does not hold its own name, which is that of
  /// its `.xcodeproj` folder, and targets are usually named after it.
  static func guessedProjectName(_ targetNames: [String]) -> String {
    guard var common = targetNames.first?.split(separator: " ") else { return "" }
    for name in targetNames.dropFirst() {
      let words = name.split(separator: " ")
      common = Array(zip(common, words).prefix(while: { $0.0 == $0.1 }).map(\.0))
    }
    return common.joined(separator: " ")
  }
}
