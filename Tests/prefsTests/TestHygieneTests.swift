import Foundation
import PrefsTestSupport
import Testing

/// Tests that need a corpus or a tool skip visibly when it is missing: none returns
/// early, and so passes without having run. A test that cannot run says why in
/// `.enabled(if:)`; one that cannot go on fails with `try #require`.
@Suite struct TestHygieneTests {
  /// The Swift files under Tests/, as (path inside Tests/, text).
  static func testSources() throws -> [(name: String, text: String)] {
    let folder = TestSupport.packageRoot.appendingPathComponent("Tests")
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    return try files.filter { $0.hasSuffix(".swift") }.sorted().map { name in
      (name, try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
    }
  }

  @Test func noTestReturnsEarlyWhenACorpusOrToolIsMissing() throws {
    let checks = ["corpus(", "corpusFiles()", "Python.find()", "TestSupport.python()"]
    var found: [String] = []
    for (name, text) in try Self.testSources() {
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where line.contains("else { return }") && checks.contains(where: { line.contains($0) }) {
        found.append("\(name):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    #expect(found == [], "use .enabled(if:) with a reason, or try #require")
  }

  @Test func noTestFunctionReturnsEarly() throws {
    let sources = try Self.testSources()
    #expect(sources.count > 40)
    var found: [String] = []
    for (name, text) in sources {
      found += EarlyReturns.lines(in: text).map { "\(name):\($0)" }
    }
    #expect(found == [], "a test that cannot run skips with .enabled(if:) and its reason; use try #require")
  }

  @Test func theScanFindsAReturnInATestBodyButNotInItsClosuresOrHelpers() {
    let skipping = """
      @Test func a() throws {
        guard let tool = find("{") else { return }
      }
      @Test(.tags(.x)) func b() {
        if !available {
          return
        }
        for x in [1] where x > 0 { if x == 1 { return } }
      }
      @Test(arguments: [1, 2]) func c(n: Int) async throws {
        do { try f() } catch { return }
      }
      """
    #expect(EarlyReturns.lines(in: skipping) == [2, 6, 8, 11])
    let clean = """
      // @Test func commented() { return }
      func helper() -> Int? {
        guard ok else { return nil }
        return 1
      }
      @Test func d() throws {
        let text = "\\(name.map { "}" })" + #"{"a": "\\" }"#
        let all = items.filter { item in
          guard item.ok else { return false }
          return true
        }
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
          guard case .integer(let n)? = value else { return }
        }
        func local() -> Int { return 2 }
        #expect(try items.map({ $0 }).first(where: { return $0 > 1 }) == nil)
        let s = \"""
          } return {
          \"""
      }
      """
    #expect(EarlyReturns.lines(in: clean) == [])
  }
}

/// Finds the `return` statements that end a test early: those in a test function's
/// own body, outside its closures and local functions.
enum EarlyReturns {
  struct Token {
    let text: String
    let line: Int
  }

  /// The lines (from 1) of the early returns in the test functions of `source`.
  static func lines(in source: String) -> [Int] {
    var lexer = Lexer(bytes: Array(source.utf8))
    lexer.lexCode(inInterpolation: false)
    let tokens = lexer.tokens
    var found: [Int] = []
    var index = 0
    while index < tokens.count {
      defer { index += 1 }
      guard tokens[index].text == "@Test", let body = bodyStart(after: index, in: tokens) else { continue }
      var stack: [Bool] = []  // whether each open brace inside the body is a control-flow block
      var k = body + 1
      while k < tokens.count {
        let text = tokens[k].text
        if text == "{" {
          stack.append(isControlFlowBrace(at: k, in: tokens))
        } else if text == "}" {
          if stack.isEmpty { break }
          stack.removeLast()
        } else if text == "return" && !stack.contains(false) {
          found.append(tokens[k].line)
        }
        k += 1
      }
      index = k
    }
    return found
  }

  /// The index of the `{` that opens the body of the function a `@Test` at `index` marks.
  static func bodyStart(after index: Int, in tokens: [Token]) -> Int? {
    var depth = 0
    var sawFunc = false
    for k in (index + 1)..<tokens.count {
      switch tokens[k].text {
      case "(", "[": depth += 1
      case ")", "]": depth -= 1
      case "func" where depth == 0: sawFunc = true
      case "{" where depth == 0 && sawFunc: return k
      case "{" where depth == 0: return nil
      default: break
      }
    }
    return nil
  }

  /// Whether the `{` at `index` opens the block of an `if`, `guard`, loop, `do`, `catch`
  /// and the like, rather than a closure or a local function. Walks back over the head
  /// of the statement: a closure's brace meets an open parenthesis or the end of the
  /// statement before it, a block's brace its keyword.
  static func isControlFlowBrace(at index: Int, in tokens: [Token]) -> Bool {
    let control: Set = ["if", "guard", "else", "for", "while", "repeat", "do", "catch", "switch", "defer"]
    let declarations: Set = ["func", "init", "subscript", "get", "set", "willSet", "didSet"]
    var balance = 0
    var k = index - 1
    while k >= 0 {
      let text = tokens[k].text
      switch text {
      case ")", "]": balance += 1
      case "(", "[":
        balance -= 1
        if balance < 0 { return false }
      case "{", "}",
        ";" where balance == 0:
        return false
      default:
        if balance == 0 && control.contains(text) { return true }
        if balance == 0 && declarations.contains(text) { return false }
      }
      k -= 1
    }
    return false
  }

  /// Swift source as words and punctuation, without comments and string literals.
  struct Lexer {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var tokens: [Token] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    func byte(_ offset: Int) -> UInt8? {
      index + offset < bytes.count ? bytes[index + offset] : nil
    }

    static func isWordByte(_ b: UInt8) -> Bool {
      b == UInt8(ascii: "_") || (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b >= 0x80
    }

    /// Code up to the end, or in an interpolation up to its closing parenthesis.
    mutating func lexCode(inInterpolation: Bool) {
      var parentheses = 0
      while let b = byte(0) {
        switch b {
        case UInt8(ascii: "\n"):
          line += 1
          index += 1
        case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/"):
          while let c = byte(0), c != UInt8(ascii: "\n") { index += 1 }
        case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
          skipBlockComment()
        case UInt8(ascii: "\""):
          lexString(hashes: 0)
        case UInt8(ascii: "#"):
          var hashes = 0
          while byte(hashes) == UInt8(ascii: "#") { hashes += 1 }
          if byte(hashes) == UInt8(ascii: "\"") {
            index += hashes
            lexString(hashes: hashes)
          } else {
            lexWord(prefix: "#")
          }
        case UInt8(ascii: "@"):
          lexWord(prefix: "@")
        case _ where Self.isWordByte(b):
          lexWord(prefix: "")
        default:
          if inInterpolation && b == UInt8(ascii: "(") { parentheses += 1 }
          if inInterpolation && b == UInt8(ascii: ")") {
            if parentheses == 0 {
              index += 1
              return
            }
            parentheses -= 1
          }
          if b > 0x20 { tokens.append(Token(text: String(UnicodeScalar(b)), line: line)) }
          index += 1
        }
      }
    }

    mutating func lexWord(prefix: String) {
      let start = index
      index += prefix.utf8.count
      while let b = byte(0), Self.isWordByte(b) { index += 1 }
      if index == start + prefix.utf8.count && !prefix.isEmpty {
        tokens.append(Token(text: prefix, line: line))
        return
      }
      tokens.append(Token(text: String(decoding: bytes[start..<index], as: UTF8.self), line: line))
    }

    mutating func skipBlockComment() {
      var depth = 0
      repeat {
        if byte(0) == UInt8(ascii: "/") && byte(1) == UInt8(ascii: "*") {
          depth += 1
          index += 2
        } else if byte(0) == UInt8(ascii: "*") && byte(1) == UInt8(ascii: "/") {
          depth -= 1
          index += 2
        } else {
          if byte(0) == UInt8(ascii: "\n") { line += 1 }
          index += 1
        }
      } while depth > 0 && index < bytes.count
    }

    /// Whether `count` hashes follow at `offset`.
    func hashesFollow(at offset: Int, count: Int) -> Bool {
      (0..<count).allSatisfy { byte(offset + $0) == UInt8(ascii: "#") }
    }

    /// A string literal from its opening quote, with `hashes` raw delimiters; its
    /// interpolations are lexed to find their end, and dropped.
    mutating func lexString(hashes: Int) {
      let quote = UInt8(ascii: "\"")
      let multiline = byte(1) == quote && byte(2) == quote
      index += multiline ? 3 : 1
      while let b = byte(0) {
        if b == UInt8(ascii: "\\") && hashesFollow(at: 1, count: hashes) {
          index += 1 + hashes
          if byte(0) == UInt8(ascii: "(") {
            index += 1
            let kept = tokens.count
            lexCode(inInterpolation: true)
            tokens.removeSubrange(kept...)
          } else {
            if byte(0) == UInt8(ascii: "\n") { line += 1 }
            index += 1
          }
        } else if b == quote && (!multiline || (byte(1) == quote && byte(2) == quote)) {
          let length = multiline ? 3 : 1
          if hashesFollow(at: length, count: hashes) {
            index += length + hashes
            return
          }
          index += 1
        } else {
          if b == UInt8(ascii: "\n") { line += 1 }
          index += 1
        }
      }
    }
  }
}
