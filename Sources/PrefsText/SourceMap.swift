import PrefsModel

/// Where each value of a text document stands in its bytes: the source map that the
/// text readers (YAML, JSON, XML and OpenStep property lists) build beside the value
/// when asked, and that the patcher edits through.
///
/// Nodes mirror the value tree: node 0 is the root, and each container lists its
/// children in document order, a dictionary's with their keys. Offsets are byte
/// offsets into the (UTF-8) text the reader read.
package struct SourceMap: Sendable, Equatable {
  /// One value in the text.
  package struct Node: Sendable, Equatable {
    /// The key, for an entry of a dictionary.
    package var name: String?
    /// The bytes of the key as written (quotes and tags included), for a dictionary entry.
    package var key: Range<Int>?
    /// The bytes of the value as written, from its first byte (an anchor, a tag, an
    /// opening quote, tag or bracket) through its last (a closing quote, tag or bracket;
    /// for a YAML block collection, the last byte of its last value).
    package var value: Range<Int>
    /// The first child and the next sibling, as indexes into ``SourceMap/nodes`` (-1:
    /// none): links rather than an array per container, which would cost an
    /// allocation for each (``SourceMap/children(of:)`` lists them).
    var firstChild: Int32 = -1
    var nextSibling: Int32 = -1
    package var flags: Flags = []

    /// Whether the node has children in the text.
    package var hasChildren: Bool { firstChild >= 0 }

    package init(name: String? = nil, key: Range<Int>? = nil, value: Range<Int>, flags: Flags = []) {
      self.name = name
      self.key = key
      self.value = value
      self.flags = flags
    }
  }

  /// What keeps a node from being patched as plain text.
  package struct Flags: OptionSet, Sendable, Equatable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A YAML alias (`*x`): its value is written elsewhere.
    package static let alias = Flags(rawValue: 1)
    /// A YAML node with an anchor (`&x`): aliases elsewhere repeat it.
    package static let anchored = Flags(rawValue: 2)
    /// A YAML mapping with `<<` merge keys: some of its keys are not written in it.
    package static let merges = Flags(rawValue: 4)
    /// A YAML node with an explicit tag that decides its value (`!!binary`, `!json`).
    package static let tagged = Flags(rawValue: 8)
  }

  /// Every node; node 0 is the root once a document has been read.
  package internal(set) var nodes: [Node] = []

  package init() {}

  /// The root node.
  package var root: Node { nodes[0] }

  /// The first child of `node`, if it has one: found without listing the others,
  /// which for a long array would cost a pass over it.
  package func firstChild(of node: Int) -> Int? {
    let child = nodes[node].firstChild
    return child >= 0 ? Int(child) : nil
  }

  /// The children of `node`, in document order.
  package func children(of node: Int) -> [Int] {
    var result: [Int] = []
    var child = nodes[node].firstChild
    while child >= 0 {
      result.append(Int(child))
      child = nodes[Int(child)].nextSibling
    }
    return result
  }

  /// Whether a dictionary in the text gives a key twice (read under
  /// `allowDuplicateKeys`, which keeps the last value): such a key has no one place
  /// to patch.
  package var hasDuplicateKeys: Bool {
    for node in nodes.indices where nodes[node].hasChildren {
      var seen = Set<ScalarKey>()
      for child in children(of: node) {
        if let name = nodes[child].name, !seen.insert(ScalarKey(name)).inserted { return true }
      }
    }
    return false
  }

  /// The child of `node` holding key `name`, if it is written in the text.
  package func child(of node: Int, named name: String) -> Int? {
    // Keys compare by Unicode scalars, as ``PrefValue`` does.
    var child = nodes[node].firstChild
    while child >= 0 {
      if let key = nodes[Int(child)].name, sameScalars(key, name) { return Int(child) }
      child = nodes[Int(child)].nextSibling
    }
    return nil
  }
}

/// Builds a ``SourceMap`` while a reader scans: containers are opened and closed, and
/// scalars recorded, in document order. Readers hold an optional builder, so the
/// plain read path pays one nil check per value.
package final class SourceMapBuilder {
  package private(set) var map = SourceMap()
  /// The open containers, innermost last, with the last child each has so far.
  private var open: [(node: Int, lastChild: Int)] = []
  /// The last node recorded outside every container: top-level nodes are siblings
  /// (a part of a document read on another thread holds several).
  private var lastTopLevel = -1

  package init() {}

  /// The key of the next node recorded (a dictionary entry's), as read and as written.
  private var pendingKey: (name: String, range: Range<Int>)?

  /// Sets the key of the next node: call before reading an entry's value.
  package func key(_ name: String, _ range: Range<Int>) {
    pendingKey = (name, range)
  }

  /// Forgets a key whose value turned out to be nothing (a null dropped under `--drop-nulls`).
  package func discardKey() {
    pendingKey = nil
  }

  /// Records a scalar (or an alias, or a value read as a whole such as a typed JSON
  /// object) and returns its node.
  @discardableResult
  package func scalar(_ value: Range<Int>, flags: SourceMap.Flags = []) -> Int {
    add(value: value, flags: flags)
  }

  /// Opens a container whose text starts at `start`; its end is set by ``close(end:)``.
  @discardableResult
  package func open(start: Int, flags: SourceMap.Flags = []) -> Int {
    let node = add(value: start..<start, flags: flags)
    open.append((node, -1))
    return node
  }

  /// Closes the innermost open container, whose text ends before `end`, and returns it.
  @discardableResult
  package func close(end: Int) -> Int {
    let node = open.removeLast().node
    map.nodes[node].value = map.nodes[node].value.lowerBound..<max(end, map.nodes[node].value.lowerBound)
    return node
  }

  /// Closes the innermost open container as one opaque value: a typed JSON object
  /// or a tagged YAML collection whose parts are not values of the model.
  @discardableResult
  package func closeOpaque(end: Int) -> Int {
    let node = close(end: end)
    map.nodes[node].firstChild = -1
    map.nodes[node].flags.insert(.tagged)
    return node
  }

  /// Adds flags to a node already recorded (an anchor or merge key seen later).
  package func mark(_ node: Int, _ flags: SourceMap.Flags) {
    map.nodes[node].flags.formUnion(flags)
  }

  private func add(value: Range<Int>, flags: SourceMap.Flags) -> Int {
    let index = map.nodes.count
    map.nodes.append(SourceMap.Node(name: pendingKey?.name, key: pendingKey?.range, value: value, flags: flags))
    pendingKey = nil
    link(index)
    return index
  }

  /// Links a new node as the last child of the innermost open container.
  private func link(_ index: Int) {
    if let parent = open.last {
      if parent.lastChild >= 0 {
        map.nodes[parent.lastChild].nextSibling = Int32(index)
      } else {
        map.nodes[parent.node].firstChild = Int32(index)
      }
      open[open.count - 1].lastChild = index
    } else {
      if lastTopLevel >= 0 { map.nodes[lastTopLevel].nextSibling = Int32(index) }
      lastTopLevel = index
    }
  }

  /// Adds the nodes of `part` (a map of consecutive entries read by another parser)
  /// as the next children of the innermost open container.
  package func append(_ part: SourceMap) {
    guard !part.nodes.isEmpty else { return }
    let base = map.nodes.count
    var top = 0
    for var node in part.nodes {
      if node.firstChild >= 0 { node.firstChild += Int32(base) }
      if node.nextSibling >= 0 { node.nextSibling += Int32(base) }
      map.nodes.append(node)
    }
    // Its top-level nodes are siblings already; the first joins the container's children.
    link(base + top)
    while map.nodes[base + top].nextSibling >= 0 { top = Int(map.nodes[base + top].nextSibling) - base }
    if let parent = open.last { open[open.count - 1] = (parent.node, base + top) } else { lastTopLevel = base + top }
  }
}
