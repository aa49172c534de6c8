import Foundation

extension Runner {
  /// The error result of a vector whose step `step` failed to answer with `error` after the steps that answered
  /// `prior`: "step N: the implementation …" (the step named when the vector has several), with their diagnostics.
  static func failed(
    _ loaded: LoadedVector, step: Int, error: any Error, prior: ArraySlice<Result<Observation, any Error>>,
    since start: DispatchTime
  ) -> VectorResult {
    let prefix = loaded.vector.steps.count > 1 ? "step \(step): " : ""
    var result = VectorResult(loaded, status: .error, message: prefix + "the implementation \(Runner.describe(error))")
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
    result.evidence = nil
  }

  /// The result as an error with `fault`, which the implementation showed on its vector after answering it (a second
  /// answer).
  static func attribute(_ fault: any Error, to result: VectorResult) -> VectorResult {
    var faulted = result
    faulted.status = .error
    faulted.findings = []
    faulted.message = "the implementation \(Runner.describe(fault))"
    let diagnostics = (fault as? any DiagnosableError)?.diagnostics ?? ""
    faulted.diagnostics = [result.diagnostics, diagnostics].filter { !$0.isEmpty }.joined(separator: "\n")
    return faulted
  }
}
