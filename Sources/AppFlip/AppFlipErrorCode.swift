/// The four `error` values a partner app may return to Google (App Flip for iOS, "Parameters used when the authorization result is returned unsuccessfully").
public enum AppFlipErrorCode: String, Sendable, Hashable, Codable, CaseIterable {
  /// A recoverable error: sign-in failed, the device is offline, or a connection timed out.
  case cancelled
  /// An unrecoverable error, such as a disabled account; Google aborts linking.
  case unrecoverable
  /// The request parameters are invalid or missing; Google falls back to the authorization URL.
  case invalidRequest = "invalid_request"
  /// The user rejected the consent request; Google aborts linking.
  case accessDenied = "access_denied"
}
