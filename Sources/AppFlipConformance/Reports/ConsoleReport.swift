/// The console summary of a run: each vector that did not pass with its diff, then the counts.
///
/// Text from data (ids, paths, messages, an adapter's stderr) is made safe for a terminal: no control character
/// reaches it raw, each line is capped, and each vector shows at most `maxDetailLines` lines, indented under it.
/// Vectors a stopped run did not run are counted, not listed, and at most `maxListed` vectors are listed, so the
/// console stays readable (and small) however many vectors fail; the reports list every one.
package enum ConsoleReport {
  /// The most lines of details shown for one vector.
  static let maxDetailLines = 60
  /// The most vectors listed; the rest are counted in one line.
  static let maxListed = 200

  /// The text to print after a run; `colour` adds ANSI colours to the labels and the counts line; `stopReason` is why
  /// the run stopped early, if it did, which is never a pass; results of the origins in `printed` were printed as
  /// the run began (the files that could not be used) and are only counted. `quiet` (`--quiet`) prints one line per
  /// vector that fails the gate or warns (label, id, level, first finding) and the counts, nothing skipped.
  package static func render(
    _ results: [VectorResult], colour: Bool = false, stopReason: String? = nil,
    printed: Set<VectorResult.Origin> = [], quiet: Bool = false
  ) -> String {
    func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    var out = ""
    var listed = 0
    // By index: a result is copied (each of its fields retained) only when it is listed.
    for index in results.indices
    where results[index].status != .passed && !results[index].isNotRun && !printed.contains(results[index].origin) {
      if quiet && results[index].status == .skipped { continue }
      listed += 1
      guard listed <= maxListed else { continue }
      let result = results[index]
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
      guard !quiet else {
        out += "\(label) " + ConsoleText.line("\(result.id) [\(result.level.rawValue)] \(firstFinding(result))") + "\n"
        continue
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
    if listed > maxListed {
      out += "… \(Count.of(listed - maxListed, "more vector")) that did not pass, not listed here; "
      out += "the JUnit and JSON reports list every one\n"
    }
    // Vectors not run: one line per reason ("not run: interrupted (SIGINT)"), however many there are.
    var notRun: [(message: String, count: Int)] = []
    for index in results.indices where results[index].isNotRun {
      let message = results[index].message
      if let known = notRun.firstIndex(where: { $0.message == message }) {
        notRun[known].count += 1
      } else {
        notRun.append((message, 1))
      }
    }
    for (message, count) in notRun where !quiet {
      out += "\(paint("SKIP", "2")) \(Count.of(count, "vector")) \(ConsoleText.line(message))\n"
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

  /// What a quiet line shows of a result: its first finding (`reply.state [AF-RE-2, MUST] …`), else the first line
  /// of its message.
  static func firstFinding(_ result: VectorResult) -> String {
    guard let finding = result.findings.first else { return String(result.message.prefix { $0 != "\n" }) }
    return String(finding.diff.prefix { $0 != "\n" }.dropFirst(2))
  }
}
