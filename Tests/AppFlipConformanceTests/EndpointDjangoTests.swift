import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 9, item 6: a third real server, django-oauth-toolkit, which requires PKCE and signs its user in on its own
/// login page.
@Suite(
  "Endpoint profile against django-oauth-toolkit (Tests/Fixtures/oauth-server/dot_server.py)",
  .enabled(
    if: PythonFixtures.djangoOAuthToolkit,
    "needs Django and django-oauth-toolkit for python3: python3 -m pip install -r Tests/Fixtures/oauth-server/requirements.txt"
  )
)
struct EndpointDjangoTests {
  typealias Outcome = EndpointRealServerTests.Outcome

  /// What django-oauth-toolkit's own redirect check lets through, configured exactly: it compares `urlsplit` parts,
  /// so the scheme and host are compared without case, an empty port (`host:`) is no port, and a trailing newline,
  /// which `urlsplit` removes, is not there.
  static let foldsCaseAndEmptyPort: Set<String> = [
    "endpoint/refused/case/scheme-upper", "endpoint/refused/case/host-mixed",
    "endpoint/refused/case/host-sandbox-upper", "endpoint/refused/port/bare-colon",
    "endpoint/refused/whitespace/trailing-newline",
  ]

  @Test("Configured exactly, with --pkce, it fails only what its urlsplit check folds (case, host:, a newline)")
  func correct() async throws {
    let outcome = try await EndpointRealServerTests().run([], script: "dot_server.py", pkce: true)
    #expect(
      outcome == Outcome(failed: Self.foldsCaseAndEmptyPort, warned: EndpointRealServerTests.clientVerification),
      "\(outcome)")
  }

  @Test("Without the sandbox URLs, exactly the six sandbox vectors fail besides its own findings")
  func noSandbox() async throws {
    let outcome = try await EndpointRealServerTests().run(["--no-sandbox"], script: "dot_server.py", pkce: true)
    #expect(
      outcome
        == Outcome(
          failed: Self.foldsCaseAndEmptyPort.union(EndpointRealServerTests.sandbox),
          warned: EndpointRealServerTests.clientVerification),
      "\(outcome)")
  }

  @Test("A wildcard host (https://*.googleusercontent.com/a/…) lets hosts that end in Google's domain through")
  func wildcardHost() async throws {
    let outcome = try await EndpointRealServerTests().run(["--wildcard-host"], script: "dot_server.py", pkce: true)
    let lookAlikes: Set = [
      "endpoint/refused/look-alike/prefix-host", "endpoint/refused/look-alike/other-subdomain",
      "endpoint/refused/look-alike/idn-punycode", "endpoint/refused/percent/encoded-host-character",
    ]
    #expect(
      outcome
        == Outcome(
          failed: Self.foldsCaseAndEmptyPort.union(lookAlikes), warned: EndpointRealServerTests.clientVerification),
      "\(outcome)")
  }

  @Test("Without --pkce the preflight stops with PKCE as the diagnosis, not a pass")
  func pkceRequired() async throws {
    let server = try await FixtureServer.start("dot_server.py")
    defer { server.stop() }
    let endpoint = try #require(server.ready.endpoint.flatMap(URL.init(string:)))
    let adapter = EndpointAdapter(
      endpoint: endpoint, headers: [("Cookie", try #require(server.ready.cookie))], timeout: 10)
    let outcome = await adapter.prove(configuration: .default)
    guard case .failed(let diagnosis) = outcome else {
      Issue.record("the preflight got a code without PKCE")
      return
    }
    #expect(diagnosis.contains("requires PKCE; add --pkce"), "\(diagnosis)")
  }

  @Test("Through the command: --login-command signs the test user in on the server's login page, --pkce, exit 0")
  func loginCommand() async throws {
    let server = try await FixtureServer.start("dot_server.py")
    defer { server.stop() }
    let login = try #require(server.ready.login)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-dot-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    // What a partner writes with curl (-c "$APPFLIP_COOKIE_JAR" -d username=… -d password=…), in Python's words.
    let script =
      "import http.cookiejar, os, urllib.parse, urllib.request;"
      + " jar = http.cookiejar.MozillaCookieJar(os.environ['APPFLIP_COOKIE_JAR']);"
      + " urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)).open('\(login)',"
      + " urllib.parse.urlencode({'username': 'appflip', 'password': 'appflip'}).encode());"
      + " jar.save(ignore_discard=True)"
    let errors = Lines()
    let arguments = [
      "--endpoint", try #require(server.ready.endpoint), "--pkce", "--filter", "endpoint/refused/look-alike/*",
      "--quiet", "--report", folder.appendingPathComponent("r.xml").path,
    ]
    let signedIn = await ConformanceCommand.run(
      arguments + ["--login-command", "python3 -c \"\(script)\""],
      output: .init(out: { _ in }, err: { errors.add($0) }))
    #expect(signedIn == .success, "\(errors.all)")
    let signedOut = await ConformanceCommand.run(arguments, output: .init(out: { _ in }, err: { errors.add($0) }))
    #expect(signedOut == .failure)
    #expect(errors.all.contains { $0.contains("preflight") && $0.contains("no session cookie was sent") })
  }
}
