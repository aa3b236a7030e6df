import PrefsModel

/// A buffered byte sink that encoders write to: into memory, or streamed to a file
/// descriptor in chunks so that a large document is never built up as one string.
public final class ByteWriter {
  private let descriptor: Int32?
  private static let chunkSize = 1 << 16
  // The chunk and its fill level live behind pointers, not in `var` properties: a
  // class's `var` costs a runtime exclusivity check on every write, and encoders call
  // `write` once per byte or token.
  private let chunk: UnsafeMutablePointer<UInt8>
  private let filled: UnsafeMutablePointer<Int>
  /// Everything written so far, when writing to memory.
  private var collected = Data()

  /// A writer that collects bytes in memory; read them with ``data``.
  public convenience init() { self.init(descriptor: nil) }

  /// A writer that streams to an open file descriptor (which it does not close).
  public convenience init(fileDescriptor: Int32) { self.init(descriptor: fileDescriptor) }

  private init(descriptor: Int32?) {
    self.descriptor = descriptor
    chunk = .allocate(capacity: Self.chunkSize)
    filled = .allocate(capacity: 1)
    filled.initialize(to: 0)
  }

  deinit {
    chunk.deallocate()
    filled.deallocate()
  }

  /// The bytes written so far (memory writers only), after a flush.
  public var data: Data {
    get throws {
      try flush()
      return collected
    }
  }

  @inline(__always)
  public func write(_ byte: UInt8) throws {
    if filled.pointee == Self.chunkSize { try flush() }
    chunk[filled.pointee] = byte
    filled.pointee += 1
  }

  public func write(_ text: String) throws {
    var text = text
    try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
  }

  /// Writes the bytes of a literal.
  @inline(__always)
  package func write(literal text: StaticString) throws {
    try write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    if bytes.count <= Self.chunkSize - filled.pointee {
      (chunk + filled.pointee).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
      filled.pointee += bytes.count
      return
    }
    try flush()
    if bytes.count >= Self.chunkSize {
      try hand(bytes)
    } else {
      chunk.update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
      filled.pointee = bytes.count
    }
  }

  public func write(_ bytes: some Collection<UInt8>) throws {
    if try bytes.withContiguousStorageIfAvailable({ try write(UnsafeRawBufferPointer($0)) }) == nil {
      for byte in bytes { try write(byte) }
    }
  }

  /// Writes `data` without copying it through the chunk when it is large.
  public func write(_ data: Data) throws {
    try data.withUnsafeBytes { try write($0) }
  }

  /// Hands the buffered bytes on to the file (or the in-memory result).
  public func flush() throws {
    let count = filled.pointee
    guard count > 0 else { return }
    filled.pointee = 0
    try hand(UnsafeRawBufferPointer(start: chunk, count: count))
  }

  private func hand(_ bytes: UnsafeRawBufferPointer) throws {
    guard let descriptor else {
      collected.append(contentsOf: bytes)
      return
    }
    var offset = 0
    while offset < bytes.count {
      let n = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        throw PrefsError(.io(.write, errno: errno))
      }
      offset += n
    }
  }
}
