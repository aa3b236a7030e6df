import Foundation


/// SKELETON — replaced by the real codec.
public struct JSONCodec: FormatCodec {
  public init() {}
  public func read(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue {
    throw PrefsError(.badInput, "JSON reading is not built yet")
  }
  public func write(_ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings) throws {
    throw PrefsError(.badInput, "JSON writing is not built yet")
  }
}
