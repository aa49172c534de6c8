extension RenderedStep {
  /// Another answer the sources allow for a rendered step, its values filled in (APPFLIP-RULES AF-IN-8, AF-IN-9).
  public struct Alternative: Sendable, Hashable {
    /// The rule that allows this answer, e.g. `AF-IN-8`.
    public var rule: String
    /// How a handler that gives this answer read the link, in a few words for reports.
    public var reading: String
    /// Whether this answer warns (the preferred one is a SHOULD); otherwise it passes as well as the preferred one.
    public var warns: Bool
    /// The answer, judged in full like the preferred one.
    public var expect: RenderedExpectation

    /// Creates a rendered alternative.
    public init(rule: String, reading: String, warns: Bool = false, expect: RenderedExpectation) {
      self.rule = rule
      self.reading = reading
      self.warns = warns
      self.expect = expect
    }
  }
}
