import AppFlip

/// The AF-V-1 message for a wrong number of code requests, saying how to map an app's own screens when none was
/// recorded for an error outcome (Docs/HANDLERS.md, "The authorization step"; App Flip for iOS, "How it works", steps 3–4).
enum AuthorizationStepHint {
  /// One or more sentences for the "exactly one code request" finding.
  static func message(_ expect: RenderedExpectation, _ requests: [AuthorizationRequest]) -> String {
    let base = "An accepted link makes exactly one code request."
    guard requests.isEmpty, let error = expect.reply?.error else { return base }
    return base
      + " None was recorded, and this outcome replies \(error.rawValue): an app that shows its own sign-in or consent"
      + " screen before calling its server starts the authorization step there. Record the request where that step"
      + " starts (for an in-process handler, call Authorizer.requestCode, or ScriptedAuthorizationStep's signIn or"
      + " consent, before the first screen; over the protocol, list it in \"authorization\") and let the screens"
      + " answer from the scripted outcome; see \"The authorization step\" in Docs/HANDLERS.md."
  }
}
