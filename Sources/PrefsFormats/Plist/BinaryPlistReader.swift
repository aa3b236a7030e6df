import PrefsModel
import PrefsText

/// A native reader for binary property lists (`bplist00`).
///
/// Foundation's reader cannot be used for these: its errors carry no position
/// (a broken file reports "Unexpected character b at line 1"), it silently keeps
/// the low 64 bits of a 16-byte integer, and it decodes UTF-8 bytes stored in
/// ASCII-typed strings as Latin-1. This reader checks every offset and count
/// against the file, refuses reference cycles, bounds the nesting depth, and keeps
/// dictionary keys in the order they are stored.
///
/// Decisions where the format leaves room:
/// - Sets (`0xC_`) and ordered sets (`0xB_`) are refused: no other format `prefs`
///   writes can hold them, and reading one as an array would change its type.
/// - ASCII-typed strings (`0x5_`) holding bytes above 0x7F are decoded as UTF-8 when
///   they are valid UTF-8 (old writers stored UTF-8 there, and CF on macOS reads them
///   so); otherwise the file is refused rather than passing on mojibake.
/// - UIDs hold at most 32 bits, as in CF; 16-byte integers must fit `UInt64`.
struct BinaryPlistReader {
  private let data: Data
  /// The input's own bytes, while ``read()`` runs (no copy of a large file), shared
  /// with the readers of its parts.
  private var input = SharedBytes(buffer: UnsafeBufferPointer(start: nil, count: 0))
  private var bytes: UnsafeBufferPointer<UInt8> { input.buffer }
  private let maxDepth: Int
  private let warnings: Warnings
  private let duplicates: DuplicateKeys
  private let parallelism: ParallelPolicy

  private var offsetSize = 0
  private var refSize = 0
  private var objectCount = 0
  private var topObject = 0
  private var offsetTableStart = 0

  /// Per object: ``notRead``, ``reading`` (on the path from the root to the object
  /// being read), or the position in ``finished``. Flat arrays, not hash tables: they
  /// are consulted for every object.
  private var state: [Int] = []
  private static let notRead = -1
  private static let reading = -2
  /// Containers already read, with their height (levels of containers, their own
  /// included) and size, so that an
  /// object referenced many times is read once (hostile files share subtrees to
  /// blow up the work otherwise).
  private var finished: [(value: PrefValue, height: Int, size: Int)] = []
  /// The number of values the document expands to, counting shared subtrees once per use.
  private var expandedSize = 0
  /// The positions of ASCII-typed string objects that held UTF-8.
  private var utf8InASCII: Set<Int> = []
  /// Key strings already decoded, by object index.
  private var keys: [Int: String] = [:]
  /// A file of a few kilobytes can describe billions of values by sharing subtrees;
  /// refuse beyond this many.
  static let maxExpandedValues = 50_000_000

  static let magic: [UInt8] = Array("bplist".utf8)
  private static let trailerSize = 32

  init(
    _ data: Data, maxDepth: Int, warnings: Warnings, allowDuplicateKeys: Bool = false, parallelism: ParallelPolicy
  ) {
    self.data = data
    self.maxDepth = maxDepth
    self.warnings = warnings
    self.parallelism = parallelism
    var options = ReadOptions()
    options.allowDuplicateKeys = allowDuplicateKeys
    self.duplicates = DuplicateKeys(options, warnings: warnings)
  }

  /// How many readers read the root dictionary in the last read (1 unless in parts).
  private(set) var partsRead = 1

  /// Reads the whole document. The root dictionary of a large file is read in parts
  /// (see ``rootInParts(_:)``), as ``ParallelPolicy`` says.
  mutating func read() throws -> PrefValue {
    let data = self.data
    partsRead = 1
    return try data.withUnsafeBytes { raw in
      input = SharedBytes(buffer: raw.bindMemory(to: UInt8.self))
      defer { input = SharedBytes(buffer: UnsafeBufferPointer(start: nil, count: 0)) }
      try readTrailer()
      let value: PrefValue
      let parts = parallelism.parts(forSize: bytes.count)
      if parts > 1, let parallel = rootInParts(parts) {
        value = parallel
      } else {
        value = try object(topObject, depth: 0, referencedAt: bytes.count - 16).0
      }
      if let first = utf8InASCII.min() {
        warnings.add(
          "\(utf8InASCII.count) ASCII-typed string object(s) hold UTF-8 bytes; read as UTF-8"
            + " (Foundation on Linux reads them as Latin-1)",
          position: .byteOffset(first))
      }
      return value
    }
  }

  /// A root dictionary read by `parts` readers at once, each taking a run of its
  /// entries with its own state over the same bytes; the runs are joined in order.
  ///
  /// Nil leaves the file to one reader: a root that is not a dictionary, or any error
  /// in a part (duplicate keys across parts, a cycle back to the root, too many
  /// values in all), so that every error is reported exactly as one reader finds it.
  private mutating func rootInParts(_ parts: Int) -> PrefValue? {
    // (With `maxDepth` 0 the root itself is too deep, which one reader reports.)
    guard parts > 1, maxDepth > 0, let position = try? offset(of: topObject), bytes[position] >> 4 == 0xD,
      let (n, start) = try? count(at: position, marker: bytes[position], what: "dictionary"),
      n > 1, (try? require(2 * n * refSize, at: start, for: "")) != nil
    else { return nil }
    let parts = min(parts, n)
    // A part that comes back to the root meets a cycle, as one reader would.
    state[topObject] = Self.reading
    defer { state[topObject] = Self.notRead }
    let template = self
    let read = try? inParallel(parts) { part, othersFailed in
      var reader = template
      let range = (n * part / parts)..<(n * (part + 1) / parts)
      var entries: [PrefDictionary.Element] = []
      entries.reserveCapacity(range.count)
      // Once a part has failed, one reader reads the file again: the others stop.
      for i in range where !othersFailed() {
        let keyAt = start + i * reader.refSize
        let valueAt = start + (n + i) * reader.refSize
        let key = try reader.key(reader.reference(at: keyAt), referencedAt: keyAt)
        let (value, _, _) = try reader.object(reader.reference(at: valueAt), depth: 1, referencedAt: valueAt)
        entries.append((key, value))
      }
      return (entries: entries, expanded: reader.expandedSize, utf8InASCII: reader.utf8InASCII)
    }
    guard let read else { return nil }
    var dict = PrefDictionary()
    var expanded = 1
    var utf8: Set<Int> = []
    for result in read {
      expanded += result.expanded
      for (key, value) in result.entries {
        guard dict.insertNew(key, value) else { return nil }
      }
      utf8.formUnion(result.utf8InASCII)
    }
    guard expanded <= Self.maxExpandedValues else { return nil }
    utf8InASCII = utf8
    partsRead = parts
    return .dictionary(dict)
  }

  // MARK: Structure

  private mutating func readTrailer() throws {
    guard bytes.count >= 8, bytes.starts(with: Self.magic) else {
      throw PrefsError.syntax(in: .binary, "not a binary property list (no 'bplist' header)", offset: 0)
    }
    guard bytes[6] == UInt8(ascii: "0") else {
      let version = String(decoding: bytes[6..<8], as: UTF8.self)
      throw PrefsError.syntax(
        in: .binary,
        "unsupported binary plist version '\(version)' (only 00 is read)", offset: 6)
    }
    // Header, at least one object byte, and the trailer.
    guard bytes.count >= 8 + 1 + Self.trailerSize else {
      throw PrefsError.syntax(
        in: .binary,
        "truncated binary plist: \(bytes.count) bytes is too short to hold a trailer",
        offset: bytes.count)
    }
    let t = bytes.count - Self.trailerSize
    offsetSize = Int(bytes[t + 6])
    refSize = Int(bytes[t + 7])
    guard (1...8).contains(offsetSize) else {
      throw PrefsError.syntax(
        in: .binary,
        "invalid trailer: offset size \(offsetSize) (must be 1 to 8)", offset: t + 6)
    }
    guard (1...8).contains(refSize) else {
      throw PrefsError.syntax(
        in: .binary,
        "invalid trailer: object reference size \(refSize) (must be 1 to 8)", offset: t + 7)
    }
    let count = readUInt64(at: t + 8, size: 8)
    let top = readUInt64(at: t + 16, size: 8)
    let tableStart = readUInt64(at: t + 24, size: 8)
    guard count >= 1, count <= UInt64(bytes.count) else {
      throw PrefsError.syntax(in: .binary, "invalid trailer: object count \(count)", offset: t + 8)
    }
    guard top < count else {
      throw PrefsError.syntax(
        in: .binary,
        "invalid trailer: top object \(top) is not one of the \(count) objects", offset: t + 16)
    }
    // The offset table starts after the objects and before the trailer. Its length is
    // not required to match the object count exactly (hand-made files in the wild get
    // it wrong, and plistlib and libplist accept them): each entry is checked when used.
    guard tableStart >= 9, tableStart < UInt64(t) else {
      throw PrefsError.syntax(
        in: .binary,
        "invalid trailer: offset table position \(tableStart) is outside the file", offset: t + 24)
    }
    objectCount = Int(count)
    state = [Int](repeating: Self.notRead, count: objectCount)
    topObject = Int(top)
    offsetTableStart = Int(tableStart)
  }

  /// The file offset of object `index`, checked to lie among the objects.
  private func offset(of index: Int) throws -> Int {
    let entry = offsetTableStart + index * offsetSize
    // Entries may reach into the trailer's unused bytes, never into its fields.
    guard entry + offsetSize <= bytes.count - Self.trailerSize + 6 else {
      throw PrefsError.syntax(
        in: .binary,
        "offset table entry \(index) lies beyond the offset table",
        offset: bytes.count - Self.trailerSize + 8)
    }
    let value = readUInt64(at: entry, size: offsetSize)
    guard value >= 8, value < UInt64(offsetTableStart) else {
      throw PrefsError.syntax(
        in: .binary,
        "offset table entry \(index) points to \(value), outside the object area 8..<\(offsetTableStart)",
        offset: entry)
    }
    return Int(value)
  }

  /// The object index stored at `position` (checked against the object count by its user).
  private func reference(at position: Int) -> Int {
    let value = readUInt64(at: position, size: refSize)
    return value > UInt64(Int.max) ? Int.max : Int(value)
  }

  /// Big-endian unsigned integer of `size` (1...8) bytes; the caller has checked bounds.
  private func readUInt64(at position: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for i in position..<(position + size) { value = value << 8 | UInt64(bytes[i]) }
    return value
  }

  /// Throws unless `count` bytes starting at `position` lie before the offset table.
  private func require(_ count: Int, at position: Int, for what: @autoclosure () -> String) throws {
    guard count >= 0, position <= offsetTableStart, count <= offsetTableStart - position else {
      throw PrefsError.syntax(in: .binary, "\(what()) runs past the end of the object area", offset: position)
    }
  }

  /// The element count of a string, data or container object whose marker is at
  /// `position`, and where its contents start.
  private func count(at position: Int, marker: UInt8, what: String) throws -> (
    count: Int, start: Int
  ) {
    let low = Int(marker & 0x0F)
    if low != 0x0F { return (low, position + 1) }
    // Count 15 or more: an integer object follows.
    let intPosition = position + 1
    try require(1, at: intPosition, for: "the length of this \(what)")
    let intMarker = bytes[intPosition]
    guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else {
      throw PrefsError.syntax(
        in: .binary,
        "the length of this \(what) is not an integer of 1 to 8 bytes (marker 0x\(hexBytes([intMarker])))",
        offset: intPosition)
    }
    let size = 1 << Int(intMarker & 0x0F)
    try require(size, at: intPosition + 1, for: "the length of this \(what)")
    let value = readUInt64(at: intPosition + 1, size: size)
    guard value <= UInt64(offsetTableStart) else {
      throw PrefsError.syntax(
        in: .binary,
        "\(what) length \(value) is larger than the file", offset: intPosition)
    }
    return (Int(value), intPosition + 1 + size)
  }

  // MARK: Objects

  /// Reads object `index`; returns its value, the nesting below it and how many
  /// values it expands to.
  private mutating func object(_ index: Int, depth: Int, referencedAt: Int) throws
    -> (PrefValue, height: Int, size: Int)
  {
    guard index < objectCount else {
      throw PrefsError.syntax(
        in: .binary,
        "reference to object \(index), but there are only \(objectCount)", offset: referencedAt)
    }
    if state[index] >= 0 {
      let done = finished[state[index]]
      guard depth + done.height <= maxDepth else { throw tooDeep(at: try offset(of: index)) }
      try count(expanded: done.size, at: try offset(of: index))
      return (done.value, done.height, done.size)
    }
    let position = try offset(of: index)
    let marker = bytes[position]
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return try scalar(.bool(false), at: position)
      case 0x09: return try scalar(.bool(true), at: position)
      case 0x00:
        throw PrefsError.syntax(
          in: .binary,
          "null object: property lists have no null value", offset: position)
      default:
        throw PrefsError.syntax(in: .binary, "unknown object marker 0x\(hexBytes([marker]))", offset: position)
      }
    case 0x1: return try scalar(try integer(marker, at: position), at: position)
    case 0x2:
      let size = 1 << Int(marker & 0x0F)
      guard size == 4 || size == 8, marker & 0x0F <= 3 else {
        throw PrefsError.syntax(
          in: .binary,
          "real of unsupported size (marker 0x\(hexBytes([marker])))", offset: position)
      }
      try require(size, at: position + 1, for: "this real")
      let bits = readUInt64(at: position + 1, size: size)
      let value = size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
      return try scalar(.real(value), at: position)
    case 0x3:
      guard marker == 0x33 else {
        throw PrefsError.syntax(
          in: .binary,
          "date of unsupported size (marker 0x\(hexBytes([marker])))", offset: position)
      }
      try require(8, at: position + 1, for: "this date")
      let seconds = Double(bitPattern: readUInt64(at: position + 1, size: 8))
      let date = Date(timeIntervalSinceReferenceDate: seconds)
      guard TextForms.isInDateRange(date) else {
        throw PrefsError.syntax(
          in: .binary, "date \(TextForms.date(date)) is \(TextForms.dateRangeProblem)", offset: position)
      }
      return try scalar(.date(date), at: position)
    case 0x4:
      let (n, start) = try count(at: position, marker: marker, what: "data")
      try require(n, at: start, for: "this data")
      return try scalar(.data(Data(bytes[start..<(start + n)])), at: position)
    case 0x5, 0x6:
      return try scalar(.string(try string(at: position)), at: position)
    case 0x8:
      let size = Int(marker & 0x0F) + 1
      try require(size, at: position + 1, for: "this UID")
      guard size <= 8 else { throw PrefsError.syntax(in: .binary, "UID wider than 8 bytes", offset: position) }
      let value = readUInt64(at: position + 1, size: size)
      guard value <= UInt64(UInt32.max) else {
        throw PrefsError.syntax(
          in: .binary,
          "UID \(value) is wider than the 32 bits CF reads", offset: position)
      }
      return try scalar(.uid(value), at: position)
    case 0xA:
      return try container(index, at: position, marker: marker, depth: depth, isDictionary: false)
    case 0xD:
      return try container(index, at: position, marker: marker, depth: depth, isDictionary: true)
    case 0xB, 0xC:
      throw PrefsError.syntax(
        in: .binary,
        "\(marker >> 4 == 0xC ? "set" : "ordered set") object: sets are not read (no other format can hold one)",
        offset: position)
    default:
      throw PrefsError.syntax(in: .binary, "unknown object marker 0x\(hexBytes([marker]))", offset: position)
    }
  }

  private mutating func scalar(_ value: PrefValue, at position: Int) throws -> (
    PrefValue, height: Int, size: Int
  ) {
    try count(expanded: 1, at: position)
    return (value, 0, 1)
  }

  private mutating func count(expanded size: Int, at position: Int) throws {
    expandedSize += size
    guard expandedSize <= Self.maxExpandedValues else {
      throw PrefsError.syntax(
        in: .binary,
        "shared references expand to more than \(Self.maxExpandedValues) values", offset: position)
    }
  }

  private func tooDeep(at position: Int) -> PrefsError {
    PrefsError(.tooDeep(limit: maxDepth), position: .byteOffset(position))
  }

  private func integer(_ marker: UInt8, at position: Int) throws -> PrefValue {
    let power = Int(marker & 0x0F)
    guard power <= 4 else {
      throw PrefsError.syntax(
        in: .binary,
        "integer of unsupported size (marker 0x\(hexBytes([marker])))", offset: position)
    }
    let size = 1 << power
    try require(size, at: position + 1, for: "this integer")
    switch size {
    case 16:
      // CF writes values above Int64.max this way; Foundation silently keeps the
      // low 64 bits of anything wider, we refuse it.
      let high = readUInt64(at: position + 1, size: 8)
      let low = readUInt64(at: position + 9, size: 8)
      guard high == 0 else {
        throw PrefsError.syntax(in: .binary, "16-byte integer does not fit 64 bits unsigned", offset: position)
      }
      return .integer(exactly: low)
    case 8:
      // 8-byte integers are signed.
      return .integer(Int64(bitPattern: readUInt64(at: position + 1, size: 8)))
    default:
      // 1, 2 and 4-byte integers are unsigned.
      return .integer(Int64(readUInt64(at: position + 1, size: size)))
    }
  }

  /// An ASCII (`0x5_`) or UTF-16 (`0x6_`) string object.
  private mutating func string(at position: Int) throws -> String {
    let marker = bytes[position]
    if marker >> 4 == 0x5 {
      let (n, start) = try count(at: position, marker: marker, what: "string")
      try require(n, at: start, for: "this string")
      let slice = UnsafeBufferPointer(rebasing: bytes[start..<(start + n)])
      if UTF8Text.isASCII(slice) { return String(decoding: slice, as: UTF8.self) }
      if let firstHigh = slice.firstIndex(where: { $0 >= 0x80 }) {
        // Not ASCII: keep it only if it is UTF-8, never as Latin-1 mojibake.
        guard let text = String(validating: slice, as: UTF8.self) else {
          throw PrefsError.syntax(
            in: .binary,
            "ASCII string object holds byte 0x\(hexBytes([slice[firstHigh]])), which is neither ASCII nor part of UTF-8 text",
            offset: start + firstHigh)
        }
        utf8InASCII.insert(position)
        return text
      }
      return String(decoding: slice, as: UTF8.self)
    }
    let (n, start) = try count(at: position, marker: marker, what: "string")
    guard n <= offsetTableStart / 2 else {
      throw PrefsError.syntax(
        in: .binary,
        "UTF-16 string length \(n) is larger than the file", offset: position)
    }
    try require(2 * n, at: start, for: "this string")
    // Transcoded here: the standard library's UTF-16 validation is generic code that
    // is not specialised for this call, and cost hundreds of instructions a unit.
    let bytes = self.bytes
    func unit(_ i: Int) -> UInt32 { UInt32(bytes[start + 2 * i]) << 8 | UInt32(bytes[start + 2 * i + 1]) }
    var unpaired = false
    // At most 3 UTF-8 bytes a unit (a surrogate pair, 2 units, makes 4).
    let text = String(unsafeUninitializedCapacity: 3 * n) { out in
      var o = 0
      var i = 0
      while i < n {
        let u = unit(i)
        i += 1
        if u < 0x80 {
          out[o] = UInt8(u)
          o += 1
        } else if u < 0x800 {
          out[o] = UInt8(0xC0 | u >> 6)
          out[o + 1] = UInt8(0x80 | u & 0x3F)
          o += 2
        } else if u & 0xF800 != 0xD800 {
          out[o] = UInt8(0xE0 | u >> 12)
          out[o + 1] = UInt8(0x80 | u >> 6 & 0x3F)
          out[o + 2] = UInt8(0x80 | u & 0x3F)
          o += 3
        } else {
          guard u < 0xDC00, i < n, unit(i) & 0xFC00 == 0xDC00 else {
            unpaired = true
            return 0
          }
          let scalar = 0x10000 + ((u - 0xD800) << 10 | (unit(i) - 0xDC00))
          i += 1
          out[o] = UInt8(0xF0 | scalar >> 18)
          out[o + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
          out[o + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
          out[o + 3] = UInt8(0x80 | scalar & 0x3F)
          o += 4
        }
      }
      return o
    }
    guard !unpaired else {
      throw PrefsError.syntax(
        in: .binary,
        "UTF-16 string object holds an unpaired surrogate", offset: position)
    }
    return text
  }

  private mutating func container(
    _ index: Int, at position: Int, marker: UInt8, depth: Int, isDictionary: Bool
  ) throws -> (PrefValue, height: Int, size: Int) {
    guard depth < maxDepth else { throw tooDeep(at: position) }
    guard state[index] == Self.notRead else {
      throw PrefsError.syntax(
        in: .binary,
        "reference cycle: \(isDictionary ? "dictionary" : "array") object \(index) contains itself",
        offset: position)
    }
    state[index] = Self.reading
    defer { if state[index] == Self.reading { state[index] = Self.notRead } }
    let what = isDictionary ? "dictionary" : "array"
    let (n, start) = try count(at: position, marker: marker, what: what)
    let refBytes = n.multipliedReportingOverflow(by: refSize * (isDictionary ? 2 : 1))
    guard !refBytes.overflow else {
      throw PrefsError.syntax(in: .binary, "\(what) count \(n) is too large", offset: position)
    }
    try require(refBytes.partialValue, at: start, for: "this \(what)'s references")
    // A container's height counts itself, so an empty one is 1, as deep as one of
    // scalars: the fresh check above and the cached one in `object` are one rule,
    // `depth + height <= maxDepth`, whichever order shared objects are met in.
    var height = 1
    var size = 1
    expandedSize += 1
    func ref(_ i: Int) -> (index: Int, at: Int) {
      let at = start + i * refSize
      return (reference(at: at), at)
    }
    let result: PrefValue
    if isDictionary {
      var dict = PrefDictionary()
      for i in 0..<n {
        let keyRef = ref(i)
        let key = try self.key(keyRef.index, referencedAt: keyRef.at)
        let valueRef = ref(n + i)
        let (value, h, s) = try object(valueRef.index, depth: depth + 1, referencedAt: valueRef.at)
        height = max(height, h + 1)
        size += s
        try duplicates.insert(
          key, value, into: &dict, position: { .byteOffset(keyRef.at) },
          refusal: { PrefsError($0, position: .byteOffset(keyRef.at)) })
      }
      result = .dictionary(dict)
    } else {
      var items: [PrefValue] = []
      items.reserveCapacity(n)
      for i in 0..<n {
        let r = ref(i)
        let (value, h, s) = try object(r.index, depth: depth + 1, referencedAt: r.at)
        height = max(height, h + 1)
        size += s
        items.append(value)
      }
      result = .array(items)
    }
    finished.append((result, height, size))
    state[index] = finished.count - 1
    return (result, height, size)
  }

  private mutating func key(_ index: Int, referencedAt: Int) throws -> String {
    guard index < objectCount else {
      throw PrefsError.syntax(
        in: .binary,
        "reference to object \(index), but there are only \(objectCount)", offset: referencedAt)
    }
    let position = try offset(of: index)
    let kind = bytes[position] >> 4
    guard kind == 0x5 || kind == 0x6 else {
      throw PrefsError.syntax(
        in: .binary,
        "dictionary key is not a string (marker 0x\(hexBytes([bytes[position]])))", offset: position)
    }
    // CF stores each distinct key once, and a domain repeats its keys: decoded once,
    // they also share their storage.
    if let known = keys[index] { return known }
    let key = try string(at: position)
    keys[index] = key
    return key
  }
}
