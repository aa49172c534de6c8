import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 26: no report or console line shows a secret, and bad input at the token endpoint gets one clear sentence.
@Suite(
  "Token profile: secrets stay secret, and a broken token endpoint is one clear sentence",
  .enabled(if: PythonFixtures.oauthServer, "needs Authlib, Flask and SQLAlchemy for python3: \(FixtureServer.install)")
)
struct TokenFaultTests {
  /// A temporary folder, removed by the caller.
  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-token-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Runs the command against a started Authlib server, the secret in a file, every report written into `folder`;
  /// returns the exit code and every console line.
  static func command(
    server: FixtureServer, folder: URL, options: [String] = []
  ) async throws -> (ConformanceCommand.ExitCode, [String]) {
    let secret = folder.appendingPathComponent("secret")
    try Data((try #require(server.ready.clientSecret) + "\n").utf8).write(to: secret)
    let lines = Lines()
    let code = await ConformanceCommand.run(
      [
        "--endpoint", try #require(server.ready.endpoint), "--cookie", try #require(server.ready.cookie),
        "--token-endpoint", try #require(server.ready.tokenEndpoint), "--secret-file",
        secret.path, "--report", folder.appendingPathComponent("junit.xml").path, "--markdown",
        folder.appendingPathComponent("summary.md").path, "--json", folder.appendingPathComponent("results.json").path,
      ] + options,
      output: .init(out: { lines.add($0) }, err: { lines.add($0) }))
    return (code, lines.all)
  }

  @Test(
    "Every report and console line of a token run shows the secret, codes and tokens only as length and hash",
    arguments: [["--unbound-code"], ["--token-shape", "form"], ["--parsed-redirect"]])
  func noSecretInReports(_ bug: [String]) async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let issued = folder.appendingPathComponent("issued.txt")
    let server = try await FixtureServer.start("server.py", bug + ["--issued", issued.path])
    defer { server.stop() }
    // --parsed-redirect sends codes to near misses of the App Flip URLs: its endpoint findings quote those redirects.
    let only = bug == ["--token-shape", "form"] ? ["--filter", "token/*"] : []
    let (code, console) = try await Self.command(server: server, folder: folder, options: ["--pkce"] + only)
    #expect(code == .failure, "\(console.suffix(5))")
    let secrets =
      [try #require(server.ready.clientSecret)]
      + (try String(contentsOf: issued, encoding: .utf8)).split(separator: "\n").map(String.init)
    #expect(secrets.count > 50, "codes and tokens were issued: \(secrets.count)")
    var texts = ["console": console.joined(separator: "\n")]
    for name in ["junit.xml", "summary.md", "results.json"] {
      texts[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }
    for (name, text) in texts {
      #expect(!text.isEmpty, "\(name) was written")
      for secret in secrets where text.contains(secret) {
        Issue.record("\(name) shows a secret of \(secret.count) bytes")
      }
    }
    // Still enough to send a request again: its form, with each secret described.
    #expect(texts["junit.xml"]?.contains("grant_type=authorization_code&amp;code=(code: ") == true)
    #expect(texts["results.json"]?.contains("client_secret=(client_secret: ") == true)
  }

  /// The results of token vectors (`token/exchange/as-google-sends-it` unless given) against the token endpoint
  /// `token`, with codes from the stub's `/form`, which redirects every request to its redirect_uri with a code.
  static func exchanges(
    at token: (FixtureServer) throws -> URL, timeout: Double = 5,
    ids: [String] = ["token/exchange/as-google-sends-it"]
  ) async throws -> [VectorResult] {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let endpoint = EndpointAdapter(endpoint: stub.url("/form"), headers: [], timeout: timeout)
    let adapter = TokenAdapter(
      endpoint: endpoint, token: TokenEndpoint(url: try token(stub), secret: .init("appflip-fault-secret")))
    var catalog = TokenServerRun.catalog
    catalog.vectors = ids.compactMap { id in catalog.vectors.first { $0.vector.id == id } }
    let runner = Runner(adapter: adapter)
    return await runner.run(catalog)
  }

  /// The result of `token/exchange/as-google-sends-it` against the token endpoint `token`.
  static func exchange(at token: (FixtureServer) throws -> URL, timeout: Double = 5) async throws -> VectorResult {
    try #require(try await exchanges(at: token, timeout: timeout).first)
  }

  @Test(
    "A token request is a form POST with its Content-Length, over the suite's own client and through curl",
    .enabled(if: TestCertificate.available, "needs openssl and curl; CI installs them and always runs it"))
  func post() async throws {
    let tls = try await TestCertificate()
    defer { tls.remove() }
    let plain = try await FixtureServer.start("faults.py")
    defer { plain.stop() }
    let secure = try await FixtureServer.start("faults.py", ["--tls", tls.certificate, tls.key])
    defer { secure.stop() }
    let body = "grant_type=authorization_code&code=c%2F1&client_secret=s"
    for url in [plain.url("/echo-request"), URL(string: "https://127.0.0.1:\(secure.ready.port)/echo-request")!] {
      let answer = try await EndpointTransport.send(
        url, headers: [("Authorization", "Basic YTpi")], body: Array(body.utf8), timeout: 5,
        caCertificate: tls.certificate)
      let echoed = String(decoding: answer.body, as: UTF8.self)
      #expect(answer.status == 200 && echoed.hasPrefix("POST /echo-request HTTP/1.1\r\n"), "\(url): \(echoed)")
      for header in [
        "Content-Type: application/x-www-form-urlencoded", "Content-Length: \(body.utf8.count)", "Accept: */*",
        "Authorization: Basic YTpi",
      ] {
        #expect(echoed.contains("\r\n\(header)\r\n"), "\(url) sent no \(header): \(echoed)")
      }
      #expect(echoed.hasSuffix("\r\n\r\n" + body), "\(url): \(echoed)")
    }
  }

  @Test("An unreachable token endpoint is an error that names --token-endpoint")
  func unreachable() async throws {
    // Port 1 (tcpmux): nothing listens there, and no other test's server can take it, as one can a port just freed.
    let closed = 1
    let result = try await Self.exchange { _ in URL(string: "http://127.0.0.1:\(closed)/token")! }
    #expect(result.status == .error)
    #expect(
      result.message.hasPrefix(
        "the implementation threw: token request 0: could not connect to the token endpoint \"http://127.0.0.1:\(closed)/token\":"
      ),
      "\(result.message)")
    #expect(result.message.hasSuffix("check that it runs and that --token-endpoint names its host and port"))
  }

  @Test("A token endpoint that answers a page, not JSON, fails AF-TK-1 with what it sent")
  func notJSON() async throws {
    let faults = try await FixtureServer.start("faults.py")
    defer { faults.stop() }
    let result = try await Self.exchange { _ in faults.url("/not-json") }
    #expect(result.status == .failed)
    let finding = try #require(result.findings.first)
    #expect(finding.rule == "AF-TK-1" && finding.field == "exchanges[0].body" && result.findings.count == 1)
    #expect(finding.actual == "text that is not JSON (75 bytes): \"Token service Sign in to continue.\"")
  }

  @Test(
    "A 10 MB answer, with or without Content-Length, is an error within the suite's 1 MiB bound",
    arguments: [
      "/ten-mb", "/ten-mb-stream",
    ])
  func tenMegabytes(_ path: String) async throws {
    let faults = try await FixtureServer.start("faults.py")
    defer { faults.stop() }
    let result = try await Self.exchange { _ in faults.url(path) }
    #expect(result.status == .error)
    #expect(result.message.contains("token request 0: the token endpoint: "), "\(result.message)")
    #expect(result.message.contains("over 1024 KiB, more than the suite reads"), "\(result.message)")
  }

  @Test("A token endpoint that never answers is an error after --timeout; after 3 in a row nothing more is sent")
  func hang() async throws {
    let faults = try await FixtureServer.start("faults.py")
    defer { faults.stop() }
    let ids = [
      "token/exchange/as-google-sends-it", "token/exchange/other-app-flip-url", "token/replay/second-exchange",
      "token/replay/unknown-code",
    ]
    let results = try await Self.exchanges(at: { _ in faults.url("/never") }, timeout: 1, ids: ids)
    #expect(results.map(\.status) == [.error, .error, .error, .inconclusive])
    #expect(results[0].message.contains("did not answer within 1.0 seconds; check the server, or raise --timeout"))
    #expect(results.prefix(3).allSatisfy { $0.duration < 5 }, "bounded by the 1 s timeout, below the step's own 4 s")
    #expect(results[3].message.hasPrefix("token request 0 was not sent: the token endpoint did not answer 3 requests"))
    #expect(results[3].duration < 1, "not sent, so not waited for")
  }

  @Test("A missing secret variable, or an unreadable secret file, is one sentence and exit 2 before anything is sent")
  func missingSecret() async throws {
    let variable = "APPFLIP_TEST_UNSET_\(UUID().uuidString.prefix(8))"
    for (options, words) in [
      (["--secret-env", variable], "the environment variable \(variable) is not set"),
      (["--secret-file", "/nonexistent/secret"], "--secret-file \"/nonexistent/secret\" cannot be read"),
    ] {
      let lines = Lines()
      let code = await ConformanceCommand.run(
        ["--endpoint", "http://127.0.0.1:9/authorize", "--token-endpoint", "http://127.0.0.1:9/token"] + options,
        output: .init(out: { lines.add($0) }, err: { lines.add($0) }))
      #expect(code == .usage)
      #expect(lines.all.count == 1 && lines.all[0].hasPrefix("error: " + words), "\(lines.all)")
      #expect(lines.all[0].contains("never from the command line"))
    }
  }
}
