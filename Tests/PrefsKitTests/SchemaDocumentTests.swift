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
    let schema = JSONSchemaTests.rich
    let data = try format.encode(schema.documentValue)
    #expect(try Schema.read(data) == schema)
  }

  @Test func fieldsComeInTheDocumentedOrder() throws {
    let text = String(decoding: try Format.yaml.encode(Schema.userSettings.documentValue), as: UTF8.self)
    let sample = try String(
      contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/UserSettings.schema.yaml"), encoding: .utf8)
    // The sample without its comment lines and flow list is what the document holds.
    #expect(
      try Format.yaml.codec.decode(Data(text.utf8)) == Format.yaml.codec.decode(Data(sample.utf8)))
    #expect(text.hasPrefix("description: The tutorial's user settings"))
    #expect(text.contains("  username:\n    type: string\n    default: \"\"\n    description: "))
  }
}
