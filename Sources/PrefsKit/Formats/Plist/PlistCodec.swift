import Foundation

/// Which property list format a ``PlistCodec`` writes.
public enum PlistVariant: Sendable { case xml, binary, openStep }

/// SKELETON — replaced by the real codec.
public struct PlistCodec: FormatCodec {
  public let variant: PlistVariant
  public init(variant: PlistVariant) { self.variant = variant }
  public func read(_ data: Data, options: ReadOptions, warnings: Warnings) throws -> PrefValue {
    throw PrefsError(.badInput, "plist reading is not built yet")
  }
  public func write(_ value: PrefValue, to writer: ByteWriter, options: WriteOptions, warnings: Warnings) throws {
    throw PrefsError(.badInput, "plist writing is not built yet")
  }
}
