extension RenderedStep {
  /// Another answer the sources allow for a rendered step, its values filled in (APPFLIP-RULES AF-IN-8, AF-IN-9).
  package struct Alternative: Sendable, Hashable {
    /// The rule that allows this answer, e.g. `AF-IN-8`.
    package var rule: String
    /// How a handler that gives this answer read the link, in a few words for reports.
    package var reading: String
    /// Whether this answer warns (the preferred one is a SHOULD); otherwise it passes as well as the preferred one.
    package var warns: Bool
    /// The answer, judged in full like the preferred one.
    package var expect: RenderedExpectation

    /// Creates a rendered alternative.
    package init(rule: String, reading: String, warns: Bool = false, expect: RenderedExpectation) {
      self.rule = rule
      self.reading = reading
      self.warns = warns
      self.expect = expect
    }
  }
}
