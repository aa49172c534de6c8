import AppFlip
import AppFlipConformance
import AppFlipConformanceTesting
import AppFlipReference
import Foundation
import Testing

/// An Android-style partner handler whose Google project sends numeric scopes: it converts each with `Int(_:)` (their
/// `Integer.valueOf`) and asks its server for the scopes it could convert; otherwise it is the reference handler.
struct NumericScopeHandler: AppFlipHandler {
  let configuration: PartnerConfiguration

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let handler = AppFlipReferenceHandler(configuration: configuration.appFlip)
    return await handler.handle(link) { request in
      var converted = request
      converted.scopes = request.scopes.compactMap { Int($0) }.map(String.init)
      return await authorizer.requestCode(converted)
    }
  }
}

@Suite("Scopes in the configuration")
struct ScopesTests {
  static let numeric = PartnerConfiguration(
    clientID: "987654321098-acme.apps.googleusercontent.com", universalLink: "https://acme.example/appflip",
    scopes: ["1001", "1002"])

  @Test("{scopes} is the configured scopes: space-separated in the link, the list in the expected code request")
  func placeholder() throws {
    let step = Vector.Step(
      incoming: .params([.init("scope", "{scopes}"), .init("redirect_uri", "{redirect_uri}")], base: nil),
      outcome: .init(result: .granted, code: "c1"),
      expect: Vector.Expectation(
        verdict: .accepted,
        authorization: Vector.ExpectedAuthorization(
          clientID: "{client_id}", redirectURI: "{redirect_uri}", scopes: ["{scopes}", "extra"]),
        reply: Vector.ExpectedReply(base: "{redirect_uri}", code: "c1", state: nil)))
    let rendered = try RenderedStep.render(step, with: Self.numeric)
    #expect(rendered.link.hasPrefix("https://acme.example/appflip?scope=1001%201002&redirect_uri="))
    #expect(rendered.expect.authorization?.scopes == ["1001", "1002", "extra"])
    let raw = Vector.Step(
      incoming: .raw("{universal_link}?scope={scopes}"), expect: Vector.Expectation(verdict: .ignored))
    #expect(
      try RenderedStep.render(raw, with: Self.numeric).link == "https://acme.example/appflip?scope=1001%201002")
    #expect(try RenderedStep.render(raw, with: .default).link == "https://partner.example/appflip?scope=devices")
  }

  @Test("A configuration file names its scopes; each must be an RFC 6749 scope token")
  func configurationFile() throws {
    let good = try JSONDecoder().decode(
      PartnerConfiguration.self, from: Data(#"{"scopes": ["1001", "https://www.googleapis.com/auth/homegraph"]}"#.utf8))
    #expect(good.scopes == ["1001", "https://www.googleapis.com/auth/homegraph"])
    #expect(try JSONDecoder().decode(PartnerConfiguration.self, from: Data("{}".utf8)).scopes == ["devices"])
    for bad in [#""a b""#, #""""#, #""say \"x\"""#] {
      #expect(throws: DecodingError.self, "\(bad)") {
        try JSONDecoder().decode(PartnerConfiguration.self, from: Data(#"{"scopes": ["ok", \#(bad)]}"#.utf8))
      }
    }
    // Written back only when not the default, so a default run's results read as before.
    let written = String(decoding: try JSONEncoder().encode(Self.numeric), as: UTF8.self)
    #expect(written.contains(#""scopes":["1001","1002"]"#))
    #expect(!String(decoding: try JSONEncoder().encode(PartnerConfiguration.default), as: UTF8.self).contains("scopes"))
  }
}
