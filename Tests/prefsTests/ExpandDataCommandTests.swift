import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

/// `--expand-data` on convert and export: the tutorial's items blob as structure,
/// and back to the same bytes.
@Suite struct ExpandDataCommandTests {
  let items = TestSupport.packageRoot.appendingPathComponent("Samples/Items.plist")

  /// The items blob of a plist file.
  func blob(_ path: String) throws -> Data {
    let value = try Format.read(Data(contentsOf: URL(fileURLWithPath: path))).value
    guard case .data(let data)? = value.dictionaryValue?["items"] else {
      Issue.record("no items data in \(path)")
      return Data()
    }
    return data
  }

  @Test(arguments: ["yaml", "json"])
  func theItemsBlobRoundTripsByteForByte(format: String) throws {
    let folder = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("items.\(format)").path
    let back = folder.appendingPathComponent("items.plist").path
    let expanded = try TestSupport.prefs(["convert", items.path, "--expand-data", "-o", text])
    #expect(expanded.status == 0, "\(expanded.stderr)")
    let shown = try String(contentsOfFile: text, encoding: .utf8)
    #expect(
      shown.contains(
        format == "yaml" ? "items: !json\n- description: Milk, eggs and bread / butter\n" : #""items": {"$json": ["#))
    #expect(try TestSupport.prefs(["convert", text, "-o", back]).status == 0)
    #expect(try blob(back) == blob(items.path))
    // The whole file too: prefs writes the XML UserDefaults wrote.
    #expect(try Data(contentsOf: URL(fileURLWithPath: back)) == Data(contentsOf: items))
  }

  @Test func exportExpandsAndImportRestoresTheDomain() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    #expect(try TestSupport.prefs(["import", "com.example.items", items.path], store: store).status == 0)
    let exported = try TestSupport.prefs(["export", "com.example.items", "--expand-data"], store: store)
    #expect(exported.status == 0)
    #expect(exported.stdout.hasPrefix("items: !json\n- description: "))
    #expect(
      try TestSupport.prefs(["import", "com.example.copy"], input: Data(exported.stdout.utf8), store: store).status == 0
    )
    #expect(try blob(store.appendingPathComponent("com.example.copy.plist").path) == blob(items.path))
    let plain = try TestSupport.prefs(["export", "com.example.items"], store: store)
    #expect(plain.stdout.hasPrefix("items: !!binary |\n"))
  }

  @Test func aBlobThatWouldNotComeBackExactlyStaysBinary() throws {
    let input = Data(#"{"spaced": {"$data": "eyJhIjogMX0="}, "compact": {"$data": "eyJhIjoxfQ=="}}"#.utf8)
    let result = try TestSupport.prefs(["convert", "-", "--expand-data"], input: input)
    #expect(result.status == 0)
    #expect(result.stdout == "spaced: !!binary eyJhIjogMX0=\ncompact: !json\n  a: 1\n")
    #expect(
      result.stderr
        == "prefs: warning: <stdout>: spaced is left as data: its JSON would not come back byte for byte "
        + "(spacing or escaping); diff, textconv and get show it as structure\n")
  }

  @Test func aBlobThatLooksLikeJSONButIsNotIsNamedWithWhyAndOpaqueDataIsNot() throws {
    let store = try TestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: store) }
    let input = Data(#"{"broken": {"$data": "e25vdA=="}, "icon": {"$data": "iVBORw=="}}"#.utf8)
    #expect(try TestSupport.prefs(["import", "com.example.blobs", "-"], input: input, store: store).status == 0)
    let result = try TestSupport.prefs(["export", "com.example.blobs", "--expand-data"], store: store)
    #expect(result.status == 0)
    #expect(result.stdout == "broken: !!binary e25vdA==\nicon: !!binary iVBORw==\n")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(result.stderr)")
    #expect(lines.first?.hasPrefix("prefs: warning: <stdout>: broken is left as data: it is not valid JSON: ") == true)
  }
}
