import PrefsModel
import PrefsText

/// Writes a binary property list (`bplist00`) as CF does: equal scalars and strings
/// stored once, integers in the fewest of 1, 2, 4 or 8 bytes (negative ones in 8,
/// values above `Int64.max` as 16-byte integers), reals in 8 bytes, strings as ASCII
/// when they are, else UTF-16, and UIDs in 1, 2 or 4 bytes.
///
/// Two passes: the first numbers the objects (the reference width depends on how many
/// there are), the second streams them, then the offset table and trailer.
struct BinaryPlistWriter {
  /// What an object number stands for. A container's references are the `count`
  /// (an array) or `2 * count` (a dictionary: keys, then values) entries of
  /// ``references`` from `start`: one flat array, not one allocation per container.
  private enum Object {
    case scalar(PrefValue)
    case array(start: Int, count: Int)
    case dictionary(start: Int, count: Int)
  }

  private var objects: [Object] = []
  private var references: [Int] = []
  /// The references of the containers being numbered, innermost last: each moves its
  /// own to ``references`` when its children are done.
  private var pending: [Int] = []
  /// Scalars and strings already numbered, found by a digest of their kind and bytes.
  /// Equality is type-strict and strings compare by UTF-8 bytes, so uniquing never
  /// merges values that `PrefValue` keeps apart (`1` and `1.0`, `é` and `e\u{301}`).
  private var unique = UniqueTable()
  private let sortKeys: Bool

  /// A scalar no binary plist holds (a UID too wide for CF, a null), with the key path
  /// to it, filled in on the way out (no path is kept while writing: that would cost a
  /// retain and release per value).
  private struct Refused: Error {
    /// The UID's value; nil for a null.
    var wideUID: UInt64?
    var path: [PrefKeyPath.Component] = []

    var error: PrefsError {
      guard let n = wideUID else { return PrefsError(.null(path: PrefKeyPath(path))) }
      return PrefsError(
        .unrepresentable(
          format: "binary", kind: .uid, path: PrefKeyPath(path),
          problem: "UID \(n) at \(plistPath(path)) is wider than the 32 bits CF reads"))
    }
  }

  init(sortKeys: Bool) { self.sortKeys = sortKeys }

  mutating func write(_ value: PrefValue, to out: ByteWriter) throws {
    do {
      _ = try number(value)
    } catch let refused as Refused {
      throw refused.error
    }
    // Widths as CF chooses them (its reader checks them against these numbers).
    let refSize = Self.byteWidth(UInt64(objects.count))
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)
    var emitter = Emitter(out: out, position: 8)
    try out.write(Array("bplist00".utf8))
    for object in objects {
      offsets.append(emitter.position)
      switch object {
      case .scalar(let value): try emitter.scalar(value)
      case .array(let start, let count):
        try emitter.marker(0xA0, count: count)
        for r in references[start..<(start + count)] { try emitter.uint(UInt64(r), width: refSize) }
      case .dictionary(let start, let count):
        try emitter.marker(0xD0, count: count)
        for r in references[start..<(start + 2 * count)] { try emitter.uint(UInt64(r), width: refSize) }
      }
    }
    let tableStart = emitter.position
    let offsetSize = Self.byteWidth(UInt64(tableStart))
    for offset in offsets { try emitter.uint(UInt64(offset), width: offsetSize) }
    // Trailer: 5 unused bytes, sort version, offset size, reference size, object
    // count, top object, offset table position.
    try out.write([0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
    try emitter.uint(UInt64(objects.count), width: 8)
    try emitter.uint(0, width: 8)
    try emitter.uint(UInt64(tableStart), width: 8)
  }

  /// 1, 2, 4 or 8: the fewest bytes that hold `n` unsigned.
  static func byteWidth(_ n: UInt64) -> Int {
    n <= 0xFF ? 1 : n <= 0xFFFF ? 2 : n <= 0xFFFF_FFFF ? 4 : 8
  }

  /// Numbers `value` and everything in it; returns its object index.
  private mutating func number(_ value: PrefValue) throws -> Int {
    switch value {
    case .array(let items):
      let index = reserve()
      let mark = pending.count
      for (i, item) in items.enumerated() { pending.append(try number(item, at: .index(i))) }
      objects[index] = .array(start: settle(from: mark), count: items.count)
      return index
    case .dictionary(let dict):
      let index = reserve()
      let mark = pending.count
      let entries = sortKeys ? dict.sortedByKey() : dict
      for (key, _) in entries { pending.append(try number(.string(key))) }
      for (key, item) in entries { pending.append(try number(item, at: .key(key))) }
      objects[index] = .dictionary(start: settle(from: mark), count: dict.count)
      return index
    case .null:
      throw Refused(wideUID: nil)
    case .string, .integer, .unsignedInteger, .real, .bool, .date, .data, .uid:
      if case .uid(let n) = value, n > UInt64(UInt32.max) { throw Refused(wideUID: n) }
      let digest = Self.digest(value, seed: unique.seed)
      if let existing = unique.find(digest, where: { Self.same(value, objects[$0]) }) {
        return existing
      }
      objects.append(.scalar(value))
      unique.insert(digest, objects.count - 1)
      return objects.count - 1
    }
  }

  /// Numbers `item`, found at `component` of its container: a UID too wide gets it on its path.
  private mutating func number(_ item: PrefValue, at component: PrefKeyPath.Component) throws -> Int {
    do {
      return try number(item)
    } catch var refused as Refused {
      refused.path.insert(component, at: 0)
      throw refused
    }
  }

  /// Whether `object` is the scalar `value`, type for type and bit for bit.
  private static func same(_ value: PrefValue, _ object: Object) -> Bool {
    guard case .scalar(let other) = object else { return false }
    switch (value, other) {
    case (.string(var a), .string(var b)):
      return a.withUTF8 { x in b.withUTF8 { y in equalBytes(UnsafeRawBufferPointer(x), UnsafeRawBufferPointer(y)) } }
    case (.integer(let a), .integer(let b)): return a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)): return a == b
    case (.real(let a), .real(let b)): return a.bitPattern == b.bitPattern
    case (.bool(let a), .bool(let b)): return a == b
    case (.date(let a), .date(let b)):
      return a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
    case (.data(let a), .data(let b)):
      return a.withUnsafeBytes { x in b.withUnsafeBytes { y in equalBytes(x, y) } }
    case (.uid(let a), .uid(let b)): return a == b
    default: return false
    }
  }

  private static func equalBytes(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
    x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
  }

  /// A 64-bit digest of a scalar's kind and bits (strings and data: every byte).
  private static func digest(_ value: PrefValue, seed: UInt64) -> UInt64 {
    switch value {
    case .string(var s): return s.withUTF8 { bytesDigest(UnsafeRawBufferPointer($0), seed: seed) }
    case .data(let d): return d.withUnsafeBytes { bytesDigest($0, seed: seed ^ 0x5555) }
    case .integer(let n): return mix(UInt64(bitPattern: n) ^ seed, 1)
    case .unsignedInteger(let n): return mix(n ^ seed, 2)
    case .real(let r): return mix(r.bitPattern ^ seed, 3)
    case .bool(let b): return mix((b ? 1 : 0) ^ seed, 4)
    case .date(let d): return mix(d.timeIntervalSinceReferenceDate.bitPattern ^ seed, 5)
    case .uid(let n): return mix(n ^ seed, 6)
    case .array, .dictionary, .null: return 0
    }
  }

  @inline(__always)
  private static func mix(_ x: UInt64, _ kind: UInt64) -> UInt64 {
    var h = (x ^ (kind &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
    h ^= h >> 31
    h = h &* 0x94D0_49BB_1331_11EB
    return h ^ (h >> 29)
  }

  /// Eight bytes at a time; far cheaper than SipHash over every string, and the seed
  /// is random per run so that a file cannot be made to collide on purpose easily.
  private static func bytesDigest(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
    var h = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
    var i = 0
    while i + 8 <= bytes.count {
      h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
      h ^= h >> 29
      i += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while i < bytes.count {
      tail |= UInt64(bytes[i]) << shift
      shift += 8
      i += 1
    }
    return mix(h ^ tail, 7)
  }

  /// Open addressing from digests to object indexes (no `Hasher`, no boxed keys).
  private struct UniqueTable {
    let seed = UInt64.random(in: .min ... .max)
    private var digests = [UInt64](repeating: 0, count: 1 << 12)
    private var indexes = [Int](repeating: -1, count: 1 << 12)
    private var count = 0

    func find(_ digest: UInt64, where isSame: (Int) -> Bool) -> Int? {
      let mask = indexes.count - 1
      var slot = Int(truncatingIfNeeded: digest) & mask
      while indexes[slot] >= 0 {
        if digests[slot] == digest, isSame(indexes[slot]) { return indexes[slot] }
        slot = (slot + 1) & mask
      }
      return nil
    }

    mutating func insert(_ digest: UInt64, _ index: Int) {
      if (count + 1) * 2 > indexes.count { grow() }
      let mask = indexes.count - 1
      var slot = Int(truncatingIfNeeded: digest) & mask
      while indexes[slot] >= 0 { slot = (slot + 1) & mask }
      digests[slot] = digest
      indexes[slot] = index
      count += 1
    }

    private mutating func grow() {
      let oldDigests = digests
      let oldIndexes = indexes
      digests = [UInt64](repeating: 0, count: oldIndexes.count * 2)
      indexes = [Int](repeating: -1, count: oldIndexes.count * 2)
      count = 0
      for (digest, index) in zip(oldDigests, oldIndexes) where index >= 0 { insert(digest, index) }
    }
  }

  private mutating func reserve() -> Int {
    objects.append(.array(start: 0, count: 0))
    return objects.count - 1
  }

  /// Moves the pending references from `mark` on to ``references``; returns where they start.
  private mutating func settle(from mark: Int) -> Int {
    let start = references.count
    references.append(contentsOf: pending[mark...])
    pending.removeSubrange(mark...)
    return start
  }

  /// Streams objects and keeps count of the bytes written.
  private struct Emitter {
    let out: ByteWriter
    var position: Int

    mutating func byte(_ b: UInt8) throws {
      try out.write(b)
      position += 1
    }

    /// Big-endian unsigned integer in `width` bytes.
    mutating func uint(_ n: UInt64, width: Int) throws {
      var shift = (width - 1) * 8
      while shift >= 0 {
        try out.write(UInt8(truncatingIfNeeded: n >> UInt64(shift)))
        shift -= 8
      }
      position += width
    }

    /// A marker with its count in the low nibble, or `0x_F` and an integer object.
    mutating func marker(_ high: UInt8, count: Int) throws {
      if count < 15 {
        try byte(high | UInt8(count))
      } else {
        try byte(high | 0x0F)
        try integer(UInt64(count))
      }
    }

    mutating func integer(_ n: UInt64) throws {
      let width = BinaryPlistWriter.byteWidth(n)
      try byte(0x10 | UInt8(width.trailingZeroBitCount))
      try uint(n, width: width)
    }

    mutating func scalar(_ value: PrefValue) throws {
      switch value {
      case .string(var s):
        let written = try s.withUTF8 { utf8 -> Bool in
          guard UTF8Text.isASCII(utf8) else { return false }
          try marker(0x50, count: utf8.count)
          try out.write(UnsafeRawBufferPointer(utf8))
          position += utf8.count
          return true
        }
        if !written {
          try marker(0x60, count: s.utf16.count)
          for unit in s.utf16 { try uint(UInt64(unit), width: 2) }
        }
      case .integer(let n):
        if n >= 0 {
          try integer(UInt64(n))
        } else {
          try byte(0x13)
          try uint(UInt64(bitPattern: n), width: 8)
        }
      case .unsignedInteger(let n):
        try byte(0x14)
        try uint(0, width: 8)
        try uint(n, width: 8)
      case .real(let r):
        try byte(0x23)
        try uint(r.bitPattern, width: 8)
      case .bool(let b):
        try byte(b ? 0x09 : 0x08)
      case .date(let d):
        // One range for every format: what a binary plist holds, the others can write.
        guard TextForms.isInDateRange(d) else {
          throw PrefsError(
            .unrepresentable(
              format: "binary", kind: .date, path: nil,
              problem: "date \(TextForms.date(d)) is \(TextForms.dateRangeProblem)"))
        }
        try byte(0x33)
        try uint(d.timeIntervalSinceReferenceDate.bitPattern, width: 8)
      case .data(let d):
        try marker(0x40, count: d.count)
        try out.write(d)
        position += d.count
      case .uid(let n):
        let width = BinaryPlistWriter.byteWidth(n)
        try byte(0x80 | UInt8(width - 1))
        try uint(n, width: width)
      case .array, .dictionary:
        fatalError("containers are written by the caller")
      case .null:
        fatalError("a null is refused before writing begins")
      }
    }
  }
}
