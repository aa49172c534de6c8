extension MarkdownReport {
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
