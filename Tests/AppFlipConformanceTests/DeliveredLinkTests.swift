import AppFlip
import AppFlipMutants
import Testing

@testable import AppFlipConformance

/// An adapter that records the links it is given and opens nothing.
private final class LinkRecorder: ConformanceAdapter, @unchecked Sendable {
  private let links = Locked<[String]>([])
  var name: String { "recorder" }
  var received: [String] { links.withLock { $0 } }

  func handle(_ request: HandlerRequest) async throws -> Observation {
    links.withLock { $0.append(request.link) }
    return Observation(opened: nil, authorizationRequests: [])
  }
}

@Suite("The link as the target platform delivers it")
struct DeliveredLinkTests {
  static let catalog = VectorLoader.loadBundled(.app)

  static func plan(_ id: String, _ platform: DeliveryPlatform?, catalog: VectorCatalog = catalog) throws -> Result<
    VectorPlan, VectorPlan.Skip
  > {
    let loaded = try #require(catalog.vectors.first { $0.vector.id == id })
    return VectorPlan.make(loaded, configuration: .default, adapter: VectorPlanTests.factory, platform: platform)
  }

  @Test("iOS 17 sends the link encoded again, and expects it ignored when redirect_uri no longer reads as allowed")
  func encodedAgainIsIgnored() throws {
    let sent = try #require(try? Self.plan("malformed/state-broken-escape-g1", nil).get())
    let delivered = try #require(try? Self.plan("malformed/state-broken-escape-g1", .ios17).get())
    #expect(sent.steps[0].expect.verdict == .rejected)
    #expect(delivered.steps[0].link == (try FoundationURLParser.parse(sent.steps[0].link).get()))
    #expect(delivered.steps[0].link.contains("state=s1%25G1&redirect_uri=https%253A%252F%252F"))
    #expect(delivered.steps[0].expect == RenderedExpectation(verdict: .ignored))
    let note = try #require(delivered.steps[0].deliveryNote)
    #expect(note.hasPrefix("On iOS 17 or later (--platform ios17) URL(string:) turns its link, \"https://partner"))
    #expect(note.contains(#"because of a broken escape "%G1")"#))
    #expect(note.contains("redirect_uri reads \"https%3A%2F%2Foauth-redirect"))
    #expect(note.hasSuffix("not an allowed URL, so the app ignores the link (AF-RU-4)."))
    // Before iOS 17 it never arrives; Android and no target send it as it is.
    #expect((try? Self.plan("malformed/state-broken-escape-g1", .ios16).get()) == nil)
    #expect(try Self.plan("malformed/state-broken-escape-g1", .android).get().steps == sent.steps)
  }

  @Test("A handler that decodes twice fails the delivered link, and the finding says what iOS 17 delivered")
  func doubleDecodingFails() async throws {
    let mutant = try #require(Mutant.all.first { $0.name == "double-decoding" })
    let adapter = InProcessAdapter(name: mutant.name) { AnyAppFlipHandler(mutant.make($0)) }
    let subset = VectorFilter(idPatterns: ["malformed/state-broken-escape-*"]).apply(to: Self.catalog)
    let results = await Runner(adapter: adapter, platform: .ios17).run(subset)
    #expect(results.count == 4)
    for result in results {
      #expect(result.status == .failed, "\(result.id)")
      #expect(result.findings.allSatisfy { $0.message.contains("On iOS 17 or later (--platform ios17) URL(string:)") })
    }
  }

  @Test("A link whose App Flip parameters read the same when delivered runs in the delivered form, as it expects")
  func sameReading() async throws {
    let sent = try #require(try? Self.plan("incoming/combining-mark-after-hash", nil).get())
    let delivered = try #require(try? Self.plan("incoming/combining-mark-after-hash", .ios17).get())
    #expect(delivered.steps[0].link != sent.steps[0].link)
    #expect(delivered.steps[0].expect == sent.steps[0].expect && delivered.steps[0].deliveryNote == nil)
    let recorder = LinkRecorder()
    let subset = VectorFilter(idPatterns: ["incoming/combining-mark-after-hash"]).apply(to: Self.catalog)
    _ = await Runner(adapter: recorder, platform: .ios17).run(subset)
    #expect(recorder.received == [delivered.steps[0].link])
  }

  /// A partner vector whose `redirect_uri` is written unencoded, so it reads the same once the query is encoded again,
  /// while its `state` does not.
  static let rawRedirect = Fixtures.catalog([
    """
    {"id": "acme/raw-state-escape", "description": "d", "spec": ["s"], "rules": ["AF-IN-6"], "level": "must",
     "incoming": {"raw": "{universal_link}?client_id={client_id}&state=s%G1&redirect_uri=\(Fixtures.redirect)"},
     "expect": {"verdict": "rejected", "reply": {"base": "\(Fixtures.redirect)", "error": "invalid_request"}}}
    """,
    """
    {"id": "acme/two-steps", "description": "d", "spec": ["s"], "rules": ["AF-IN-6"], "level": "must", "steps": [
     {"incoming": {"raw": "{universal_link}?client_id={client_id}&state=s%G1&redirect_uri={redirect_uri}"},
      "expect": {"verdict": "rejected", "reply": {"base": "{redirect_uri}", "error": "invalid_request"}}},
     {"incoming": {"params": [["client_id", "{client_id}"], ["state", "s1"], ["redirect_uri", "{redirect_uri}"]]},
      "outcome": {"result": "granted", "code": "c1"},
      "expect": {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "{redirect_uri}"},
                 "reply": {"base": "{redirect_uri}", "code": "c1", "state": "s1"}}}]}
    """,
  ])

  @Test("Skips, showing both forms, a vector whose parameter reads otherwise while redirect_uri stays allowed")
  func otherReadingSkips() throws {
    #expect(Self.rawRedirect.problems.isEmpty, "\(Self.rawRedirect.problems)")
    let plan = try Self.plan("acme/raw-state-escape", .ios17, catalog: Self.rawRedirect)
    guard case .failure(let skip) = plan else {
      Issue.record("acme/raw-state-escape ran on iOS 17")
      return
    }
    #expect(skip.reason.hasPrefix("cannot run on iOS 17 or later (--platform ios17): URL(string:) turns its link, "))
    #expect(skip.reason.contains("state=s%G1&redirect_uri=https://oauth-redirect"))
    #expect(skip.reason.contains("state=s%25G1&redirect_uri=https://oauth-redirect"))
    #expect(
      skip.reason.hasSuffix(
        #"where state reads "s%G1" there, not a broken escape, so the vector's expectation does not hold"#))
  }

  @Test("Skips a vector of several steps one of which would change its verdict")
  func severalStepsSkip() throws {
    guard case .failure(let skip) = try Self.plan("acme/two-steps", .ios17, catalog: Self.rawRedirect) else {
      Issue.record("acme/two-steps ran on iOS 17")
      return
    }
    #expect(skip.reason.hasPrefix("cannot run on iOS 17 or later (--platform ios17): URL(string:) turns step 0's link"))
    #expect(skip.reason.hasSuffix("so that step is ignored"))
  }
}

extension DeliveredLinkTests {
  @Test(
    "No bundled vector is skipped on iOS 17 for a value that reads otherwise, under each kill-matrix configuration",
    arguments: [PartnerConfiguration.default] + PartnerURLs.configurations)
  func noBundledSkip(configuration: PartnerConfiguration) {
    for loaded in Self.catalog.vectors {
      let plan = VectorPlan.make(
        loaded, configuration: configuration, adapter: VectorPlanTests.factory, platform: .ios17)
      if case .failure(let skip) = plan { #expect(!skip.reason.hasPrefix("cannot run on"), "\(loaded.vector.id)") }
    }
  }
}
