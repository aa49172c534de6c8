import Foundation
import Testing

/// The README's Swift snippets marked `<!-- partner-package: PATH -->`, each written verbatim into a partner's package
/// at PATH, must compile there against this package's products (issue 11.1).
@Suite("README snippets in a partner's package")
struct ReadmePartnerPackageTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// One marked snippet: where it goes in the partner's package, and its code as the README shows it.
  struct Snippet: Equatable {
    var path: String
    var code: String
  }

  /// The snippets marked for the partner's package, in README order; a marker not followed by a Swift code block, or
  /// naming a path outside the package's `Sources/` and `Tests/`, is an error.
  static func snippets(in readme: String) throws -> [Snippet] {
    let lines = readme.components(separatedBy: "\n")
    var snippets: [Snippet] = []
    let prefix = "<!-- partner-package: "
    for (index, line) in lines.enumerated() where line.hasPrefix(prefix) {
      guard line.hasSuffix(" -->") else { throw MarkerError("line \(index + 1): a marker ends with \" -->\"") }
      let path = String(line.dropFirst(prefix.count).dropLast(" -->".count))
      let parts = path.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count >= 3, ["Sources", "Tests"].contains(parts[0]), !parts.contains(".."), !parts.contains(""),
        path.hasSuffix(".swift")
      else {
        throw MarkerError("line \(index + 1): \"\(path)\" is not a Swift file under Sources/TARGET/ or Tests/TARGET/")
      }
      guard index + 1 < lines.count, lines[index + 1] == "```swift" else {
        throw MarkerError("line \(index + 1): the marker for \"\(path)\" is not directly above a ```swift block")
      }
      guard let end = lines[(index + 2)...].firstIndex(of: "```") else {
        throw MarkerError("line \(index + 1): the code block for \"\(path)\" never ends")
      }
      guard !snippets.contains(where: { $0.path == path }) else {
        throw MarkerError("line \(index + 1): \"\(path)\" is marked twice")
      }
      snippets.append(Snippet(path: path, code: lines[(index + 2)..<end].joined(separator: "\n") + "\n"))
    }
    return snippets
  }

  /// Why the README's markers cannot be read.
  struct MarkerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = "README.md: " + description }
  }

  /// The partner's manifest: its test target uses the products as the README says (`AppFlipConformanceTesting`), and
  /// `AppFlipReference` for the stand-in of the partner's own App Flip code.
  static let manifest = """
    // swift-tools-version: 6.0
    import PackageDescription

    let package = Package(
      name: "AcmeApp",
      platforms: [.macOS(.v13), .iOS(.v16)],
      dependencies: [.package(path: "../appflip-conformance")],
      targets: [
        .testTarget(
          name: "AcmeAppTests",
          dependencies: [
            .product(name: "AppFlipConformanceTesting", package: "appflip-conformance"),
            .product(name: "AppFlipReference", package: "appflip-conformance"),
          ])
      ]
    )

    """

  /// Acme's own App Flip code, which the README leaves to the partner (it says "your App Flip code"): a coordinator
  /// with the shape the adapter calls, built on the reference handler: the one copy in ReadmeExampleTests.swift.
  static var partnerCode: String {
    get throws {
      let source = try String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .appendingPathComponent("ReadmeExampleTests.swift"), encoding: .utf8)
      let start = try #require(source.range(of: "// MARK: - A partner's app code"))
      let end = try #require(source.range(of: "// MARK: - The adapter", range: start.upperBound..<source.endIndex))
      let code = source[start.lowerBound..<end.lowerBound]
      return "import AppFlip\nimport AppFlipReference\nimport Foundation\n\n" + code
    }
  }

  /// The first executable named `swift` on PATH.
  static func swiftOnPath() -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  /// Runs a command to its end without holding a thread of the test pool; returns its exit status.
  static func run(_ executable: URL, _ arguments: [String], in folder: URL, log: URL) async throws -> Int32 {
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let output = try FileHandle(forWritingTo: log)
    defer { try? output.close() }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = output
    return try await withCheckedThrowingContinuation { continuation in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
  }

  @Test(
    "README.md marks the adapter and the five-line test for the partner's package, and the adapter uses the shipped doubles"
  )
  func markers() throws {
    let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
    let snippets = try Self.snippets(in: readme)
    #expect(snippets.count >= 2)
    let adapter = try #require(snippets.first { $0.code.contains(": AppFlipHandler {") })
    #expect(adapter.code.contains("RecordingOpener()"), "the adapter records with AppFlipConformanceTesting's opener")
    #expect(adapter.code.contains("import AppFlipConformanceTesting"))
    let test = try #require(snippets.first { $0.code.contains("ConformanceHarness(") })
    #expect(test.code.contains("@Test("))
    #expect(readme.contains("`ScriptedAuthorizationStep` (in `AppFlipConformanceTesting`)"))

    #expect(throws: MarkerError.self) {
      try Self.snippets(in: "<!-- partner-package: ../evil.swift -->\n```swift\n```")
    }
    #expect(throws: MarkerError.self) {
      try Self.snippets(in: "<!-- partner-package: Tests/A/a.swift -->\n\n```swift\n```")
    }
    #expect(
      try Self.snippets(in: "x\n<!-- partner-package: Tests/A/a.swift -->\n```swift\nlet a = 1\n```\n```swift\n```")
        == [Snippet(path: "Tests/A/a.swift", code: "let a = 1\n")])
  }

  @Test(
    "The README's marked snippets compile verbatim in a separate package that depends on this one by path",
    .timeLimit(.minutes(30)))
  func partnerPackageBuilds() async throws {
    guard let swift = Self.swiftOnPath() else {
      Issue.record(
        "`swift` is not on PATH, so the README's snippets cannot be built in a partner's package; put Swift 6 on PATH and run the tests again."
      )
      return
    }
    let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
    let snippets = try Self.snippets(in: readme)
    try #require(!snippets.isEmpty, "README.md marks no snippet with <!-- partner-package: PATH -->")

    // The same paths in the package's own .build every run, so that SwiftPM builds again only what changed since the
    // last run (the whole library the first time); the partner's files are written afresh each time.
    let temporary = Self.repository.appendingPathComponent(".build/partner-package")
    let package = temporary.appendingPathComponent("AcmeApp")
    try? FileManager.default.removeItem(at: package)
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    // A partner's checkout is named after the package (SwiftPM names a path dependency after its folder), so this one
    // is reached through a link of that name to the repository root.
    let link = temporary.appendingPathComponent("appflip-conformance")
    try? FileManager.default.removeItem(at: link)
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: Self.repository)
    func write(_ relative: String, _ text: String) throws {
      let url = package.appendingPathComponent(relative)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    try write("Package.swift", Self.manifest)
    try write("Tests/AcmeAppTests/AcmeAppCode.swift", try Self.partnerCode)
    for snippet in snippets { try write(snippet.path, snippet.code) }

    let log = temporary.appendingPathComponent("build.log")
    let status = try await Self.run(
      swift, ["build", "--build-tests", "--scratch-path", temporary.appendingPathComponent("scratch").path],
      in: package, log: log)
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    var seen: Set<Substring> = []
    let errors = output.split(separator: "\n").filter { $0.contains(" error: ") && seen.insert($0).inserted }.prefix(20)
    #expect(
      status == 0,
      "swift build --build-tests in a partner's package failed (exit \(status)); fix the README snippets:\n\(errors.joined(separator: "\n"))\n\(output.suffix(2_000))"
    )
    // The README runs the command line from the partner's package too: `swift run` builds a dependency's executable.
    let ran = try await Self.run(
      swift,
      ["run", "--scratch-path", temporary.appendingPathComponent("scratch").path, "appflip-conformance", "--version"],
      in: package, log: log)
    let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    #expect(
      ran == 0 && printed.contains("appflip-conformance ") && printed.contains("(commit "),
      "swift run appflip-conformance --version in a partner's package exited \(ran):\n\(printed.suffix(2_000))")
  }
}
