import AppFlip
import Foundation

/// The partner's side of the placeholders: Google's client id, the app's universal link, and the redirect allow-list.
///
/// In a configuration file: `{"clientId": "…", "universalLink": "https://…", "allowedRedirectUris": ["https://…"]}`;
/// every field is optional and defaults to `PartnerConfiguration.default`.
public struct PartnerConfiguration: Sendable, Hashable, Codable {
  /// `{client_id}`: the Google client id registered for the partner.
  public var clientID: String
  /// `{universal_link}`: the partner app's App Flip universal link.
  public var universalLink: String
  /// The redirect URLs the partner answers to; `{redirect_uri}` is the first.
  public var allowList: RedirectAllowList

  /// Creates a configuration.
  public init(clientID: String, universalLink: String, allowList: RedirectAllowList = .google) {
    self.clientID = clientID
    self.universalLink = universalLink
    self.allowList = allowList
  }

  /// The configuration the bundled run uses: a sample client id, `https://partner.example/appflip`, Google's twelve URLs.
  public static let `default` = PartnerConfiguration(
    clientID: "123456789012-appflip.apps.googleusercontent.com",
    universalLink: "https://partner.example/appflip"
  )

  /// The handler configuration this partner configuration stands for.
  public var appFlip: AppFlipConfiguration {
    AppFlipConfiguration(clientID: clientID, allowList: allowList)
  }

  /// `{redirect_uri}`: the first allowed URL.
  public var primaryRedirectURI: String { allowList.urls.first ?? "" }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case clientID = "clientId"
    case universalLink
    case allowList = "allowedRedirectUris"
  }

  /// Decodes a configuration file strictly; absent fields take the defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    let fallback = PartnerConfiguration.default
    clientID = try container.decodeIfPresent(String.self, forKey: .clientID) ?? fallback.clientID
    universalLink = try container.decodeIfPresent(String.self, forKey: .universalLink) ?? fallback.universalLink
    allowList = try container.decodeIfPresent(RedirectAllowList.self, forKey: .allowList) ?? fallback.allowList
    if allowList.urls.isEmpty {
      throw DecodingError.dataCorruptedError(
        forKey: .allowList, in: container, debugDescription: "the allow-list needs at least one URL")
    }
  }

  /// Reads a configuration file, with an error that names the file and field.
  public static func load(_ url: URL) throws(VectorError) -> PartnerConfiguration {
    try VectorLoader.decodeFile(PartnerConfiguration.self, at: url)
  }
}
