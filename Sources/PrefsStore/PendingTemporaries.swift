import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText
import Synchronization

/// The temporary files being written right now, kept where a signal handler can
/// find them: fixed slots of path bytes, each with an atomic state, so that the
/// handler neither allocates nor locks (it may only call async-signal-safe code).
enum PendingTemporaries {
  private static let slotCount = 64
  private static let pathCapacity = Int(PATH_MAX) + 1
  private static let free = 0
  private static let filling = 1
  private static let live = 2

  private struct Slots: @unchecked Sendable {
    let states: UnsafeMutablePointer<Atomic<Int>>
    let paths: UnsafeMutablePointer<CChar>
  }

  /// Allocated once, before any handler can run (``AtomicFile/removeTemporariesOnSignals(_:)``
  /// touches it), and never freed.
  private static let slots: Slots = {
    let states = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: slotCount)
    for i in 0..<slotCount { (states + i).initialize(to: Atomic(free)) }
    return Slots(states: states, paths: .allocate(capacity: slotCount * pathCapacity))
  }()

  /// Makes sure the slots exist.
  static func prepare() { _ = slots }

  /// Records `path`; returns its slot, or nil when every slot is taken or the path
  /// is too long (the file is then only removed by a later write's clean-up).
  static func add(_ path: String) -> Int? {
    let bytes = RawPath.bytes(path).map { CChar(bitPattern: $0) } + [0]
    guard bytes.count <= pathCapacity else { return nil }
    for i in 0..<slotCount
    where slots.states[i].compareExchange(expected: free, desired: filling, ordering: .acquiring).exchanged {
      bytes.withUnsafeBufferPointer { (slots.paths + i * pathCapacity).update(from: $0.baseAddress!, count: $0.count) }
      slots.states[i].store(live, ordering: .releasing)
      return i
    }
    return nil
  }

  /// Forgets a slot once its file has been renamed or removed.
  static func remove(_ slot: Int?) {
    guard let slot else { return }
    slots.states[slot].store(free, ordering: .releasing)
  }

  /// Removes every recorded file. Async-signal-safe: atomic loads and unlink(2).
  static func unlinkAll() {
    for i in 0..<slotCount where slots.states[i].load(ordering: .acquiring) == live {
      unlink(slots.paths + i * pathCapacity)
    }
  }

  /// The signals whose default action ends the process and that a user or a
  /// service manager sends to stop a command.
  static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Runs `body` with ``stopSignals`` blocked on this thread, so that a file is never
  /// created without being recorded.
  static func withStopSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
    var blocked = sigset_t()
    var previous = sigset_t()
    sigemptyset(&blocked)
    for signal in stopSignals { sigaddset(&blocked, signal) }
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
  }
}

extension AtomicFile {
  /// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temporary
  /// files of writes in progress, then end the process by the same signal (so its
  /// parent still sees how it ended). For programs, such as the `prefs` command, that
  /// have no handlers of their own for these signals: it replaces them.
  public static func removeTemporariesOnSignals() {
    PendingTemporaries.prepare()
    for stop in PendingTemporaries.stopSignals {
      signal(stop) { received in
        PendingTemporaries.unlinkAll()
        signal(received, SIG_DFL)
        raise(received)
      }
    }
  }
}
