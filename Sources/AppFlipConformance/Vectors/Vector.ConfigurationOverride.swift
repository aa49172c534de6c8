import AppFlip

extension Vector {
  /// A vector's own partner configuration, for rules that only show under one (a client id with `K`, a narrowed allow-list).
  ///
  /// Absent fields keep the run's configuration; given ones are checked like a configuration file (`ConfigurationCheck`),
  /// with no unlisted redirect URIs. Only adapters that build their handler per configuration run these vectors.
  public struct ConfigurationOverride: Sendable, Hashable, Codable {
    /// Replaces `{client_id}`.
    public var clientId: String?
    /// Replaces `{universal_link}`.
    public var universalLink: String?
    /// Replaces the allow-list.
    public var allowedRedirectUris: [String]?

    /// Creates an override.
    public init(clientId: String? = nil, universalLink: String? = nil, allowedRedirectUris: [String]? = nil) {
      self.clientId = clientId
      self.universalLink = universalLink
      self.allowedRedirectUris = allowedRedirectUris
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case clientId, universalLink, allowedRedirectUris
    }

    /// Decodes strictly: a field the format does not define is refused.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
      clientId = try container.decodeIfPresent(String.self, forKey: .clientId)
      universalLink = try container.decodeIfPresent(String.self, forKey: .universalLink)
      allowedRedirectUris = try container.decodeIfPresent([String].self, forKey: .allowedRedirectUris)
      if allowedRedirectUris?.isEmpty == true {
        throw DecodingError.dataCorruptedError(
          forKey: .allowedRedirectUris, in: container, debugDescription: "the allow-list needs at least one URL")
      }
      let problems = ConfigurationCheck().problems(
        clientID: clientId, universalLink: universalLink, allowedRedirectURIs: allowedRedirectUris)
      if let problem = problems.first { throw problem.decodingError(at: container.codingPath) }
    }

    /// The run's configuration with this override applied.
    public func applied(to configuration: PartnerConfiguration) -> PartnerConfiguration {
      var result = configuration
      if let clientId { result.clientID = clientId }
      if let universalLink { result.universalLink = universalLink }
      if let allowedRedirectUris { result.allowList = RedirectAllowList(allowedRedirectUris) }
      return result
    }
  }
}
