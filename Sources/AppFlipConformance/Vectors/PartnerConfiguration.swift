import AppFlip
import Foundation

/// The partner's side of the placeholders: Google's client id, the app's universal link, and the redirect allow-list.
///
/// In a configuration file: `{"clientId": "…", "universalLink": "https://…", "allowedRedirectUris": ["https://…"],
/// "scopes": ["…"]}`;
/// every field is optional and defaults to `PartnerConfiguration.default`. A file is checked as it is read
/// (`problems`): each allowed URL must be one of Google's twelve unless `"allowUnlistedRedirectUris": true`.
public struct PartnerConfiguration: Sendable, Hashable, Codable {
  /// `{client_id}`: the Google client id registered for the partner.
  public var clientID: String
  /// `{universal_link}`: the partner app's App Flip universal link.
  public var universalLink: String
  /// The redirect URLs the partner answers to; `{redirect_uri}` is the first.
  public var allowList: RedirectAllowList
  /// Whether the allow-list may hold a URL that is not one of Google's twelve (`allowUnlistedRedirectUris`), for a URL
  /// Google adds later; the reports say when one is used.
  public var allowsUnlistedRedirectURIs: Bool
  /// `{scopes}`: the scopes the partner's Google project asks for, which every vector that does not test scopes
  /// itself sends and expects the code request for (App Flip for iOS, incoming `scope`; RFC 6749 §3.3).
  package var scopes: [String]

  /// The scopes the bundled vectors were written with, when the configuration names none.
  package static let defaultScopes = ["devices"]
  /// The app's id as its association file names it, `TEAMID.bundle.id` (`appID`), for the association profile (AF-UL-2).
  package var appID: String?

  /// Creates a configuration.
  public init(
    clientID: String, universalLink: String, allowList: RedirectAllowList = .google,
    allowsUnlistedRedirectURIs: Bool = false, scopes: [String] = ["devices"]
  ) {
    self.clientID = clientID
    self.universalLink = universalLink
    self.allowList = allowList
    self.allowsUnlistedRedirectURIs = allowsUnlistedRedirectURIs
    self.scopes = scopes
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
  package var primaryRedirectURI: String { allowList.urls.first ?? "" }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case clientID = "clientId"
    case universalLink
    case allowList = "allowedRedirectUris"
    case allowsUnlistedRedirectURIs = "allowUnlistedRedirectUris"
    case scopes
    case appID
  }

  /// Decodes a configuration file strictly and checks it (`problems`); absent fields take the defaults.
  public init(from decoder: any Decoder) throws {
    try self.init(from: decoder, skipping: [])
  }

  /// Decodes a configuration as `init(from:)` does, passing over the fields in `skipped` (ones a results document
  /// derives, such as `unlistedRedirectUris`).
  init(from decoder: any Decoder, skipping skipped: Set<String>) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self, skipping: skipped)
    let fallback = PartnerConfiguration.default
    clientID = try container.decodeIfPresent(String.self, forKey: .clientID) ?? fallback.clientID
    universalLink = try container.decodeIfPresent(String.self, forKey: .universalLink) ?? fallback.universalLink
    allowList = try container.decodeIfPresent(RedirectAllowList.self, forKey: .allowList) ?? fallback.allowList
    allowsUnlistedRedirectURIs =
      try container.decodeIfPresent(Bool.self, forKey: .allowsUnlistedRedirectURIs) ?? false
    scopes = try container.decodeIfPresent([String].self, forKey: .scopes) ?? fallback.scopes
    appID = try container.decodeIfPresent(String.self, forKey: .appID)
    if let appID, !Self.isAppID(appID) {
      throw DecodingError.dataCorruptedError(
        forKey: .appID, in: container,
        debugDescription:
          "\(Quoted.string(appID)) is not an app id: write TEAMID.bundle.id, the 10-character team id (App ID prefix) "
          + "from developer.apple.com, a dot, then the bundle id")
    }
    if allowList.urls.isEmpty {
      throw DecodingError.dataCorruptedError(
        forKey: .allowList, in: container, debugDescription: "the allow-list needs at least one URL")
    }
    if let problem = problems.first { throw problem.decodingError(at: container.codingPath) }
  }

  /// Whether `text` reads as an app id: a 10-character team id of upper-case letters and digits, a dot, a bundle id of
  /// letters, digits, `-` and `.`.
  static func isAppID(_ text: String) -> Bool {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 10, !parts[1].isEmpty else { return false }
    return parts[0].unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
      && parts[1].unicodeScalars.allSatisfy {
        ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
      }
  }

  /// Reads a configuration file, with an error that names the file and field.
  package static func load(_ url: URL) throws(VectorError) -> PartnerConfiguration {
    try VectorLoader.decodeFile(PartnerConfiguration.self, at: url, as: .configuration)
  }
}

extension PartnerConfiguration {
  /// Encodes the configuration in the configuration file's field names, so what is written reads back as a
  /// configuration file; `allowUnlistedRedirectUris` only when it is true, `scopes` only when not the default.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(clientID, forKey: .clientID)
    try container.encode(universalLink, forKey: .universalLink)
    try container.encode(allowList.urls, forKey: .allowList)
    if allowsUnlistedRedirectURIs { try container.encode(true, forKey: .allowsUnlistedRedirectURIs) }
    if scopes != PartnerConfiguration.defaultScopes { try container.encode(scopes, forKey: .scopes) }
    try container.encodeIfPresent(appID, forKey: .appID)
  }

  /// The index in the allow-list of the URL `{redirect_uri}` stands for in vector `id` (the next ones are tried in
  /// turn when a transform cannot change it).
  ///
  /// The slot is a hash of the id, so the vectors share out the allow-list (each URL is accepted and attacked, and a
  /// handler that answers at the first configured URL fails), a vector gets the same URL whatever else is selected or
  /// sharded (unlike its shard, which takes the id's hash as it is), and `--list` shows which.
  package func redirectSlot(for id: String) -> Int {
    let count = allowList.urls.count
    return count > 1 ? Int(Self.mixed(FNV1a.hash(id.utf8)) % UInt64(count)) : 0
  }

  /// FNV-1a's low bits follow the id's bytes (its parity is theirs, as the shard's is), so they are mixed first
  /// (MurmurHash3's finalizer).
  private static func mixed(_ hash: UInt64) -> UInt64 {
    var hash = hash
    hash ^= hash >> 33
    hash &*= 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    hash &*= 0xc4ce_b9fe_1a85_ec53
    return hash ^ hash >> 33
  }
}
