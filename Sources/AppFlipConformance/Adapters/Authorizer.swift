import AppFlip
import Foundation

/// The scripted stand-in for the partner's OAuth server: it answers with the vector's outcome and records every request.
public final class Authorizer: Sendable {
  private let outcome: AuthorizationOutcome
  private let barrier: InterleavingBarrier?
  private let state = LockedRequests()

  /// Creates an authorizer that answers every request with `outcome`, after `barrier` lets it through.
  public init(outcome: AuthorizationOutcome, barrier: InterleavingBarrier? = nil) {
    self.outcome = outcome
    self.barrier = barrier
  }

  /// Asks for an authorization code; the harness records the request and answers with the scripted outcome.
  public func requestCode(_ request: AuthorizationRequest) async -> AuthorizationOutcome {
    state.append(request)
    await barrier?.arrive()
    return outcome
  }

  /// Asks for an authorization code with the request's fields.
  public func requestCode(clientID: String, redirectURI: String, scopes: [String]) async -> AuthorizationOutcome {
    await requestCode(AuthorizationRequest(clientID: clientID, redirectURI: redirectURI, scopes: scopes))
  }

  /// The requests made so far, in order.
  public var requests: [AuthorizationRequest] { state.values }
}

/// A lock-protected list of requests.
private final class LockedRequests: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [AuthorizationRequest] = []

  func append(_ request: AuthorizationRequest) {
    lock.lock()
    defer { lock.unlock() }
    storage.append(request)
  }

  var values: [AuthorizationRequest] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}
