/// One check that did not hold: which rule, at which level, on which field, expected against actual.
public struct Finding: Sendable, Hashable, Codable {
  /// The rule id in RULES.md, e.g. `AF-RE-2`.
  public var rule: String
  /// The level this finding counts at: the lower of the check's level and the vector's.
  public var level: Level
  /// The field that differs, e.g. `reply.state` or `authorization.clientId`.
  public var field: String
  /// What the rules call for, quoted.
  public var expected: String
  /// What the implementation did, quoted.
  public var actual: String
  /// One sentence on what is wrong.
  public var message: String
  /// The partner's own rule (its `rules.json`) that the vector asserts this finding under, when the vector cites one:
  /// the finding then counts at that rule's level, capped by the vector's (RULES.md, "Levels"); `nil` otherwise.
  public var partnerRule: String?

  /// Creates a finding.
  package init(rule: String, level: Level, field: String, expected: String, actual: String, message: String) {
    self.rule = rule
    self.level = level
    self.field = field
    self.expected = expected
    self.actual = actual
    self.message = message
  }
}
