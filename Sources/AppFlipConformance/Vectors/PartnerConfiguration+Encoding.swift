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
}
