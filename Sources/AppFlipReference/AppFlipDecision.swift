import AppFlip

/// What the reference handler decides about an incoming link before any code is requested (APPFLIP-RULES "Verdicts").
public enum AppFlipDecision: Sendable, Hashable {
  /// Open nothing and request no code: `redirect_uri` is missing, duplicated or not allowed (AF-RU-4).
  case ignore(reason: String)
  /// Return `error=invalid_request` to the valid `redirect_uri` without requesting a code.
  case reject(redirectURI: String, state: String?, reason: String)
  /// Request a code for this validated request, then return the outcome with `state`.
  case authorize(AuthorizationRequest, state: String)

  /// The verdict this decision stands for.
  public var verdict: Verdict {
    switch self {
    case .ignore: .ignored
    case .reject: .rejected
    case .authorize: .accepted
    }
  }
}
