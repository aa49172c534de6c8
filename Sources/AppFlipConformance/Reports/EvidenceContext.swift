/// What a run adds to the evidence of each result that did not pass once it is over (`VectorResult.Evidence`): the
/// level and sentence of each rule the vector cites, from RULES.md or the partner's `rules.json`, and the command that
/// runs the vector again as the run was set up.
package struct EvidenceContext: Sendable {
  /// The partner's own rules, by id (`VectorDefinitions.rules`).
  package var rules: [String: PartnerRule]
  /// The command that runs the vector with this id again; empty when there is none.
  package var reproduce: @Sendable (String) -> String

  /// Creates a context.
  package init(rules: [String: PartnerRule] = [:], reproduce: @escaping @Sendable (String) -> String = { _ in "" }) {
    self.rules = rules
    self.reproduce = reproduce
  }

  /// The result with its evidence's rules and command filled in; a result without evidence is returned as it is.
  package func complete(_ result: VectorResult) -> VectorResult {
    guard var evidence = result.evidence else { return result }
    var result = result
    evidence.rules = result.rules.map { id in
      if let rule = RulesDocument.bundled.rule(id) {
        return .init(id: id, level: rule.level, sentence: rule.summary ?? "")
      }
      if let rule = rules[id] { return .init(id: id, level: rule.level.keyword, sentence: rule.description) }
      return .init(id: id, level: "?", sentence: "")
    }
    evidence.reproduce = reproduce(result.id)
    result.evidence = evidence
    return result
  }
}
