/// The result an App Flip handler returns to Google by opening `redirect_uri` (App Flip for iOS, steps 5 and 6).
public enum AppFlipReply: Sendable, Hashable {
  /// Success: the authorization code and the incoming `state`, exactly (AF-RE-2).
  case code(String, state: String)
  /// Failure: one of the four error codes, an optional description, and the incoming `state` when there was one (AF-RE-3, AF-RE-5).
  case error(AppFlipErrorCode, description: String? = nil, state: String?)

  /// The reply's parameters in the order they are written.
  package var parameters: [(name: String, value: String)] {
    switch self {
    case .code(let code, let state):
      return [("code", code), ("state", state)]
    case .error(let error, let description, let state):
      var parameters = [("error", error.rawValue)]
      if let description { parameters.append(("error_description", description)) }
      if let state { parameters.append(("state", state)) }
      return parameters
    }
  }

  /// The URL to open: `redirectURI` untouched, then `?` and the parameters, every byte but unreserved ones percent-encoded (AF-RE-1, AF-RE-6).
  public func url(for redirectURI: String) -> String {
    let query = parameters.map { "\($0.name)=\(PercentEncoding.encode($0.value))" }.joined(separator: "&")
    return redirectURI + "?" + query
  }
}
