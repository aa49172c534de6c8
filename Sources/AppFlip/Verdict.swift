/// What a conformant handler does with an incoming App Flip link (APPFLIP-RULES "Verdicts").
public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
  /// Valid request: a code is requested and the outcome is returned to `redirect_uri`.
  case accepted
  /// Valid `redirect_uri`, invalid request: `error=invalid_request` is returned and no code is requested.
  case rejected
  /// Missing, duplicated or disallowed `redirect_uri`: nothing is opened and no code is requested (RFC 6749 §4.1.2.1).
  case ignored
}
