import PrefsKit

/// Starting programs with `posix_spawn` (FoundationEssentials has no `Process`, and
/// `Process` puts a child in a process group of its own, which a terminal editor
/// cannot use; see ``Editor``).
enum ChildProcess {
  // posix_spawn's attributes and file actions: optional opaque pointers on Darwin,
  // structs in Glibc and Musl; each is set up by its `_init` before use.
  #if canImport(Darwin)
    typealias Attributes = posix_spawnattr_t?
    typealias Actions = posix_spawn_file_actions_t?
    static var newAttributes: Attributes { nil }
    static var newActions: Actions { nil }
  #else
    typealias Attributes = posix_spawnattr_t
    typealias Actions = posix_spawn_file_actions_t
    static var newAttributes: Attributes { Attributes() }
    static var newActions: Actions { Actions() }
  #endif

  /// The first executable called `name` in the folders of `PATH`, or nil.
  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { String($0).appendingPathComponent(name) }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// This program's own path: /proc/self/exe where there is one, else how it was called.
  static func ownPath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if count > 0 { return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    let called = CommandLine.arguments.first ?? ""
    return called.contains("/") ? called : nil
  }

  /// How a child ended.
  enum Outcome: Equatable {
    case exited(Int32)
    case killed(Int32)
  }

  /// Starts `arguments[0]` (a path) with `arguments`, this process's environment,
  /// and `attributes` and `actions` when given; returns its process ID. `what`
  /// names it in the error when it cannot start.
  static func spawn(
    _ arguments: [String], what: String, attributes: UnsafePointer<Attributes>? = nil,
    actions: UnsafePointer<Actions>? = nil
  ) throws -> pid_t {
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    #if canImport(Darwin)
      let environment = _NSGetEnviron().pointee
    #else
      let environment = environ
    #endif
    var pid = pid_t()
    let spawned = posix_spawn(&pid, arguments[0], actions, attributes, &argv, environment)
    guard spawned == 0 else { throw PrefsError(.other(.io, "cannot start \(what): \(systemErrorText(spawned))")) }
    return pid
  }

  /// Waits for `pid` to end; nil (with `errno` set) when it cannot be waited for.
  static func wait(for pid: pid_t) -> Outcome? {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
      guard errno == EINTR else { return nil }
    }
    // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import.
    let killer = status & 0x7f
    return killer != 0 ? .killed(killer) : .exited((status >> 8) & 0xff)
  }

  /// Runs `arguments` with standard input on /dev/null, and standard error there
  /// too unless `keepingStandardError` (then it is this process's); its status and
  /// what it wrote to standard output.
  static func output(of arguments: [String], keepingStandardError: Bool = false) throws -> (
    outcome: Outcome, output: Data
  ) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      throw PrefsError(.other(.io, "cannot run \(arguments[0]): \(systemErrorText(errno))"))
    }
    var actions = newActions
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if !keepingStandardError { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    posix_spawn_file_actions_addclose(&actions, ends[0])
    posix_spawn_file_actions_addclose(&actions, ends[1])
    let pid: pid_t
    do {
      pid = try spawn(arguments, what: arguments[0], actions: &actions)
      close(ends[1])
    } catch {
      close(ends[1])
      close(ends[0])
      throw error
    }
    defer { close(ends[0]) }
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 14)
    while true {
      let n = read(ends[0], &buffer, buffer.count)
      if n > 0 {
        output.append(contentsOf: buffer[..<n])
      } else if n == 0 || errno != EINTR {
        break
      }
    }
    guard let outcome = wait(for: pid) else {
      throw PrefsError(.other(.io, "cannot wait for \(arguments[0]): \(systemErrorText(errno))"))
    }
    return (outcome, output)
  }
}
