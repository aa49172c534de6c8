/// What the partner's OAuth server and user did when the app asked for an authorization code.
public enum AuthorizationOutcome: Sendable, Hashable {
  /// The server granted this authorization code.
  case granted(code: String)
  /// The user failed to sign in.
  case signInFailed
  /// The device was offline.
  case offline
  /// The connection to the server timed out.
  case timedOut
  /// The user's account is disabled.
  case accountDisabled
  /// The user denied consent.
  case consentDenied

  /// The App Flip error this outcome maps to, or `nil` for a granted code (AF-RE-4; App Flip for iOS, `error` values).
  public var errorCode: AppFlipErrorCode? {
    switch self {
    case .granted: nil
    case .signInFailed, .offline, .timedOut: .cancelled
    case .accountDisabled: .unrecoverable
    case .consentDenied: .accessDenied
    }
  }
}
