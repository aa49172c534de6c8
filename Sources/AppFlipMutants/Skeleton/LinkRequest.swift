/// An incoming App Flip link as a partner handler reads it: its parameters, and the four App Flip values.
public struct LinkRequest: Sendable, Hashable {
  /// Every parameter, in order.
  public var parameters: [LinkParameter]
  /// `redirect_uri`.
  public var redirectURI: LinkValue
  /// `client_id`.
  public var clientID: LinkValue
  /// `state`.
  public var state: LinkValue
  /// `scope`.
  public var scope: LinkValue

  /// Reads the App Flip values out of the parameters with `read`.
  public init(parameters: [LinkParameter], read: ([LinkParameter], String) -> LinkValue) {
    self.parameters = parameters
    redirectURI = read(parameters, "redirect_uri")
    clientID = read(parameters, "client_id")
    state = read(parameters, "state")
    scope = read(parameters, "scope")
  }

  /// The requested scopes (space-separated), or `nil` when `scope` is duplicated or malformed; absent means none.
  public var scopes: [String]? {
    switch scope {
    case .missing: []
    case .duplicated, .malformed: nil
    case .value(let text): text.split(separator: " ").map(String.init)
    }
  }
}
