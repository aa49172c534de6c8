/// The redirect URLs an App Flip handler may answer to, compared as exact strings (AF-RU-1, RFC 9700 §2.1).
public struct RedirectAllowList: Sendable, Hashable, Codable {
  /// The allowed URLs, byte for byte.
  public var urls: [String]

  /// Creates an allow-list of exactly these URLs.
  public init(_ urls: [String]) {
    self.urls = urls
  }

  /// Google's twelve App Flip redirect URLs (App Flip for iOS, "Modify your authorization endpoint").
  public static let google = RedirectAllowList(
    ["oauth-redirect", "oauth-redirect-sandbox"].flatMap { host in
      googleBundleIDs.map { "https://\(host).googleusercontent.com/a/\($0)" }
    }
  )

  /// The Google app bundle ids App Flip answers to: Google Home and Google Assistant, with dev and enterprise variants.
  package static let googleBundleIDs = [
    "com.google.Chromecast", "com.google.Chromecast.dev", "com.google.Chromecast.enterprise",
    "com.google.OPA", "com.google.OPA.dev", "com.google.OPA.enterprise",
  ]

  /// Whether `candidate` is byte-identical to one allowed URL: no normalization of any kind (AF-RU-2).
  public func contains(_ candidate: some StringProtocol) -> Bool {
    urls.contains { Bytes.equal($0, candidate) }
  }

  /// Decodes the list from a JSON array of URLs.
  public init(from decoder: any Decoder) throws {
    urls = try decoder.singleValueContainer().decode([String].self)
  }

  /// Encodes the list as a JSON array of URLs.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(urls)
  }
}
