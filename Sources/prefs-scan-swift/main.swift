// prefs-scan-swift PATH...: the schema of the keys the Swift sources in PATH read,
// as a JSON schema document on standard output. `prefs schema scan` runs it (as git
// runs git-foo) and renders what it prints.
import PrefsKit
import PrefsSwiftScan

/// Writes all of `bytes` to the file descriptor `fd`.
func put(_ bytes: some Collection<UInt8>, to fd: Int32) {
  var rest = Array(bytes)[...]
  while !rest.isEmpty {
    let written = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    if written < 0 && errno == EINTR { continue }
    guard written > 0 else { return }
    rest = rest.dropFirst(written)
  }
}

let paths = Array(CommandLine.arguments.dropFirst())
if paths.isEmpty || paths.contains("--help") || paths.contains("-h") {
  put(
    "usage: prefs-scan-swift PATH...\n(run by prefs schema scan; prints the schema as JSON)\n".utf8,
    to: paths.isEmpty ? 2 : 1)
  exit(paths.isEmpty ? 64 : 0)
}
do {
  put(try SwiftScan.scan(paths).encoded(as: .json), to: 1)
  exit(0)
} catch let error as PrefsError {
  put("prefs: error: \(error)\n".utf8, to: 2)
  exit(error.category == .noInput ? 66 : 65)
} catch {
  put("prefs: error: \(error)\n".utf8, to: 2)
  exit(70)
}
