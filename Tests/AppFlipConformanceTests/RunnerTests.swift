import AppFlip
import AppFlipConformance
import Foundation
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
        // Hangs for good, idle, ignoring cancellation (a spinning loop would starve the pool).
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        return nil
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

  /// A Google Home-only partner: Google Assistant's URL (`Fixtures.redirect`) is left out.
  static let homeOnly = PartnerConfiguration(
    clientID: "987654321098-partner.apps.googleusercontent.com", universalLink: "https://p.example/l",
    allowList: RedirectAllowList(["https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"]))

  @Test("Expects a link to a Google URL the partner's allow-list leaves out to be ignored, not skipped")
  func googleURLOutsideAllowListIsIgnored() async {
    let catalog = Fixtures.catalog([Fixtures.accepted()])
    let conformant = Runner(
      adapter: InProcessAdapter(name: "ref") { ReferenceHandlerAdapter(configuration: $0) },
      configuration: Self.homeOnly)
    #expect(await conformant.run(catalog.vectors[0]).status == .passed)
    let answersEveryGoogleURL = Runner(
      adapter: InProcessAdapter(name: "all-twelve") {
        ReferenceHandlerAdapter(
          configuration: PartnerConfiguration(
            clientID: $0.clientID, universalLink: $0.universalLink, allowList: .google))
      }, configuration: Self.homeOnly)
    let result = await answersEveryGoogleURL.run(catalog.vectors[0])
    #expect(result.status == .failed)
    #expect(result.findings.contains { $0.rule == "AF-RU-4" && $0.field == "opened" }, "\(result.findings)")
  }

  @Test("Skips an endpoint vector at a Google URL the configuration leaves out, never expecting it ignored (AF-EP-1)")
  func endpointVectorsAreNeverIgnored() throws {
    let step = try #require(Fixtures.catalog([Fixtures.accepted()]).vectors.first?.vector.steps.first)
    let reason = #expect(
      throws: RenderedStep.SkipReason.self, "an endpoint vector at a left-out Google URL was rendered"
    ) {
      try RenderedStep.render(step, with: Self.homeOnly, profile: .endpoint)
    }
    #expect(reason?.message.contains("allow-list leaves out") == true)
    let app = try RenderedStep.render(step, with: Self.homeOnly, profile: .app)
    #expect(app.expect.verdict == .ignored)
  }

  @Test("Skips a vector answered at a URL that is not Google's and that the allow-list leaves out")
  func skipsOutsideAllowList() async {
    let own = "https://partner.example/callback"
    let vector = Fixtures.accepted(
      expect: """
        {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(own)"},
         "reply": {"base": "\(own)", "code": "c1", "state": "s1"}}
        """)
    let catalog = Fixtures.catalog([vector])
    let runner = Runner(adapter: InProcessAdapter(Self.reference), configuration: Self.homeOnly)
    let result = await runner.run(catalog.vectors[0])
    #expect(result.status == .skipped)
    #expect(result.message.contains("allow-list leaves out"), "\(result.message)")
  }

  @Test("Skips a near-miss whose transform cannot change the configured value, naming what it needs")
  func skipsInapplicableTransform() async {
    let vector = """
      {"id": "t/kelvin", "description": "d", "spec": ["s"], "rules": ["AF-IN-5"], "level": "must",
       "incoming": {"params": [["client_id", "{client_id|kelvin}"], ["state", "s1"], ["redirect_uri", "{redirect_uri}"]]},
       "expect": {"verdict": "rejected", "reply": {"base": "{redirect_uri}", "error": "invalid_request", "state": "s1"}}}
      """
    let catalog = Fixtures.catalog([vector])
    let withoutK = Runner(adapter: InProcessAdapter(Self.reference), configuration: Self.homeOnly)
    let skipped = await withoutK.run(catalog.vectors[0])
    #expect(skipped.status == .skipped)
    #expect(skipped.message.contains("needs a \"K\" or \"k\""), "\(skipped.message)")
    var withK = Self.homeOnly
    withK.clientID = "9-Kappa.apps.googleusercontent.com"
    let runner = Runner(
      adapter: InProcessAdapter(name: "ref") { ReferenceHandlerAdapter(configuration: $0) }, configuration: withK)
    #expect(await runner.run(catalog.vectors[0]).status == .passed)
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

  @Test("Gives each run of a vector its own handler from the factory, shared by its steps")
  func handlerPerVectorRun() async throws {
    final class Made: @unchecked Sendable {
      let lock = NSLock()
      var count = 0
    }
    let made = Made()
    let adapter = InProcessAdapter(name: "counting") { configuration in
      made.lock.withLock { made.count += 1 }
      return ReferenceHandlerAdapter(configuration: configuration)
    }
    let twoSteps = Fixtures.twoSteps(id: "t/two")
    let catalog = Fixtures.catalog([twoSteps, Fixtures.accepted(id: "t/a"), Fixtures.accepted(id: "t/b")])
    #expect(catalog.problems.isEmpty)
    let results = await Runner(adapter: adapter).run(catalog)
    #expect(results.map(\.status) == [.passed, .passed, .passed])
    #expect(made.lock.withLock { made.count } == 3)
  }

  @Test("Files an endpoint's findings under the endpoint rules, naming the app-side check")
  func endpointRules() async throws {
    struct SilentEndpoint: ConformanceAdapter {
      var name: String { "silent" }
      var profile: VectorFile.Profile { .endpoint }
      func handle(_ request: HandlerRequest) async throws -> Observation {
        Observation(opened: nil, authorizationRequests: nil)
      }
    }
    let vector = """
      {"schemaVersion": 1, "profile": "endpoint", "area": "e", "description": "d", "vectors": [
       {"id": "e/accepted", "description": "d", "spec": ["s"], "rules": ["AF-EP-1"], "level": "must",
        "incoming": {"params": [["response_type", "code"], ["client_id", "{client_id}"], ["state", "s1"], ["redirect_uri", "\(Fixtures.redirect)"]]},
        "expect": {"verdict": "accepted", "reply": {"base": "\(Fixtures.redirect)", "code": "{code}", "state": "s1"}}}]}
      """
    let catalog = VectorLoader.decode(Data(vector.utf8), displayPath: "e.json")
    let loaded = try #require(catalog.vectors.first)
    let result = await Runner(adapter: SilentEndpoint()).run(loaded)
    #expect(result.status == .failed)
    #expect(result.findings.map(\.rule) == ["AF-EP-1"])
    #expect(result.findings.first?.message.hasSuffix("(AF-V-1, as for an app)") == true)
  }

  @Test("Returns at once when the run is cancelled, instead of waiting out a hung step's timeout")
  func cancellation() async {
    let hanging = ClosureHandler { _, _ in
      // Hangs for good, idle, ignoring cancellation (a spinning loop would starve the pool).
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
      return nil
    }
    let catalog = Fixtures.catalog([Fixtures.accepted()])
    // The bound leaves room for a loaded machine, and still tells "at once" from waiting out the timeout.
    let runner = Runner(adapter: InProcessAdapter(hanging), timeout: 180)
    let started = Date()
    let task = Task { await runner.run(catalog.vectors[0]) }
    try? await Task.sleep(for: .milliseconds(200))
    task.cancel()
    let result = await task.value
    #expect(result.status == .error)
    #expect(Date().timeIntervalSince(started) < 90)
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
