import Foundation

/// Renders a run as GitHub-flavoured Markdown for a CI job summary (`$GITHUB_STEP_SUMMARY`).
///
/// The layout: a title with the suite's name and version and the implementation, the verdict, the totals, the
/// configuration; failures grouped by rule (each vector with its diff, each rule with a one-sentence fix) and by bug
/// class (the classes a finding shows, `FlagRegistry.evidenced(_:)`); stale waivers; warnings summarised by rule; errors
/// with their message; skips counted by reason. An interrupted run or one with errors never reads "Passed". Vector data is escaped
/// (pipes and Markdown punctuation in text, backticks in code), and the report stays within `Limits.maxBytes`:
/// past the limits, vectors are listed by id only, with a note.
package enum MarkdownReport {
  /// The Markdown for these results; `stopReason` is why the run stopped early (a signal, `--max-failures`), if it did;
  /// `selection` names the vectors selected and the shard run.
  package static func render(
    _ results: [VectorResult], implementation: String, configuration: PartnerConfiguration, strict: Bool = false,
    registry: FlagRegistry = .bundled, limits: Limits = Limits(), stopReason: String? = nil,
    selection: RunSelection? = nil
  ) -> String {
    let head = header(
      results, implementation: implementation, configuration: configuration, strict: strict, stopReason: stopReason,
      selection: selection, limits)
    let failed = results.filter { $0.status == .failed }
    let tail =
      bugClasses(failed, registry: registry, limits) + stale(results.filter { $0.status == .stale }, limits)
      + warnings(results.filter { $0.status == .warning }, limits)
      + errors(results.filter { $0.status == .error }, limits)
      + inconclusive(results.filter { $0.status == .inconclusive }, limits)
      + skipped(results.filter { $0.status == .skipped }, limits)
    let budget = limits.maxBytes - size(head) - size(tail) - 1_024
    let body = failures(failed, budget: budget, registry: registry, limits)
    return assemble(head + body + tail, keeping: head.count, maxBytes: limits.maxBytes)
  }

  /// Whether a path is this GitHub Actions step's summary file, which is appended to rather than replaced.
  package static func appends(to path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Bool
  {
    guard let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty else { return false }
    return URL(fileURLWithPath: summary).standardizedFileURL.path == URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// The rule's one-line meaning (the summary column of RULES.md), or `nil` for a rule RULES.md does not define.
  package static func meaning(of rule: String) -> String? { RulesDocument.bundled.rule(rule)?.summary }

  /// One concrete sentence on how to fix a handler that breaks the rule (the fix column of RULES.md).
  package static func fix(for rule: String) -> String {
    RulesDocument.bundled.rule(rule)?.fix ?? "Make the implementation meet \(rule) as RULES.md states it."
  }
}
