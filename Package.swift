// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "prefs",
  products: [
    .library(name: "PrefsKit", targets: ["PrefsKit"]),
    .executable(name: "prefs", targets: ["prefs"]),
  ],
  traits: [
    // PrefsKit's parts that need all of Foundation, not FoundationEssentials alone:
    // UserSettings and ItemStore (on UserDefaults) and FoundationPlistReader (on
    // PropertyListSerialization). On by default; the release `prefs` binary is built
    // without it (see the Makefile), so that it links no CoreFoundation and ICU.
    .trait(name: "FullFoundation", description: "UserSettings, ItemStore and FoundationPlistReader."),
    .default(enabledTraits: ["FullFoundation"]),
  ],
  targets: [
    .systemLibrary(
      name: "CYaml",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    // A file sees only the members of the modules it imports: with the FullFoundation
    // trait on, all of Foundation is loaded, and its members must not slip into code
    // that the release binary builds on FoundationEssentials alone.
    .target(
      name: "PrefsKit", dependencies: ["CYaml"],
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
    .executableTarget(
      name: "prefs", dependencies: ["PrefsKit"],
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
    // Paths, processes and corpora for both test targets.
    .target(name: "PrefsTestSupport", path: "Tests/PrefsTestSupport"),
    .testTarget(name: "PrefsKitTests", dependencies: ["PrefsKit", "PrefsTestSupport"]),
    .testTarget(name: "prefsTests", dependencies: ["prefs", "PrefsKit", "PrefsTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
