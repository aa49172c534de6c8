import AppFlip
import AppFlipConformance

/// Bug: keeps the flow's state in a shared session that is never cleared, so later links get the first link's state.
public struct StaleStateHandler: AppFlipHandler {
  /// The otherwise correct handler.
  public var base: PartnerHandler
  /// The shared session the state is kept in.
  public let session: FlowSession

  /// Wraps a handler with a fresh session.
  public init(base: PartnerHandler, session: FlowSession = FlowSession()) {
    self.base = base
    self.session = session
  }

  /// Decides as usual, but answers an authorized link with the state the session holds.
  public func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let request = try base.read(link)
    var decision = base.decide(request)
    if case .authorize(let codeRequest, let state, let replyTo) = decision {
      decision = .authorize(codeRequest, state: session.begin(state: state), replyTo: replyTo)
    }
    return await base.respond(to: decision, request: request, link: link, authorizer: authorizer)
  }
}
