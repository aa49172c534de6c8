import AppFlip
import AppFlipConformance
import Foundation

/// Bug: keeps the pending request's state and redirect_uri in one shared property (as an app delegate would) and reads
/// them back after the OAuth round trip, so a second link that arrives meanwhile overwrites the first one's.
public struct PendingRequestHandler: AppFlipHandler {
  /// The otherwise correct handler.
  public var base: PartnerHandler
  /// The shared property the pending request lives in.
  public let pending: PendingRequest

  /// Wraps a handler with an empty pending request.
  public init(base: PartnerHandler, pending: PendingRequest = PendingRequest()) {
    self.base = base
    self.pending = pending
  }

  /// Decides as usual, stores the request, asks for the code, then answers whatever request is pending by then.
  public func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let request = try base.read(link)
    let decision = base.decide(request)
    guard case .authorize(let codeRequest, let state, let replyTo) = decision else {
      return await base.respond(to: decision, request: request, link: link, authorizer: authorizer)
    }
    pending.store(state: state, replyTo: replyTo)
    let outcome = await base.steps.authorize(codeRequest, link, authorizer)
    let current = pending.current ?? (state, replyTo)
    return base.open(base.result(for: outcome, state: current.state), request, at: current.replyTo)
  }
}

/// One app-wide pending request, lock-protected: the last link to arrive wins.
public final class PendingRequest: Sendable {
  private let stored = Locked<(state: String, replyTo: String)?>(nil)

  /// Creates an empty pending request.
  public init() {}

  /// Replaces the pending request.
  public func store(state: String, replyTo: String) {
    stored.withLock { $0 = (state, replyTo) }
  }

  /// The pending request, if any.
  public var current: (state: String, replyTo: String)? {
    stored.withLock { $0 }
  }
}
