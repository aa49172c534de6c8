import AppFlip

extension RenderedExpectation {
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

    /// Creates a rendered reply.
    package init(base: String, code: String? = nil, stateBytes: [UInt8]? = nil, error: AppFlipErrorCode? = nil) {
      self.base = base
      self.code = code
      self.stateBytes = stateBytes
      self.error = error
    }

    /// A reply whose values are already exact (no placeholders), taken as written.
    package init(_ exact: Vector.ExpectedReply) {
      self.init(base: exact.base, code: exact.code, stateBytes: exact.stateBytes, error: exact.error)
    }

    /// Whether any one non-empty code will do (endpoint vectors, where the server mints it).
    var acceptsAnyCode: Bool { code == Vector.ExpectedReply.anyCode }
  }
}
