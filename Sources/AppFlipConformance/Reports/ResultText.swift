extension Finding {
  /// The finding as a diff: rule, level (and the partner rule it counts under), field, then expected and actual on
  /// their own lines.
  package var diff: String {
    """
    ✗ \(field) [\(rule), \(level.keyword)\(partnerRule.map { " under " + $0 } ?? "")] \(message)
        expected: \(expected)
        actual:   \(actual)
    """
  }
}

extension VectorResult {
  /// The details of a result that did not pass: its message, its evidence (description, rules, links, outcome, what
  /// the implementation did), every finding's diff, what the implementation wrote, and the command that reproduces it.
  package var details: String {
    var lines: [String] = []
    if !message.isEmpty { lines.append(message) }
    if let evidence { lines += evidence.lines }
    lines += findings.map(\.diff)
    // An endpoint's diagnostics are its answer (status and page text), not a process's stderr.
    if !diagnostics.isEmpty {
      lines.append((tags.contains("endpoint") || tags.contains("token") ? "answer:\n" : "stderr:\n") + diagnostics)
    }
    if let line = evidence?.reproduceLine { lines.append(line) }
    return lines.joined(separator: "\n")
  }
}

extension RunSummary {
  /// One line of counts, e.g. `80 passed, 0 failed, 0 warnings, 0 skipped, 0 errors`, then stale waivers if any.
  package var line: String {
    "\(passed) passed, \(failed) failed, \(warnings) warnings, \(skipped) skipped, \(errors) errors"
      + (stale > 0 ? ", \(stale) stale waiver\(stale == 1 ? "" : "s")" : "")
      + (inconclusive > 0 ? ", \(inconclusive) inconclusive" : "")
  }
}
