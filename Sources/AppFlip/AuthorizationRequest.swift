/// The authorization-code request an App Flip handler makes to its own OAuth server (App Flip for iOS, "How it works", step 3).
public struct AuthorizationRequest: Sendable, Hashable, Codable {
  /// Google's client id, as it arrived in the link.
  public var clientID: String
  /// The validated `redirect_uri` the code is bound to.
  public var redirectURI: String
  /// The requested scopes (the `scope` parameter split on spaces).
  public var scopes: [String]

  /// Creates a request.
  public init(clientID: String, redirectURI: String, scopes: [String]) {
    self.clientID = clientID
    self.redirectURI = redirectURI
    self.scopes = scopes
  }

  private enum CodingKeys: String, CodingKey {
    case clientID = "clientId"
    case redirectURI = "redirectUri"
    case scopes
  }
}
