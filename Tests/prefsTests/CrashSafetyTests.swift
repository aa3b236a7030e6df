import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// Crash consistency and concurrency: a `prefs` killed at any moment leaves the old
/// file or the new one, never a torn one and never a lock that blocks the next
/// write; concurrent writers lose no key and readers never see a partial file.
@Suite(.serialized) struct CrashSafetyTests {
  /// The old and new contents of the file being replaced, and the new one as JSON input.
  struct Generations {
    let old: PrefValue
    let new: PrefValue
    let oldXML: Data
    let input: URL

    init(in folder: URL) throws {
      old = .dictionary(["generation": .string("old"), "kept": .array([.integer(1), .bool(true)])])
      var entries = PrefDictionary()
      for i in 0..<6_000 {
        entries["key\(i)"] = .array([
          .integer(Int64(i)), .string("value \(i)"), .date(Date(timeIntervalSinceReferenceDate: Double(i))),
        ])
      }
      entries["generation"] = .string("new")
      new = .dictionary(entries)
      oldXML = try Format.xml.codec.encode(old)
      input = folder.appendingPathComponent("new.json")
      try Format.json.codec.encode(new).write(to: input)
    }

    /// What the file at `path` holds now: exactly the old or the new content.
    func outcome(of path: String) throws -> String {
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      let value = try Format.read(data, path: path).value
      if value == old { return "old" }
      if value == new { return "new" }
      Issue.record("\(path) holds neither the old nor the new content")
      return "neither"
    }
  }

  /// When to kill: after a random delay, or as soon as the folder's listing changes
  /// (the temporary file appears).
  enum Moment {
    case random(maxMicroseconds: UInt32)
    case folderChanges
  }

  /// Starts `prefs arguments`, kills it at `moment`, and waits for it.
  static func runAndKill(_ arguments: [String], store: URL?, watching folder: URL, at moment: Moment) throws {
    let process = Process()
    process.executableURL = TestSupport.prefsBinary
    process.arguments = arguments
    if let store { process.environment = ["PREFS_DEFAULTS_DIR": store.path] }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let before = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    try process.run()
    switch moment {
    case .random(let limit):
      usleep(UInt32.random(in: 0..<limit))
    case .folderChanges:
      // Poll every tenth of a millisecond, well inside the time a large write takes,
      // without taking a core from the process being killed; give up (and kill
      // anyway) after two seconds.
      let deadline = Date().addingTimeInterval(2)
      while process.isRunning, Date() < deadline {
        let now = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        if now != before { break }
        usleep(100)
      }
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  static let importRuns = 16
  static let convertRuns = 16

  @Test func aKilledImportLeavesTheOldOrTheNewDomainEveryTime() throws {
    let store = try TestSupport.temporaryFolder()
    let inputs = try TestSupport.temporaryFolder()
    defer {
      try? FileManager.default.removeItem(at: store)
      try? FileManager.default.removeItem(at: inputs)
    }
    let generations = try Generations(in: inputs)
    let domain = store.appendingPathComponent("com.example.app.plist")
    var outcomes: [String: Int] = [:]
    for run in 0..<Self.importRuns {
      try generations.oldXML.write(to: domain)
      // Half the runs die the moment the temporary file appears; the rest at random.
      let moment: Moment = run % 2 == 0 ? .folderChanges : .random(maxMicroseconds: 400_000)
      try Self.runAndKill(
        ["import", "com.example.app", generations.input.path], store: store, watching: store, at: moment)
      outcomes[try generations.outcome(of: domain.path), default: 0] += 1
    }
    #expect(outcomes["neither"] == nil, "\(outcomes)")
    print(
      "note: \(Self.importRuns) killed imports left old \(outcomes["old", default: 0]), new \(outcomes["new", default: 0])"
    )
    // No stale lock: the next write goes through (a held lock would end in a lock timeout).
    let write = try TestSupport.prefs(["write", "com.example.app", "after", "-int", "1"], store: store)
    #expect(write.status == 0, "\(write.stderr)")
    // Left-over temporary files are hidden, so they never pass for a domain.
    let visible = try FileManager.default.contentsOfDirectory(atPath: store.path).filter { !$0.hasPrefix(".") }
    #expect(visible == ["com.example.app.plist"])
    #expect(try TestSupport.prefs(["domains"], store: store).stdout == "com.example.app\n")
  }

  @Test func aKilledConvertLeavesTheOldOrTheNewOutputEveryTime() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let generations = try Generations(in: folder)
    let outputs = folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
    let output = outputs.appendingPathComponent("settings.plist")
    var outcomes: [String: Int] = [:]
    for run in 0..<Self.convertRuns {
      try generations.oldXML.write(to: output)
      let moment: Moment = run % 2 == 0 ? .folderChanges : .random(maxMicroseconds: 300_000)
      try Self.runAndKill(
        ["convert", generations.input.path, "-o", output.path], store: nil, watching: outputs, at: moment)
      outcomes[try generations.outcome(of: output.path), default: 0] += 1
    }
    #expect(outcomes["neither"] == nil, "\(outcomes)")
    print(
      "note: \(Self.convertRuns) killed converts left old \(outcomes["old", default: 0]), new \(outcomes["new", default: 0])"
    )
    let convert = try TestSupport.prefs(["convert", generations.input.path, "-o", output.path])
    #expect(convert.status == 0)
    #expect(try generations.outcome(of: output.path) == "new")
  }

  @Test func concurrentWritersLoseNoKeyAndReadersNeverSeeATornFile() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    let writers = 16
    let keysPerWriter = 4
    #expect(try TestSupport.prefs(["write", "com.example.app", "seed", "1"], store: store).status == 0)
    let domain = store.appendingPathComponent("com.example.app.plist").path

    // Readers: one thread parsing the file in a loop, and `prefs export` processes.
    let done = ManagedAtomicFlag()
    let reads = ReadCounter()
    let fileReader = Thread {
      while !done.isSet {
        guard let data = FileManager.default.contents(atPath: domain) else {
          reads.fail("the domain file vanished")
          continue
        }
        if (try? Format.read(data, path: domain)) == nil { reads.fail("torn read of \(data.count) bytes") }
        reads.count()
        // Leave the CPU to the writers now and then.
        usleep(1000)
      }
    }
    fileReader.start()
    let processReader = Thread {
      while !done.isSet {
        let result = try? TestSupport.prefs(["export", "com.example.app", "--format", "json"], store: store)
        if result?.status != 0 { reads.fail("prefs export failed: \(result?.stderr ?? "")") }
        reads.count()
      }
    }
    processReader.start()

    // Threads, not the global queue: each runner itself waits on the global queue.
    let finished = ReadCounter()
    for writer in 0..<writers {
      Thread {
        for key in 0..<keysPerWriter {
          let result = try? TestSupport.prefs(
            ["write", "com.example.app", "w\(writer)k\(key)", "-int", String(writer * 100 + key)], store: store)
          if result?.status != 0 { reads.fail("writer \(writer) failed: \(result?.stderr ?? "")") }
        }
        finished.count()
      }.start()
    }
    while finished.total < writers { usleep(10_000) }
    done.set()
    while fileReader.isExecuting || processReader.isExecuting { usleep(10_000) }

    #expect(reads.failures.isEmpty, "\(reads.failures.prefix(3))")
    #expect(reads.total > 10)
    let value = try Format.read(try Data(contentsOf: URL(fileURLWithPath: domain)), path: domain).value
    let dict = try #require(value.dictionaryValue)
    #expect(dict.count == writers * keysPerWriter + 1)
    for writer in 0..<writers {
      for key in 0..<keysPerWriter {
        #expect(dict["w\(writer)k\(key)"] == .integer(Int64(writer * 100 + key)))
      }
    }
  }
}

/// A flag set once, read from other threads.
final class ManagedAtomicFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

/// Counts reads and records failures from several threads.
final class ReadCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var reads = 0
  private var problems: [String] = []
  func count() { lock.withLock { reads += 1 } }
  func fail(_ why: String) { lock.withLock { problems.append(why) } }
  var total: Int { lock.withLock { reads } }
  var failures: [String] { lock.withLock { problems } }
}
