import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 26: the token profile against the real OAuth servers the endpoint tests start, each set up as a partner sets
/// it up for Google's account linking (its token endpoint, Google's client secret, refresh tokens), and against the
/// Authlib server with one token-endpoint bug each.
struct TokenServerRun {
  typealias Outcome = EndpointRealServerTests.Outcome

  /// The vector ids of each status other than passed.
  var outcome = Outcome()
  /// Every result, by vector id.
  var results: [String: VectorResult] = [:]

  /// The findings of a vector as `rule field` strings.
  func findings(_ id: String) -> Set<String> {
    Set((results[id]?.findings ?? []).map { "\($0.rule) \($0.field)" })
  }

  /// The endpoint vectors and their codes' exchanges, and the token vectors, against `script` started with `arguments`;
  /// `only` selects vectors, `jobs` runs them on that many copies of the adapter at once.
  static func run(
    _ script: String = "server.py", _ arguments: [String] = [], pkce: Bool = false,
    auth: Vector.Exchange.ClientAuth = .body, codeLifetime: Double? = nil, jobs: Int = 1,
    only: (String) -> Bool = { _ in true }
  ) async throws -> TokenServerRun {
    let server = try await FixtureServer.start(script, arguments)
    defer { server.stop() }
    let endpoint = EndpointAdapter(
      endpoint: try #require(server.ready.endpoint.flatMap(URL.init(string:))),
      headers: [("Cookie", try #require(server.ready.cookie))], timeout: 10, parameters: [], scope: nil, pkce: pkce)
    let token = TokenEndpoint(
      url: try #require(server.ready.tokenEndpoint.flatMap(URL.init(string:))),
      secret: .init(try #require(server.ready.clientSecret)), auth: auth, codeLifetime: codeLifetime)
    let adapter = TokenAdapter(endpoint: endpoint, token: token)
    let preflight = await endpoint.prove(configuration: .default)
    #expect(preflight == .proven(redirectURI: PartnerConfiguration.default.primaryRedirectURI), "\(preflight)")
    var catalog = VectorLoader.loadBundled(.token)
    #expect(catalog.problems.isEmpty, "\(catalog.problems)")
    catalog.vectors = catalog.vectors.filter { only($0.vector.id) }
    var run = TokenServerRun()
    for result in await Runner(adapters: Array(repeating: adapter, count: jobs)).run(catalog) {
      run.results[result.id] = result
      switch result.status {
      case .passed: break
      case .failed: run.outcome.failed.insert(result.id)
      case .warning: run.outcome.warned.insert(result.id)
      case .error: run.outcome.errored.insert(result.id)
      case .skipped, .stale: run.outcome.other.insert(result.id)
      case .inconclusive: run.outcome.inconclusive.insert(result.id)
      }
    }
    return run
  }

  static let catalog = VectorLoader.loadBundled(.token)
  static func ids(_ prefix: String) -> Set<String> {
    Set(catalog.vectors.map(\.vector.id).filter { $0.hasPrefix(prefix) })
  }
  static func isToken(_ id: String) -> Bool { id.hasPrefix("token/") }
  /// The token vectors and the endpoint vectors whose codes are exchanged (the refusals' are the endpoint tests').
  static func exchanging(_ id: String) -> Bool { isToken(id) || EndpointRealServerTests.accepted.contains(id) }
  static let expiry = ids("token/expiry/")
  static let pkce = ids("token/pkce/")
  /// Every vector a partner's code exchange runs with its first exchange expecting a token (a bug there fails them).
  static let firstExchangeGetsToken: Set<String> = [
    "token/exchange/as-google-sends-it", "token/exchange/other-app-flip-url", "token/refresh/wrong-secret",
    "token/replay/second-exchange", "token/replay/second-exchange-basic",
  ]
  /// RFC 6749 §4.1.2: tokens bought with a code used twice SHOULD be revoked; none of the three servers does.
  static let revocation = "token/replay/revokes-issued-tokens"
  /// oauthlib (and django-oauth-toolkit on it) answer a redirect_uri mismatch with invalid_request.
  static let mismatchCode = ids("token/redirect-uri/").subtracting([
    "token/redirect-uri/missing", "token/redirect-uri/empty",
  ])
  /// oauthlib's 401 names the Bearer scheme after a failed HTTP Basic login.
  static let bearerScheme: Set<String> = [
    "token/client/wrong-secret-basic", "token/client/missing-secret-basic", "token/client/other-client-basic",
  ]
}

@Suite(
  "Token profile against the real OAuth servers (Tests/Fixtures/oauth-server)",
  .enabled(
    if: PythonFixtures.oauthServer && PythonFixtures.oauthlib && PythonFixtures.djangoOAuthToolkit,
    "needs Authlib, oauthlib and django-oauth-toolkit for python3: \(FixtureServer.install)")
)
struct TokenRealServerTests {
  typealias Outcome = TokenServerRun.Outcome
  static let clientVerification = EndpointRealServerTests.clientVerification

  @Test("The token profile has vectors for every AF-TK rule, all loading cleanly")
  func corpus() {
    #expect(TokenServerRun.catalog.problems.isEmpty)
    let rules = Set(TokenServerRun.catalog.vectors.flatMap(\.vector.rules))
    #expect((1...7).allSatisfy { rules.contains("AF-TK-\($0)") })
    #expect(TokenServerRun.ids("token/").count == 37)
  }

  @Test("Authlib with PKCE: no false finding; its true one, tokens of a replayed code kept (SHOULD), warns")
  func authlib() async throws {
    let run = try await TokenServerRun.run(pkce: true)
    // True: Authlib deletes a used code but keeps the tokens it bought, which RFC 6749 §4.1.2 says SHOULD be revoked.
    #expect(
      run.outcome
        == Outcome(
          warned: Self.clientVerification.union([TokenServerRun.revocation]), other: TokenServerRun.expiry),
      "\(run.outcome)")
    #expect(run.findings(TokenServerRun.revocation) == ["AF-TK-2 exchanges[2].body.access_token"])
    // Every accepted endpoint vector's code was exchanged once, as Google does, and passed AF-TK-1.
    let exchanged = run.results.values.filter { $0.diagnostics.contains("the exchange of its code: POST") }
    #expect(exchanged.count == EndpointRealServerTests.accepted.count)
  }

  @Test("Authlib set up for HTTP Basic, run with --token-auth basic: no false finding; the PKCE vectors need --pkce")
  func authlibBasic() async throws {
    let run = try await TokenServerRun.run(
      "server.py", ["--basic-auth"], auth: .basic, only: TokenServerRun.exchanging)
    #expect(
      run.outcome
        == Outcome(warned: [TokenServerRun.revocation], other: TokenServerRun.expiry.union(TokenServerRun.pkce)),
      "\(run.outcome)")
    #expect(run.results["token/pkce/wrong-verifier"]?.message.contains("runs with --pkce") == true)
  }

  @Test("Authlib with a 2-second code lifetime, stated with --code-lifetime: the expiry vectors pass")
  func authlibExpiry() async throws {
    let run = try await TokenServerRun.run(
      "server.py", ["--code-lifetime", "2"], codeLifetime: 2, jobs: 3, only: { TokenServerRun.expiry.contains($0) })
    let messages = run.results.values.map { "\($0.id): \($0.message) | \($0.diagnostics)" }
    #expect(run.outcome == Outcome(), "\(run.outcome) \(messages)")
    #expect(run.results.count == 3)
  }

  @Test("oauthlib with PKCE: no false finding; its true ones are the error code of a mismatch and the Basic scheme")
  func oauthlib() async throws {
    let run = try await TokenServerRun.run("oauthlib_server.py", pkce: true, only: TokenServerRun.exchanging)
    // True, SHOULD: oauthlib answers a redirect_uri mismatch with invalid_request (MismatchingRedirectURIError), where
    // RFC 6749 §5.2 names invalid_grant, and its 401 after a failed HTTP Basic login names the Bearer scheme, where
    // §5.2 asks for the scheme the client used.
    let warned = TokenServerRun.mismatchCode.union(TokenServerRun.bearerScheme).union([TokenServerRun.revocation])
    #expect(run.outcome == Outcome(warned: warned, other: TokenServerRun.expiry), "\(run.outcome)")
    #expect(run.findings("token/redirect-uri/trailing-slash") == ["AF-TK-5 exchanges[0].body.error"])
    #expect(run.findings("token/client/wrong-secret-basic") == ["AF-TK-5 exchanges[0].headers.www-authenticate"])
  }

  @Test("django-oauth-toolkit with PKCE: no false finding; its token endpoint is oauthlib's, with the same true ones")
  func djangoOAuthToolkit() async throws {
    let run = try await TokenServerRun.run("dot_server.py", pkce: true, only: TokenServerRun.exchanging)
    // Its token endpoint refuses every near miss (its authorization endpoint's own findings are EndpointDjangoTests'),
    // and answers with oauthlib's words: the same true SHOULD findings.
    let warned = TokenServerRun.mismatchCode.union(TokenServerRun.bearerScheme).union([TokenServerRun.revocation])
    #expect(run.outcome == Outcome(warned: warned, other: TokenServerRun.expiry), "\(run.outcome)")
    #expect(run.results.count == TokenServerRun.ids("token/").count + EndpointRealServerTests.accepted.count)
  }
}

@Suite(
  "Token profile against an Authlib token endpoint with one bug each (server.py)",
  .enabled(if: PythonFixtures.oauthServer, "needs Authlib, Flask and SQLAlchemy for python3: \(FixtureServer.install)")
)
struct TokenBugTests {
  typealias Outcome = TokenServerRun.Outcome

  func run(_ bug: String...) async throws -> TokenServerRun {
    try await TokenServerRun.run("server.py", bug, pkce: true, only: TokenServerRun.isToken)
  }

  @Test("A code that can be used twice fails token/replay/second-exchange")
  func reusableCode() async throws {
    let run = try await run("--reusable-code")
    #expect(run.outcome.failed == ["token/replay/second-exchange"], "\(run.outcome)")
    #expect(run.findings("token/replay/second-exchange") == ["AF-TK-2 exchanges[1].body.access_token"])
  }

  @Test("A code kept without its redirect_uri fails every token/redirect-uri vector: another URL, near misses, none")
  func unboundCode() async throws {
    let run = try await run("--unbound-code")
    #expect(run.outcome.failed == TokenServerRun.ids("token/redirect-uri/"), "\(run.outcome)")
    #expect(run.findings("token/redirect-uri/missing") == ["AF-TK-3 exchanges[0].body.access_token"])
  }

  @Test("A code bound to the partner's /r/ URL refuses the App Flip one: token/exchange/as-google-sends-it fails")
  func projectBoundCode() async throws {
    let run = try await run("--project-bound-code")
    #expect(run.outcome.failed == TokenServerRun.firstExchangeGetsToken, "\(run.outcome)")
    #expect(run.findings("token/exchange/as-google-sends-it") == ["AF-TK-1 exchanges[0].status"])
  }

  @Test("A token answer without token_type, as form data, or without no-store fails the exchange as Google makes it")
  func tokenShapes() async throws {
    for (shape, field) in [
      ("no-token-type", "body.token_type"), ("form", "body"), ("cacheable", "headers.cache-control"),
    ] {
      let run = try await run("--token-shape", shape)
      #expect(run.outcome.failed == TokenServerRun.firstExchangeGetsToken, "\(shape): \(run.outcome)")
      #expect(run.findings("token/exchange/as-google-sends-it") == ["AF-TK-1 exchanges[0].\(field)"], "\(shape)")
    }
  }

  @Test("A wrong secret accepted fails token/client/wrong-secret-body, and the refresh with one")
  func anySecret() async throws {
    let run = try await run("--any-secret")
    #expect(run.outcome.failed == ["token/client/wrong-secret-body", "token/refresh/wrong-secret"], "\(run.outcome)")
    #expect(run.findings("token/client/wrong-secret-body") == ["AF-TK-3 exchanges[0].body.access_token"])
  }
}
