import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// Writes that are stopped or fail half-way: a SIGINT or SIGTERM leaves no temporary
/// file, and a failing close(2) closes the temporary's descriptor once only.
@Suite(.serialized) struct InterruptedWriteTests {
  /// A generated domain large enough (about 2.4 MB as JSON) that writing it takes a
  /// while for the test to see its temporary file.
  static func largeInput(in folder: URL) throws -> URL {
    var entries = PrefDictionary()
    for i in 0..<40_000 {
      entries["key\(i)"] = .array([
        .integer(Int64(i)), .string("value \(i)"), .dictionary(["half": .real(Double(i) / 2)]),
      ])
    }
    let url = folder.appendingPathComponent("large.json")
    try Format.json.codec.encode(.dictionary(entries)).write(to: url)
    return url
  }

  /// Temporary files of writes to `name` in `folder` (`.<name>.XXXXXX`).
  static func temporaries(of name: String, in folder: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasPrefix(".\(name).") && $0.count == name.count + 8 }
  }

  /// How a process ended: its exit status, or the signal that ended it.
  enum Ending: Equatable {
    case status(Int32)
    case signal(Int32)
  }

  /// Starts `prefs arguments` with no signal blocked (the test's threads block some,
  /// and a child inherits its parent's mask), and once its temporary file for `name`
  /// appears in `folder`, stops it (SIGSTOP) and looks again: when the file is still
  /// there, the child is caught writing and gets `signal`, else it goes on to its end.
  /// No clock decides anything: a slow machine only makes the wait longer. Returns how
  /// it ended, and whether the signal was sent while the file was there.
  static func interrupt(
    _ arguments: [String], store: URL? = nil, environment extra: [String] = [], name: String, in folder: URL,
    with signal: Int32
  ) throws -> (Ending, hit: Bool) {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGINT)
    sigaddset(&defaults, SIGTERM)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([TestSupport.prefsBinary.path] + arguments).map { strdup($0) } + [nil]
    var environment = ["PATH=/usr/bin:/bin"]
    if let store { environment.append("PREFS_DEFAULTS_DIR=\(store.path)") }
    environment += extra
    let envp = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, TestSupport.prefsBinary.path, &actions, &attributes, argv, envp)
    try #require(spawned == 0, "posix_spawn failed: \(spawned)")
    var hit = false
    var status: Int32 = 0
    var ended = false
    while !ended {
      if waitpid(pid, &status, WNOHANG) != 0 {
        ended = true
      } else if !temporaries(of: name, in: folder).isEmpty {
        kill(pid, SIGSTOP)
        // Stopped, or ended before the stop came.
        while waitpid(pid, &status, WUNTRACED) == -1 && errno == EINTR {}
        let stopped = status & 0xFF == 0x7F
        if stopped {
          hit = !temporaries(of: name, in: folder).isEmpty
          if hit { kill(pid, signal) }
          kill(pid, SIGCONT)
          while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        ended = true
      } else {
        usleep(500)
      }
    }
    let ending: Ending = status & 0x7F == 0 ? .status((status >> 8) & 0xFF) : .signal(status & 0x7F)
    return (ending, hit)
  }

  static let signals: [Int32] = [SIGINT, SIGTERM]

  /// Runs `prefs arguments` until it is caught writing, up to three times, sending
  /// `signal` while its temporary file for `name` is there
  /// (``interrupt(_:store:environment:name:in:with:)``), and checks that prefs died by
  /// the signal and left no temporary file.
  static func expectNoTemporaryLeft(
    _ arguments: [String], store: URL? = nil, environment: [String] = [], name: String, in folder: URL,
    with signal: Int32
  ) throws {
    var hits = 0
    for _ in 0..<3 where hits == 0 {
      let (ending, hit) = try interrupt(
        arguments, store: store, environment: environment, name: name, in: folder, with: signal)
      guard hit else { continue }
      hits += 1
      #expect(ending == .signal(signal))
      #expect(temporaries(of: name, in: folder) == [])
    }
    #expect(hits > 0, "the temporary file was never seen while prefs ran")
  }

  @Test(.timeLimit(.minutes(10)), arguments: signals)
  func aSignalDuringConvertLeavesNoTemporaryFile(_ signal: Int32) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Self.largeInput(in: folder)
    let output = folder.appendingPathComponent("out.plist")
    try Self.expectNoTemporaryLeft(
      ["convert", input.path, "-o", output.path], name: "out.plist", in: folder, with: signal)
  }

  @Test(.timeLimit(.minutes(10)), arguments: signals)
  func aSignalDuringImportLeavesNoTemporaryFile(_ signal: Int32) throws {
    let folder = try TestSupport.temporaryFolder()
    let store = try TestSupport.temporaryFolder()
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: store)
    }
    let input = try Self.largeInput(in: folder)
    try Self.expectNoTemporaryLeft(
      ["import", "com.example.large", input.path], store: store, name: "com.example.large.plist", in: store,
      with: signal)
  }

  /// The write after an edit is covered as every write is: the edit's own clean-up
  /// (its folder) does not take the stop signals away from the temporary file.
  @Test(.timeLimit(.minutes(10)), arguments: signals)
  func aSignalDuringTheWriteAfterAnEditLeavesNoTemporaryFile(_ signal: Int32) throws {
    let folder = try TestSupport.temporaryFolder()
    let store = try TestSupport.temporaryFolder()
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: store)
    }
    // The editor replaces the edited text with a large document (JSON is YAML).
    let input = try Self.largeInput(in: folder)
    let editor = folder.appendingPathComponent("editor.sh")
    try Data("#!/bin/sh\ncp '\(input.path)' \"$1\"\n".utf8).write(to: editor)
    chmod(editor.path, 0o755)
    try Self.expectNoTemporaryLeft(
      ["edit", "com.example.edited"], store: store, environment: ["VISUAL=\(editor.path)"],
      name: "com.example.edited.plist", in: store, with: signal)
  }

  /// A close(2) that fails for the temporary file (releasing the descriptor, as Linux
  /// does) and logs any later close of a descriptor that is not open.
  static let closeShim = """
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <errno.h>
    #include <fcntl.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <unistd.h>

    static int failed;

    int close(int fd) {
      static int (*real)(int);
      if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "close");
      char link[64], path[4096];
      snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
      ssize_t n = readlink(link, path, sizeof path - 1);
      if (n < 0) {
        const char *log = getenv("CLOSE_SHIM_LOG");
        if (failed && log) {
          int out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
          char line[64];
          int length = snprintf(line, sizeof line, "closed %d again\\n", fd);
          if (out >= 0) { write(out, line, length); real(out); }
        }
        return real(fd);
      }
      path[n] = 0;
      int result = real(fd);
      const char *marker = getenv("CLOSE_SHIM_FAIL");
      if (marker && strstr(path, marker)) {
        failed = 1;
        errno = EIO;
        return -1;
      }
      return result;
    }
    """

  @Test(
    .enabled(if: TestSupport.executable(named: "cc") != nil, "needs cc to build a close(2) shim"),
    .enabled(
      if: TestSupport.prefsBinaryIsDynamic, "the shim is an LD_PRELOAD library: prefs must be linked dynamically"))
  func aFailedCloseClosesTheDescriptorOnce() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("shim.c")
    try Data(Self.closeShim.utf8).write(to: source)
    let library = folder.appendingPathComponent("shim.so")
    let built = try TestSupport.run(
      TestSupport.executable(named: "cc")!, ["-shared", "-fPIC", "-o", library.path, source.path, "-ldl"])
    try #require(built.status == 0, "\(built.stderr)")
    let log = folder.appendingPathComponent("closes.log")
    let output = folder.appendingPathComponent("out.json")
    var environment = ProcessInfo.processInfo.environment
    environment["LD_PRELOAD"] = library.path
    environment["CLOSE_SHIM_FAIL"] = "/.out.json."
    environment["CLOSE_SHIM_LOG"] = log.path
    let result = try TestSupport.run(
      TestSupport.prefsBinary, ["convert", "-", "--to", "json", "-o", output.path], input: Data("a: 1\n".utf8),
      environment: environment)
    #expect(result.status == 74)
    #expect(result.stderr == "prefs: error: \(output.path): cannot close: Input/output error\n")
    let closedAgain = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    #expect(closedAgain == "", "the temporary's descriptor was closed again")
    #expect(Self.temporaries(of: "out.json", in: folder) == [])
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }
}
