/// The console summary of a run: each vector that did not pass with its diff, then the counts.
///
/// Text from data (ids, paths, messages, an adapter's stderr) is made safe for a terminal: no control character
/// reaches it raw, each line is capped, and each vector shows at most `maxDetailLines` lines, indented under it.
package enum ConsoleReport {
  /// The most lines of details shown for one vector.
  static let maxDetailLines = 60

  /// The text to print after a run; `colour` adds ANSI colours to the labels and the counts line; `stopReason` is why
  /// the run stopped early, if it did, which is never a pass.
  package static func render(_ results: [VectorResult], colour: Bool = false, stopReason: String? = nil) -> String {
    func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    var out = ""
    for result in results where result.status != .passed {
      let label =
        switch result.status {
        case .failed: paint("FAIL", "1;31")
        case .warning: paint("WARN", "33")
        case .skipped: paint("SKIP", "2")
        case .error: paint("ERROR", "1;35")
        case .stale: paint("STALE", "1;31")
        case .inconclusive: paint("INCONCLUSIVE", "1;33")
        case .passed: paint("PASS", "32")
        }
      out += "\(label) \(ConsoleText.line(result.id)) [\(result.level.rawValue)] \(ConsoleText.line(result.file))\n"
      if !result.details.isEmpty {
        var lines = ConsoleText.safe(result.details).split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > maxDetailLines {
          let hidden = lines.count - maxDetailLines
          lines = Array(lines.prefix(maxDetailLines)) + ["… \(hidden) more lines (see the JUnit or JSON report)"]
        }
        out += lines.map { "  " + $0 }.joined(separator: "\n") + "\n"
      }
    }
    let summary = RunSummary(results)
    let passed = summary.isSuccess && stopReason == nil
    var line = "\(Count.of(summary.total, "vector")): \(summary.line)"
    if let stopReason {
      line += "; INTERRUPTED (\(stopReason)): \(results.filter(\.isNotRun).count) not run, not a pass"
    }
    out += paint(line, passed ? "32" : "1;31") + "\n"
    return out
  }
}
