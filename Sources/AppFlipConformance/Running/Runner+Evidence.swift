import AppFlip
import Foundation

extension VectorResult {
  /// The result with the evidence of its run attached when it did not pass (nor was skipped): the vector's
  /// description, each step's link as Google sent it and as the target platform delivered it, the scripted outcome,
  /// and what the implementation did for each step that answered. Made only for such results: a passing run builds
  /// none.
  func withEvidence(_ plan: VectorPlan, _ observations: [Result<Observation, any Error>]) -> VectorResult {
    withEvidence(
      plan.loaded, configuration: plan.configuration, delivered: plan.steps.map(\.link),
      platform: plan.platform, observations)
  }

  /// The result with its evidence, for the vector `loaded` rendered under `configuration` (its override applied),
  /// whose links the target `platform` delivered as `delivered`.
  func withEvidence(
    _ loaded: LoadedVector, configuration: PartnerConfiguration, delivered: [String], platform: DeliveryPlatform?,
    _ observations: [Result<Observation, any Error>]
  ) -> VectorResult {
    guard status != .passed, status != .skipped else { return self }
    var result = self
    let vector = loaded.vector
    // The links as sent: on a target platform, the plan holds them as the platform delivers them.
    var sent = delivered
    if platform != nil,
      case .success(let rendered) = RenderedStep.render(vector, with: configuration, profile: loaded.profile),
      rendered.count == sent.count
    {
      sent = rendered.map(\.link)
    }
    let endpoint = loaded.profile != .app  // A server (endpoint or token) decides; nothing is scripted.
    let steps = sent.indices.map { index in
      let outcome = endpoint ? nil : vector.steps[index].outcome.map(Self.describe) ?? "none scripted"
      let did: String
      switch index < observations.count ? observations[index] : nil {
      case .success(let observation)?: did = Self.describe(observation, endpoint: endpoint)
      case .failure?: did = "did not answer (see above)"
      case nil: did = "not sent: an earlier step did not answer"
      }
      return Evidence.Step(
        link: sent[index], delivered: Bytes.equal(delivered[index], sent[index]) ? nil : delivered[index],
        outcome: outcome, did: did)
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
        did +=
          " with options ["
          + options.keys.sorted().map { "\(Quoted.string($0)): \(options[$0]!)" }
          .joined(separator: ", ") + "]"
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

extension Runner {
  /// The error result of a vector whose step `step` a run abandoned with `error` (its deadline passed on the watchdog,
  /// or the run was cancelled), with the evidence of its links rendered again under this runner's configuration and
  /// platform.
  func failed(
    _ loaded: LoadedVector, step: Int, error: any Error, prior: ArraySlice<Result<Observation, any Error>>,
    since start: DispatchTime
  ) -> VectorResult {
    let result = Runner.failed(loaded, step: step, error: error, prior: prior, since: start)
    let configuration = loaded.vector.configuration?.applied(to: configuration) ?? configuration
    guard case .success(var steps) = RenderedStep.render(loaded.vector, with: configuration, profile: loaded.profile)
    else { return result }
    let target = loaded.profile == .app ? platform : nil
    if let target, case .success(let delivered) = target.deliver(steps, allowList: configuration.allowList) {
      steps = delivered
    }
    return result.withEvidence(
      loaded, configuration: configuration, delivered: steps.map(\.link), platform: target,
      Array(prior) + [.failure(error)])
  }
}
