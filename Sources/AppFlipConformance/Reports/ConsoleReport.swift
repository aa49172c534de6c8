/// The console summary of a run: each vector that did not pass with its diff, then the counts.
public enum ConsoleReport {
  /// The text to print after a run.
  public static func render(_ results: [VectorResult]) -> String {
    var out = ""
    for result in results where result.status != .passed {
      let label =
        switch result.status {
        case .failed: "FAIL"
        case .warning: "WARN"
        case .skipped: "SKIP"
        case .error: "ERROR"
        case .passed: "PASS"
        }
      out += "\(label) \(result.id) [\(result.level.rawValue)] \(result.file)\n"
      if !result.details.isEmpty {
        out +=
          result.details.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
            separator: "\n") + "\n"
      }
    }
    let summary = RunSummary(results)
    out += "\(summary.total) vectors: \(summary.line)\n"
    return out
  }
}
