import AppFlip
import AppFlipConformance

/// The app's whole authorization step, scripted: its own sign-in screen, its own consent screen and its OAuth server
/// answer together from the vector's one outcome (App Flip for iOS, "How it works", steps 3–4; Docs/HANDLERS.md,
/// "The authorization step").
///
/// The harness records the code request when the step *starts*: at the first of `signIn`, `consent` or `server`
/// the app reaches, for the client id, redirect URI and scopes it starts with. Later calls answer from the same
/// outcome and record nothing, so an app that shows a consent screen before calling its server, or signs the user in
/// on its own screen, makes exactly one request, whatever it shows first:
///
/// ```swift
/// let step = ScriptedAuthorizationStep(authorizer)
/// let app = SampleAppFlipFlow(
///   showConsent: { request in await step.consent(request) },  // the user taps Allow unless consent is denied
///   oauthServer: { request in await step.server(request) },  // the outcome, recorded once
///   open: opener.open)
/// ```
public actor ScriptedAuthorizationStep {
  private let authorizer: Authorizer
  private var started: Task<AuthorizationOutcome, Never>?

  /// Scripts the step with the authorizer the harness hands the adapter.
  public init(_ authorizer: Authorizer) {
    self.authorizer = authorizer
  }

  /// Starts the step for `request` (recorded once, on the first call) and returns the scripted outcome.
  public func start(_ request: AuthorizationRequest) async -> AuthorizationOutcome {
    if let started { return await started.value }
    let authorizer = self.authorizer
    let task = Task { await authorizer.requestCode(request) }
    started = task
    return await task.value
  }

  /// The app's own sign-in screen: `false` when the user fails to sign in (`signInFailed`), `true` otherwise.
  public func signIn(_ request: AuthorizationRequest) async -> Bool {
    await start(request) != .signInFailed
  }

  /// The app's own consent screen: `false` when the user denies consent (`consentDenied`), `true` (Allow) otherwise.
  public func consent(_ request: AuthorizationRequest) async -> Bool {
    await start(request) != .consentDenied
  }

  /// The app's OAuth server: the scripted outcome (a code, or why there is none).
  public func server(_ request: AuthorizationRequest) async -> AuthorizationOutcome {
    await start(request)
  }
}
