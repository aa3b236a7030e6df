// The one place that chooses the platform's modules; every other file of every layer
// sees them through this module. Foundation is FoundationEssentials wherever the
// toolchain has it (the release binary links no CoreFoundation or ICU), and the C
// library is whichever the system has.
#if canImport(FoundationEssentials)
  @_exported import FoundationEssentials
#else
  @_exported import Foundation
#endif

#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif
