/// The console summary of a run: each vector that did not pass with its diff, then the counts.
public enum ConsoleReport {
  /// The text to print after a run; `colour` adds ANSI colours to the labels and the counts line.
  public static func render(_ results: [VectorResult], colour: Bool = false) -> String {
    func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    var out = ""
    for result in results where result.status != .passed {
      let label =
        switch result.status {
        case .failed: paint("FAIL", "1;31")
        case .warning: paint("WARN", "33")
        case .skipped: paint("SKIP", "2")
        case .error: paint("ERROR", "1;35")
        case .inconclusive: paint("INCONCLUSIVE", "1;33")
        case .passed: paint("PASS", "32")
        }
      out += "\(label) \(result.id) [\(result.level.rawValue)] \(result.file)\n"
      if !result.details.isEmpty {
        out +=
          result.details.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
            separator: "\n") + "\n"
      }
    }
    let summary = RunSummary(results)
    out += paint("\(summary.total) vectors: \(summary.line)", summary.isSuccess ? "32" : "1;31") + "\n"
    return out
  }
}
