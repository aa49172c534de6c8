import AppFlip
import AppFlipConformance
import AppFlipConformanceTesting
import AppFlipReference
import Foundation
import Testing

// MARK: - Two app shapes partners really ship (their code, not the suite's), on the reference handler's logic

/// Google's sample-app shape: validates the link, shows its own consent screen, and calls its server only on "Allow".
struct ConsentFirstApp: Sendable {
  var configuration: AppFlipConfiguration
  /// The app's consent screen: `true` when the user taps "Allow".
  var showConsent: @Sendable (AuthorizationRequest) async -> Bool
  /// The app's OAuth client.
  var oauthServer: @Sendable (AuthorizationRequest) async -> AuthorizationOutcome
  /// Where the app calls `UIApplication.shared.open(_:options:)`.
  var open: @Sendable (URL, [String: Any]) -> Void
  /// The key the app puts in the options: the real one, or (in the build that copies Google's sample) the string
  /// `"universalLinksOnly"`.
  @TaskLocal static var universalLinksOnlyKey = OpenedURL.universalLinksOnlyOption

  func continueUserActivity(_ link: String) async {
    let handler = AppFlipReferenceHandler(configuration: configuration)
    let reply = await handler.handle(link) { request in
      await showConsent(request) ? await oauthServer(request) : .consentDenied
    }
    guard let reply, let url = URL(string: reply.url) else { return }
    open(url, [Self.universalLinksOnlyKey: true])
  }
}

/// A partner-app shape: signs the user in on its own screen first, and only then asks its server for a code.
struct SignInFirstApp: Sendable {
  var configuration: AppFlipConfiguration
  /// The app's sign-in screen: `true` when the user signs in.
  var signIn: @Sendable (AuthorizationRequest) async -> Bool
  /// The app's OAuth client.
  var oauthServer: @Sendable (AuthorizationRequest) async -> AuthorizationOutcome
  /// Where the app calls `UIApplication.shared.open(_:options:)`.
  var open: @Sendable (URL, [String: Any]) -> Void

  func continueUserActivity(_ link: String) async {
    let handler = AppFlipReferenceHandler(configuration: configuration)
    let reply = await handler.handle(link) { request in
      await signIn(request) ? await oauthServer(request) : .signInFailed
    }
    guard let reply, let url = URL(string: reply.url) else { return }
    open(url, [OpenedURL.universalLinksOnlyOption: true])
  }
}

// MARK: - Their adapters, exactly as in Docs/HANDLERS.md "The authorization step"

/// The consent-first app under the harness: the step starts at the consent screen.
struct ConsentFirstAdapter: AppFlipHandler {
  let configuration: PartnerConfiguration

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let opener = RecordingOpener()
    let step = ScriptedAuthorizationStep(authorizer)
    let app = ConsentFirstApp(
      configuration: configuration.appFlip,
      showConsent: { request in await step.consent(request) },
      oauthServer: { request in await step.server(request) },
      open: { url, options in opener.open(url, options: options) })
    await app.continueUserActivity(link)
    return opener.opened
  }
}

/// Google's sample: the consent-first app passing the string key `"universalLinksOnly"`, which UIKit ignores.
struct GoogleSampleAdapter: AppFlipHandler {
  let configuration: PartnerConfiguration

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    try await ConsentFirstApp.$universalLinksOnlyKey.withValue("universalLinksOnly") {
      try await ConsentFirstAdapter(configuration: configuration).handle(link, authorizer: authorizer)
    }
  }
}

/// The sign-in-first app under the harness: the step starts at the sign-in screen.
struct SignInFirstAdapter: AppFlipHandler {
  let configuration: PartnerConfiguration

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let opener = RecordingOpener()
    let step = ScriptedAuthorizationStep(authorizer)
    let app = SignInFirstApp(
      configuration: configuration.appFlip,
      signIn: { request in await step.signIn(request) },
      oauthServer: { request in await step.server(request) },
      open: { url, options in opener.open(url, options: options) })
    await app.continueUserActivity(link)
    return opener.opened
  }
}

/// Runs every bundled app vector against a handler factory, under a step deadline long enough for a test process whose
/// two cooperative threads other suites keep busy (these tests check verdicts; deadlines have their own tests).
func runBundled<Handler: AppFlipHandler>(
  _ make: @escaping @Sendable (PartnerConfiguration) -> Handler, platform: DeliveryPlatform? = nil
) async -> [VectorResult] {
  let runner = Runner(adapter: InProcessAdapter(make: make), timeout: verdictTestTimeout, platform: platform)
  return await runner.run(VectorLoader.loadBundled(.app))
}

/// The step deadline of a test that checks a whole corpus's verdicts in-process: a handler that hangs still fails it.
let verdictTestTimeout: Double = 120

/// The reference handler's run: every bundled vector passes, or is skipped because it does not apply to the default
/// configuration; a correct app of any shape must get the same.
let referenceRun = Task { await runBundled { ReferenceHandlerAdapter(configuration: $0) } }

/// Checks that `results` pass exactly where the reference handler passes, and are skipped where it is.
func expectReferenceVerdicts(_ results: [VectorResult]) async {
  let reference = Dictionary(uniqueKeysWithValues: await referenceRun.value.map { ($0.id, $0.status) })
  #expect(results.count == reference.count)
  #expect(results.filter { $0.status == .passed }.count > 300)
  for result in results {
    let expected = reference[result.id]
    #expect(expected == .passed || expected == .skipped, "reference: \(result.id)")
    if result.status != expected { Issue.record("\(result.id) \(result.status.rawValue): \(result.details)") }
  }
}

@Suite("Handler shapes: the authorization step and the options as passed")
struct HandlerShapeTests {
  @Test("An app whose consent screen comes before its server call passes every bundled vector")
  func consentFirst() async {
    await expectReferenceVerdicts(await runBundled { ConsentFirstAdapter(configuration: $0) })
  }

  @Test("An app that signs the user in on its own screen passes every bundled vector")
  func signInFirst() async {
    await expectReferenceVerdicts(await runBundled { SignInFirstAdapter(configuration: $0) })
  }

  @Test("Google's string key \"universalLinksOnly\" fails AF-RE-9 on every reply, naming the key")
  func googleStringKey() async {
    let results = await runBundled { GoogleSampleAdapter(configuration: $0) }
    // Every vector whose handler opens a reply has AF-RE-9 as its only finding, at the vector's level (a MUST vector
    // fails, a SHOULD one warns); every other vector passes.
    let replying = Set(
      VectorLoader.loadBundled(.app).vectors.filter { $0.vector.steps.contains { $0.expect.reply != nil } }
        .map(\.vector.id))
    #expect(replying.count > 250)
    #expect(results.filter { $0.status == .failed }.count > 250)
    for result in results where result.status != .skipped {
      guard replying.contains(result.id) else {
        #expect(result.status == .passed && result.findings.isEmpty, "\(result.id): \(result.details)")
        continue
      }
      let expected: Status = result.level == .must ? .failed : result.level == .should ? .warning : .passed
      #expect(result.status == expected, "\(result.id): \(result.details)")
      #expect(!result.findings.isEmpty && result.findings.allSatisfy { $0.rule == "AF-RE-9" }, "\(result.id)")
      for finding in result.findings {
        #expect(finding.actual == #"["universalLinksOnly": true]"#)
        #expect(finding.message.contains(#"UIKit ignores the option key "universalLinksOnly""#))
      }
    }
  }

  @Test("A denial with no code request says how to map the app's own screens")
  func denialWithoutRequest() {
    let expect = Vector.Expectation(
      verdict: .accepted,
      authorization: Vector.ExpectedAuthorization(clientID: "cid", redirectURI: Fixtures.redirect, scopes: nil),
      reply: Vector.ExpectedReply(base: Fixtures.redirect, state: "s1", error: .accessDenied))
    // What an adapter that records only the server call reports for an app that stopped at its consent screen.
    let opened = OpenedURL(url: Fixtures.redirect + "?error=access_denied&state=s1", universalLinksOnly: true)
    let findings = Judge.judge(RenderedExpectation(expect), Observation(opened: opened, authorizationRequests: []))
    #expect(findings.map(\.rule) == ["AF-V-1"])
    #expect(findings.first?.actual == "no code request")
    #expect(findings.first?.message.contains("replies access_denied") == true)
    #expect(findings.first?.message.contains("own sign-in or consent screen") == true)
    #expect(findings.first?.message.contains("\"The authorization step\" in Docs/HANDLERS.md") == true)

    // Two requests on a grant is a different mistake: no screen-mapping advice.
    let granted = Vector.Expectation(
      verdict: .accepted, authorization: expect.authorization,
      reply: Vector.ExpectedReply(base: Fixtures.redirect, code: "c1", state: "s1"))
    let request = AuthorizationRequest(clientID: "cid", redirectURI: Fixtures.redirect, scopes: [])
    let twice = Judge.judge(
      RenderedExpectation(granted),
      Observation(
        opened: OpenedURL(url: Fixtures.redirect + "?code=c1&state=s1", universalLinksOnly: true),
        authorizationRequests: [request, request]))
    #expect(twice.first?.message == "An accepted link makes exactly one code request.")
  }
}
