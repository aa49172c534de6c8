import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

@Suite("Placeholders")
struct PlaceholderTests {
  static let googleHome = PartnerConfiguration(
    clientID: "987654321098-partner.apps.googleusercontent.com", universalLink: "https://partner.example/appflip",
    allowList: RedirectAllowList(["https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast"]))

  func fill(_ template: String, encoded: Bool = false, _ configuration: PartnerConfiguration = googleHome)
    -> Result<String, RenderedStep.SkipReason>
  {
    Substitution(configuration: configuration, encoded: encoded).apply(template)
  }

  @Test("Takes only a whole bare placeholder for the fast path; near misses and pieces of text go through the tokens")
  func shapes() {
    func name(_ template: String) -> Placeholder.Name?? {
      switch Placeholder.shape(of: template) {
      case .literal: nil
      case .plain(let name): .some(name)
      case .tokens: .some(nil)
      }
    }
    #expect(name("state-1") == .none)
    #expect(name("{client_id}") == .some(.clientID))
    #expect(name("{redirect_uri}") == .some(.redirectURI))
    #expect(name("{universal_link}") == .some(.universalLink))
    for template in ["{Client_id}", "{client_id}}", "x{client_id}", "{client_id|upper}", "{}", "{client_id"] {
      #expect(name(template) == .some(nil), "\(template)")
    }
    // A near miss still reaches the tokens, where the loader finds it and refuses the vector.
    let tokens = Placeholder.tokens(in: "{Client_id}")
    #expect(tokens.count == 1)
    guard case .failure = tokens.first?.parsed else {
      Issue.record("\"{Client_id}\" read as a placeholder")
      return
    }
  }

  @Test(
    "Fills in the parts of the configured redirect URI",
    arguments: [
      ("{redirect_uri.scheme}", "https"), ("{redirect_uri.host}", "oauth-redirect-sandbox.googleusercontent.com"),
      ("{redirect_uri.origin}", "https://oauth-redirect-sandbox.googleusercontent.com"),
      ("{redirect_uri.path}", "/a/com.google.Chromecast"), ("{redirect_uri.bundle}", "com.google.Chromecast"),
      (
        "{redirect_uri.origin}:443{redirect_uri.path}",
        "https://oauth-redirect-sandbox.googleusercontent.com:443/a/com.google.Chromecast"
      ),
    ])
  func parts(template: String, expected: String) throws {
    #expect(try fill(template).get() == expected)
  }

  @Test(
    "Distorts the configured values, never a sample value",
    arguments: [
      ("{redirect_uri.host|upper}", "OAUTH-REDIRECT-SANDBOX.GOOGLEUSERCONTENT.COM"),
      ("{redirect_uri.host|mixed-case}", "Oauth-Redirect-Sandbox.Googleusercontent.Com"),
      ("{redirect_uri.path|upper-first}", "/A/com.google.Chromecast"),
      ("{redirect_uri.path|lower}", "/a/com.google.chromecast"),
      ("{redirect_uri|drop-last}", "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecas"),
      ("{redirect_uri.host|parent}", "googleusercontent.com"),
      ("{redirect_uri.host|dot-as-dash}", "oauth-redirect-sandbox-googleusercontent.com"),
      ("{redirect_uri.host|homoglyph}", "\u{043E}auth-redirect-sandbox.googleusercontent.com"),
      ("{redirect_uri.host|dotless-i}", "oauth-red\u{0131}rect-sandbox.googleusercontent.com"),
      ("{redirect_uri.scheme|long-s}", "http\u{017F}"),
      ("{redirect_uri.host|escape-dash}", "oauth%2Dredirect-sandbox.googleusercontent.com"),
      ("{redirect_uri.path|escape-last-slash}", "/a%2Fcom.google.Chromecast"),
      ("{redirect_uri.bundle|fullwidth-dot}", "com\u{FF0E}google.Chromecast"),
      ("{client_id|upper}", "987654321098-PARTNER.APPS.GOOGLEUSERCONTENT.COM"),
      ("{client_id|acute}", "987654321098-p\u{E1}rtner.apps.googleusercontent.com"),
      ("{client_id|combining-acute}", "987654321098-pa\u{301}rtner.apps.googleusercontent.com"),
      (
        "{client_id|fullwidth-digits}",
        "\u{FF19}\u{FF18}\u{FF17}\u{FF16}\u{FF15}\u{FF14}\u{FF13}\u{FF12}\u{FF11}\u{FF10}\u{FF19}\u{FF18}-partner.apps.googleusercontent.com"
      ),
      ("{client_id} ", "987654321098-partner.apps.googleusercontent.com "),
    ])
  func transforms(template: String, expected: String) throws {
    let value = try fill(template).get()
    #expect(Array(value.unicodeScalars) == Array(expected.unicodeScalars), "\(Array(value.unicodeScalars))")
  }

  @Test("Writes the Punycode A-label of a homoglyph host as RFC 3492 does")
  func punycode() throws {
    let configuration = PartnerConfiguration(clientID: "c", universalLink: "https://p.example/l")
    var prod = configuration
    prod.allowList = RedirectAllowList(["https://oauth-redirect.googleusercontent.com/a/com.google.OPA"])
    #expect(try fill("{redirect_uri.host|punycode}", prod).get() == "xn--auth-redirect-h7k.googleusercontent.com")
    #expect(Punycode.encode(Array("bücher".unicodeScalars)) == "bcher-kva")
    #expect(Punycode.encode(Array("ü".unicodeScalars)) == "tda")
  }

  @Test("Skips, naming what is missing, when a transform cannot change the configured value")
  func inapplicable() {
    guard case .failure(let reason) = fill("{client_id|kelvin}") else {
      Issue.record("kelvin applied to an id without K")
      return
    }
    #expect(reason.message.contains("{client_id|kelvin} needs a \"K\" or \"k\""), "\(reason.message)")
    #expect(reason.message.contains("987654321098-partner.apps.googleusercontent.com"))
    var digits = Self.googleHome
    digits.clientID = "ABC-DEF"
    #expect(throws: RenderedStep.SkipReason.self) { try fill("{client_id|upper}", digits).get() }
    #expect(throws: RenderedStep.SkipReason.self) { try fill("{client_id|fullwidth-digits}", digits).get() }
  }

  @Test("Percent-encodes whole values in raw links, but not parts, the universal link or encoded values")
  func rawEncoding() throws {
    var plus = Self.googleHome
    plus.clientID = "a+b c"
    #expect(try fill("{client_id}", encoded: true, plus).get() == "a%2Bb%20c")
    #expect(try fill("{client_id}", encoded: false, plus).get() == "a+b c")
    #expect(
      try fill("{redirect_uri}", encoded: true).get()
        == "https%3A%2F%2Foauth-redirect-sandbox.googleusercontent.com%2Fa%2Fcom.google.Chromecast")
    #expect(
      try fill("{redirect_uri.origin}", encoded: true).get() == "https://oauth-redirect-sandbox.googleusercontent.com")
    #expect(
      try fill("{redirect_uri|encoded|encoded}", encoded: true).get()
        == "https%253A%252F%252Foauth-redirect-sandbox.googleusercontent.com%252Fa%252Fcom.google.Chromecast")
    #expect(try fill("{redirect_uri.scheme|escaped-lower}", encoded: true).get() == "%68%74%74%70%73")
    #expect(try fill("{redirect_uri.path|encoded-lower}", encoded: true).get() == "%2fa%2fcom.google.Chromecast")
  }

  @Test("Leaves braces that are not placeholders as text")
  func literalBraces() throws {
    #expect(try fill("{|}~ {\"a\":1} {A}").get() == "{|}~ {\"a\":1} {A}")
  }

  @Test(
    "Refuses a placeholder it does not know, naming the ones to use",
    arguments: [
      ("{client-id}", "is not a placeholder"), ("{redirect_uri.port}", "names no part"),
      ("{client_id.host}", "names no part"), ("{client_id|up}", "is not a transform"),
    ])
  func refusesUnknown(token: String, words: String) {
    let vector = Fixtures.accepted(id: "t/bad").replacingOccurrences(
      of: "[\"state\", \"s1\"]", with: "[\"state\", \"\(token)\"]")
    let catalog = Fixtures.catalog([vector])
    #expect(catalog.vectors.isEmpty)
    let message = catalog.problems.map(\.description).joined(separator: "\n")
    #expect(message.contains(words), "\(message)")
    #expect(message.contains("\"t/bad\"") && message.contains("mine/t.json"), "\(message)")
  }

  @Test(
    "Refuses a near-miss placeholder with a did-you-mean naming the right one, instead of sending it as text",
    arguments: [
      ("{CLIENT_ID}", "{client_id}"), ("{client-id}", "{client_id}"), ("{ redirect_uri }", "{redirect_uri}"),
      ("{clientId}", "{client_id}"), ("{ClientID}", "{client_id}"), ("{redirectUri}", "{redirect_uri}"),
      ("{Universal Link}", "{universal_link}"), ("{clientid}", "{client_id}"), ("{CLIENT_ID }", "{client_id}"),
      ("{REDIRECT_URI.HOST|UPPER}", "{redirect_uri.host|upper}"), ("{client_id|upperFirst}", "{client_id|upper-first}"),
      ("{redirect_uri.hots}", "{redirect_uri.host}"), ("{client_id|uper}", "|upper"),
      ("{CLIENT_ID|NOPE}", "{client_id}"),
    ])
  func nearMisses(token: String, meant: String) throws {
    let vector = Fixtures.accepted(id: "t/near").replacingOccurrences(
      of: "[\"state\", \"s1\"]", with: "[\"state\", \"a\(token)b\"]")
    let catalog = Fixtures.catalog([vector])
    #expect(catalog.vectors.isEmpty)
    let problem = try #require(catalog.problems.first)
    #expect(catalog.problems.count == 1)
    #expect(
      problem.description.hasPrefix(
        "mine/t.json: vector \"t/near\", field \"vectors[0].incoming.params[2]\": \"a\(token)b\" is not allowed: "),
      "\(problem)")
    #expect(problem.description.contains("(did you mean \"\(meant)\"?)"), "\(problem)")
  }

  @Test("Braces that read as no placeholder stay literal text, and a real placeholder beside them still fills in")
  func literalBesideNearMiss() throws {
    for text in ["{A}", "{STATE}", "{ }", "{\"clientId\": 1}", "{client_id:x}", "{0}", "{CLIENT_ID", "{ state }"] {
      #expect(Placeholder.tokens(in: text).isEmpty, "\(text)")
    }
    #expect(try fill("{STATE}-{client_id}").get() == "{STATE}-987654321098-partner.apps.googleusercontent.com")
    // A near miss is short: braces around a long run of text are text, however it ends.
    #expect(Placeholder.tokens(in: "{" + String(repeating: " ", count: 50) + "client_id}").count == 1)
    #expect(Placeholder.tokens(in: "{" + String(repeating: " ", count: 70) + "client_id}").isEmpty)
  }
}
