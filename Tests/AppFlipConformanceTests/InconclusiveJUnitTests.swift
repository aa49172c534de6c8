import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 23, item 5: an endpoint run whose refusals prove nothing is not passed in any report, nor in a dashboard that
/// reads the JUnit report: each inconclusive vector is an `<error type="inconclusive">`, as the exit code counts it.
@Suite(
  "Inconclusive results are not passed in JUnit",
  .enabled(
    if: PythonFixtures.oauthServer && (PythonFixtures.inCI || PythonFixtures.canImport("junitparser")),
    "needs Authlib, Flask, SQLAlchemy and junitparser for python3; CI installs what it needs and always runs it")
)
struct InconclusiveJUnitTests {
  @Test("An inconclusive endpoint run's JUnit report fails junitparser's count of passed tests, as its exit code does")
  func junitparserCountsNoPass() async throws {
    let server = try await FixtureServer.start("server.py")
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-inconclusive-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let junit = folder.appendingPathComponent("r.xml")
    let json = folder.appendingPathComponent("r.json")
    let markdown = folder.appendingPathComponent("r.md")
    // No session: every refusal is answered by the server's login page, so it proves nothing (AF-EP-5).
    let code = await ConformanceCommand.run(
      [
        "--endpoint", try #require(server.ready.endpoint), "--no-preflight", "--filter", "endpoint/refused/case/*",
        "--quiet", "--report", junit.path, "--json", json.path, "--markdown", markdown.path,
      ], output: .init(out: { _ in }, err: { _ in }))
    #expect(code == .failure)
    let document = try JSONResultsReport.read(from: json)
    let inconclusive = document.summary.inconclusive
    #expect(inconclusive > 0 && document.summary.passed == 0, "\(document.summary)")

    let script = """
      import sys
      from junitparser import JUnitXml, Error
      xml = JUnitXml.fromfile(sys.argv[1])
      cases = [case for suite in xml for case in suite]
      passed = [case for case in cases if case.is_passed]
      skipped = [case for case in cases if case.is_skipped]
      inconclusive = [case for case in cases if any(isinstance(r, Error) and r.type == "inconclusive" for r in case.result)]
      print(len(cases), len(passed), len(skipped), len(inconclusive), sum(suite.errors for suite in xml))
      """
    let output = try await offCooperativePool { try PythonScript.run(script, [junit.path]) }
    let counts = output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    #expect(counts == [document.summary.total, 0, 0, inconclusive, inconclusive], "junitparser read \(output)")

    let summary = try String(contentsOf: markdown, encoding: .utf8)
    #expect(summary.contains("| inconclusive |") && summary.contains("❌ **Failed**"), "\(summary.prefix(600))")
  }
}

/// Runs a Python script with arguments and returns what it printed.
enum PythonScript {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static func run(_ script: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [PythonFixtures.interpreter, "-c", script] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let problem = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(
        description: "python3 exited \(process.terminationStatus): \(String(decoding: problem, as: UTF8.self))")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
