import AppFlip

extension Judge {
  /// The final findings of one step of a planned vector, as the result reports them: the step judged against its
  /// answers, what the target platform changes about the reply (app vectors), each finding under the endpoint's rule
  /// (endpoint vectors; what the endpoint may do is dropped), capped at the vector's level, and its field named by step
  /// (`steps[1].reply.state`) when the vector has several.
  package static func findings(_ observation: Observation, step index: Int, of plan: VectorPlan) -> [Finding] {
    let step = plan.steps[index]
    let vector = plan.vector
    var judged = judge(step, observation)
    if plan.loaded.profile == .app {
      judged = DeliveryPlatform.replyFindings(
        judged, platform: plan.platform, expect: step.expect, opened: observation.opened)
    }
    guard !judged.isEmpty else { return judged }
    var findings: [Finding] = []
    findings.reserveCapacity(judged.count)
    for var finding in judged {
      if plan.loaded.profile == .endpoint {
        guard let mapped = EndpointRules.finding(finding, verdict: step.expect.verdict, rules: vector.rules) else {
          continue
        }
        finding = mapped
      }
      finding.level = min(finding.level, vector.level)
      if vector.steps.count > 1 { finding.field = "steps[\(index)].\(finding.field)" }
      findings.append(finding)
    }
    return findings
  }
}
