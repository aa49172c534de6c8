import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 9, item 1: every fault of `Tests/Fixtures/oauth-server/faults.py` is an error on its vector, never a crash,
/// a hang or unbounded memory.
@Suite(
  "EndpointAdapter against a misbehaving server",
  .enabled(
    if: PythonFixtures.python,
    "needs python3 (standard library only) for Tests/Fixtures/oauth-server/faults.py; CI installs what it needs and always runs it"
  )
)
struct EndpointFaultTests {
  static let request = EndpointAdapterTests.request

  func failure(_ server: FixtureServer, _ path: String, timeout: Double = 5) async -> EndpointError? {
    await Self.failure(of: EndpointAdapter(endpoint: server.url(path), headers: [], timeout: timeout), path: path)
  }

  /// The `EndpointError` the adapter's one request ends in; an answer or another error is recorded as an issue.
  static func failure(of adapter: EndpointAdapter, path: String) async -> EndpointError? {
    do {
      let observation = try await adapter.handle(request)
      Issue.record("\(path) answered \(observation), not an error")
      return nil
    } catch let error as EndpointError {
      return error
    } catch {
      Issue.record("\(path) threw \(error), not an EndpointError")
      return nil
    }
  }

  @Test("A server that closes without answering, or in the middle of its headers, is an error saying so")
  func closesEarly() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    guard case .closedEarly(_, 0, let part)? = await failure(server, "/close-early") else {
      Issue.record("close-early is not .closedEarly after 0 bytes")
      return
    }
    #expect(part.contains("headers"))
    let middle = await failure(server, "/close-mid-headers")
    guard case .closedEarly(_, let received, _)? = middle else {
      Issue.record("close-mid-headers: \(String(describing: middle))")
      return
    }
    #expect(received > 0)
    #expect(middle?.description.contains("closed the connection") == true)
    #expect(middle?.description.contains("could not connect") == false)
  }

  @Test("A server that never answers, or sends its headers or body a byte at a time, times out on that vector")
  func slow() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    for path in ["/never", "/slow-headers", "/slow-body"] {
      let error = await failure(server, path, timeout: 1)
      guard case .timedOut(_, let seconds)? = error else {
        Issue.record("\(path): expected .timedOut, got \(String(describing: error))")
        continue
      }
      #expect(seconds == 1)
    }
  }

  @Test("An answer that is not HTTP is an error quoting what came")
  func invalid() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    let url = try EndpointAdapter(endpoint: server.url("/invalid"), headers: [], timeout: 1)
      .requestURL(for: Self.request.link).absoluteString
    #expect(await failure(server, "/invalid") == .notHTTP(url: url, start: "SSH-2.0-OpenSSH_9.6\\xD\\xA\\xD\\xA"))
  }

  @Test("A 1 GiB body, announced or streamed, and a compressed body are errors; nothing is read whole or decompressed")
  func hugeAndCompressed() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    guard case .tooLarge(_, let announced, EndpointHTTPClient.bodyLimit)? = await failure(server, "/huge-body") else {
      Issue.record("huge-body is not .tooLarge")
      return
    }
    #expect(announced.contains("1073741824"))
    guard case .tooLarge(_, "body", EndpointHTTPClient.bodyLimit)? = await failure(server, "/huge-stream") else {
      Issue.record("huge-stream is not .tooLarge")
      return
    }
    guard case .compressedBody(_, 200, "gzip")? = await failure(server, "/gzip") else {
      Issue.record("gzip is not .compressedBody")
      return
    }
  }

  @Test("A 1 MiB Location is an error, and a Location that is not UTF-8 is an error quoting its bytes")
  func badLocation() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    guard case .tooLarge(_, let part, EndpointHTTPClient.headerLimit)? = await failure(server, "/huge-location") else {
      Issue.record("huge-location is not .tooLarge")
      return
    }
    #expect(part.contains("headers"))
    #expect(
      await failure(server, "/non-utf8-location")
        == .invalidLocation(status: 302, start: "https://evil.example/\\xFF\\xFE\\xC3"))
  }

  /// What each raw-byte fault of `faults.py` reads as, over `http:` (the suite's own parser sees every byte).
  static let rawLocations: [(path: String, actual: String)] = [
    ("/location-lf", "the Location header holds a raw LF after \"https://oauth-redirect.googleusercontent.com/a/\""),
    (
      "/location-trailing-lf",
      "the Location header holds a raw CR LF after \"https://oauth-redirect.googleusercontent.com/a/com.google.OPA\""
    ),
    ("/location-cr", "the Location header holds a raw CR after \"https://oauth-redirect.googleusercontent.com/a/\""),
    (
      "/location-nul",
      "the Location header holds a raw NUL after \"https://oauth-redirect.googleusercontent.com/a/com.google.OPA\""
    ),
    (
      "/two-locations",
      "the answer has 2 Location headers (\"https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=c1&state=s1\","
        + " \"https://evil.example/cb\")"
    ),
  ]

  /// Checks that `observation` is the AF-EP-6 failure `actual`, opening nothing.
  static func expectHeaderFault(_ observation: Observation, _ actual: String, _ path: String) {
    #expect(observation.opened == nil, "\(path)")
    #expect(observation.findings.map(\.rule) == ["AF-EP-6"] && observation.findings.first?.level == .must, "\(path)")
    #expect(observation.findings.first?.actual == actual, "\(path)")
  }

  @Test("A raw LF, CR LF, CR or NUL in Location, or two Location headers, fails AF-EP-6 and opens nothing")
  func headerInjection() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    for (path, actual) in Self.rawLocations {
      let observation = try await EndpointAdapter(endpoint: server.url(path), headers: [], timeout: 5)
        .handle(Self.request)
      Self.expectHeaderFault(observation, actual, path)
    }
  }

  @Test("Through the runner, a refusal vector answered with a raw newline in Location fails (MUST), never errors")
  func headerInjectionInRunner() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    let catalog = VectorLoader.loadBundled(.endpoint)
    let vector = try #require(catalog.vectors.first { $0.vector.id == "endpoint/refused/whitespace/inner-newline" })
    for path in ["/location-lf", "/location-nul"] {
      let adapter = EndpointAdapter(endpoint: server.url(path), headers: [], timeout: 5)
      let result = await Runner(adapter: adapter, timeout: 60).run(vector)
      #expect(result.status == .failed, "\(path): \(result.details)")
      #expect(result.findings.map(\.rule) == ["AF-EP-6"], "\(path)")
    }
  }

  @Test("An IPv6 literal host connects")
  func ipv6() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    let port = server.ready.port6 ?? server.ready.port
    let adapter = EndpointAdapter(
      endpoint: URL(string: "http://[::1]:\(port)/offsite")!, headers: [], timeout: 5)
    if server.ready.port6 != nil {
      let observation = try await adapter.handle(Self.request)
      #expect(
        observation.opened?.url == "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=c1&state=s1")
    } else {
      // No ::1 on this machine: the literal is still parsed and tried, and refused, never "unsupported URL".
      let error = await #expect(throws: EndpointError.self) { try await adapter.handle(Self.request) }
      guard case .unreachable? = error else {
        Issue.record("expected .unreachable, got \(String(describing: error))")
        return
      }
    }
  }

  @Test("A page's text, not its markup, is quoted, also when sent chunked")
  func pageText() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    let adapter = EndpointAdapter(endpoint: server.url("/chunked-page"), headers: [], timeout: 5)
    let observation = try await adapter.handle(Self.request)
    #expect(observation.diagnostics == "HTTP 400 without a redirect: Error: Mismatching redirect URI.")
  }

  @Test("Through the command, every fault is an error on its vector, the report is written; 3 timeouts end the sending")
  func command() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-faults-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for path in ["/close-mid-headers", "/never", "/gzip", "/huge-stream"] {
      let report = folder.appendingPathComponent("\(path.dropFirst()).xml")
      let json = folder.appendingPathComponent("\(path.dropFirst()).json")
      let code = await ConformanceCommand.run(
        [
          "--endpoint", server.url(path).absoluteString, "--filter", "endpoint/client-exact/*", "--timeout", "1",
          "--report", report.path, "--json", json.path, "--no-preflight",
        ], output: .init(out: { _ in }, err: { _ in }))
      #expect(code == .failure, "\(path)")
      let results = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]
      let summary = results?["summary"] as? [String: Any]
      let errors = path == "/never" ? EndpointSession.timeoutLimit : 9
      #expect(summary?["errors"] as? Int == errors, "\(path)")
      #expect(summary?["inconclusive"] as? Int == 9 - errors, "\(path)")
      let xml = try String(contentsOf: report, encoding: .utf8)
      // Inconclusive vectors are errors of their own type: never passed, never skipped.
      #expect(xml.components(separatedBy: "<error ").count == 9 + 1, "\(path)")
      #expect(xml.components(separatedBy: "<error type=\"inconclusive\"").count == 9 - errors + 1, "\(path)")
    }
  }
}
