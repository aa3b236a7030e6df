import Dispatch
import PrefsModel
import PrefsText

/// The root dictionary in parts: parsers on other threads read runs of its entries
/// ahead, and the main parser takes each run when its own reading arrives where the
/// run starts.
extension XMLPlistParser {
  mutating func rootValue(_ tag: Tag) throws -> PrefValue {
    // (With `maxDepth` 0 the root itself is too deep, which `dictionary` reports.)
    guard parts > 1, maxDepth > 0, tag.kind == .dict, !tag.selfClosing else { return try value(tag, depth: 0) }
    map?.open(start: tag.start)
    let value = try rootDictionary(tag)
    if case .uid = value { map?.closeOpaque(end: i) } else { map?.close(end: i) }
    return value
  }

  /// A run of root entries that a parser on another thread read ahead.
  struct Run {
    var entries: [Entry] = []
    /// Where it stopped: where the next run starts, or after the dictionary's close tag.
    var end = 0
    var closesDictionary = false
    /// Where its entries stand, when a source map is built.
    var map: SourceMap?
  }

  /// Reading one run ahead, from a guessed start, on another thread.
  ///
  /// Nothing ever waits for a run that has not started: the main parser then reads
  /// those entries itself and the run, if it starts later, stops at once. So a busy
  /// thread pool slows the read down but cannot block it.
  final class ReadAhead: @unchecked Sendable {
    let start: Int
    private enum State {
      case waiting
      case running(stopRequested: Bool)
      case finished(Run?)
      case abandoned
    }
    private var state = State.waiting
    private let lock = Lock()
    private let done = DispatchSemaphore(value: 0)
    private let begun = DispatchSemaphore(value: 0)

    init(start: Int) { self.start = start }

    /// On the other thread: whether to read, false once the main parser gave up on it.
    func begin() -> Bool {
      let begins = lock.withLock {
        guard case .waiting = state else { return false }
        state = .running(stopRequested: false)
        return true
      }
      begun.signal()
      return begins
    }

    /// On the other thread, between entries: whether to stop.
    var shouldStop: Bool {
      lock.withLock {
        if case .running(let stopRequested) = state { return stopRequested }
        return true
      }
    }

    func finish(_ run: Run?) {
      lock.withLock { state = .finished(run) }
      done.signal()
    }

    /// The run, once read if it is being read; nil if it failed or never started.
    /// (`awaitingStart`, for tests: wait for it to start.)
    func take(awaitingStart: Bool = false) -> Run? {
      if awaitingStart {
        begun.wait()
        begun.signal()
      }
      let started = lock.withLock {
        switch state {
        case .waiting, .abandoned:
          state = .abandoned
          return false
        case .running, .finished:
          return true
        }
      }
      guard started else { return nil }
      done.wait()
      done.signal()
      return lock.withLock {
        if case .finished(let run) = state { return run }
        return nil
      }
    }

    /// Stops the run and, if it is being read and `waiting`, waits for it to let go of
    /// the bytes.
    func abandon(waiting: Bool = true) {
      let running = lock.withLock {
        switch state {
        case .waiting:
          state = .abandoned
          return false
        case .running:
          state = .running(stopRequested: true)
          return true
        case .finished, .abandoned:
          return false
        }
      }
      if running, waiting {
        done.wait()
        done.signal()
      }
    }
  }

  /// The root dictionary, with parsers on other threads reading runs of it ahead.
  ///
  /// Each run starts at a guess: the first `<key>` at the start of a line after one
  /// tab (how plist writers indent the root's keys) past an even share of the bytes.
  /// The guess is checked by this parser: it takes a run only when its own reading
  /// arrives exactly where the run starts, between two root entries; a guess inside
  /// a comment, a CDATA section or a deeper dictionary is never arrived at, and this
  /// parser reads on by itself. A run that meets an error is read again here, so every
  /// error is the one a single parser reports.
  mutating func rootDictionary(_ tag: Tag) throws -> PrefValue {
    var guesses: [Int] = []
    for part in 1..<parts {
      let target = max(i + (bytes.count - i) * part / parts, (guesses.last ?? i) + 1)
      // A document without such lines is read by one parser.
      guard let found = find("\n\t<key>", from: target, within: 1 << 16) else { continue }
      guesses.append(found + 2)
    }
    let readAheads = guesses.map { ReadAhead(start: $0) }
    // The bytes stay alive only while this parser runs: no read-ahead outlasts it.
    defer { for readAhead in readAheads { readAhead.abandon() } }
    let (shared, maxDepth, duplicates, parallelism) = (SharedBytes(buffer: bytes), maxDepth, duplicates, parallelism)
    let mapped = map != nil
    for (k, readAhead) in readAheads.enumerated() {
      let stop = k + 1 < readAheads.count ? readAheads[k + 1].start : nil
      (parallelism.queue ?? .global()).async {
        guard readAhead.begin() else { return }
        var parser = XMLPlistParser(
          shared.buffer, maxDepth: maxDepth, duplicates: duplicates, parallelism: parallelism, parts: 1)
        readAhead.finish(parser.run(of: tag, from: readAhead.start, to: stop, mapped: mapped, for: readAhead))
      }
    }
    var dict = PrefDictionary()
    var next = 0
    while true {
      try skipMisc()
      // A guess this parser went past was not between two root entries.
      while next < readAheads.count, readAheads[next].start < i {
        readAheads[next].abandon(waiting: false)
        next += 1
      }
      if next < readAheads.count, readAheads[next].start == i {
        next += 1
        if let run = readAheads[next - 1].take(awaitingStart: parallelism.awaitsReadAheads) {
          runsTaken += 1
          if let part = run.map { map?.append(part) }
          for (key, keyStart, item) in run.entries {
            try insert(key, item, at: keyStart, into: &dict)
          }
          i = run.end
          if run.closesDictionary { break }
          continue
        }
      }
      if starts("</") {
        try closeTag(tag)
        break
      }
      let (key, keyStart, item) = try entry(depth: 0)
      try insert(key, item, at: keyStart, into: &dict)
    }
    return Self.dictionaryOrUID(dict)
  }

  /// The root entries from `start` up to `stop` or the dictionary's close tag (with
  /// their map when `mapped`); nil on any error, or when the entries do not end
  /// exactly at `stop` (a wrong guess).
  mutating func run(of tag: Tag, from start: Int, to stop: Int?, mapped: Bool, for readAhead: ReadAhead) -> Run? {
    i = start
    var run = Run()
    // Each run records its entries in a map of its own, joined to the main one in order.
    let builder = mapped ? SourceMapBuilder() : nil
    map = builder
    do {
      while !readAhead.shouldStop {
        try skipMisc()
        if let stop, i >= stop {
          guard i == stop else { return nil }
          run.end = i
          run.map = builder?.map
          return run
        }
        if starts("</") {
          try closeTag(tag)
          run.end = i
          run.closesDictionary = true
          run.map = builder?.map
          return run
        }
        run.entries.append(try entry(depth: 0))
      }
    } catch {}
    return nil
  }
}
