import AppFlip
import AppFlipConformance

/// Bug: asks the OAuth server for a code as soon as the link arrives, and validates it only afterwards.
public struct AuthorizeFirstHandler: AppFlipHandler {
  /// The otherwise correct handler.
  public var base: PartnerHandler

  /// Wraps a handler.
  public init(base: PartnerHandler) {
    self.base = base
  }

  /// Requests a code with whatever arrived, then decides, and answers a valid link with that code.
  public func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let request = try base.read(link)
    let early = AuthorizationRequest(
      clientID: request.clientID.text ?? "", redirectURI: request.redirectURI.text ?? "", scopes: request.scopes ?? [])
    let outcome = await base.steps.authorize(early, link, authorizer)
    let decision = base.decide(request)
    guard case .authorize(_, let state, let replyTo) = decision else {
      return await base.respond(to: decision, request: request, link: link, authorizer: authorizer)
    }
    return base.open(base.result(for: outcome, state: state), request, at: replyTo)
  }
}
