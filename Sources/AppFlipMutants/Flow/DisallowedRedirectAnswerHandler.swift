import AppFlip
import AppFlipConformance

/// Bug: answers a `redirect_uri` that is not allowed with `error=invalid_request` instead of opening nothing.
public struct DisallowedRedirectAnswerHandler: AppFlipHandler {
  /// The otherwise correct handler.
  public var base: PartnerHandler

  /// Wraps a handler.
  public init(base: PartnerHandler) {
    self.base = base
  }

  /// Decides as usual, but sends `invalid_request` to a single `redirect_uri` that the allow-list refused.
  public func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let request = try base.read(link)
    let decision = base.decide(request)
    if decision == .ignore, let redirectURI = request.redirectURI.text {
      let result = PartnerResult.error(
        "invalid_request", description: "Invalid request: redirect_uri is not allowed", state: request.state.text)
      return base.open(result, request, at: redirectURI)
    }
    return await base.respond(to: decision, request: request, link: link, authorizer: authorizer)
  }
}
