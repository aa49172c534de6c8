import AppFlip
import AppFlipConformance
import AppFlipMutants
import Testing

/// A partner's own two redirect URLs, with the characters that trip encoders and comparisons in their paths: `+`,
/// `%2B` and `~` (allowed with `allowUnlistedRedirectUris`), in both orders.
enum PartnerURLs {
  static let urls = [
    "https://login.acme.example/appflip/return/home+ios%2Bbeta~1",
    "https://login.acme.example/appflip/return/home~ios%2Bprod+2",
  ]

  static let configurations = [urls, urls.reversed()].map { urls in
    PartnerConfiguration(
      clientID: "987654321098-acme.apps.googleusercontent.com", universalLink: "https://acme.example/appflip",
      allowList: RedirectAllowList(urls), allowsUnlistedRedirectURIs: true)
  }
}
