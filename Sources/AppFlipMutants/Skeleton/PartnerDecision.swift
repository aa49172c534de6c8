import AppFlip

/// What a partner handler decides about a link before it asks for a code.
public enum PartnerDecision: Sendable, Hashable {
  /// Open nothing: `redirect_uri` is missing, duplicated or not allowed.
  case ignore
  /// Answer `invalid_request` at `replyTo`, with the incoming state when there was one.
  case reject(replyTo: String, state: String?, reason: String)
  /// Ask for a code with this request, then answer at `replyTo` with `state`.
  case authorize(AuthorizationRequest, state: String, replyTo: String)
}
