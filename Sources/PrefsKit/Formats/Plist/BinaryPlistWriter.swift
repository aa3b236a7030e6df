import Foundation

/// Writes a binary property list (`bplist00`) as CF does: equal scalars and strings
/// stored once, integers in the fewest of 1, 2, 4 or 8 bytes (negative ones in 8,
/// values above `Int64.max` as 16-byte integers), reals in 8 bytes, strings as ASCII
/// when they are, else UTF-16, and UIDs in 1, 2 or 4 bytes.
///
/// Two passes: the first numbers the objects (the reference width depends on how many
/// there are), the second streams them, then the offset table and trailer.
struct BinaryPlistWriter {
  private enum Object {
    case scalar(PrefValue)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
  }

  /// Scalars compare type-strictly and strings by code point here, so uniquing never
  /// merges values that `PrefValue` keeps apart.
  private enum UniqueKey: Hashable {
    case integer(Int64)
    case unsigned(UInt64)
    case real(UInt64)
    case bool(Bool)
    case date(UInt64)
    case data(Data)
    case uid(UInt64)
  }

  /// A string compared and hashed by its UTF-8 bytes, in one pass over them (not
  /// Unicode-equivalence, which would merge `é` and `e\u{301}`).
  private struct StringKey: Hashable {
    var text: String

    func hash(into hasher: inout Hasher) {
      var text = text
      text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (a: StringKey, b: StringKey) -> Bool {
      var a = a.text
      var b = b.text
      return a.withUTF8 { x in
        b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
      }
    }
  }

  private var objects: [Object] = []
  private var unique: [UniqueKey: Int] = [:]
  /// Strings (every dictionary key among them) are most of the objects: they get
  /// their own table.
  private var uniqueStrings: [StringKey: Int] = [:]
  private let sortKeys: Bool
  private var path: [KeyPath.Component] = []

  init(sortKeys: Bool) { self.sortKeys = sortKeys }

  mutating func write(_ value: PrefValue, to out: ByteWriter) throws {
    _ = try number(value)
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
      case .array(let refs):
        try emitter.marker(0xA0, count: refs.count)
        for r in refs { try emitter.uint(UInt64(r), width: refSize) }
      case .dictionary(let keys, let values):
        try emitter.marker(0xD0, count: keys.count)
        for r in keys { try emitter.uint(UInt64(r), width: refSize) }
        for r in values { try emitter.uint(UInt64(r), width: refSize) }
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
      var refs: [Int] = []
      refs.reserveCapacity(items.count)
      for (i, item) in items.enumerated() {
        path.append(.index(i))
        refs.append(try number(item))
        path.removeLast()
      }
      objects[index] = .array(refs)
      return index
    case .dictionary(let dict):
      let index = reserve()
      var keys: [Int] = []
      var values: [Int] = []
      keys.reserveCapacity(dict.count)
      values.reserveCapacity(dict.count)
      let entries = sortKeys ? dict.sortedByKey() : dict
      for (key, _) in entries { keys.append(try number(.string(key))) }
      for (key, item) in entries {
        path.append(.key(key))
        values.append(try number(item))
        path.removeLast()
      }
      objects[index] = .dictionary(keys: keys, values: values)
      return index
    case .string(let s):
      let key = StringKey(text: s)
      if let existing = uniqueStrings[key] { return existing }
      objects.append(.scalar(value))
      uniqueStrings[key] = objects.count - 1
      return objects.count - 1
    default:
      let key: UniqueKey
      switch value {
      case .string: fatalError("strings are handled above")
      case .integer(let n): key = .integer(n)
      case .unsignedInteger(let n): key = .unsigned(n)
      case .real(let r): key = .real(r.bitPattern)
      case .bool(let b): key = .bool(b)
      case .date(let d): key = .date(d.timeIntervalSinceReferenceDate.bitPattern)
      case .data(let d): key = .data(d)
      case .uid(let n):
        guard n <= UInt64(UInt32.max) else {
          throw PrefsError(
            .badInput, "UID \(n) at \(plistPath(path)) is wider than the 32 bits CF reads")
        }
        key = .uid(n)
      case .array, .dictionary: fatalError("containers are handled above")
      }
      if let existing = unique[key] { return existing }
      objects.append(.scalar(value))
      unique[key] = objects.count - 1
      return objects.count - 1
    }
  }

  private mutating func reserve() -> Int {
    objects.append(.array([]))
    return objects.count - 1
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

    /// Whether every byte is below 0x80, eight at a time.
    static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
      guard let base = utf8.baseAddress else { return true }
      var i = 0
      var high: UInt64 = 0
      while i + 8 <= utf8.count {
        high |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        i += 8
      }
      while i < utf8.count {
        high |= UInt64(base[i])
        i += 1
      }
      return high & 0x8080_8080_8080_8080 == 0
    }

    mutating func scalar(_ value: PrefValue) throws {
      switch value {
      case .string(var s):
        let written = try s.withUTF8 { utf8 -> Bool in
          guard Self.isASCII(utf8) else { return false }
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
      }
    }
  }
}
