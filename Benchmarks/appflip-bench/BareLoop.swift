import AppFlip
import AppFlipConformance
import AppFlipReference

/// The floor the harness is compared with: the reference handler called directly on every vector's links, planned
/// once up front as the runner plans them, with an authorizer that only answers; no adapter, no timeout, no judge, no
/// results.
struct BareLoop: Sendable {
  /// One step: the handler built for the vector's configuration, the exact link, and what the authorizer answers.
  struct Call: Sendable {
    var handler: AppFlipReferenceHandler
    var link: String
    var outcome: AuthorizationOutcome
  }

  /// Each vector's steps, in catalog order; vectors the harness skips (a reply outside the allow-list) are left out.
  let vectors: [[Call]]

  /// Plans every vector for `adapter` under `configuration`, as the runner does.
  init(catalog: VectorCatalog, adapter: any ConformanceAdapter, configuration: PartnerConfiguration = .default) {
    var vectors: [[Call]] = []
    for loaded in catalog.vectors {
      guard case .success(let plan) = VectorPlan.make(loaded, configuration: configuration, adapter: adapter) else {
        continue
      }
      // One handler per vector, not per configuration: `PartnerConfiguration`'s `==` equates NFC and NFD client ids.
      let handler = AppFlipReferenceHandler(configuration: plan.configuration.appFlip)
      vectors.append(plan.steps.map { Call(handler: handler, link: $0.link, outcome: $0.outcome) })
    }
    self.vectors = vectors
  }

  /// Sends every link once; returns the bytes of every URL opened, so the work cannot be optimized away.
  func pass() async -> Int {
    var checksum = 0
    for calls in vectors {
      for call in calls {
        let outcome = call.outcome
        let opened = await call.handler.handle(call.link) { _ in outcome }
        checksum &+= opened?.url.utf8.count ?? 0
      }
    }
    return checksum
  }
}
