import AppFlip

/// The error-mapping step: the `error` value an unsuccessful outcome is answered with.
public enum ErrorMapping {
  /// Correct: sign-in failed, offline, timed out → `cancelled`; disabled → `unrecoverable`; denied → `access_denied` (AF-RE-4).
  @Sendable public static func appFlip(_ outcome: AuthorizationOutcome) -> String {
    switch outcome {
    case .granted, .signInFailed, .offline, .timedOut: "cancelled"
    case .accountDisabled: "unrecoverable"
    case .consentDenied: "access_denied"
    }
  }

  /// Bug: answers a device that is offline with `unrecoverable`, so Google aborts a flow it could retry.
  @Sendable public static func offlineUnrecoverable(_ outcome: AuthorizationOutcome) -> String {
    outcome == .offline ? "unrecoverable" : appFlip(outcome)
  }

  /// Bug: answers a denied consent with `cancelled`, so Google retries a flow the user refused.
  @Sendable public static func consentDeniedCancelled(_ outcome: AuthorizationOutcome) -> String {
    outcome == .consentDenied ? "cancelled" : appFlip(outcome)
  }

  /// Bug: answers a denied consent with `user_not_authorized`, a value outside App Flip's four, as Google's sample app does.
  @Sendable public static func userNotAuthorized(_ outcome: AuthorizationOutcome) -> String {
    outcome == .consentDenied ? "user_not_authorized" : appFlip(outcome)
  }
}
