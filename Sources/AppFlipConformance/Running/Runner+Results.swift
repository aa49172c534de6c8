import Foundation

extension Runner {
  /// A passed result for `loaded`, before its steps are judged.
  static func result(_ loaded: LoadedVector) -> VectorResult {
    let vector = loaded.vector
    return VectorResult(
      id: vector.id, area: loaded.area, file: loaded.file, level: vector.level, spec: vector.spec, tags: vector.tags,
      flags: vector.flags, status: .passed, rules: vector.rules)
  }

  /// The error result of a vector whose step `step` failed to answer with `error` after the steps that answered
  /// `prior`: "step N: the implementation …" (the step named when the vector has several), with their diagnostics.
  static func failed(
    _ loaded: LoadedVector, step: Int, error: any Error, prior: ArraySlice<Result<Observation, any Error>>,
    since start: DispatchTime
  ) -> VectorResult {
    var result = Runner.result(loaded)
    result.status = .error
    let prefix = loaded.vector.steps.count > 1 ? "step \(step): " : ""
    result.message = prefix + "the implementation \(Runner.describe(error))"
    var diagnostics: [String] = prior.compactMap { try? $0.get().diagnostics }
    if let diagnosable = error as? any DiagnosableError { diagnostics.append(diagnosable.diagnostics) }
    result.diagnostics = diagnostics.filter { !$0.isEmpty }.joined(separator: "\n")
    result.duration = Runner.seconds(since: start)
    return result
  }

  /// Turns the result of a vector that was running when the run was asked to stop into "not run: REASON while it ran".
  static func markNotRun(_ result: inout VectorResult, reason: StopReason) {
    result.status = .skipped
    result.findings = []
    result.message = "not run: \(reason) while it ran"
    result.isNotRun = true
  }
}

/// A catalog-run worker's hold on its slot, through which `Runner` notes each step it sends inline, so the watchdog
/// can time it out.
struct StepWatch: Sendable {
  let run: CatalogRun
  let worker: Int
  let generation: Int

  /// Notes that step `step` is sent now, after the steps that answered `prior`.
  func begin(step: Int, prior: [Result<Observation, any Error>]) {
    run.begin(worker, generation: generation, step: step, prior: prior)
  }

  /// Notes which step of an interleaved vector decides its result if the deadline passes: see `CatalogRun.advance`.
  func advance(step: Int, prior: [Result<Observation, any Error>], failure: (any Error)?) {
    run.advance(worker, generation: generation, step: step, prior: prior, failure: failure)
  }

  /// Notes that the step answered (or threw).
  func end() {
    run.end(worker, generation: generation)
  }
}
