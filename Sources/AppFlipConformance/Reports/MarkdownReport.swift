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

  /// How much the report may hold; the defaults keep a report of any size under GitHub's 1 MiB with room to spare.
  package struct Limits: Sendable, Hashable {
    /// The most UTF-8 bytes the report may take; GitHub accepts 1 MiB (1,048,576 bytes) per step summary.
    package var maxBytes = 1_000_000
    /// The most failing vectors shown with their diff in one rule group; the rest are listed by id.
    package var detailedPerGroup = 10
    /// The most vector ids (or skip reasons) listed in one group; the rest are counted.
    package var listedPerGroup = 20
    /// The most characters of one code block (a diff, an error message); a longer one is cut with a note.
    package var maxBlockCharacters = 4_000
    /// The most errors shown with their message; the rest are listed by id.
    package var detailedErrors = 20
  }

  static func header(
    _ results: [VectorResult], implementation: String, configuration: PartnerConfiguration, strict: Bool,
    stopReason: String?, selection: RunSelection? = nil, _ limits: Limits
  ) -> [String] {
    let summary = RunSummary(results)
    var verdict: String
    if let stopReason {
      let notRun = results.filter(\.isNotRun).count
      verdict = "⏹️ **Interrupted**: \(text(stopReason)); \(Count.of(notRun, "vector")) not run, so this is not a pass"
      if !summary.isSuccess { verdict += " (and " + problems(summary).joined(separator: ", ") + ")" }
    } else if summary.isSuccess {
      verdict = "✅ **Passed**: no vector failed and none errored"
      if summary.warnings > 0 { verdict += "; \(Count.of(summary.warnings, "vector")) with warnings (SHOULD)" }
    } else {
      verdict = "❌ **Failed**: " + problems(summary).joined(separator: ", ")
    }
    // The stale and inconclusive columns show only when there are some, so the table stays as it was for other runs;
    // inconclusive vectors are never counted as passed or skipped, as in the JUnit report and the exit code.
    var columns = [
      ("passed", summary.passed), ("failed", summary.failed), ("warnings", summary.warnings),
      ("skipped", summary.skipped), ("errors", summary.errors),
    ]
    if summary.stale > 0 { columns.append(("stale waivers", summary.stale)) }
    if summary.inconclusive > 0 { columns.append(("inconclusive", summary.inconclusive)) }
    columns.append(("total", summary.total))
    let totals = [
      "| " + columns.map(\.0).joined(separator: " | ") + " |", "|" + String(repeating: "---:|", count: columns.count),
      "| " + columns.map { String($0.1) }.joined(separator: " | ") + " |",
    ].joined(separator: "\n")
    let urls = configuration.allowList.urls
    let allowList =
      urls == PartnerConfiguration.default.allowList.urls
      ? "Google's \(urls.count) App Flip URLs"
      : listed(urls.map { code($0) }, limit: limits.listedPerGroup)
    var setup =
      "Configuration: client id \(code(configuration.clientID)) · universal link \(code(configuration.universalLink))"
      + " · redirect allow-list: \(allowList)"
    let unlisted = configuration.unlistedRedirectURIs
    if !unlisted.isEmpty {
      setup +=
        " · ⚠️ allowUnlistedRedirectUris: \(listed(unlisted.map { code($0) }, limit: limits.listedPerGroup)) "
        + "\(unlisted.count == 1 ? "is" : "are") not among Google's App Flip URLs"
    }
    if strict { setup += " · strict: SHOULD findings fail" }
    if let selection {
      setup += " · vectors: \(selection.count) selected, digest \(code(selection.digest))"
      if let shard = selection.shard { setup += ", shard \(shard.index)/\(shard.count) of them" }
    }
    return [
      "## \(text(SuiteInfo.described)): \(text(implementation))", verdict + ".", totals, setup,
    ]
  }

  /// What keeps a run from passing, e.g. `2 vectors failed`, `1 vector could not be judged`.
  static func problems(_ summary: RunSummary) -> [String] {
    var parts: [String] = []
    if summary.failed > 0 { parts.append("\(Count.of(summary.failed, "vector")) failed") }
    if summary.errors > 0 { parts.append("\(Count.of(summary.errors, "vector")) could not be judged") }
    if summary.stale > 0 { parts.append("\(Count.of(summary.stale, "waiver")) stale") }
    if summary.inconclusive > 0 { parts.append("\(Count.of(summary.inconclusive, "vector")) inconclusive") }
    return parts
  }
}
