import AppFlip
import AppFlipConformance
import Testing

@Suite("Runner")
struct RunnerTests {
  struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
  }

  func run(_ handler: ClosureHandler, vector: String = Fixtures.accepted(), strict: Bool = false, timeout: Double = 120)
    async
    -> VectorResult
  {
    let catalog = Fixtures.catalog([vector])
    let runner = Runner(adapter: InProcessAdapter(handler), timeout: timeout, strict: strict)
    return await runner.run(catalog.vectors[0])
  }

  static let reference = ClosureHandler { link, authorizer in
    try await ReferenceHandlerAdapter().handle(link, authorizer: authorizer)
  }

  @Test("Passes the reference handler")
  func passes() async {
    #expect(await run(Self.reference).status == .passed)
  }

  @Test("Reports a throwing handler as an error on that vector")
  func throwing() async {
    let result = await run(ClosureHandler { _, _ in throw Boom() })
    #expect(result.status == .error)
    #expect(result.message.contains("boom"))
  }

  @Test("Reports a handler that never answers as an error after the timeout")
  func hanging() async {
    let result = await run(
      ClosureHandler { _, _ in
        while true { try? await Task.sleep(for: .seconds(60)) }
      }, timeout: 0.2)
    #expect(result.status == .error)
    #expect(result.message.contains("did not answer within 0.2 seconds"))
  }

  @Test("Warns on SHOULD findings, and fails them when strict")
  func strictness() async {
    let literalPlus = ClosureHandler { _, authorizer in
      _ = await authorizer.requestCode(Fixtures.request.withClientID("123456789012-appflip.apps.googleusercontent.com"))
      return OpenedURL(url: Fixtures.redirect + "?code=c1&state=s1&extra=1", universalLinksOnly: true)
    }
    #expect(await run(literalPlus).status == .warning)
    #expect(await run(literalPlus, strict: true).status == .failed)
  }

  @Test("Caps findings at the vector's level")
  func levelCap() async {
    let wrongState = ClosureHandler { _, authorizer in
      _ = await authorizer.requestCode(Fixtures.request.withClientID("123456789012-appflip.apps.googleusercontent.com"))
      return OpenedURL(url: Fixtures.redirect + "?code=c1&state=s2", universalLinksOnly: true)
    }
    let should = Fixtures.accepted().replacingOccurrences(of: "\"level\": \"must\"", with: "\"level\": \"should\"")
    let result = await run(wrongState, vector: should)
    #expect(result.status == .warning)
    #expect(result.findings.first?.level == .should)
  }

  @Test("Skips a vector whose reply URL the partner's allow-list leaves out")
  func skipsOutsideAllowList() async {
    let catalog = Fixtures.catalog([Fixtures.accepted()])
    let configuration = PartnerConfiguration(
      clientID: "x", universalLink: "https://p.example/l",
      allowList: RedirectAllowList(["https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"]))
    let runner = Runner(adapter: InProcessAdapter(Self.reference), configuration: configuration)
    let result = await runner.run(catalog.vectors[0])
    #expect(result.status == .skipped)
    #expect(result.message.contains("allow-list"))
  }

  @Test("Builds a separate handler for Unicode-equivalent configurations")
  func handlerPerConfigurationBytes() async throws {
    let adapter = InProcessAdapter(name: "ref") { ReferenceHandlerAdapter(configuration: $0) }
    func request(_ configured: String, _ sent: String) -> HandlerRequest {
      HandlerRequest(
        vectorID: "t", step: 0,
        link:
          "https://p.example/l?client_id=\(PercentEncoding.encode(sent))&state=s&redirect_uri=\(PercentEncoding.encode(Fixtures.redirect))",
        outcome: .granted(code: "c"),
        configuration: PartnerConfiguration(clientID: configured, universalLink: "https://p.example/l"))
    }
    let nfc = "\u{E9}"
    let nfd = "e\u{301}"
    #expect(try await adapter.handle(request(nfc, nfc)).authorizationRequests?.count == 1)
    #expect(try await adapter.handle(request(nfd, nfc)).authorizationRequests?.isEmpty == true)
  }

  @Test("Skips a vector with its own configuration on an adapter that cannot take it")
  func skipsConfigurationOnFixedAdapter() async {
    let vector = Fixtures.accepted(extra: "\"configuration\": {\"clientId\": \"x\"},")
    let result = await run(Self.reference, vector: vector)
    #expect(result.status == .skipped)
    #expect(result.message.contains("handler factory"))
  }

  @Test("Turns unusable vectors into error results and still runs the rest")
  func problemsBecomeErrors() async {
    let catalog = Fixtures.catalog([Fixtures.accepted(id: "t/bad", extra: "\"levle\": 1,"), Fixtures.accepted()])
    let results = await Runner(adapter: InProcessAdapter(Self.reference)).run(catalog)
    #expect(results.map(\.id) == ["t/bad", "t/ok"])
    #expect(results.map(\.status) == [.error, .passed])
    #expect(results[0].message.contains("levle"))
  }
}

extension AuthorizationRequest {
  func withClientID(_ clientID: String) -> AuthorizationRequest {
    var copy = self
    copy.clientID = clientID
    return copy
  }
}
