import AppFlip
import Testing

@testable import AppFlipConformance

@Suite("Judge")
struct JudgeTests {
  let redirect = Fixtures.redirect

  func findings(
    _ url: String?, expect: RenderedExpectation = Fixtures.successExpectation(), universalLinksOnly: Bool? = true
  )
    -> [Finding]
  {
    Judge.judge(expect, Fixtures.observation(url, universalLinksOnly: universalLinksOnly))
  }

  @Test("Finds nothing wrong with an exact, unambiguous reply")
  func clean() {
    #expect(findings("\(redirect)?state=s1&code=c1").isEmpty)
  }

  @Test("Fails a wrong state as a MUST, with expected and actual quoted")
  func wrongState() throws {
    let finding = try #require(findings("\(redirect)?code=c1&state=s2").first)
    #expect(finding.rule == "AF-RE-2")
    #expect(finding.level == .must)
    #expect(finding.field == "reply.state")
    #expect(finding.expected == "\"s1\"")
    #expect(finding.actual == "\"s2\"")
  }

  @Test("Tells NFC from NFD in state")
  func unicodeState() throws {
    let expect = Fixtures.successExpectation(state: "\u{E9}")
    let finding = try #require(findings("\(redirect)?code=c1&state=e%CC%81", expect: expect).first)
    #expect(finding.level == .must)
    #expect(finding.actual == "\"e\\u{301}\"")
  }

  @Test("Warns on a literal + that form decoders read as a space (AF-RE-6)")
  func literalPlus() throws {
    let found = findings("\(redirect)?code=c1&state=a+b", expect: Fixtures.successExpectation(state: "a+b"))
    #expect(found.map(\.rule) == ["AF-RE-6"])
    #expect(found.first?.level == .should)
  }

  @Test("Warns on a space written as + (AF-RE-6), without failing the state")
  func spaceAsPlus() {
    let found = findings("\(redirect)?code=c1&state=a+b", expect: Fixtures.successExpectation(state: "a b"))
    #expect(found.map(\.rule) == ["AF-RE-6"])
  }

  @Test("Fails duplicate codes, an error beside a code, a fragment, and a foreign base")
  func shapeFailures() {
    #expect(findings("\(redirect)?code=c1&code=c1&state=s1").map(\.rule) == ["AF-RE-2"])
    #expect(findings("\(redirect)?code=c1&state=s1&error=cancelled").map(\.rule) == ["AF-RE-2"])
    #expect(findings("\(redirect)?code=c1&state=s1#x").map(\.rule) == ["AF-RE-1"])
    #expect(findings("\(redirect)/?code=c1&state=s1").map(\.rule) == ["AF-RE-1"])
  }

  @Test("Fails a reply opened without universal links only, and accepts an adapter that cannot tell")
  func universalLinksOnly() {
    #expect(findings("\(redirect)?code=c1&state=s1", universalLinksOnly: false).map(\.rule) == ["AF-RE-9"])
    #expect(findings("\(redirect)?code=c1&state=s1", universalLinksOnly: nil).isEmpty)
  }

  @Test("Warns on an error_description beside a code (AF-RE-8), even an empty one")
  func descriptionBesideCode() throws {
    for url in ["\(redirect)?code=c1&state=s1&error_description=ok", "\(redirect)?code=c1&state=s1&error_description="]
    {
      let found = findings(url)
      #expect(found.map(\.rule) == ["AF-RE-8"], "\(url)")
      #expect(found.first?.level == .should)
      #expect(found.first?.field.contains("error_description") == true, "\(found)")
    }
  }

  @Test("Warns on extra reply parameters such as an echoed client_id")
  func extraParameters() {
    #expect(findings("\(redirect)?code=c1&state=s1&client_id=x").map(\.rule) == ["AF-RE-8"])
  }

  @Test("Groups an extra parameter's values under its exact name: NFC and NFD spellings are two parameters")
  func extraParametersByBytes() {
    let found = findings("\(redirect)?code=c1&state=s1&x=1&%C3%A9=2&x=3&e%CC%81=4")
    // Compared as bytes: `String`'s `==` would equate the two spellings.
    #expect(found.map { Array($0.field.utf8) } == ["reply.x", "reply.\u{E9}", "reply.e\u{301}"].map { Array($0.utf8) })
    #expect(found.map(\.actual) == ["\"1\", \"3\"", "\"2\"", "\"4\""])
  }

  @Test("Checks error replies: mapping, foreign codes, code beside error, missing state, description characters")
  func errorReplies() {
    let expect = Vector.Expectation(
      verdict: .accepted,
      authorization: Vector.ExpectedAuthorization(clientID: "cid", redirectURI: redirect, scopes: nil),
      reply: Vector.ExpectedReply(base: redirect, state: "s1", error: .accessDenied))
    let rendered = RenderedExpectation(expect)
    #expect(findings("\(redirect)?error=access_denied&state=s1", expect: rendered).isEmpty)
    #expect(findings("\(redirect)?error=cancelled&state=s1", expect: rendered).map(\.rule) == ["AF-RE-4"])
    #expect(findings("\(redirect)?error=user_not_authorized&state=s1", expect: rendered).map(\.rule) == ["AF-RE-3"])
    #expect(findings("\(redirect)?error=access_denied&state=s1&code=c1", expect: rendered).map(\.rule) == ["AF-RE-3"])
    let missingState = findings("\(redirect)?error=access_denied", expect: rendered)
    #expect(missingState.map(\.rule) == ["AF-RE-5"])
    #expect(missingState.first?.level == .should)
    #expect(
      findings("\(redirect)?error=access_denied&state=s1&error_description=%22No%22", expect: rendered).map(\.rule) == [
        "AF-RE-7"
      ])
  }

  @Test("Fails an ignored link that opens anything or asks for a code")
  func ignored() {
    let expect = RenderedExpectation(verdict: .ignored)
    #expect(Judge.judge(expect, Fixtures.observation(nil, requests: [])).isEmpty)
    #expect(
      Judge.judge(expect, Fixtures.observation("https://evil.example?error=x", requests: [])).map(\.rule) == ["AF-RU-4"]
    )
    #expect(Judge.judge(expect, Fixtures.observation(nil)).map(\.rule) == ["AF-RU-4"])
  }

  @Test("Fails an accepted link that asks for a code twice, or for another client or redirect_uri")
  func authorization() {
    let url = "\(redirect)?code=c1&state=s1"
    let expect = Fixtures.successExpectation()
    #expect(
      Judge.judge(expect, Fixtures.observation(url, requests: [Fixtures.request, Fixtures.request])).map(\.rule) == [
        "AF-V-1"
      ])
    let other = AuthorizationRequest(clientID: "cid ", redirectURI: redirect + "/", scopes: [])
    #expect(
      Judge.judge(expect, Fixtures.observation(url, requests: [other])).map(\.rule) == ["AF-IN-5", "AF-RU-3", "AF-V-1"])
  }

  @Test("Renders a finding as a diff")
  func diff() throws {
    let finding = try #require(findings("\(redirect)?code=c1&state=s2").first)
    #expect(finding.diff.contains("expected: \"s1\"\n"))
    #expect(finding.diff.hasSuffix("actual:   \"s2\""))
  }
}
