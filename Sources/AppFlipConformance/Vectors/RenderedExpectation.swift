import AppFlip

/// What a conformant handler does with one rendered link: a step's `Vector.Expectation` with the partner's values
/// filled in, the exact verdict, code request and reply the judge checks an observation against.
package struct RenderedExpectation: Sendable, Hashable {
  /// accepted, rejected or ignored (APPFLIP-RULES "Verdicts").
  package var verdict: Verdict
  /// The one code request an accepted link makes, with its exact values; absent means no code may be requested.
  package var authorization: Vector.ExpectedAuthorization?
  /// The exact URL the handler opens; absent means it opens nothing.
  package var reply: Reply?
  /// For an association-profile step: what it checks about the association file; absent, that its link opens the app.
  package var association: Vector.AssociationCheck?

  /// Creates a rendered expectation.
  package init(
    verdict: Verdict, authorization: Vector.ExpectedAuthorization? = nil, reply: Reply? = nil,
    association: Vector.AssociationCheck? = nil
  ) {
    self.verdict = verdict
    self.authorization = authorization
    self.reply = reply
    self.association = association
  }

  /// The exact return URL: its base, and either `code` + `state` or `error` (+ `state` when the request had one).
  package struct Reply: Sendable, Hashable {
    /// The part before `?`, byte for byte: the validated incoming `redirect_uri` (AF-RE-1).
    package var base: String
    /// The authorization code, for a success reply; `Vector.ExpectedReply.anyCode` accepts any one non-empty code.
    package var code: String?
    /// The bytes `state` must decode to; `nil` when no state may be returned.
    package var stateBytes: [UInt8]?
    /// The error code, for an error reply.
    package var error: AppFlipErrorCode?

    /// Whether any one non-empty code will do (endpoint vectors, where the server mints it).
    var acceptsAnyCode: Bool { code == Vector.ExpectedReply.anyCode }
  }
}
