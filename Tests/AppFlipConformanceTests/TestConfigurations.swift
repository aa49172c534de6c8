import AppFlip
import AppFlipConformance

/// The partner configurations the verdicts are held to, by name: the kill matrix, the rules oracle and the fuzzer
/// each run under every one of them.
enum TestConfigurations {
  /// A Google Home partner: its own client id and only Google Home's production and sandbox URLs.
  static let googleHome = PartnerConfiguration(
    clientID: "987654321098-partner.apps.googleusercontent.com", universalLink: "https://partner.example/appflip",
    allowList: RedirectAllowList([
      "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
      "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast",
    ]))

  /// One allowed URL, and a client id with the characters that trip encoders and comparisons: `K`, `+`, `~`, `.`.
  static let singleURL = PartnerConfiguration(
    clientID: "246813579024-Kappa+flip~test.apps.googleusercontent.com", universalLink: "https://partner.example/flip",
    allowList: RedirectAllowList(["https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA"]))

  /// Two URLs of the partner's own (`allowUnlistedRedirectUris`) whose paths hold `~`, `+` and a literal `%2B`, which
  /// one decoding too many or too few turns into another URL. The second is sent by the fuzzer and the rules oracle;
  /// the vectors' `{redirect_uri}` is the first.
  static let partnerURLs = PartnerConfiguration(
    clientID: "135792468013-acme.apps.googleusercontent.com", universalLink: "https://acme.example/appflip",
    allowList: RedirectAllowList(["https://acme.example/oauth/flip~1", "https://acme.example/oauth/app+flip%2B2"]),
    allowsUnlistedRedirectURIs: true)

  /// The same two URLs in the other order, for the fuzzer: its valid links use either.
  static let partnerURLsReversed = PartnerConfiguration(
    clientID: partnerURLs.clientID, universalLink: partnerURLs.universalLink,
    allowList: RedirectAllowList(partnerURLs.allowList.urls.reversed()), allowsUnlistedRedirectURIs: true)

  /// Every configuration by name.
  static let byName: [String: PartnerConfiguration] = [
    "default": .default, "google-home": googleHome, "single-url": singleURL, "partner-urls": partnerURLs,
  ]

  /// The names, in a fixed order for test arguments.
  static let names = ["default", "google-home", "single-url", "partner-urls"]
}
