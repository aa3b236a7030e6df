import PrefsModel

/// Just enough of ASN.1 DER to walk a CMS structure: one element at a time, each
/// with its tag and the bounds of its content, every length checked against what
/// holds it. Hostile input fails at once with the offset where it breaks.
package struct DER {
  /// One element: its identifier octet and where its content lies.
  package struct Element {
    /// The identifier octet (`0x30` SEQUENCE, `0x06` OID, `0xA0` context tag 0, …).
    package var tag: UInt8
    /// The content's bytes, as offsets into the input.
    package var content: Range<Int>
    /// Where the element starts, for messages.
    package var start: Int

    package var isConstructed: Bool { tag & 0x20 != 0 }
  }

  package let bytes: [UInt8]

  package init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The element starting at `offset`, which must end by `end`.
  package func element(at offset: Int, end: Int) throws -> Element {
    guard offset < end else { throw Self.broken("an element was expected", at: offset) }
    let tag = bytes[offset]
    guard tag & 0x1F != 0x1F else { throw Self.broken("a tag of more than one byte is not used here", at: offset) }
    guard offset + 1 < end else { throw Self.broken("the input ends inside an element's length", at: offset + 1) }
    let first = bytes[offset + 1]
    var cursor = offset + 2
    var length = 0
    if first < 0x80 {
      length = Int(first)
    } else if first == 0x80 {
      throw Self.broken("an indefinite length (BER) is not DER", at: offset + 1)
    } else {
      let count = Int(first & 0x7F)
      guard count <= 4 else { throw Self.broken("a length of \(count) bytes is too long", at: offset + 1) }
      guard cursor + count <= end else { throw Self.broken("the input ends inside an element's length", at: cursor) }
      for _ in 0..<count {
        length = length << 8 | Int(bytes[cursor])
        cursor += 1
      }
    }
    guard length <= end - cursor else {
      throw Self.broken("an element of \(length) bytes runs past the \(end - cursor) that hold it", at: offset)
    }
    return Element(tag: tag, content: cursor..<cursor + length, start: offset)
  }

  /// The elements inside a constructed `element`, in order.
  package func children(of element: Element) throws -> [Element] {
    var result: [Element] = []
    var offset = element.content.lowerBound
    while offset < element.content.upperBound {
      let child = try self.element(at: offset, end: element.content.upperBound)
      result.append(child)
      offset = child.content.upperBound
    }
    return result
  }

  /// The one element that fills `bytes`, refusing bytes after it.
  package func root() throws -> Element {
    let root = try element(at: 0, end: bytes.count)
    guard root.content.upperBound == bytes.count else {
      throw Self.broken("bytes follow the outermost element", at: root.content.upperBound)
    }
    return root
  }

  static func broken(_ problem: String, at offset: Int) -> PrefsError {
    PrefsError(.profile(problem: "a signed profile's DER breaks: \(problem)"), position: .byteOffset(offset))
  }
}
