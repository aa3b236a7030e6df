import PrefsKit

/// Reading a signed configuration profile: the library takes out the signed
/// content; the signature is verified by `openssl cms -verify` when openssl is on
/// the PATH, and said to be not verified otherwise.
enum ProfileSignature {
  /// `data` as it is, or a signed profile's content; for a signed one, whether its
  /// signature verifies is said on standard error, and one that openssl does not
  /// verify is refused.
  static func unwrapped(_ data: Data, name: String, console: Console) throws -> Data {
    guard SignedProfile.isSigned(data) else { return data }
    let content: Data
    do {
      content = try SignedProfile.content(of: data)
    } catch let error as PrefsError {
      throw error.inFile(name)
    }
    guard let openssl = ChildProcess.onPath("openssl") else {
      console.err("prefs: warning: \(name): signed; the signature is not verified (openssl is not installed)")
      return content
    }
    if try verifies(data, with: openssl) {
      console.err(
        "prefs: \(name): signed; openssl verifies the signature (the signer's certificate is not checked against "
          + "trusted roots)")
      return content
    }
    throw PrefsError(.profile(problem: "signed, but openssl does not verify the signature"), file: name)
  }

  /// Whether `openssl cms -verify` finds the signature good for the content it holds.
  private static func verifies(_ data: Data, with openssl: String) throws -> Bool {
    let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array(folder.appendingPathComponent("prefs-signed-XXXXXX").utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw PrefsError(.io(.createFile(in: folder), errno: errno), file: folder) }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(path) }
    let written = data.withUnsafeBytes { bytes -> Bool in
      var offset = 0
      while offset < bytes.count {
        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { return false }
        offset += n
      }
      return true
    }
    let code = errno
    close(fd)
    guard written else { throw PrefsError(.io(.write, errno: code), file: path) }
    let (outcome, _) = try ChildProcess.output(of: [
      openssl, "cms", "-verify", "-inform", "DER", "-in", path, "-binary", "-noverify", "-out", "/dev/null",
    ])
    return outcome == .exited(0)
  }
}
