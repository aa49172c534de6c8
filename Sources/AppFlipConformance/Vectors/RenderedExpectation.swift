import AppFlip

/// What a conformant handler does with one rendered link: a step's `Vector.Expectation` with the partner's values
/// filled in, the exact verdict, code request and reply the judge checks an observation against.
package typealias RenderedExpectation = Expectation<RenderedReply>

/// The exact return URL: its base, and either `code` + `state` or `error` (+ `state` when the request had one).
package struct RenderedReply: Sendable, Hashable {
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
