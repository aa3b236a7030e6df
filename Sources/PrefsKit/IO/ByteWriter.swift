import Foundation

/// A buffered byte sink that encoders write to: into memory, or streamed to a file
/// descriptor in chunks so that a large document is never built up as one string.
public final class ByteWriter {
  private var buffer: [UInt8] = []
  private let descriptor: Int32?
  private let chunkSize = 1 << 16
  /// Everything written so far, when writing to memory.
  private var collected = Data()

  /// A writer that collects bytes in memory; read them with ``data``.
  public init() { descriptor = nil }

  /// A writer that streams to an open file descriptor (which it does not close).
  public init(fileDescriptor: Int32) {
    descriptor = fileDescriptor
    buffer.reserveCapacity(chunkSize)
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
    buffer.append(byte)
    if buffer.count >= chunkSize { try flush() }
  }

  public func write(_ text: String) throws {
    var text = text
    text.withUTF8 { buffer.append(contentsOf: $0) }
    if buffer.count >= chunkSize { try flush() }
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    buffer.append(contentsOf: bytes)
    if buffer.count >= chunkSize { try flush() }
  }

  public func write(_ bytes: some Collection<UInt8>) throws {
    buffer.append(contentsOf: bytes)
    if buffer.count >= chunkSize { try flush() }
  }

  /// Hands the buffered bytes on to the file (or the in-memory result).
  public func flush() throws {
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    guard let descriptor else {
      collected.append(contentsOf: buffer)
      return
    }
    try buffer.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          throw PrefsError(.io, "write failed: \(String(cString: strerror(errno)))")
        }
        offset += n
      }
    }
  }
}
