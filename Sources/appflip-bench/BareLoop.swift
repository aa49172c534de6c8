import AppFlip
import AppFlipConformance
import AppFlipReference

/// The floor the harness is compared with: the reference handler called directly on every vector's links, rendered
/// once up front, with an authorizer that only answers; no adapter, no timeout, no judge, no results.
struct BareLoop: Sendable {
  /// One step: the handler built for the vector's configuration, the exact link, and what the authorizer answers.
  struct Call: Sendable {
    var handler: AppFlipReferenceHandler
    var link: String
    var outcome: AuthorizationOutcome
  }

  /// Each vector's steps, in catalog order; vectors that do not render (a reply outside the allow-list) are left out,
  /// as the harness skips them.
  let vectors: [[Call]]

  /// Renders every step of every vector with the vector's own configuration, as the runner does.
  init(catalog: VectorCatalog, configuration: PartnerConfiguration = .default) {
    var vectors: [[Call]] = []
    for loaded in catalog.vectors {
      let vectorConfiguration = loaded.vector.configuration?.applied(to: configuration) ?? configuration
      // One handler per vector, not per configuration: `PartnerConfiguration`'s `==` equates NFC and NFD client ids.
      let handler = AppFlipReferenceHandler(configuration: vectorConfiguration.appFlip)
      var calls: [Call] = []
      for step in loaded.vector.steps {
        guard case .success(let rendered) = RenderedStep.render(step, with: vectorConfiguration) else {
          calls = []
          break
        }
        calls.append(Call(handler: handler, link: rendered.link, outcome: rendered.outcome))
      }
      if !calls.isEmpty { vectors.append(calls) }
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
