import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

@Suite("Configuration check")
struct ConfigurationCheckTests {
  static let opa = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

  func configuration(_ urls: [String], unlisted: Bool = false) -> PartnerConfiguration {
    PartnerConfiguration(
      clientID: "c", universalLink: "https://acme.example/appflip", allowList: RedirectAllowList(urls),
      allowsUnlistedRedirectURIs: unlisted)
  }

  @Test("Accepts the default configuration and every one of Google's twelve URLs")
  func acceptsGoogle() {
    #expect(PartnerConfiguration.default.problems == [])
    #expect(configuration(RedirectAllowList.google.urls).problems == [])
    #expect(PartnerConfiguration.default.unlistedRedirectURIs == [])
  }

  @Test(
    "Refuses an allowed URL that is not Google's, a near-miss, an empty or a repeated one",
    arguments: [
      (["https://evil.example/cb"], "allowedRedirectUris[0]", "it is not one of Google's twelve"),
      ([opa + "/"], "allowedRedirectUris[0]", "near-miss"),
      ([opa + "."], "allowedRedirectUris[0]", "near-miss"),
      ([opa.uppercased()], "allowedRedirectUris[0]", "near-miss"),
      ([""], "allowedRedirectUris[0]", "it is empty"),
      ([opa, opa], "allowedRedirectUris[1]", "it repeats allowedRedirectUris[0]"),
    ])
  func refusesURL(_ urls: [String], _ field: String, _ reason: String) throws {
    let problems = configuration(urls).problems
    let problem = try #require(problems.first)
    #expect(problems.count == 1)
    #expect(problem.field == field)
    #expect(problem.value == urls.last)
    #expect(problem.reason.contains(reason))
  }

  @Test("Compares allowed URLs byte for byte: a Unicode-equivalent spelling is neither Google's nor a repeat")
  func bytes() {
    let composed = "https://oauth-redirect.googleusercontent.com/a/caf\u{E9}"
    let decomposed = "https://oauth-redirect.googleusercontent.com/a/cafe\u{301}"
    #expect(configuration([composed, decomposed], unlisted: true).problems == [])
    #expect(configuration([composed, decomposed], unlisted: true).unlistedRedirectURIs.count == 2)
  }

  @Test("Allows a URL Google adds later only when asked, and still refuses one that is not an https URL")
  func unlisted() {
    let later = "https://oauth-redirect.googleusercontent.com/a/com.google.NewApp"
    #expect(configuration([later]).problems.count == 1)
    #expect(configuration([later], unlisted: true).problems == [])
    #expect(configuration([Self.opa, later], unlisted: true).unlistedRedirectURIs == [later])
    for bad in [
      "http://new.example/a", "https://new.example/a?x=1", "https://new.example/a#f", "https:///a", "https://a b",
    ] {
      #expect(configuration([bad], unlisted: true).problems.count == 1, "\(bad)")
    }
    #expect(
      configuration([Self.opa + "/"], unlisted: true).problems.first?.reason.contains("near-miss") == true)
  }

  @Test("Refuses an empty client id and a universal link that is not an absolute https URL")
  func clientAndUniversalLink() {
    #expect(
      PartnerConfiguration.problems(
        clientID: "", universalLink: nil, allowedRedirectURIs: nil, allowsUnlistedRedirectURIs: false
      ).map(\.field) == ["clientId"])
    #expect(
      PartnerConfiguration.problems(
        clientID: " ", universalLink: nil, allowedRedirectURIs: nil, allowsUnlistedRedirectURIs: false
      ).map(\.field) == ["clientId"])
    #expect(
      PartnerConfiguration.problems(
        clientID: "a+b/c=d&e%f g", universalLink: nil, allowedRedirectURIs: nil, allowsUnlistedRedirectURIs: false)
        == [])
    for bad in ["", "partner.example/flip", "http://partner.example/flip", "https://", "https://x.example/ a"] {
      #expect(
        PartnerConfiguration.problems(
          clientID: nil, universalLink: bad, allowedRedirectURIs: nil, allowsUnlistedRedirectURIs: false
        ).map(\.field) == ["universalLink"],
        "\(bad)")
    }
    #expect(
      PartnerConfiguration.problems(
        clientID: nil, universalLink: "https://partner.example/flip?src=google", allowedRedirectURIs: nil,
        allowsUnlistedRedirectURIs: false)
        == [])
  }

  @Test("Checks a vector's configuration override as it loads, so a bad one is a vector-file problem")
  func override() throws {
    let bad = Fixtures.accepted(
      id: "t/override", extra: #""configuration": {"allowedRedirectUris": ["https://evil.example/cb"]},"#)
    let catalog = Fixtures.catalog([bad, Fixtures.accepted(id: "t/fine")])
    #expect(catalog.vectors.map(\.vector.id) == ["t/fine"])
    let problem = try #require(catalog.problems.first)
    #expect(
      problem.description.contains(
        "mine/t.json: vector \"t/override\", field \"vectors[0].configuration.allowedRedirectUris[0]\""))
    #expect(
      problem.description.contains("\"https://evil.example/cb\" is not allowed: it is not one of Google's twelve"))
  }

  @Test("Keeps every configuration override of the bundled corpus loading")
  func bundledOverrides() {
    let catalog = VectorLoader.loadBundled(.app)
    #expect(catalog.problems.isEmpty)
    #expect(catalog.vectors.contains { $0.vector.configuration?.allowedRedirectURIs != nil })
  }
}
