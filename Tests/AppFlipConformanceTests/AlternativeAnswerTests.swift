import AppFlip
import AppFlipConformance
import Testing

/// A correct handler that takes the other readings RULES.md accepts (AF-IN-8): it echoes a state's bytes exactly even
/// when they are not UTF-8, and treats a scope it cannot decode as absent. Otherwise it is the reference handler.
private struct LenientHandler: AppFlipHandler {
  static let placeholder = "lenient-state"
  var configuration: PartnerConfiguration

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let query = URLQuery(link)
    var echoed: [UInt8]?
    var parameters = query.parameters.map { String($0.raw) }
    for (index, parameter) in query.parameters.enumerated() {
      if parameter.name == "state", query.parameters(named: "state").count == 1, let bytes = parameter.value,
        Bytes.utf8String(bytes) == nil
      {
        echoed = bytes
        parameters[index] = "state=" + Self.placeholder
      }
      if parameter.name == "scope", query.parameters(named: "scope").count == 1, parameter.stringValue == nil {
        parameters[index] = ""
      }
    }
    var rewritten = link
    if parameters != query.parameters.map({ String($0.raw) }) {
      rewritten = String(query.base) + "?" + parameters.filter { !$0.isEmpty }.joined(separator: "&")
    }
    let reference = ReferenceHandlerAdapter(configuration: configuration)
    guard var opened = try await reference.handle(rewritten, authorizer: authorizer) else { return nil }
    if let echoed {
      opened.url = opened.url.replacingOccurrences(
        of: "state=" + Self.placeholder, with: "state=" + PercentEncoding.encode(bytes: echoed))
    }
    return opened
  }
}

@Suite("Alternative answers")
struct AlternativeAnswerTests {
  static let catalog = VectorLoader.loadBundled()

  @Test("A handler that echoes invalid-UTF-8 state bytes and drops an undecodable scope passes every bundled vector")
  func lenientHandlerPasses() async {
    let adapter = InProcessAdapter(name: "lenient") { LenientHandler(configuration: $0) }
    var notPassed: [String] = []
    for loaded in Self.catalog.vectors {
      let result = await Runner(adapter: adapter).run(loaded)
      if result.status != .passed && result.status != .skipped {
        notPassed.append(
          "\(result.id): \(result.status.rawValue) \(result.findings.map { "\($0.rule) \($0.field): \($0.actual)" })")
      }
    }
    #expect(notPassed.isEmpty, "\(notPassed.joined(separator: "\n"))")
  }

  @Test("The lenient handler really takes the other reading: it accepts an invalid-UTF-8 state and echoes its bytes")
  func lenientHandlerAccepts() async throws {
    let handler = LenientHandler(configuration: .default)
    let link =
      "https://partner.example/appflip?client_id=\(PartnerConfiguration.default.clientID)&state=%FF&redirect_uri="
      + PercentEncoding.encode(PartnerConfiguration.default.primaryRedirectURI)
    let authorizer = Authorizer(outcome: .granted(code: "c1"))
    let opened = try #require(try await handler.handle(link, authorizer: authorizer))
    #expect(opened.url.hasSuffix("?code=c1&state=%FF"), "\(opened.url)")
  }

  @Test("Judges the preferred answer first and an alternative in full, reporting the best match")
  func bestMatch() {
    let redirect = Fixtures.redirect
    let rejected = Vector.Expectation(
      verdict: .rejected, reply: Vector.ExpectedReply(base: redirect, error: .invalidRequest))
    let accepted = Vector.Expectation(
      verdict: .accepted,
      authorization: Vector.ExpectedAuthorization(clientID: "cid", redirectURI: redirect, scopes: ["devices"]),
      reply: Vector.ExpectedReply(base: redirect, code: "c1", stateHex: "ff"))
    let step = RenderedStep(
      link: "l", outcome: .granted(code: "c1"), expect: RenderedExpectation(rejected),
      alternatives: [
        RenderedStep.Alternative(rule: "AF-IN-8", reading: "echoed", expect: RenderedExpectation(accepted))
      ])
    #expect(Judge.judge(step, Fixtures.observation(redirect + "?code=c1&state=%FF")) == [])
    #expect(Judge.judge(step, Fixtures.observation(redirect + "?error=invalid_request", requests: [])) == [])
    let wrongBytes = Judge.judge(step, Fixtures.observation(redirect + "?code=c1&state=%FE"))
    #expect(wrongBytes.map(\.field) == ["reply.state"], "\(wrongBytes)")
    var warning = step
    warning.alternatives[0].warns = true
    let warned = Judge.judge(warning, Fixtures.observation(redirect + "?code=c1&state=%FF"))
    #expect(warned.map(\.rule) == ["AF-IN-8"])
    #expect(warned.first?.level == .should)
  }
}
