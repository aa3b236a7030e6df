import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

/// The lock on a file that writes replace by rename: writers that wait on the old
/// inode take the lock again on the new one, so none loses another's change.
@Suite struct FileLockTests {
  @Test(.timeLimit(.minutes(5))) func writersThatWaitOnAReplacedFileLoseNothing() throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("counter.json").path
    // Separate open files conflict under flock even within one process, so threads
    // stand in for processes. The file does not exist at first: the folder is locked.
    let threads = 8
    let rounds = 15
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<rounds {
        do {
          try FileDomain(path: path).modify { contents in
            var dict = contents ?? PrefDictionary()
            guard case .integer(let n)? = dict["n"] ?? .integer(0) else { return }
            dict["n"] = .integer(n + 1)
            contents = dict
          }
        } catch {
          Issue.record("\(error)")
        }
      }
    }
    #expect(try FileDomain(path: path).read()?["n"] == .integer(Int64(threads * rounds)))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["counter.json"])
  }
}
