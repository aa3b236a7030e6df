import Dispatch
import PrefsModel
import PrefsText

/// Runs `body` for the parts `0..<count` at once, on the calling thread and others
/// (one per processor), and returns their results in order. If parts throw, the error
/// of the first of them, in part order, is thrown. A part can call `othersFailed` to
/// stop early once another part has thrown.
package func inParallel<T: Sendable>(
  _ count: Int, _ body: @Sendable (_ part: Int, _ othersFailed: () -> Bool) throws -> T
) throws -> [T] {
  let results = PartResults<T>(count: count)
  DispatchQueue.concurrentPerform(iterations: count) { part in
    results.set(part, Result { try body(part, { results.anyFailed }) })
  }
  return try results.all.map { try $0!.get() }
}

/// What each part gave, filled in from several threads.
private final class PartResults<T: Sendable>: @unchecked Sendable {
  private let lock = Lock()
  private var results: [Result<T, any Error>?]
  private var failed = false

  init(count: Int) { results = Array(repeating: nil, count: count) }

  func set(_ part: Int, _ result: Result<T, any Error>) {
    lock.withLock {
      results[part] = result
      if case .failure = result { failed = true }
    }
  }

  var anyFailed: Bool { lock.withLock { failed } }
  var all: [Result<T, any Error>?] { lock.withLock { results } }
}

/// When a large document is read or written in parts, on several threads, and in how
/// many: the one policy of the XML plist reader's read-aheads, the binary plist
/// reader's parts and the YAML writer's parts.
///
/// Threads cost more than they save on a small document, and many parts gain little,
/// since the rest of a conversion is the larger part.
public struct ParallelPolicy: Sendable {
  /// The smallest document split into parts, in bytes (of YAML, estimated, when writing).
  package var minimumSize: Int
  /// The most parts, when one per processor would be more.
  package var maximumParts: Int
  /// Exactly this many parts, whatever the processors and the size (for tests).
  package var forcedParts: Int?
  /// Where the XML reader's read-aheads run; nil for the global queue, which is only
  /// asked for when a document is read in parts (touching it starts Dispatch, a cost
  /// every small conversion would pay at start-up).
  package var queue: DispatchQueue?
  /// Whether the XML reader waits for each read-ahead to start rather than read its
  /// entries itself (so that a test sees runs taken).
  package var awaitsReadAheads: Bool

  /// Documents of a mebibyte or more in parts, one per processor, at most four.
  public static let automatic = ParallelPolicy(
    minimumSize: 1 << 20, maximumParts: 4, forcedParts: nil, queue: nil, awaitsReadAheads: false)

  /// Every document on one thread.
  public static let serial = ParallelPolicy(
    minimumSize: .max, maximumParts: 1, forcedParts: nil, queue: nil, awaitsReadAheads: false)

  /// `parts` parts for a document of any size: how tests reach the parallel paths on
  /// small inputs. (`queue` and `awaitsReadAheads` are for the XML reader.)
  package static func forced(
    parts: Int, queue: DispatchQueue? = nil, awaitsReadAheads: Bool = false
  ) -> ParallelPolicy {
    ParallelPolicy(
      minimumSize: 0, maximumParts: parts, forcedParts: parts, queue: queue, awaitsReadAheads: awaitsReadAheads)
  }

  /// How many parts a document of `size` bytes is read or written in; 1 means on
  /// this thread alone. (The processors are counted, which reads /proc, only for a
  /// large document.)
  package func parts(forSize size: Int) -> Int {
    guard size >= minimumSize else { return 1 }
    return forcedParts ?? min(ProcessInfo.processInfo.activeProcessorCount, maximumParts)
  }
}

/// The input's bytes, shared by the threads that read one document in parts.
///
/// Sendable although it holds a pointer: the bytes are only read, and the read in parts
/// (``inParallel(_:_:)``, or the XML reader's read-aheads, which it stops and waits for
/// before returning) ends before the buffer they point into is released.
struct SharedBytes: @unchecked Sendable {
  let buffer: UnsafeBufferPointer<UInt8>
}
