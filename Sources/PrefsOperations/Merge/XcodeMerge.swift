import PrefsFormats
import PrefsModel

/// What a merge of two versions of an Xcode project must not do quietly: when both
/// sides add one file (or group, build file, package) under IDs of their own, the
/// merged lists would hold it twice, which builds wrong or not at all. Such a list is
/// a conflict, naming the object, so that a person chooses.
enum XcodeMerge {
  /// The lists of IDs whose items both sides may add to.
  static let idLists: Set<String> = [
    "children", "files", "buildPhases", "dependencies", "targets", "packageProductDependencies",
    "packageReferences", "buildConfigurations",
  ]

  /// `result` with a conflict for each list of IDs to which both sides added the same
  /// object under their own IDs; the merged value keeps CURRENT's list there, as at
  /// every conflict. Values that are not projects come back as they are.
  static func duplicatesFound(
    base: PrefValue, current: PrefValue, other: PrefValue, in result: ThreeWayMerge.Result
  ) -> ThreeWayMerge.Result {
    guard case .dictionary(var root) = result.value, let objects = XcodeComments.projectObjects(root),
      let currentObjects = current.dictionaryValue?["objects"]?.dictionaryValue,
      let otherObjects = other.dictionaryValue?["objects"]?.dictionaryValue
    else { return result }
    let baseObjects = base.dictionaryValue?["objects"]?.dictionaryValue ?? PrefDictionary()
    let names = XcodeComments.comments(for: objects, root: root, projectName: nil)
    var identities: [String: String?] = [:]
    func identity(_ id: String) -> String? {
      if let known = identities[id] { return known }
      identities[id] = .some(nil)  // a reference cycle names nothing
      let found = Self.identity(of: id, in: objects, identity: identity)
      identities[id] = found
      return found
    }
    func ids(_ objects: PrefDictionary, _ id: String, _ key: String) -> [String] {
      objects[id]?.dictionaryValue?[key]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
    var conflicts = result.conflicts
    var changed = objects
    for (id, object) in objects {
      guard let fields = object.dictionaryValue, currentObjects[id] != nil, otherObjects[id] != nil else { continue }
      for (key, list) in fields where idLists.contains(key) {
        guard case .array = list else { continue }
        let path = PrefKeyPath([.key("objects"), .key(id), .key(key)])
        guard !conflicts.contains(where: { $0.path.components.starts(with: path.components) }) else { continue }
        let inBase = Set(ids(baseObjects, id, key))
        let currentList = ids(currentObjects, id, key)
        let addedHere = currentList.filter { !inBase.contains($0) }
        let addedThere = ids(otherObjects, id, key).filter { !inBase.contains($0) && !currentList.contains($0) }
        guard !addedHere.isEmpty, !addedThere.isEmpty else { continue }
        var byIdentity: [String: String] = [:]
        for item in addedHere { if let found = identity(item) { byIdentity[found] = item } }
        let twice = addedThere.compactMap { item in
          identity(item).flatMap { byIdentity[$0] }.map { (here: $0, there: item) }
        }
        guard !twice.isEmpty else { continue }
        let what = twice.map { "\(names[$0.here] ?? $0.here) (\($0.here) and \($0.there))" }
        conflicts.append(
          MergeConflict(
            path: path, base: baseObjects[id]?.dictionaryValue?[key],
            current: currentObjects[id]?.dictionaryValue?[key],
            other: otherObjects[id]?.dictionaryValue?[key],
            reason: "both sides added \(what.joined(separator: ", ")) under IDs of their own"))
        var merged = fields
        merged[key] = currentObjects[id]?.dictionaryValue?[key]
        changed[id] = PrefValue.dictionary(merged)
      }
    }
    guard conflicts.count > result.conflicts.count else { return result }
    root["objects"] = .dictionary(changed)
    return ThreeWayMerge.Result(value: .dictionary(root), conflicts: conflicts)
  }

  /// What makes two objects the same thing whatever their IDs: a build file is its
  /// file's or product's build file, a file or group its `isa`, name, path and source
  /// tree, a package its repository; nil for an object with nothing of the kind.
  static func identity(
    of id: String, in objects: PrefDictionary, identity: (String) -> String?
  ) -> String? {
    guard let fields = objects[id]?.dictionaryValue, let isa = fields["isa"]?.stringValue else { return nil }
    func text(_ key: String) -> String? { fields[key]?.stringValue }
    if isa == "PBXBuildFile" {
      if let file = text("fileRef") { return identity(file).map { "build of \($0)" } ?? "build of \(file)" }
      return text("productRef").flatMap(identity).map { "build of \($0)" }
    }
    if let url = text("repositoryURL") { return "\(isa) \(url)" }
    if let product = text("productName"), isa == "XCSwiftPackageProductDependency" {
      return "\(isa) \(product) \(text("package").flatMap(identity) ?? "")"
    }
    guard text("name") != nil || text("path") != nil else { return nil }
    return [isa, text("name") ?? "", text("path") ?? "", text("sourceTree") ?? ""].joined(separator: "\u{0}")
  }
}
