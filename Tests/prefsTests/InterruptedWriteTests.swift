import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// Writes that are stopped or fail half-way: a SIGINT or SIGTERM leaves no temporary
/// file, and a failing close(2) closes the temporary's descriptor once only.
@Suite(.serialized) struct InterruptedWriteTests {
  /// Temporary files of writes to `name` in `folder` (`.<name>.XXXXXX`).
  static func temporaries(of name: String, in folder: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasPrefix(".\(name).") && $0.count == name.count + 8 }
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

  @Test(.enabled(if: TestSupport.executable(named: "cc") != nil, "needs cc to build a close(2) shim"))
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
