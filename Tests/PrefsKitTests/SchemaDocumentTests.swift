import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations

/// A schema written as its document reads back as the same schema.
@Suite struct SchemaDocumentTests {
  /// (XML plists hold whole seconds: the schema's date default has a fraction.)
  @Test(arguments: [Format.yaml, .json, .binary])
  func everyFieldRoundTrips(format: Format) throws {
    var schema = JSONSchemaTests.rich
    schema.domain = "com.example.app"
    let data = try format.encode(schema.documentValue)
    var read = try Schema.read(data)
    // Keys of any other name have no field in prefs' own format.
    #expect(read.key("window")?.keys?.otherKey == nil)
    #expect(read.key("open")?.keys?.allowsOtherKeys == false)
    for name in ["window", "open"] {
      let index = try #require(schema.keys.firstIndex { $0.name == name })
      read.keys[index].keys = schema.keys[index].keys
    }
    #expect(read == schema)
  }

  @Test func fieldsComeInTheDocumentedOrder() throws {
    let text = String(decoding: try Format.yaml.encode(Schema.userSettings.documentValue), as: UTF8.self)
    let sample = try String(
      contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.schema.yaml"), encoding: .utf8)
    // The sample without its comment lines and flow list is what the document holds.
    #expect(
      try Format.yaml.codec.decode(Data(text.utf8)) == Format.yaml.codec.decode(Data(sample.utf8)))
    #expect(text.hasPrefix("keys:\n  username:\n    type: string\n    default: \"\"\n    read-at:\n"))
    #expect(text.contains("  items:\n    type: data\n    encoding: json\n    content:\n      type: array\n"))
  }
}
