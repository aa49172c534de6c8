import AppFlip

extension Vector {
  /// A vector's own partner configuration, for rules that only show under one (a client id with `K`, a narrowed allow-list).
  ///
  /// Absent fields keep the run's configuration; given ones are checked like a configuration file
  /// (`PartnerConfiguration.problems`), unlisted redirect URIs only with `allowUnlistedRedirectUris`. Only adapters that
  /// build their handler per configuration run these vectors.
  package struct ConfigurationOverride: Sendable, Hashable, Codable {
    /// Replaces `{client_id}`.
    package var clientID: String?
    /// Replaces `{universal_link}`.
    package var universalLink: String?
    /// Replaces the allow-list.
    package var allowedRedirectURIs: [String]?
    /// Lets the allow-list hold a partner's own URLs (`allowUnlistedRedirectUris`), for near-misses of them.
    package var allowsUnlistedRedirectURIs: Bool?

  }
}

extension Vector.ConfigurationOverride {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case clientID = "clientId"
    case universalLink
    case allowedRedirectURIs = "allowedRedirectUris"
    case allowsUnlistedRedirectURIs = "allowUnlistedRedirectUris"
  }

  /// Decodes strictly: a field the format does not define is refused.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    clientID = try container.decodeIfPresent(String.self, forKey: .clientID)
    universalLink = try container.decodeIfPresent(String.self, forKey: .universalLink)
    allowedRedirectURIs = try container.decodeIfPresent([String].self, forKey: .allowedRedirectURIs)
    allowsUnlistedRedirectURIs = try container.decodeIfPresent(Bool.self, forKey: .allowsUnlistedRedirectURIs)
    if allowedRedirectURIs?.isEmpty == true {
      throw DecodingError.dataCorruptedError(
        forKey: .allowedRedirectURIs, in: container, debugDescription: "the allow-list needs at least one URL")
    }
    let problems = PartnerConfiguration.problems(
      clientID: clientID, universalLink: universalLink, allowedRedirectURIs: allowedRedirectURIs,
      allowsUnlistedRedirectURIs: allowsUnlistedRedirectURIs ?? false)
    if let problem = problems.first { throw problem.decodingError(at: container.codingPath) }
  }

  /// The run's configuration with this override applied.
  package func applied(to configuration: PartnerConfiguration) -> PartnerConfiguration {
    var result = configuration
    if let clientID { result.clientID = clientID }
    if let universalLink { result.universalLink = universalLink }
    if let allowedRedirectURIs { result.allowList = RedirectAllowList(allowedRedirectURIs) }
    if let allowsUnlistedRedirectURIs { result.allowsUnlistedRedirectURIs = allowsUnlistedRedirectURIs }
    return result
  }
}
