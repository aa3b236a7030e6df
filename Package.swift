// swift-tools-version:6.1
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

let package = Package(
  name: "prefs",
  products: [
    .library(name: "PrefsKit", targets: ["PrefsKit"]),
    .library(name: "PrefsTutorial", targets: ["PrefsTutorial"]),
    .executable(name: "prefs", targets: ["prefs"]),
  ],
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
  ],
  swiftLanguageModes: [.v6]
)
