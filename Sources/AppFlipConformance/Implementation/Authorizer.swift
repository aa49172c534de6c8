import AppFlip
import Foundation

/// The scripted stand-in for the app's whole authorization step: it answers with the vector's outcome and records every
/// request (App Flip for iOS, "How it works", steps 3–4).
///
/// The outcome is the result of the **whole authorization step**: the app's own sign-in screen, its own consent screen
/// and its OAuth server, together. A recorded request is the moment the app **starts** that step for a validated link
/// (for the client id, redirect URI and scopes it starts with), not necessarily a server call. Call `requestCode` once,
/// where the step starts:
///
/// - an app that only calls its server: where it calls the server, and map the outcome onto the server's answer;
/// - an app that shows its own consent screen before its server call: when the consent screen would show; the user
///   denies for `consentDenied` and allows otherwise, and the server answers from the same outcome;
/// - an app that signs the user in on its own screen: when the sign-in screen would show; sign-in fails for
///   `signInFailed` and succeeds otherwise.
///
/// `ScriptedAuthorizationStep` (in `AppFlipConformanceTesting`) does this bookkeeping: its `signIn`, `consent` and
/// `server` record the request at the first of them and answer every one from the outcome. An app that stops at its own
/// screen must still record the request it started, or AF-V-1 finds no code request.
public final class Authorizer: @unchecked Sendable {
  /// The lock every authorizer's requests are kept under: each step makes an authorizer, and a lock of its own (a
  /// `Locked`, its `NSLock` and that lock's mutex) cost three allocations per step; a request holds it for an append.
  private static let lock = NSLock()

  private let outcome: AuthorizationOutcome
  private let barrier: InterleavingBarrier?
  /// The requests made so far, in order; read and written only under `Authorizer.lock`.
  private var requestsMade: [AuthorizationRequest] = []

  /// Creates an authorizer that answers every request with `outcome`, after `barrier` lets it through.
  public init(outcome: AuthorizationOutcome, barrier: InterleavingBarrier? = nil) {
    self.outcome = outcome
    self.barrier = barrier
  }

  /// Starts the authorization step for `request`: the harness records it and answers with the scripted outcome.
  public func requestCode(_ request: AuthorizationRequest) async -> AuthorizationOutcome {
    Authorizer.lock.withLock { requestsMade.append(request) }
    await barrier?.arrive()
    return outcome
  }

  /// Asks for an authorization code with the request's fields.
  public func requestCode(clientID: String, redirectURI: String, scopes: [String]) async -> AuthorizationOutcome {
    await requestCode(AuthorizationRequest(clientID: clientID, redirectURI: redirectURI, scopes: scopes))
  }

  /// The requests made so far, in order.
  public var requests: [AuthorizationRequest] { Authorizer.lock.withLock { requestsMade } }
}
