import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 22, items 1, 3 and 5 end to end: a refusal passes only while the canary shows the session works (AF-EP-7),
/// a server that refuses every App Flip URL fails AF-EP-1, and a server that stops answering ends the run in time.
@Suite(
  "Endpoint session: no pass after it ends, AF-EP-1 for a server that refuses every App Flip URL",
  .enabled(
    if: PythonFixtures.oauthServer,
    "needs Authlib, Flask and SQLAlchemy for python3; CI installs what it needs and always runs it")
)
struct EndpointSessionTests {
  /// One result of a run, as its JSON results say.
  struct Result {
    var id: String
    var status: String
    var message: String
  }

  /// Runs the command against `server.py arguments` signed in, with `more` options; its exit code, its results in
  /// catalog order and what it printed to stderr.
  static func run(_ arguments: [String], _ more: [String] = []) async throws -> (
    ConformanceCommand.ExitCode, [Result], [String]
  ) {
    let server = try await FixtureServer.start("server.py", arguments)
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-session-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let errors = Lines()
    let code = await ConformanceCommand.run(
      [
        "--endpoint", try #require(server.ready.endpoint), "--cookie", try #require(server.ready.cookie), "--quiet",
        "--report", folder.appendingPathComponent("r.xml").path, "--json", folder.appendingPathComponent("r.json").path,
      ] + more, output: .init(out: { _ in }, err: { errors.add($0) }))
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("r.json")))
    let results = try #require((json as? [String: Any])?["results"] as? [[String: Any]]).map {
      Result(
        id: $0["id"] as? String ?? "", status: $0["status"] as? String ?? "", message: $0["message"] as? String ?? "")
    }
    return (code, results, errors.all)
  }

  @Test(
    "A session that ends mid-run (a login redirect, or the consent page): no pass from there on, the report says where",
    arguments: ["login", "consent"])
  func sessionEnds(_ page: String) async throws {
    // 60 requests: the preflight, then vectors and a canary after each refusal, well into the refusals.
    let (code, results, errors) = try await Self.run(["--session-requests", "60", "--expired-page", page])
    #expect(code == .failure)
    let ended = try #require(results.firstIndex { $0.message.hasPrefix("the test user's session ended here") })
    #expect(results[ended].status == "inconclusive")
    let after = results[(ended + 1)...]
    #expect(!after.isEmpty && after.allSatisfy { $0.status == "inconclusive" }, "\(after.map(\.status))")
    #expect(after.allSatisfy { $0.message.contains("session ended at \"\(results[ended].id)\"") })
    // Before it, the canary let real refusals pass: the session worked.
    #expect(results[..<ended].contains { $0.id.hasPrefix("endpoint/foreign-error/") && $0.status == "passed" })
    #expect(!results[..<ended].contains { $0.status == "inconclusive" || $0.status == "failed" })
    let reason = page == "login" ? "asks the test user to sign in" : "consent page"
    #expect(results[ended].message.contains(reason), "\(results[ended].message)")
    #expect(errors.contains { $0.contains("session ended at \"\(results[ended].id)\"") }, "\(errors)")
  }

  @Test("A server that refuses every App Flip URL fails AF-EP-1: the accepted vectors fail, the refusals inconclusive")
  func refusesEveryAppFlipURL() async throws {
    let (code, results, errors) = try await Self.run(["--project-urls-only"])
    #expect(code == .failure)
    let accepted = EndpointRealServerTests.accepted
    #expect(Set(results.filter { $0.status == "failed" }.map(\.id)) == accepted)
    #expect(results.filter { !accepted.contains($0.id) }.allSatisfy { $0.status == "inconclusive" })
    #expect(
      errors.contains { $0.contains("fails AF-EP-1") && $0.contains("Redirect URI") && $0.contains("register") },
      "\(errors)")
  }

  @Test("A correct server with a session that lasts passes as before: the canary changes no verdict")
  func lastingSession() async throws {
    let (code, results, _) = try await Self.run(
      [], ["--filter", "endpoint/refused/*", "--filter", "endpoint/accepted/*"])
    #expect(code == .success)
    #expect(results.allSatisfy { $0.status == "passed" }, "\(results.filter { $0.status != "passed" }.map(\.id))")
  }
}
