import PrefsModel
import PrefsText

/// A YAML stream: its documents in order, each with its value and the bytes it spans.
///
/// The documents' byte ranges follow each other and cover the whole text: a document
/// runs from its start (its directives or its `---` line; the first one from the
/// text's first byte) to the start of the next, so the comments, blank lines and `...`
/// after a document are its own. Each range read alone gives the document's value,
/// which is what lets a patch change one document's bytes and keep the others byte
/// for byte.
public struct YAMLStream: Sendable {
  /// One document of a stream.
  public struct Document: Sendable {
    /// The document's value.
    public let value: PrefValue
    /// The bytes of the stream's text the document spans.
    public let range: Range<Int>
    /// The document's name, `Kind/name`, when it has a string `kind` and a string
    /// `metadata.name` (as Kubernetes manifests do).
    public var name: String? { YAMLStream.name(of: value) }
  }

  /// The documents, in the order the text gives them; never empty.
  public let documents: [Document]

  /// Reads every document of the YAML text `data`; an empty stream is refused, as a
  /// single document's reading refuses it.
  public static func read(_ data: Data, options: ReadOptions = ReadOptions(), warnings: Warnings = Warnings()) throws
    -> YAMLStream
  {
    if let error = options.sizeError(data.count) { throw error }
    // The pass after reading runs over the documents as one array of them.
    let (values, starts) = try EmbeddedData.collapsing(options) { options in
      let read = try data.withUnsafeBytes { raw in
        let stream = try YAMLEventStream(raw)
        var parser = YAMLParser(options: options, warnings: warnings)
        parser.offsets = YAMLOffsets(raw)
        return try parser.documents(from: stream)
      }
      return (PrefValue.array(read.map(\.value)), read.map(\.start))
    }
    let documents = values.arrayValue!.enumerated().map { index, value in
      let start = index == 0 ? 0 : starts[index]
      let end = index + 1 < starts.count ? starts[index + 1] : data.count
      return Document(value: value, range: start..<end)
    }
    return YAMLStream(documents: documents)
  }

  /// The documents' values, in order.
  public var values: [PrefValue] { documents.map(\.value) }

  /// The documents' names (``Document/name``), in order.
  public var names: [String?] { documents.map(\.name) }

  /// The index of the document `selector` picks: a number from 0, or `Kind/name`.
  public func index(of selector: String) throws -> Int {
    guard let index = Self.index(of: selector, in: names) else {
      throw PrefsError(.noSuchDocument(selector: selector, names: names))
    }
    return index
  }

  /// The index `selector` picks among documents called `names`: a number from 0
  /// (a negative one counts from the end, as key paths' indexes do), or the one
  /// document called `Kind/name`.
  public static func index(of selector: String, in names: [String?]) -> Int? {
    if let number = Int(selector) {
      let index = number < 0 ? names.count + number : number
      return names.indices.contains(index) ? index : nil
    }
    let matches = names.indices.filter { names[$0] == selector }
    return matches.count == 1 ? matches[0] : nil
  }

  /// A document's name, `Kind/name`, when it has a string `kind` and `metadata.name`.
  public static func name(of value: PrefValue) -> String? {
    guard case .dictionary(let document) = value, case .string(let kind)? = document["kind"],
      case .dictionary(let metadata)? = document["metadata"], case .string(let name)? = metadata["name"]
    else { return nil }
    return kind + "/" + name
  }

  /// The documents' names when every document has one and no two share it: the
  /// names that line two streams up by name; nil otherwise.
  public static func uniqueNames(of values: [PrefValue]) -> [String]? {
    let names = values.compactMap(name(of:))
    guard names.count == values.count, Set(names).count == names.count else { return nil }
    return names
  }
}
