// swift-tools-version:6.1
import Foundation
import PackageDescription

// One target per layer, each depending only on the layers below it, so that the
// compiler holds the direction (ARCHITECTURE.md):
//
//   prefs (CLI) -> PrefsOperations -> PrefsStore -> PrefsDocument -> PrefsFormats -> PrefsText -> PrefsModel
//
// PrefsKit is the facade a Swift program imports; PrefsTutorial holds the tutorial's
// own types. Only PrefsFormats sees libyaml (CYaml).

// A file sees only the members of the modules it imports: with the FullFoundation trait
// on, all of Foundation is loaded, and its members must not slip into code that the
// release binary builds on FoundationEssentials alone.
let strictImports: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

// The Swift parser the toolchain ships in its host libraries (`<toolchain>/usr/lib/swift/host`:
// SwiftParser, SwiftSyntax, SwiftOperators), found from the `swiftc` on PATH. The scanner
// behind `prefs schema scan` (prefs-scan-swift) links it and is built only where it is
// there; the prefs binary never links it.
func swiftSyntaxHostLibraries() -> String? {
  let fileManager = FileManager.default
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  for folder in path.split(separator: ":") {
    let swiftc = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
    guard fileManager.isExecutableFile(atPath: swiftc.path) else { continue }
    let toolchain = swiftc.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
    let host = toolchain.appendingPathComponent("lib/swift/host")
    let modules = ["SwiftSyntax", "SwiftParser", "SwiftOperators"]
    let present = modules.allSatisfy { module in
      fileManager.fileExists(atPath: host.appendingPathComponent("\(module).swiftmodule").path)
        && ["so", "dylib"].contains {
          fileManager.fileExists(atPath: host.appendingPathComponent("lib\(module).\($0)").path)
        }
    }
    return present ? host.path : nil
  }
  return nil
}

let swiftSyntax = swiftSyntaxHostLibraries()

/// The scanner's targets and product, where the toolchain has SwiftSyntax.
let scannerTargets: [Target] =
  swiftSyntax.map { host in
    [
      .target(
        name: "PrefsSwiftScan", dependencies: ["PrefsKit"],
        swiftSettings: strictImports + [.unsafeFlags(["-I", host])],
        linkerSettings: [
          .unsafeFlags(["-L", host, "-Xlinker", "-rpath", "-Xlinker", host]),
          .linkedLibrary("SwiftSyntax"), .linkedLibrary("SwiftParser"), .linkedLibrary("SwiftOperators"),
        ]),
      .executableTarget(
        name: "prefs-scan-swift", dependencies: ["PrefsSwiftScan"],
        swiftSettings: strictImports + [.unsafeFlags(["-I", host])]),
    ]
  } ?? []
let scannerProducts: [Product] =
  swiftSyntax == nil ? [] : [.executable(name: "prefs-scan-swift", targets: ["prefs-scan-swift"])]

let package = Package(
  name: "prefs",
  products: [
    .library(name: "PrefsKit", targets: ["PrefsKit"]),
    .library(name: "PrefsTutorial", targets: ["PrefsTutorial"]),
    .executable(name: "prefs", targets: ["prefs"]),
  ] + scannerProducts,
  traits: [
    // The parts that need all of Foundation, not FoundationEssentials alone: the
    // Foundation bridge (PropertyListSerialization, UserDefaults) and the tutorial's
    // UserSettings and ItemStore. On by default; the release `prefs` binary is built
    // without it (see the Makefile), so that it links no CoreFoundation and ICU.
    .trait(
      name: "FullFoundation",
      description: "The Foundation bridge (PropertyListSerialization, UserDefaults) and the tutorial's types."),
    .default(enabledTraits: ["FullFoundation"]),
  ],
  targets: [
    .systemLibrary(
      name: "CYaml",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "PrefsModel", swiftSettings: strictImports),
    .target(name: "PrefsText", dependencies: ["PrefsModel"], swiftSettings: strictImports),
    .target(name: "PrefsFormats", dependencies: ["PrefsText", "CYaml"], swiftSettings: strictImports),
    .target(name: "PrefsDocument", dependencies: ["PrefsFormats"], swiftSettings: strictImports),
    .target(name: "PrefsStore", dependencies: ["PrefsDocument"], swiftSettings: strictImports),
    .target(name: "PrefsOperations", dependencies: ["PrefsStore"], swiftSettings: strictImports),
    .target(name: "PrefsKit", dependencies: ["PrefsOperations"], swiftSettings: strictImports),
    .target(name: "PrefsTutorial", dependencies: ["PrefsKit"], swiftSettings: strictImports),
    .executableTarget(name: "prefs", dependencies: ["PrefsKit"], swiftSettings: strictImports),
    // Paths, processes and corpora for both test targets.
    .target(name: "PrefsTestSupport", path: "Tests/PrefsTestSupport"),
    .testTarget(
      name: "PrefsKitTests", dependencies: ["PrefsKit", "PrefsTutorial", "PrefsTestSupport"]),
    .testTarget(name: "prefsTests", dependencies: ["prefs", "PrefsKit", "PrefsTestSupport"]),
  ] + scannerTargets,
  swiftLanguageModes: [.v6]
)
