import AppFlip

/// One vector made ready for one adapter: the decision whether it runs there, and if it does, its links rendered with
/// the configuration it runs under and the exact expectations the judge holds them to.
///
/// A plan is made by `VectorPlan.make`, which either skips the vector with its reason (another profile, a
/// configuration or interleaving the adapter cannot take, a value the configuration cannot give, a link the platform
/// cannot deliver) or renders every step. The runner and the benchmark plan vectors the same way.
package struct VectorPlan: Sendable {
  /// Why a vector does not run on an adapter: one sentence, the skipped result's message.
  package struct Skip: Error, Sendable, Hashable {
    /// The sentence, e.g. "sends its links interleaved, which … cannot take; run it in-process".
    package var reason: String
  }

  /// The vector and where it came from.
  package let loaded: LoadedVector
  /// The configuration the steps were rendered with: the run's, with the vector's own override applied.
  package let configuration: PartnerConfiguration
  /// Every step, rendered in order.
  package let steps: [RenderedStep]
  /// The platform whose delivery rules apply to the replies: the run's for an app vector, none for an endpoint one.
  package let platform: DeliveryPlatform?
  /// A token vector's requests, rendered, sent after its step got a code (AF-TK); empty for other vectors.
  package var exchanges: [Vector.Exchange] = []
  /// The profile the adapter tests, whose rules judge the steps: the vector's own, or `association` for an app vector
  /// whose links must open the app.
  package let profile: VectorFile.Profile

  /// The vector.
  package var vector: Vector { loaded.vector }

  /// Plans `loaded` for `adapter` under the run's `configuration` and target `platform` (`nil`: every platform), or
  /// says why it is skipped; the adapter is asked only what the vector needs (a subprocess starts to answer).
  package static func make(
    _ loaded: LoadedVector, configuration: PartnerConfiguration, adapter: any ConformanceAdapter,
    platform: DeliveryPlatform? = nil
  ) -> Result<VectorPlan, Skip> {
    let vector = loaded.vector
    guard adapter.profile.runs.contains(loaded.profile) else {
      return .failure(
        Skip(
          reason:
            "is a vector for the \(loaded.profile.rawValue) profile; \(adapter.name) tests the \(adapter.profile.rawValue) profile"
        ))
    }
    var configuration = configuration
    if let override = vector.configuration {
      guard adapter.acceptsConfiguration else {
        return .failure(
          Skip(
            reason:
              "needs its own configuration, which \(adapter.name) cannot take; build the adapter from a handler factory to run it"
          ))
      }
      configuration = override.applied(to: configuration)
    }
    var steps: [RenderedStep]
    switch RenderedStep.render(vector, with: configuration, profile: loaded.profile) {
    case .failure(let reason): return .failure(Skip(reason: reason.message))
    case .success(let rendered): steps = rendered
    }
    var exchanges: [Vector.Exchange] = []
    do throws(RenderedStep.SkipReason) {
      for exchange in vector.exchanges { exchanges.append(try exchange.rendered(with: configuration)) }
    } catch {
      return .failure(Skip(reason: error.message))
    }
    if vector.interleaved {
      if let step = steps.firstIndex(where: { $0.expect.verdict != .accepted }) {
        return .failure(
          Skip(
            reason:
              "sends its links interleaved, but under this allow-list step \(step) is ignored, so its code request never comes"
          ))
      }
      guard adapter.acceptsInterleaving else {
        return .failure(Skip(reason: "sends its links interleaved, which \(adapter.interleavingRefusal)"))
      }
    }
    let target = loaded.profile == .app ? platform : nil
    if let target {
      switch target.deliver(steps, allowList: configuration.allowList) {
      case .failure(let skip): return .failure(skip)
      case .success(let delivered): steps = delivered
      }
    }
    return .success(
      VectorPlan(
        loaded: loaded, configuration: configuration, steps: steps, platform: target, exchanges: exchanges,
        profile: adapter.profile))
  }

  /// The requests that send the steps, numbered `run` (see `HandlerRequest.run`); an interleaved vector's share one
  /// barrier, so each code request waits until every link is in flight.
  package func requests(run: Int) -> [HandlerRequest] {
    let barrier = vector.interleaved ? InterleavingBarrier(parties: steps.count) : nil
    return steps.indices.map { request($0, run: run, barrier: barrier) }
  }

  /// The request that sends step `index`, numbered `run`; `barrier` is the interleaved vector's, shared by its steps.
  package func request(_ index: Int, run: Int, barrier: InterleavingBarrier? = nil) -> HandlerRequest {
    var request = HandlerRequest(
      vectorID: loaded.vector.id, step: index, link: steps[index].link, outcome: steps[index].outcome,
      configuration: configuration, barrier: barrier, run: run, stepCount: steps.count,
      association: steps[index].expect.association)
    request.exchanges = exchanges
    return request
  }
}
