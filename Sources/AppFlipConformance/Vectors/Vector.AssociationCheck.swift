extension Vector {
  /// What an association-profile step checks instead of its link opening the app: how the file is served, its size and
  /// JSON, the app id, what Apple's CDN gets (RULES.md AF-UL-1, AF-UL-2, AF-UL-4); absent, the link must open the app
  /// (AF-UL-3).
  package enum AssociationCheck: String, Sendable, Hashable, Codable, CaseIterable {
    /// 200 over https, without a redirect.
    case served
    /// At most Apple's 128 KB.
    case size
    /// `application/json`, and JSON with an `applinks` object Apple can read.
    case json
    /// `applinks.details` names the configured app id exactly.
    case appID = "app-id"
    /// An entry naming the app claims links (a pattern that is not an exclusion).
    case appIDLinks = "app-id-links"
    /// No entry for another app before the app's claims the step's link (the first match wins).
    case appIDFirst = "app-id-first"
    /// The file is served without credentials, as Apple's CDN asks for it.
    case noCredentials = "no-credentials"
    /// The file is served alike to Apple's CDN's user agent.
    case appleUserAgent = "apple-user-agent"
    /// Apple's CDN's network can fetch the file: not checkable from here, said as a skip.
    case appleNetwork = "apple-network"
  }
}
