/// What a partner's App Flip handler is configured with: Google's client id and the redirect allow-list.
public struct AppFlipConfiguration: Sendable, Hashable {
  /// The Google client id registered for the partner, compared byte for byte (AF-IN-5).
  public var clientID: String
  /// The redirect URLs the handler answers to (AF-RU-1).
  public var allowList: RedirectAllowList

  /// Creates a configuration; the allow-list defaults to Google's twelve App Flip URLs.
  public init(clientID: String, allowList: RedirectAllowList = .google) {
    self.clientID = clientID
    self.allowList = allowList
  }
}
