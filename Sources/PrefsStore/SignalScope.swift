import PrefsDocument
import PrefsFormats
import PrefsModel
import PrefsText
import Synchronization

/// The process's one owner of the stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT).
///
/// Work that would leave something behind if the process were stopped (a temporary
/// file being written, the folder of a file being edited) pushes a cleanup and pops it
/// when done. The handler, installed once by ``install()``, removes what the cleanups
/// name and ends the process by the same signal, so that its parent still sees how it
/// ended. A terminal put in raw mode (``restoringTerminal(_:to:writing:_:)``) is put
/// back first. Two modes change what a stop signal does for a while, and neither takes the
/// handler away from the cleanups:
/// - ``whileChildRuns(_:)``: a child (an editor) owns the terminal. SIGINT and SIGQUIT
///   are its own, as `git` leaves them to the editor; SIGTERM and SIGHUP wait until it
///   exits, and are returned to the caller.
/// - ``interceptingStops(_:)``: SIGINT and SIGTERM end a watch instead of the process.
///
/// The handler may call only async-signal-safe code: cleanups are paths kept in fixed
/// slots with atomic states, removed with unlink(2) or rmdir(2); it neither allocates
/// nor locks.
public enum SignalScope {
  /// The signals whose default action ends the process and that a user, a terminal
  /// or a service manager sends to stop a command.
  public static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// What a cleanup removes.
  public enum Removal: Int, Sendable {
    /// A file, with unlink(2).
    case file = 1
    /// An empty folder, with rmdir(2), after the files.
    case folder = 2
  }

  /// A pushed cleanup, for ``pop(_:)``.
  public struct Cleanup: Sendable {
    fileprivate let slot: Int?
  }

  /// Installs the handler for the stop signals. Call once, early: a program that does
  /// not install it still gets its cleanups run where it ends normally, but a signal
  /// then ends it without them.
  public static func install() {
    // Every global the handler reads exists before it can run (globals start lazily).
    Slots.shared.prepare()
    _ = mode.load(ordering: .relaxed)
    _ = pendingSignal.load(ordering: .relaxed)
    _ = stopRequested.load(ordering: .relaxed)
    TerminalState.shared.disarm()
    for number in stopSignals { _ = signal(number, signalScopeHandler) }
  }

  /// Records `path`, to be removed if a stop signal ends the process before
  /// ``pop(_:)``. Nothing is recorded when every slot is taken or the path is too long;
  /// such a file is then only removed by the code that made it.
  public static func push(_ path: String, removing removal: Removal) -> Cleanup {
    Cleanup(slot: Slots.shared.add(RawPath.bytes(path), removal: removal))
  }

  /// Forgets a cleanup: its file was renamed, removed, or is kept on purpose.
  public static func pop(_ cleanup: Cleanup) {
    Slots.shared.remove(cleanup.slot)
  }

  /// Runs `body` with the stop signals blocked on this thread, so that a file it
  /// creates is pushed before a signal can end the process.
  public static func withStopSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
    var blocked = sigset_t()
    var previous = sigset_t()
    sigemptyset(&blocked)
    for number in stopSignals { sigaddset(&blocked, number) }
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
  }

  /// Runs `body`, which waits for a child that owns the terminal, and returns what it
  /// gave with the SIGTERM or SIGHUP that arrived meanwhile (nil: none). From such a
  /// signal on, further stop signals are ignored, so that a late one (a shell passes a
  /// hangup on to its jobs) cannot cut short the clean-up the caller now does before
  /// ``die(by:)``.
  public static func whileChildRuns<T>(_ body: () throws -> T) rethrows -> (result: T, stoppedBy: Int32?) {
    pendingSignal.store(0, ordering: .sequentiallyConsistent)
    mode.store(Mode.childRuns, ordering: .sequentiallyConsistent)
    let result: T
    do {
      result = try body()
    } catch {
      mode.store(Mode.normal, ordering: .sequentiallyConsistent)
      throw error
    }
    // Swapping the mode reads a signal recorded up to this moment, and no later one
    // is lost: from here on the handler sees `ignoring` or `normal`.
    let pending = pendingSignal.load(ordering: .sequentiallyConsistent)
    if pending != 0 {
      mode.store(Mode.ignoring, ordering: .sequentiallyConsistent)
      return (result, pending)
    }
    mode.store(Mode.normal, ordering: .sequentiallyConsistent)
    let late = pendingSignal.exchange(0, ordering: .sequentiallyConsistent)
    if late != 0 { mode.store(Mode.ignoring, ordering: .sequentiallyConsistent) }
    return (result, late == 0 ? nil : late)
  }

  /// Ignores the stop signals from now on, while the caller cleans up before
  /// ``die(by:)`` (after a child was killed by one of them).
  public static func ignoreStops() {
    mode.store(Mode.ignoring, ordering: .sequentiallyConsistent)
  }

  /// Runs `body` with SIGINT and SIGTERM asking it to stop (`stopped()` turns true)
  /// instead of ending the process; SIGHUP and SIGQUIT still end it, with the cleanups.
  public static func interceptingStops<T>(_ body: (_ stopped: () -> Bool) throws -> T) rethrows -> T {
    stopRequested.store(0, ordering: .sequentiallyConsistent)
    // A parent may have started us with these blocked (posix_spawn keeps the mask).
    var stopping = sigset_t()
    sigemptyset(&stopping)
    sigaddset(&stopping, SIGINT)
    sigaddset(&stopping, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
    mode.store(Mode.intercepting, ordering: .sequentiallyConsistent)
    defer { mode.store(Mode.normal, ordering: .sequentiallyConsistent) }
    return try body { stopRequested.load(ordering: .sequentiallyConsistent) != 0 }
  }

  /// Runs `body` with a terminal in a mode of its own (raw, on the alternate screen):
  /// a stop signal that ends the process meanwhile first writes `reset` to
  /// `descriptor` (leave the alternate screen, show the cursor) and puts its settings
  /// back to `saved`, so that the shell gets its terminal back as it was. `body`
  /// restores the terminal itself on every other way out.
  public static func restoringTerminal<T>(
    _ descriptor: Int32, to saved: termios, writing reset: [UInt8], _ body: () throws -> T
  ) rethrows -> T {
    TerminalState.shared.arm(descriptor, saved, reset)
    defer { TerminalState.shared.disarm() }
    return try body()
  }

  /// Runs every cleanup and ends the process by `number`, as if it had arrived now.
  public static func die(by number: Int32) -> Never {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, number)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    cleanUpAndRaise(number)
    exit(128 + number)
  }

  // MARK: State the handler reads

  enum Mode {
    static let normal = 0
    static let childRuns = 1
    static let intercepting = 2
    static let ignoring = 3
  }

  /// The fixed slots of paths the handler removes. Unchecked: the slots are shared
  /// with the signal handler, and each slot's atomic state says who may touch its path.
  final class Slots: @unchecked Sendable {
    static let shared = Slots()

    private static let count = 64
    private static let pathCapacity = Int(PATH_MAX) + 1
    private static let free = 0
    private static let filling = 1

    // States: free, filling, or the Removal's raw value once the path is in place.
    private let states: UnsafeMutablePointer<Atomic<Int>>
    private let paths: UnsafeMutablePointer<CChar>

    private init() {
      states = .allocate(capacity: Self.count)
      for i in 0..<Self.count { (states + i).initialize(to: Atomic(Self.free)) }
      paths = .allocate(capacity: Self.count * Self.pathCapacity)
    }

    /// Makes sure the slots exist before a handler can need them.
    func prepare() {}

    func add(_ path: [UInt8], removal: Removal) -> Int? {
      guard path.count < Self.pathCapacity, !path.contains(0) else { return nil }
      for i in 0..<Self.count
      where states[i].compareExchange(expected: Self.free, desired: Self.filling, ordering: .acquiring).exchanged {
        let start = paths + i * Self.pathCapacity
        path.withUnsafeBufferPointer { bytes in
          bytes.withMemoryRebound(to: CChar.self) { start.update(from: $0.baseAddress!, count: $0.count) }
        }
        start[path.count] = 0
        states[i].store(removal.rawValue, ordering: .releasing)
        return i
      }
      return nil
    }

    func remove(_ slot: Int?) {
      guard let slot else { return }
      states[slot].store(Self.free, ordering: .releasing)
    }

    /// Removes every recorded path, files before folders. Async-signal-safe: it
    /// allocates nothing (an array literal here would call malloc, which a signal
    /// may have interrupted).
    func removeAll() {
      var pass = Removal.file.rawValue
      while pass <= Removal.folder.rawValue {
        for i in 0..<Self.count where states[i].load(ordering: .acquiring) == pass {
          let path = paths + i * Self.pathCapacity
          if pass == Removal.file.rawValue { unlink(path) } else { rmdir(path) }
        }
        pass += 1
      }
    }
  }
}

/// The terminal a stop signal puts back (see ``SignalScope/restoringTerminal(_:to:writing:_:)``):
/// fixed storage, written before it is armed, so that the handler reads it without
/// allocating. Unchecked: the armed flag says when the handler may read the rest.
final class TerminalState: @unchecked Sendable {
  static let shared = TerminalState()
  private static let resetCapacity = 64

  private let armed = Atomic<Int>(0)
  private let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
  private let reset = UnsafeMutablePointer<UInt8>.allocate(capacity: resetCapacity)
  private var resetCount = 0
  private var descriptor: Int32 = -1

  func arm(_ descriptor: Int32, _ state: termios, _ bytes: [UInt8]) {
    armed.store(0, ordering: .sequentiallyConsistent)
    self.descriptor = descriptor
    saved.initialize(to: state)
    resetCount = min(bytes.count, Self.resetCapacity)
    for i in 0..<resetCount { reset[i] = bytes[i] }
    armed.store(1, ordering: .sequentiallyConsistent)
  }

  func disarm() { armed.store(0, ordering: .sequentiallyConsistent) }

  /// Writes the reset bytes and restores the settings, once. Async-signal-safe.
  func restore() {
    guard armed.exchange(0, ordering: .sequentiallyConsistent) == 1 else { return }
    _ = write(descriptor, reset, resetCount)
    _ = tcsetattr(descriptor, TCSANOW, saved)
  }
}

private let mode = Atomic<Int>(SignalScope.Mode.normal)
private let pendingSignal = Atomic<Int32>(0)
private let stopRequested = Atomic<Int>(0)

private func signalScopeHandler(_ number: Int32) {
  switch mode.load(ordering: .sequentiallyConsistent) {
  case SignalScope.Mode.ignoring:
    return
  case SignalScope.Mode.childRuns:
    // The child got the same signal from the terminal; act once it has exited.
    if number != SIGINT && number != SIGQUIT { pendingSignal.store(number, ordering: .sequentiallyConsistent) }
    return
  case SignalScope.Mode.intercepting where number == SIGINT || number == SIGTERM:
    stopRequested.store(1, ordering: .sequentiallyConsistent)
    return
  default:
    cleanUpAndRaise(number)
  }
}

/// Removes what the cleanups name and raises `number` with its default action, which
/// ends the process as the signal would have. Async-signal-safe.
private func cleanUpAndRaise(_ number: Int32) {
  TerminalState.shared.restore()
  SignalScope.Slots.shared.removeAll()
  _ = signal(number, SIG_DFL)
  raise(number)
}
