import AppFlip
import AppFlipReference
import Foundation
import Testing

@testable import AppFlipConformance

/// A delimiter followed by a combining mark is one `Character` in Swift but still a delimiter in a URL; every place that
/// reads URLs must find delimiters in bytes.
@Suite("Delimiters before combining marks")
struct GraphemeBoundaryTests {
  @Test("Reads the host after '/' + U+0301 as off-site, not as the endpoint's userinfo trick")
  func endpointOrigin() throws {
    let location = "http://evil.example/\u{301}@127.0.0.1:8080/cb?code=c"
    #expect(EndpointOrigin(url: location).host == "evil.example")
    let request = try #require(URL(string: "http://127.0.0.1:8080/authorize?x=1"))
    let observation = try EndpointAdapter.observe(
      EndpointAnswer(status: 302, location: location, body: [UInt8]()), requestURL: request)
    #expect(observation.opened?.url == location)
  }

  @Test("Finds a scheme's ':' even when a combining mark follows it")
  func schemeEnd() {
    #expect(EndpointOrigin.schemeEnd("https:\u{301}//x") != nil)
  }

  @Test("Appends parameters after a universal link whose own query starts with '?' + U+0301")
  func renderedLink() throws {
    let configuration = PartnerConfiguration(clientID: "c", universalLink: "https://p.example/flip?\u{301}src=g")
    let step = Vector.Step(
      incoming: .params([Vector.Parameter("state", "s1")], base: nil), expect: Vector.Expectation(verdict: .ignored))
    let rendered = try RenderedStep.render(step, with: configuration)
    #expect(rendered.link == "https://p.example/flip?\u{301}src=g&state=s1")
  }

  @Test("Splits scope on the space byte even when a combining mark follows it")
  func scopes() {
    let handler = AppFlipReferenceHandler(configuration: AppFlipConfiguration(clientID: "c"))
    let redirect = PercentEncoding.encode(RedirectAllowList.google.urls[0])
    let decision = handler.decide(
      "https://p.example/flip?client_id=c&state=s&scope=a%20%CC%81b&redirect_uri=\(redirect)")
    guard case .authorize(let request, _) = decision else {
      Issue.record("expected an accepted link, got \(decision)")
      return
    }
    #expect(request.scopes == ["a", "\u{301}b"])
  }

  @Test("Refuses a vector whose reply code is only Unicode-equivalent to the granted code")
  func validatorComparesBytes() {
    let vector = Fixtures.accepted().replacingOccurrences(of: "\"code\": \"c1\"}", with: "\"code\": \"caf\\u00e9\"}")
      .replacingOccurrences(of: "\"code\": \"c1\", \"state\"", with: "\"code\": \"cafe\\u0301\", \"state\"")
    let catalog = Fixtures.catalog([vector])
    #expect(catalog.vectors.isEmpty)
    #expect(catalog.problems.first?.description.contains("expect.reply.code") == true)
  }
}
