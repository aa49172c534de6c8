import AppFlip

extension Judge {
  /// The final findings of one step of a planned vector, as the result reports them: the step judged against its
  /// answers, what the target platform changes about the reply (app vectors), each finding under the endpoint's rule
  /// (endpoint vectors; what the endpoint may do is dropped), raised to the level of the partner rule the vector
  /// asserts when it breaks the vector's expectation, capped at the vector's level, and its field named by step
  /// (`steps[1].reply.state`) when the vector has several (RULES.md, "Levels"); the adapter's own findings (an
  /// endpoint's broken headers, AF-EP-6), then the token endpoint's answers (AF-TK), come last.
  package static func findings(_ observation: Observation, step index: Int, of plan: VectorPlan) -> [Finding] {
    let step = plan.steps[index]
    let vector = plan.vector
    var judged =
      plan.profile == .association
      ? AssociationRules.findings(observation, expect: step.expect, vectorProfile: plan.loaded.profile)
      : judge(step, observation)
    if plan.loaded.profile == .app && plan.profile == .app {
      judged = DeliveryPlatform.replyFindings(
        judged, platform: plan.platform, expect: step.expect, opened: observation.opened)
    }
    guard !judged.isEmpty || !observation.findings.isEmpty || !observation.exchanges.isEmpty else { return judged }
    var findings: [Finding] = []
    findings.reserveCapacity(judged.count + observation.findings.count)
    func add(_ finding: Finding) {
      var finding = finding
      if let asserted = plan.loaded.partnerRule, breaksExpectation(finding, of: step) {
        finding.level = max(finding.level, asserted.level)
        finding.partnerRule = asserted.id
      }
      finding.level = min(finding.level, vector.level)
      if let note = step.deliveryNote { finding.message += " " + note }
      if vector.steps.count > 1 { finding.field = "steps[\(index)].\(finding.field)" }
      findings.append(finding)
    }
    for finding in judged {
      // App-side findings read under the endpoint's rules at the endpoint; the association's are its own (AF-UL).
      guard plan.loaded.profile != .app, plan.profile != .association else {
        add(finding)
        continue
      }
      if let mapped = EndpointRules.finding(finding, verdict: step.expect.verdict, rules: vector.rules) { add(mapped) }
    }
    observation.findings.forEach(add)
    // A token vector's requests, or an endpoint vector's code exchanged as Google does (AF-TK-1).
    let planned = plan.exchanges.isEmpty ? [Vector.Exchange(expect: .token)] : plan.exchanges
    var previous: String?
    for (position, (exchange, answer)) in zip(planned, observation.exchanges).enumerated() {
      let prefix = plan.exchanges.isEmpty ? "exchange." : "exchanges[\(position)]."
      let refusalRule = vector.rules.first ?? "AF-TK-3"
      for var finding in tokenFindings(exchange.expect, answer, refusalRule: refusalRule, previousAccessToken: previous)
      {
        finding.field = prefix + finding.field
        add(finding)
      }
      previous = answer.accessToken ?? previous
    }
    return findings
  }

  /// Whether a finding says the step's own expectation did not hold (its verdict, code request or reply, parameters
  /// beyond it included), rather than a preference of the suite's beside it: the reply's encoding (AF-RE-6),
  /// error_description's characters (AF-RE-7), a note (MAY), or another reading one of its alternatives allows.
  static func breaksExpectation(_ finding: Finding, of step: RenderedStep) -> Bool {
    finding.level != .may && finding.rule != "AF-RE-6" && finding.rule != "AF-RE-7"
      && !(finding.field == "verdict" && step.alternatives.contains { $0.rule == finding.rule })
  }
}
