import Foundation


/// SKELETON — replaced by the real codec.
public struct YAMLCodec: FormatCodec {
  public init() {}
  public func read(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue {
    throw PrefsError(.badInput, "YAML reading is not built yet")
  }
  public func write(_ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings) throws {
    throw PrefsError(.badInput, "YAML writing is not built yet")
  }
}
