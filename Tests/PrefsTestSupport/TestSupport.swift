import Foundation

/// Paths, processes and corpora, shared by the library and command-line tests.
public enum TestSupport {
  /// The package root (the folder holding Package.swift).
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/corpus` relative to the package root, or nil (with a visible note) when absent.
  public static func corpus(_ subfolder: String) -> URL? {
    let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/\(subfolder)")
    if FileManager.default.fileExists(atPath: url.path) { return url }
    print("note: corpus folder \(url.path) is absent; skipping the tests that read it")
    return nil
  }

  /// Whether `../shared/corpus/<subfolder>` is there (no note: for `.enabled(if:)`).
  public static func hasCorpus(_ subfolder: String) -> Bool {
    FileManager.default.fileExists(
      atPath: packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/\(subfolder)").path)
  }

  /// The files of a folder, sorted by name.
  public static func files(in folder: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { folder.appendingPathComponent($0) }
  }

  /// A fresh temporary folder, removed by the caller with `removeItem`.
  public static func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

extension TestSupport {
  /// The output of a finished process.
  public struct ProcessResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
  }

  /// Runs `executable` with `arguments` and optional standard input, and waits.
  /// SIGPIPE ignored in the test process, once: see ``run(_:_:input:environment:)``.
  private static let brokenPipesIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()

  public static func run(
    _ executable: URL, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil
  )
    throws -> ProcessResult
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    _ = brokenPipesIgnored
    try process.run()
    // Feed the input while the pipes are read, so that a child writing much before
    // reading all of it cannot block; a child that exits without reading it (a usage
    // error) leaves a write that fails with EPIPE, not a signal that ends the tests.
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      if let input { try? inPipe.fileHandleForWriting.write(contentsOf: input) }
      try? inPipe.fileHandleForWriting.close()
      group.leave()
    }
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// `python3` on the PATH, or nil with a visible note.
  public static func python() -> URL? {
    if let python = executable(named: "python3") { return python }
    print("note: python3 is not on the PATH; skipping the cross-checks against Python")
    return nil
  }

  /// The first executable called `name` on the PATH.
  public static func executable(named name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}

extension TestSupport {
  /// Whether ``prefsBinary`` is linked dynamically (its program interpreter, the
  /// dynamic loader, is named in its first bytes): `LD_PRELOAD` shims reach only such
  /// a binary, not the static release one.
  public static var prefsBinaryIsDynamic: Bool {
    guard let handle = try? FileHandle(forReadingFrom: prefsBinary), let head = try? handle.read(upToCount: 4096)
    else { return false }
    try? handle.close()
    return head.firstRange(of: Data("/ld-linux".utf8)) != nil || head.firstRange(of: Data("/ld-musl".utf8)) != nil
  }

  /// The binary the command-line tests run: `PREFS_TEST_BINARY` when set (`make
  /// test-release` runs them against the release binary), else the one built beside
  /// the tests.
  public static let prefsBinary: URL = {
    if let path = ProcessInfo.processInfo.environment["PREFS_TEST_BINARY"], !path.isEmpty {
      return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        .standardizedFileURL
    }
    let candidates = [
      Bundle.main.executableURL?.deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL.deletingLastPathComponent(),
    ].compactMap { $0 }
    for folder in candidates {
      let url = folder.appendingPathComponent("prefs")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return packageRoot.appendingPathComponent(".build/debug/prefs")
  }()

  /// Runs `prefs` with `arguments` in `folder`, with an environment that points the
  /// domain store at `store` (when given) and nowhere else.
  public static func prefs(
    _ arguments: [String], input: Data? = nil, in folder: URL? = nil, store: URL? = nil,
    environment extra: [String: String] = [:]
  ) throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    environment["PREFS_DEFAULTS_DIR"] = nil
    if let store { environment["PREFS_DEFAULTS_DIR"] = store.path }
    environment["NO_COLOR"] = "1"
    for (key, value) in extra { environment[key] = value }
    var args = arguments
    if let folder {
      // Run inside `folder` through the shell's cd, keeping the binary's absolute path.
      args = ["-c", "cd \"$0\" && exec \"$@\"", folder.path, prefsBinary.path] + arguments
      return try run(URL(fileURLWithPath: "/bin/sh"), args, input: input, environment: environment)
    }
    return try run(prefsBinary, args, input: input, environment: environment)
  }
}

extension TestSupport {
  /// Signs the file `input` as CMS signed data (DER, the content inside) into
  /// `output`, with a self-signed certificate made in `folder` by `openssl`, as
  /// MDM servers sign profiles. Throws when openssl is missing or fails.
  public static func signWithOpenSSL(_ input: String, to output: String, in folder: URL) throws {
    guard let openssl = executable(named: "openssl") else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "openssl is not installed"])
    }
    let key = folder.appendingPathComponent("key.pem").path
    let certificate = folder.appendingPathComponent("cert.pem").path
    for arguments in [
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-subj",
        "/CN=prefs test", "-days", "2",
      ],
      [
        "cms", "-sign", "-in", input, "-signer", certificate, "-inkey", key, "-outform", "DER", "-nodetach",
        "-binary", "-out", output,
      ],
    ] {
      let result = try run(openssl, arguments)
      guard result.status == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl: \(result.stderr)"])
      }
    }
  }
}

extension TestSupport {
  /// A settings file whose values are the types scripts lose on the way to a
  /// profile: a date, data, a real 1.0 and a bool, among the rest.
  public static let typedSettings = """
    com.example.app:
      when: !!timestamp 2023-11-14T22:13:20Z
      blob: !!binary aGVsbG8=
      ratio: 1.0
      enabled: false
      count: 3
      name: Ada
      nested: {list: [1, two]}
    NSGlobalDomain:
      AppleLocale: en_GB

    """
}
