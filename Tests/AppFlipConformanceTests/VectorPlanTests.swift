import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// An app-side adapter that takes one link at a time and one configuration, and never runs anything.
private struct OneLinkAdapter: ConformanceAdapter {
  var name: String { "one-link" }

  func handle(_ request: HandlerRequest) async throws -> Observation {
    Observation(opened: nil, authorizationRequests: [])
  }
}

@Suite("Vector plan")
struct VectorPlanTests {
  static let factory = InProcessAdapter(name: "reference") { ReferenceHandlerAdapter(configuration: $0) }

  static func loaded(_ vector: String, profile: VectorFile.Profile = .app) throws -> LoadedVector {
    let loaded = try #require(Fixtures.catalog([vector]).vectors.first)
    return LoadedVector(vector: loaded.vector, file: loaded.file, area: loaded.area, profile: profile)
  }

  /// Two accepted steps sent at once, each answered at Google Assistant's URL (`Fixtures.redirect`).
  static let interleaved = """
    {"id": "t/both", "description": "d", "spec": ["s"], "rules": ["AF-RE-10"], "level": "should", "interleaved": true,
     "steps": [
      {"incoming": {"params": [["client_id", "{client_id}"], ["state", "s1"], ["redirect_uri", "\(Fixtures.redirect)"]]},
       "outcome": {"result": "granted", "code": "c1"},
       "expect": {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(Fixtures.redirect)"},
        "reply": {"base": "\(Fixtures.redirect)", "code": "c1", "state": "s1"}}},
      {"incoming": {"params": [["client_id", "{client_id}"], ["state", "s2"], ["redirect_uri", "\(Fixtures.redirect)"]]},
       "outcome": {"result": "granted", "code": "c2"},
       "expect": {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(Fixtures.redirect)"},
        "reply": {"base": "\(Fixtures.redirect)", "code": "c2", "state": "s2"}}}]}
    """

  static func skip(
    _ loaded: LoadedVector, configuration: PartnerConfiguration = .default, adapter: any ConformanceAdapter = factory,
    platform: DeliveryPlatform? = nil
  ) -> String? {
    guard
      case .failure(let skip) = VectorPlan.make(
        loaded, configuration: configuration, adapter: adapter, platform: platform)
    else { return nil }
    return skip.reason
  }

  @Test("Skips a vector of another profile, saying which profile the adapter tests")
  func otherProfile() throws {
    let reason = Self.skip(try Self.loaded(Fixtures.accepted(), profile: .endpoint))
    #expect(reason == "is a vector for the endpoint profile; reference tests the app profile")
  }

  @Test("Skips a vector with its own configuration on an adapter built from one handler")
  func ownConfiguration() throws {
    let loaded = try Self.loaded(Fixtures.accepted(extra: "\"configuration\": {\"clientId\": \"x\"},"))
    #expect(
      Self.skip(loaded, adapter: OneLinkAdapter())
        == "needs its own configuration, which one-link cannot take; build the adapter from a handler factory to run it"
    )
    #expect(Self.skip(loaded) == nil)
  }

  @Test("Skips an interleaved vector on an adapter with one link in flight, or when a step would be ignored")
  func interleaving() throws {
    let loaded = try Self.loaded(Self.interleaved)
    #expect(
      Self.skip(loaded, adapter: OneLinkAdapter())
        == "sends its links interleaved, which one-link cannot take; run it in-process")
    #expect(
      Self.skip(loaded, configuration: RunnerTests.homeOnly)
        == "sends its links interleaved, but under this allow-list step 0 is ignored, so its code request never comes")
    #expect(Self.skip(loaded) == nil)
  }

  @Test("Skips a vector whose link the target platform cannot deliver, and only on that platform")
  func platform() throws {
    let loaded = try Self.loaded(
      """
      {"id": "t/space", "description": "d", "spec": ["s"], "rules": ["AF-RU-4"], "level": "must",
       "incoming": {"raw": "{universal_link}?state=s 1"}, "expect": {"verdict": "ignored"}}
      """)
    let reason = try #require(Self.skip(loaded, platform: .ios16))
    #expect(reason.hasPrefix("cannot run on iOS before 17 (--platform ios16): its link is undeliverable: "))
    #expect(Self.skip(loaded, platform: .android) == nil)
    #expect(Self.skip(loaded) == nil)
  }

  @Test("Skips a vector answered at a URL that is neither Google's nor in the allow-list")
  func unrenderable() throws {
    let own = "https://partner.example/callback"
    let loaded = try Self.loaded(
      Fixtures.accepted(expect: #"{"verdict": "rejected", "reply": {"base": "\#(own)", "error": "invalid_request"}}"#))
    #expect(
      Self.skip(loaded) == "expects an answer at \"\(own)\", which the partner's allow-list leaves out")
  }

  @Test(
    "Renders each step's link and expectation under the vector's own configuration, and the requests that send them")
  func rendersRequests() throws {
    let loaded = try Self.loaded(Fixtures.accepted(extra: "\"configuration\": {\"clientId\": \"own-client\"},"))
    let plan = try VectorPlan.make(loaded, configuration: .default, adapter: Self.factory).get()
    #expect(plan.configuration.clientID == "own-client")
    #expect(plan.steps.count == 1)
    #expect(plan.steps[0].link.contains("client_id=own-client&"))
    #expect(plan.steps[0].expect.authorization?.clientID == "own-client")
    #expect(plan.steps[0].expect.reply?.stateBytes == Array("s1".utf8))
    let requests = plan.requests(run: 7)
    #expect(requests.map(\.link) == plan.steps.map(\.link))
    #expect(requests.map(\.run) == [7])
    #expect(requests[0].barrier == nil)
    #expect(requests[0].configuration.clientID == "own-client")

    let both = try VectorPlan.make(try Self.loaded(Self.interleaved), configuration: .default, adapter: Self.factory)
      .get()
    let sent = both.requests(run: 8)
    #expect(sent.map(\.step) == [0, 1])
    #expect(sent.allSatisfy { $0.barrier != nil && $0.stepCount == 2 })
  }

  @Test("The runner reports the plan's skip reason as the skipped result's message")
  func runnerSkipsAsPlanned() async throws {
    let loaded = try Self.loaded(Self.interleaved)
    let result = await Runner(adapter: OneLinkAdapter()).run(loaded)
    #expect(result.status == .skipped)
    #expect(result.message == Self.skip(loaded, adapter: OneLinkAdapter()))
  }

  @Test("The judge's findings for a planned step are final: capped at the vector's level and named by step")
  func finalFindings() throws {
    let plan = try VectorPlan.make(try Self.loaded(Self.interleaved), configuration: .default, adapter: Self.factory)
      .get()
    let wrongState = Fixtures.observation(Fixtures.redirect + "?code=c2&state=other", requests: [])
    let findings = Judge.findings(wrongState, step: 1, of: plan)
    #expect(!findings.isEmpty)
    #expect(findings.allSatisfy { $0.level <= .should })
    #expect(findings.allSatisfy { $0.field.hasPrefix("steps[1].") }, "\(findings)")
  }
}
