import PrefsModel

#if canImport(Glibc)
  import Glibc

  /// `read(2)`, named apart from the `read` methods of the types that call it.
  package let systemRead = Glibc.read
  /// `write(2)`, named apart from the `write` methods of the types that call it.
  let systemWrite = Glibc.write
#elseif canImport(Musl)
  import Musl

  package let systemRead = Musl.read
  let systemWrite = Musl.write
#else
  import Darwin

  package let systemRead = Darwin.read
  let systemWrite = Darwin.write
#endif
