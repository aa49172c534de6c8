import AppFlip
import AppFlipConformance

/// The authorize step: asking the partner's OAuth server for a code.
public enum Authorizing {
  /// Correct: one fresh request per link, for Google's client id, the validated `redirect_uri` and the incoming scopes.
  @Sendable public static func requestCode(
    _ request: AuthorizationRequest, _ link: String, _ authorizer: Authorizer
  ) async -> AuthorizationOutcome {
    await authorizer.requestCode(request)
  }

  /// Bug: asks for the partner's default scopes (none) instead of the ones Google asked for.
  @Sendable public static func droppingScopes(
    _ request: AuthorizationRequest, _ link: String, _ authorizer: Authorizer
  ) async -> AuthorizationOutcome {
    await authorizer.requestCode(clientID: request.clientID, redirectURI: request.redirectURI, scopes: [])
  }

  /// Bug: remembers the first code granted for a link and answers a repeat of that link with it again.
  public static func reusingCodes(
    _ cache: CodeCache
  ) -> @Sendable (AuthorizationRequest, String, Authorizer) async -> AuthorizationOutcome {
    { request, link, authorizer in
      if let code = cache.code(for: link) { return .granted(code: code) }
      let outcome = await authorizer.requestCode(request)
      if case .granted(let code) = outcome { cache.remember(code, for: link) }
      return outcome
    }
  }
}
