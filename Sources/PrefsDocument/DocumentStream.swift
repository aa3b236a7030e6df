import PrefsFormats
import PrefsModel
import PrefsText

/// A YAML stream read for editing: each document a ``TextDocument`` over its own
/// bytes (``YAMLStream``'s ranges), so that a change to one document patches its bytes
/// and leaves every other byte of the stream as it was: the other documents, their
/// `---` lines, `...` and the comments between them.
public struct DocumentStream: Sendable {
  /// The documents, in order, each read with its source map.
  public let documents: [TextDocument]
  /// The bytes each document spans in ``text``.
  let ranges: [Range<Int>]
  /// The stream's bytes.
  let text: Data

  /// Reads the YAML stream `data` for editing; nil when a document has no text to
  /// patch (an encoding other than UTF-8).
  public init?(_ data: Data, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings()) throws {
    guard TextEncoding.detect(data).isUTF8 else { return nil }
    // The ranges count from the first byte.
    let data = data.startIndex == 0 ? data : Data(data)
    let stream = try YAMLStream.read(data, options: options, warnings: warnings)
    var documents: [TextDocument] = []
    for document in stream.documents {
      // Each range was read once already: what it warns of was told.
      guard let read = try TextDocument(Data(data[document.range]), format: .yaml, options: options) else {
        return nil
      }
      documents.append(read)
    }
    self.documents = documents
    self.ranges = stream.documents.map(\.range)
    self.text = data
  }

  /// The documents' values, in order.
  public var values: [PrefValue] { documents.map(\.value) }

  /// The documents' names (`Kind/name`), in order.
  public var names: [String?] { values.map(YAMLStream.name(of:)) }

  /// The index of the document `selector` picks (see ``YAMLStream/index(of:in:)``).
  public func index(of selector: String) throws -> Int {
    guard let index = YAMLStream.index(of: selector, in: names) else {
      throw PrefsError(.noSuchDocument(selector: selector, names: names))
    }
    return index
  }

  /// The stream's bytes with the documents at some indexes replaced by new bytes (a
  /// ``TextDocument/Patch``'s, or a document written whole) and those at `removed` left
  /// out, the others kept byte for byte; `appended` documents follow the last one.
  public func replacing(_ replacements: [Int: Data], removing removed: Set<Int> = [], appending appended: [Data] = [])
    -> Data
  {
    let separator = Array("---".utf8)
    var out = Data()
    for (index, range) in ranges.enumerated() where !removed.contains(index) {
      guard let bytes = replacements[index] else {
        out.append(text[range])
        continue
      }
      // A document written whole by the format's writer has no `---` line: one
      // separates it from the document before it.
      if !out.isEmpty, !bytes.starts(with: separator) { out.append(contentsOf: separator + [0x0A]) }
      out.append(bytes)
    }
    for bytes in appended {
      if let last = out.last, last != 0x0A { out.append(0x0A) }
      if !out.isEmpty, !bytes.starts(with: separator) { out.append(contentsOf: separator + [0x0A]) }
      out.append(bytes)
    }
    return out
  }
}
