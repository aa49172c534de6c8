import AppFlip
import AppFlipConformance

/// Where the in-process harness spends its time per pass: the runner's parts, each timed on its own with the same
/// calls the runner makes. What is left of the runner's time is its own: the timeout per step, building results.
struct Breakdown: Sendable {
  /// One step as the runner sends it, with the plan the judge reads it with.
  struct Prepared: Sendable {
    var request: HandlerRequest
    var plan: VectorPlan
  }

  let catalog: VectorCatalog
  let prepared: [Prepared]
  let adapter: InProcessAdapter<ReferenceHandlerAdapter>

  init(catalog: VectorCatalog) {
    self.catalog = catalog
    adapter = InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }
    var prepared: [Prepared] = []
    for loaded in catalog.vectors {
      guard case .success(let plan) = VectorPlan.make(loaded, configuration: .default, adapter: adapter) else {
        continue
      }
      for request in plan.requests(run: 0) { prepared.append(Prepared(request: request, plan: plan)) }
    }
    self.prepared = prepared
  }

  /// Plans every vector (renders every step), as the runner does for each vector it runs.
  func render() -> Int {
    var count = 0
    for loaded in catalog.vectors {
      if case .success(let plan) = VectorPlan.make(loaded, configuration: .default, adapter: adapter) {
        count &+= plan.steps.count
      }
    }
    return count
  }

  /// Sends every step through `InProcessAdapter.handle`: handler lookup, a fresh `Authorizer`, the handler, the observation.
  func adapt() async throws -> [Observation] {
    var observations: [Observation] = []
    observations.reserveCapacity(prepared.count)
    for step in prepared { observations.append(try await adapter.handle(step.request)) }
    return observations
  }

  /// Judges every step's observation.
  func judge(_ observations: [Observation]) -> Int {
    var count = 0
    for (step, observation) in zip(prepared, observations) {
      count &+= Judge.findings(observation, step: step.request.step, of: step.plan).count
    }
    return count
  }

  /// Prints each part per pass and what is left of the runner's time.
  static func print(
    catalog: VectorCatalog, runner: Measurement, bare: Measurement, bareVectors: Int, options: BenchOptions
  ) async {
    let breakdown = Breakdown(catalog: catalog)
    var sink = 0
    let render = await Measurement.run(rounds: options.rounds, roundSeconds: options.roundSeconds / 4) {
      sink &+= breakdown.render()
    }
    var observations: [Observation] = []
    let adapt = try? await Measurement.run(rounds: options.rounds, roundSeconds: options.roundSeconds / 4) {
      observations = try await breakdown.adapt()
    }
    guard let adapt else {
      Swift.print("breakdown: the adapter threw")
      return
    }
    let judge = await Measurement.run(rounds: options.rounds, roundSeconds: options.roundSeconds / 4) {
      sink &+= breakdown.judge(observations)
    }
    let vectors = Double(catalog.vectors.count)
    let handler = bare.median * vectors / Double(bareVectors)
    let rest = runner.median - render.median - adapt.median - judge.median
    Swift.print("breakdown of the in-process harness, per pass of \(catalog.vectors.count) vectors (median):")
    let rows: [(String, Double)] = [
      ("runner, total", runner.median),
      ("  VectorPlan.make, every vector", render.median),
      ("  InProcessAdapter.handle, every step", adapt.median),
      ("    of which the handler itself (bare loop)", handler),
      ("    of which the adapter (lookup, Authorizer, Observation)", adapt.median - handler),
      ("  Judge.findings, every step", judge.median),
      ("  the rest (timeout per step, results)", rest),
    ]
    for (label, seconds) in rows {
      let share = String(format: "%5.1f %%", 100 * seconds / runner.median)
      let perStep = Format.microseconds(seconds / Double(breakdown.prepared.count))
      Swift.print(
        "  \(label.padding(toLength: 58, withPad: " ", startingAt: 0)) \(Format.seconds(seconds).leftPadded(10))  \(share)  \(perStep.leftPadded(9))/step"
      )
    }
    if sink == 0 { Swift.print("warning: nothing was rendered; the breakdown is meaningless") }
  }
}

extension String {
  /// The string right-aligned in a field of `width` characters.
  func leftPadded(_ width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}
