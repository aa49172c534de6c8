extension ConformanceCommand {
  /// For an endpoint run, the preflight (AF-EP-5): the adapter with `sessionProven` set when a signed-in request got a
  /// code, else the adapter as is and the diagnosis that stops the run; other adapters pass through. A signal that
  /// `watch` sees cancels the preflight's request at once.
  static func preflight(
    _ adapter: any ConformanceAdapter, options: CommandLineOptions, configuration: PartnerConfiguration,
    watch: InterruptionWatch
  ) async -> (adapter: any ConformanceAdapter, stop: String?) {
    guard var endpoint = adapter as? EndpointAdapter, options.endpointStaging.preflight else { return (adapter, nil) }
    let request = Task { [endpoint] in await EndpointPreflight.run(endpoint, configuration: configuration) }
    watch.onStop = { request.cancel() }
    switch await request.value {
    case .proven:
      endpoint.sessionProven = true
      return (endpoint, nil)
    case .failed(let diagnosis):
      return (endpoint, diagnosis)
    }
  }

  /// Every vector as inconclusive, when the preflight got no code: nothing the run could show would prove anything.
  static func preflightStopped(_ catalog: VectorCatalog, diagnosis: String) -> [VectorResult] {
    Runner.results(for: catalog.problems)
      + catalog.vectors.map { loaded in
        VectorResult(
          id: loaded.vector.id, area: loaded.area, file: loaded.file, level: loaded.vector.level,
          spec: loaded.vector.spec, tags: loaded.vector.tags, flags: loaded.vector.flags, status: .inconclusive,
          message: "not run: the preflight request got no code: \(diagnosis)")
      }
  }
}
