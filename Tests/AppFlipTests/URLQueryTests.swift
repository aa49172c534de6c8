import AppFlip
import Testing

@Suite("URL query splitting")
struct URLQueryTests {
  @Test("Splits on & only, from the first ? to the first #")
  func splits() {
    let query = URLQuery("https://p.example/x?a=1;b=2&c=%3D&&d#e=5&f")
    #expect(query.base == "https://p.example/x")
    #expect(query.parameters.map(\.raw) == ["a=1;b=2", "c=%3D", "d"])
    #expect(query.parameters.map(\.name) == ["a", "c", "d"])
    #expect(query.parameters.map(\.stringValue) == ["1;b=2", "=", ""])
    #expect(query.fragment == "e=5&f")
  }

  @Test("Decodes names once, so client%5Fid is client_id")
  func decodesNames() {
    let query = URLQuery("x?client%5Fid=a&client_id=b")
    #expect(query.parameters(named: "client_id").count == 2)
  }

  @Test("Marks broken escapes and invalid UTF-8 as undecodable")
  func undecodable() {
    let query = URLQuery("x?a=%G1&b=%FF&%zz=1")
    #expect(query.parameters[0].value == nil)
    #expect(query.parameters[1].value == [0xFF])
    #expect(query.parameters[1].stringValue == nil)
    #expect(query.parameters[2].name == nil)
  }

  @Test("Has no parameters without a ?")
  func noQuery() {
    #expect(URLQuery("https://p.example/x#a=1").parameters.isEmpty)
  }
}

@Suite("Redirect allow-list")
struct RedirectAllowListTests {
  @Test("Google's list has the twelve App Flip URLs")
  func twelve() {
    #expect(RedirectAllowList.google.urls.count == 12)
    #expect(Set(RedirectAllowList.google.urls).count == 12)
    #expect(
      RedirectAllowList.google.contains("https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA.dev"))
  }

  @Test(
    "Refuses anything but an exact match",
    arguments: [
      "https://oauth-redirect.googleusercontent.com/a/com.google.OPA/",
      "https://oauth-redirect.googleusercontent.com:443/a/com.google.OPA",
      "HTTPS://oauth-redirect.googleusercontent.com/a/com.google.OPA",
      "https://oauth-redirect.googleusercontent.com/a/com.google.opa",
      "https://oauth-redirect.googleusercontent.com/a/com.google.OPA ",
      "https://oauth-redirect.googleusercontent.com/a/com.google.OPA\u{200B}",
    ])
  func exact(_ candidate: String) {
    #expect(!RedirectAllowList.google.contains(candidate))
  }
}

@Suite("Reply URL")
struct AppFlipReplyTests {
  @Test("Encodes + as %2B and space as %20 so both decoders agree")
  func encodesUnambiguously() {
    let url = AppFlipReply.code("c+1", state: "a b+c").url(for: "https://r.example/a/x")
    #expect(url == "https://r.example/a/x?code=c%2B1&state=a%20b%2Bc")
  }

  @Test("Writes error, description and state")
  func errorReply() {
    let url = AppFlipReply.error(.accessDenied, description: "No.", state: "s").url(for: "r")
    #expect(url == "r?error=access_denied&error_description=No.&state=s")
    #expect(AppFlipReply.error(.invalidRequest, state: nil).url(for: "r") == "r?error=invalid_request")
  }

  @Test("Maps each outcome to its App Flip error")
  func outcomeMapping() {
    #expect(AuthorizationOutcome.granted(code: "c").errorCode == nil)
    #expect(AuthorizationOutcome.signInFailed.errorCode == .cancelled)
    #expect(AuthorizationOutcome.offline.errorCode == .cancelled)
    #expect(AuthorizationOutcome.timedOut.errorCode == .cancelled)
    #expect(AuthorizationOutcome.accountDisabled.errorCode == .unrecoverable)
    #expect(AuthorizationOutcome.consentDenied.errorCode == .accessDenied)
  }
}
