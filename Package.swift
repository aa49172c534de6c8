// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "appflip-conformance",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    // The App Flip model: link parsing, allow-list, error codes, reply encoding.
    .library(name: "AppFlip", targets: ["AppFlip"]),
    // A correct App Flip handler a partner may ship in its app; depends only on the model.
    .library(name: "AppFlipReference", targets: ["AppFlipReference"]),
    // The conformance harness: vectors, adapters, runner, judge, reports.
    .library(name: "AppFlipConformance", targets: ["AppFlipConformance"]),
    // Swift Testing glue for a partner's test target.
    .library(name: "AppFlipConformanceTesting", targets: ["AppFlipConformanceTesting"]),
    .executable(name: "appflip-conformance", targets: ["appflip-conformance"]),
  ],
  dependencies: [],
  targets: [
    .target(name: "AppFlip"),
    .target(name: "AppFlipReference", dependencies: ["AppFlip"]),
    // The bundled vectors live at the top-level `Vectors/` folder and ship as resources.
    .target(
      name: "AppFlipVectors",
      path: "Vectors",
      exclude: ["README.md", "manifest.json", "matcher"],
      resources: [
        .copy("corpus"), .copy("endpoint"), .copy("token"), .copy("association"), .copy("schema"), .copy("flags.json"),
        .copy("RULES.md"),
      ]
    ),
    .target(
      name: "AppFlipConformance",
      dependencies: ["AppFlip", "AppFlipReference", "AppFlipVectors"]
    ),
    .target(
      name: "AppFlipConformanceTesting",
      dependencies: ["AppFlipConformance"]
    ),
    .executableTarget(
      name: "appflip-conformance",
      dependencies: ["AppFlipConformance"]
    ),
    // The bundled reference handler served over the subprocess protocol (Docs/PROTOCOL.md): an example adapter.
    .executableTarget(
      name: "appflip-reference-subprocess",
      dependencies: ["AppFlip", "AppFlipReference"],
      path: "Examples/swift-reference"
    ),
    // Lints the vector corpus: schema, ids, flags, rule coverage, the id manifest.
    .executableTarget(
      name: "appflip-lint",
      dependencies: ["AppFlipConformance"]
    ),
    // Prints how fast the harness is (in-process, bare loop, subprocess, JUnit); figures only, never asserted. It lives
    // in Benchmarks/, not Sources/, but stays a target of this package: the figures (serial share, per-phase
    // breakdown, transport) measure `package` internals a nested package could not see without an SPI surface.
    .executableTarget(
      name: "appflip-bench",
      dependencies: ["AppFlip", "AppFlipReference", "AppFlipConformance", "AppFlipConformanceTesting"],
      path: "Benchmarks/appflip-bench"
    ),
    // Deliberately broken App Flip handlers: the suite must catch every one (mutation testing).
    .target(
      name: "AppFlipMutants",
      dependencies: ["AppFlip", "AppFlipConformance"]
    ),
    // Prints which vectors catch which mutant (the kill matrix).
    .executableTarget(
      name: "appflip-mutants",
      dependencies: ["AppFlipMutants", "AppFlipConformance"]
    ),
    .testTarget(
      name: "AppFlipTests",
      dependencies: ["AppFlip", "AppFlipReference"]
    ),
    .testTarget(
      name: "AppFlipConformanceTests",
      dependencies: ["AppFlipConformance", "AppFlipConformanceTesting", "AppFlipReference", "AppFlipMutants"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
