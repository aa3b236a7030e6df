// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "prefs",
  products: [
    .library(name: "PrefsKit", targets: ["PrefsKit"]),
    .executable(name: "prefs", targets: ["prefs"]),
  ],
  targets: [
    .systemLibrary(
      name: "CYaml",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "PrefsKit", dependencies: ["CYaml"]),
    .executableTarget(name: "prefs", dependencies: ["PrefsKit"]),
    // Paths, processes and corpora for both test targets.
    .target(name: "PrefsTestSupport", path: "Tests/PrefsTestSupport"),
    .testTarget(name: "PrefsKitTests", dependencies: ["PrefsKit", "PrefsTestSupport"]),
    .testTarget(name: "prefsTests", dependencies: ["prefs", "PrefsKit", "PrefsTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
