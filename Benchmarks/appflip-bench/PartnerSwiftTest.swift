import Foundation

/// Issue 11's measure as a partner meets it: a package outside this one, depending on it by path, runs the README's
/// harness under `swift test` (a debug build) against a failing handler; the JUnit report's cost, crash journal
/// included, is read from the harness's closing summary and set against Swift Testing's own test-phase time.
enum PartnerSwiftTest {
  /// The failing handler: the reference handler's decisions, opened without the universal-links-only option and with
  /// spaces form-encoded as `+` (the sample-code bugs the corpus was written for).
  static let testFile = """
    import AppFlip
    import AppFlipConformance
    import AppFlipConformanceTesting
    import AppFlipReference
    import Foundation
    import Testing

    struct FailingHandler: AppFlipHandler {
      let reference = AppFlipReferenceHandler(
        configuration: AppFlipConfiguration(clientID: PartnerConfiguration.default.clientID))

      func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
        guard let opened = await reference.handle(link, authorize: { await authorizer.requestCode($0) }) else {
          return nil
        }
        return OpenedURL(url: opened.url.replacingOccurrences(of: "%20", with: "+"), universalLinksOnly: false)
      }
    }

    let appFlip = ConformanceHarness(
      handler: FailingHandler(),
      junit: ProcessInfo.processInfo.environment["APPFLIP_BENCH_NO_JUNIT"] == nil ? "Reports/appflip.xml" : nil)

    @Test("App Flip conformance", arguments: appFlip.cases)
    func appFlipConformance(_ vector: ConformanceCase) async { await appFlip.check(vector) }

    """

  /// The partner's manifest, depending on this checkout by path (SwiftPM names a path dependency after its folder).
  static func manifest(root: String) -> String {
    let identity = URL(fileURLWithPath: root).lastPathComponent.lowercased()
    return
      """
      // swift-tools-version: 6.0
      import PackageDescription

      let package = Package(
        name: "AcmeApp",
        platforms: [.macOS(.v13), .iOS(.v16)],
        dependencies: [.package(path: \(String(reflecting: root)))],
        targets: [
          .testTarget(
            name: "AcmeAppTests",
            dependencies: [
              .product(name: "AppFlipConformanceTesting", package: \(String(reflecting: identity))),
              .product(name: "AppFlipReference", package: \(String(reflecting: identity))),
            ])
        ]
      )

      """
  }

  /// Builds the partner package once (a minute or two), runs its `swift test` `options.rounds` times and prints the
  /// median share.
  static func print(_ options: BenchOptions) {
    let label = "swift test: harness JUnit share"
    guard let swift = Executables.find("swift") else {
      Swift.print(Format.row(label, "not available (no swift on PATH)"))
      return
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "appflip-bench-partner-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      let tests = folder.appendingPathComponent("Tests/AcmeAppTests")
      try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
      try Data(manifest(root: root).utf8).write(to: folder.appendingPathComponent("Package.swift"))
      try Data(testFile.utf8).write(to: tests.appendingPathComponent("AppFlipTests.swift"))
    } catch {
      Swift.print(Format.row(label, "cannot write a package in \(folder.path): \(error.localizedDescription)"))
      return
    }
    FileHandle.standardError.write(Data("building a partner package in debug, as swift test does (minutes)…\n".utf8))
    let (built, buildLog) = run(swift, ["build", "--build-tests"], in: folder)
    guard built == 0 else {
      Swift.print(Format.row(label, "the partner package did not build (exit \(built)):\n\(buildLog.suffix(2_000))"))
      return
    }
    var shares: [Double] = []
    var junits: [Double] = []
    var phases: [Double] = []
    var bare: [Double] = []
    var issues = ""
    // Rounds with and without the JUnit report alternate, so the machine's drift touches both alike.
    for _ in 0..<options.rounds * 3 {
      let (_, plain) = run(swift, ["test", "--skip-build"], in: folder, environment: ["APPFLIP_BENCH_NO_JUNIT": "1"])
      guard let phase = number(in: plain, after: "failed after ", before: " seconds") else {
        Swift.print(Format.row(label, "could not read the summary of swift test:\n\(plain.suffix(2_000))"))
        return
      }
      bare.append(phase)
      let (_, output) = run(swift, ["test", "--skip-build"], in: folder)
      guard let junit = number(in: output, after: "(written in ", before: " ms)"),
        let phase = number(in: output, after: "failed after ", before: " seconds")
      else {
        Swift.print(Format.row(label, "could not read the summary of swift test:\n\(output.suffix(2_000))"))
        return
      }
      issues =
        output.components(separatedBy: "\n").last { $0.contains("Test run with") }?
        .components(separatedBy: " with ").last ?? ""
      junits.append(junit / 1_000)
      phases.append(phase)
      shares.append(junit / 1_000 / phase)
    }
    Swift.print(
      Format.row(
        label,
        String(format: "%.1f %%", Format.median(shares) * 100)
          + " of it, summed: \(Format.seconds(Format.median(junits))) spent on JUnit (the crash journal included) against a "
          + "\(Format.seconds(Format.median(phases))) test phase; a failing handler (\(issues)); debug build; "
          + "median of \(phases.count)"))
    let added = Format.median(phases) - Format.median(bare)
    Swift.print(
      Format.row(
        "swift test: phase with JUnit − without",
        String(format: "%.1f %%", added / Format.median(bare) * 100)
          + " (goal < 5 %): \(Format.seconds(Format.median(phases))) with the report, "
          + "\(Format.seconds(Format.median(bare))) without (the crash journal is written before the phase starts, "
          + "its in-place writes and the final report within it); median of \(bare.count) each, alternating"))
  }

  /// Runs a command to its end; its exit status and its output and errors together.
  static func run(
    _ executable: String, _ arguments: [String], in folder: URL, environment: [String: String] = [:]
  ) -> (Int32, String) {
    let process = Process()
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return (-1, "cannot run \(executable): \(error.localizedDescription)")
    }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }

  /// The number between the last `prefix` and the next `suffix` in `text`.
  static func number(in text: String, after prefix: String, before suffix: String) -> Double? {
    guard let start = text.range(of: prefix, options: .backwards),
      let end = text.range(of: suffix, range: start.upperBound..<text.endIndex)
    else { return nil }
    return Double(text[start.upperBound..<end.lowerBound])
  }
}
