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
