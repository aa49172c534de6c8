import AppFlipConformance
import Foundation
import Testing

/// The reports of two fixed runs, byte for byte apart from times, against files recorded in `Tests/Fixtures/golden/`.
///
/// These guard refactoring: a change that alters any report changes a golden file, in review. To re-record after an
/// intended change, run `APPFLIP_RECORD_GOLDEN=1 swift test --filter GoldenReportTests` and read the diff.
@Suite("Golden reports")
struct GoldenReportTests {
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/golden")

  let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  /// Runs the command with every report requested, and returns the reports with times and paths made stable.
  func reports(_ arguments: [String]) async throws -> (code: ConformanceCommand.ExitCode, files: [String: String]) {
    let captured = CapturedOutput()
    let names = ["junit.xml", "summary.md", "results.json"]
    let code = await ConformanceCommand.run(
      arguments + [
        "--jobs", "1", "--report", folder.appendingPathComponent(names[0]).path,
        "--markdown", folder.appendingPathComponent(names[1]).path,
        "--json", folder.appendingPathComponent(names[2]).path,
      ],
      output: captured.output)
    var files: [String: String] = [:]
    for name in names {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      files[name] = Self.stable(text, folder: folder.path)
    }
    files["console.txt"] = Self.stable(captured.out + "\n--- stderr\n" + captured.err + "\n", folder: folder.path)
    return (code, files)
  }

  /// Replaces what differs between runs: durations, timestamps, the temporary folder, the suite's commit.
  static func stable(_ text: String, folder: String) -> String {
    var text = folder.isEmpty ? text : text.replacingOccurrences(of: folder, with: "<tmp>")
    if SuiteInfo.commit != "unknown" {
      text = text.replacingOccurrences(of: SuiteInfo.commit, with: "<commit>")
        .replacingOccurrences(of: "commit " + SuiteInfo.commit.prefix(12), with: "commit <commit>")
    }
    let patterns: [(String, String)] = [
      (#"time="[0-9.]+""#, #"time="T""#),
      (#"timestamp="[^"]+""#, #"timestamp="T""#),
      (#""(duration|durationSeconds|seconds)" ?: ?[0-9.eE+-]+"#, #""$1": 0"#),
      (#""(startedAt|finishedAt|timestamp|date)" ?: ?"[^"]*""#, #""$1": "T""#),
      (#"[0-9]+\.[0-9]+ ?s\b"#, "N s"),
      (#"in [0-9.]+ ?(ms|s)\b"#, "in N s"),
    ]
    for (pattern, template) in patterns {
      text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
    }
    return text
  }

  /// Compares each report with its golden file, or records it when `APPFLIP_RECORD_GOLDEN` is set.
  func check(_ files: [String: String], as scenario: String) throws {
    let folder = Self.golden.appendingPathComponent(scenario)
    let record = ProcessInfo.processInfo.environment["APPFLIP_RECORD_GOLDEN"] != nil
    if record { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    for (name, text) in files.sorted(by: { $0.key < $1.key }) {
      let url = folder.appendingPathComponent(name)
      if record {
        try Data(text.utf8).write(to: url)
        continue
      }
      let expected = try String(contentsOf: url, encoding: .utf8)
      let actual = text.split(separator: "\n", omittingEmptySubsequences: false)
      let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let first =
        zip(actual, wanted).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(actual.count, wanted.count)
      let same = text == expected
      #expect(
        same,
        """
        \(scenario)/\(name) differs from the golden file at line \(first + 1):
          expected: \(first < wanted.count ? String(wanted[first].prefix(300)) : "<end of file>")
          actual:   \(first < actual.count ? String(actual[first].prefix(300)) : "<end of file>")
        """)
    }
  }

  @Test("The bundled vectors under a Google Home-only configuration give the recorded reports")
  func bundledUnderPartnerConfiguration() async throws {
    let config = folder.appendingPathComponent("home.json")
    try Data(
      """
      {"clientId": "987654321098-partner.apps.googleusercontent.com",
       "allowedRedirectUris": ["https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"]}
      """.utf8
    ).write(to: config)
    let (code, files) = try await reports(["--config", config.path])
    #expect(code == .success)
    try check(files, as: "bundled-home")
  }

  @Test("Failures, warnings, bad vectors, a waived and a stale vector give the recorded reports")
  func failuresWarningsErrorsAndWaivers() async throws {
    let wrongVerdict = """
      {"verdict": "rejected", "reply": {"base": "\(Fixtures.redirect)", "error": "invalid_request", "state": "s1"}}
      """
    let vectors = folder.appendingPathComponent("mine.json")
    try Fixtures.file(
      [
        Fixtures.accepted(id: "t/passes"),
        Fixtures.accepted(id: "t/fails", expect: wrongVerdict),
        Fixtures.accepted(id: "t/bad id <&>"),
        Fixtures.accepted(id: "t/warns", expect: wrongVerdict)
          .replacingOccurrences(of: #""level": "must""#, with: #""level": "should""#),
        Fixtures.accepted(id: "t/waived", expect: wrongVerdict),
        Fixtures.accepted(id: "t/stale"),
        Fixtures.accepted(id: "t/misspelled", extra: #""sepc": [],"#),
      ]
    ).write(to: vectors)
    let waivers = folder.appendingPathComponent("waivers.json")
    try Data(
      """
      {"schemaVersion": 1, "waivers": [{"id": "t/waived", "reason": "tracked in ACME-12"}, {"id": "t/stale", "reason": "fixed since"}]}
      """.utf8
    ).write(to: waivers)
    let (code, files) = try await reports([
      "--no-bundled", "--vectors", vectors.path, "--waivers", waivers.path,
    ])
    #expect(code == .usage)
    try check(files, as: "failures-and-waivers")
  }
}
