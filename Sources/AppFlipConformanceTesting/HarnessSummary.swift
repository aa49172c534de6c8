import AppFlipConformance

/// The closing lines of a harness's run under `swift test`: the counts by status, the failing rules, and where the
/// reports are, with what the JUnit report cost.
enum HarnessSummary {
  /// The summary of these results (waivers applied), which took `seconds` of wall-clock time, for the harness `name`;
  /// `junitSeconds` is the time spent on the JUnit report (its crash journal included), `nil` when none was written.
  static func render(
    _ results: [VectorResult], seconds: Double, options: ConformanceOptions, name: String = SuiteInfo.name,
    junitSeconds: Double? = nil
  ) -> String {
    let summary = RunSummary(results)
    let harness = name == SuiteInfo.name ? "" : " (\(name))"
    var lines = [
      "\(SuiteInfo.name) \(SuiteInfo.version)\(harness): \(Count.of(summary.total, "vector")): \(summary.line) "
        + "(in \(String(format: "%.2f", seconds)) s)"
    ]
    for (status, title) in [(Status.failed, "failing rules"), (.warning, "rules warned about")] {
      var rules: [String: Int] = [:]
      for result in results where result.status == status {
        // A partner's own rule counts beside the bundled one its vector asserts (RULES.md, "Levels").
        for rule in Set(result.findings.flatMap { [$0.rule] + ($0.partnerRule.map { [$0] } ?? []) }) {
          rules[rule, default: 0] += 1
        }
      }
      guard !rules.isEmpty else { continue }
      let listed = rules.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        .map { "\($0.key) (\(Count.of($0.value, "vector")))" }
      lines.append("\(title): " + listed.joined(separator: ", "))
    }
    // The JUnit report's cost is shown, so a partner sees what it adds to the test phase (issue 11: under 5 %).
    let junit = options.junit.map { path in
      junitSeconds.map { "\(path) (written in \(String(format: "%.1f", $0 * 1_000)) ms)" } ?? path
    }
    let reports = [("JUnit", junit), ("Markdown", options.markdown), ("JSON results", options.json)]
      .compactMap { kind, path in path.map { "\(kind): \($0)" } }
    if !reports.isEmpty { lines.append("reports: " + reports.joined(separator: ", ")) }
    return lines.joined(separator: "\n")
  }
}
