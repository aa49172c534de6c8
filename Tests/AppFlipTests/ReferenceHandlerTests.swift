import AppFlip
import AppFlipReference
import Testing

@Suite("Reference handler")
struct ReferenceHandlerTests {
  static let clientID = "client-K"
  static let redirect = "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA.dev"
  let handler = AppFlipReferenceHandler(configuration: AppFlipConfiguration(clientID: clientID))

  func link(_ query: String) -> String { "https://partner.example/appflip?" + query }
  var encodedRedirect: String { PercentEncoding.encode(Self.redirect) }

  @Test("Accepts a valid link and keeps the sandbox redirect_uri")
  func accepts() {
    let decision = handler.decide(link("client_id=client-K&scope=a%20b&state=s&redirect_uri=\(encodedRedirect)"))
    #expect(
      decision
        == .authorize(
          AuthorizationRequest(clientID: Self.clientID, redirectURI: Self.redirect, scopes: ["a", "b"]), state: "s"))
  }

  @Test(
    "Ignores a missing, duplicated or disallowed redirect_uri whatever else is wrong",
    arguments: [
      "client_id=client-K&state=s",
      "client_id=client-K&state=s&redirect_uri=https%3A%2F%2Fevil.example",
      "state=s&redirect_uri=\(PercentEncoding.encode(redirect))&redirect_uri=\(PercentEncoding.encode(redirect))",
      "redirect_uri=\(PercentEncoding.encode(redirect))%2F",
    ])
  func ignores(_ query: String) {
    #expect(handler.decide(link(query)).verdict == .ignored)
  }

  @Test("Rejects a Kelvin-sign client_id that Swift == would accept")
  func kelvin() {
    let kelvin = PercentEncoding.encode("client-\u{212A}")
    #expect("client-\u{212A}" == Self.clientID)
    #expect(
      handler.decide(link("client_id=\(kelvin)&state=s&redirect_uri=\(encodedRedirect)"))
        == .reject(redirectURI: Self.redirect, state: "s", reason: "client_id is not Google's"))
  }

  @Test("Never asks for a code for a rejected link")
  func noCodeWhenRejected() async {
    let opened = await handler.handle(link("client_id=other&state=s&redirect_uri=\(encodedRedirect)")) { _ in
      Issue.record("asked for a code")
      return .granted(code: "c")
    }
    #expect(opened?.url.hasPrefix(Self.redirect + "?error=invalid_request&") == true)
    #expect(opened?.universalLinksOnly == true)
  }

  @Test("Answers a thrown authorization error with cancelled and the state")
  func thrownIsCancelled() async {
    struct Offline: Error {}
    let opened = await handler.handle(link("client_id=client-K&state=s%2B1&redirect_uri=\(encodedRedirect)")) { _ in
      throw Offline()
    }
    #expect(opened?.url == Self.redirect + "?error=cancelled&state=s%2B1")
  }
}
