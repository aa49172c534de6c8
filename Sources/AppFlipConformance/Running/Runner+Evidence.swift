import AppFlip
import Foundation

extension VectorResult {
  /// The result with the evidence of its run attached when it did not pass (nor was skipped): the vector's
  /// description, each step's link as Google sent it and as the target platform delivered it, the scripted outcome,
  /// and what the implementation did for each step that answered. Made only for such results: a passing run builds
  /// none.
  func withEvidence(_ plan: VectorPlan, _ observations: [Result<Observation, any Error>]) -> VectorResult {
    guard status != .passed, status != .skipped else { return self }
    var result = self
    let vector = plan.vector
    let endpoint = plan.loaded.profile != .app  // A server (endpoint or token) decides; nothing is scripted.
    let steps = plan.steps.indices.map { index in
      let outcome = endpoint ? nil : vector.steps[index].outcome.map(Self.describe) ?? "none scripted"
      let did: String
      switch index < observations.count ? observations[index] : nil {
      case .success(let observation)?: did = Self.describe(observation, endpoint: endpoint)
      case .failure?: did = "did not answer (see above)"
      case nil: did = "not sent: an earlier step did not answer"
      }
      let step = plan.steps[index]
      return Evidence.Step(
        link: step.sentLink ?? step.link, delivered: step.sentLink == nil ? nil : step.link, outcome: outcome, did: did)
    }
    result.evidence = Evidence(description: vector.description, steps: steps)
    return result
  }

  /// A scripted outcome in a few words: `granted, code "c1"`, `consent-denied`.
  static func describe(_ outcome: Vector.Outcome) -> String {
    outcome.code.map { "\(outcome.result.rawValue), code \(Quoted.string($0))" } ?? outcome.result.rawValue
  }

  /// What an implementation did with one link: the URL it opened (and how), or that it opened nothing, then its code
  /// requests when the adapter sees them.
  static func describe(_ observation: Observation, endpoint: Bool) -> String {
    if let association = observation.association { return association.summary }  // nothing opened: a file was read
    var did: String
    if let opened = observation.opened {
      did = (endpoint ? "redirected to " : "opened ") + Quoted.string(opened.url, limit: Evidence.shownLink)
      if let options = opened.options {
        did += " with options " + UniversalLinksOnlyCheck.shown(options)
      } else if let only = opened.universalLinksOnly, !endpoint {
        did += only ? " (universal links only)" : " (not universal links only)"
      }
    } else {
      did = endpoint ? "redirected nowhere" : "opened nothing"
    }
    if let requests = observation.authorizationRequests {
      did += requests.isEmpty ? "; no code request" : "; code requests: " + Judge.describe(requests)
    }
    return did
  }
}
