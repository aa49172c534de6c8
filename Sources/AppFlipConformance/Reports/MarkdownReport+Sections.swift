extension MarkdownReport {
  /// Stale waivers: vectors a waiver expects to fail that now pass, each with the waiver to remove.
  static func stale(_ stale: [VectorResult], _ limits: Limits) -> [String] {
    guard !stale.isEmpty else { return [] }
    let items = stale.prefix(limits.listedPerGroup).map { "- \(code($0.id)): \(text($0.message))" }
    return [
      "### Stale waivers",
      "\(Count.of(stale.count, "vector")) passed although a waiver expects \(stale.count == 1 ? "it" : "them") to fail; "
        + "they fail the run until the waiver is removed (`--waivers FILE --write-waivers FILE` drops stale waivers).",
      items.joined(separator: "\n"),
    ] + more(stale.dropFirst(limits.listedPerGroup), limits)
  }

  /// Warnings summarised by the rule of their first SHOULD finding: meaning, count, ids, fix.
  static func warnings(_ warned: [VectorResult], _ limits: Limits) -> [String] {
    guard !warned.isEmpty else { return [] }
    let items = grouped(warned, by: { primaryRule($0, .should) }).map { rule, group in
      var item = "- **\(text(rule))**"
      if let meaning = meaning(of: rule) { item += " \(text(meaning))" }
      item += " (\(group.count)): " + listed(group.map { code($0.id) }, limit: limits.listedPerGroup)
      return item + ". Fix: \(text(fix(for: rule)))"
    }
    return [
      "### Warnings (SHOULD)",
      "\(Count.of(warned.count, "vector")) met every MUST check but not every SHOULD check; they fail only with "
        + "`--strict`. The JSON results and JUnit reports have their diffs.",
      items.joined(separator: "\n"),
    ]
  }

  /// Errors, each with its message (and the implementation's stderr) in a code block.
  static func errors(_ errored: [VectorResult], _ limits: Limits) -> [String] {
    guard !errored.isEmpty else { return [] }
    var blocks = [
      "### Errors",
      "\(Count.of(errored.count, "vector")) could not be judged: the implementation threw, hung or "
        + "answered garbage, or the vector file is bad.",
    ]
    for result in errored.prefix(limits.detailedErrors) {
      blocks += [
        "**\(code(result.id))** · \(code(result.file))", fence(capped(result.details, limits.maxBlockCharacters)),
      ]
    }
    return blocks + more(errored.dropFirst(limits.detailedErrors), limits)
  }

  /// Inconclusive endpoint vectors counted by reason: refusals that prove nothing without a proven session.
  static func inconclusive(_ results: [VectorResult], _ limits: Limits) -> [String] {
    guard !results.isEmpty else { return [] }
    return [
      "### Inconclusive",
      "\(Count.of(results.count, "vector")) proved nothing (never counted as passed): the server's own page answered"
        + " and no signed-in request was shown to get a code (AF-EP-5).",
      reasons(results, limits).table,
    ]
  }

  /// A table of results counted by cause, with their ids, and the groups left out of it. Messages that differ only in
  /// their quoted values and numbers (a character offset, the URL a vector used) share a cause, shown with the parts
  /// that differ as `…`.
  static func reasons(
    _ results: [VectorResult], _ limits: Limits
  ) -> (table: String, rest: ArraySlice<(String, [VectorResult])>) {
    let groups = grouped(results, by: { Cause($0.message.isEmpty ? "no reason given" : $0.message).key })
    var table = "| vectors | reason | ids |\n|---:|---|---|"
    for (_, group) in groups.prefix(limits.listedPerGroup) {
      let reason = Cause.shown(group.map { $0.message.isEmpty ? "no reason given" : $0.message })
      let ids = listed(group.map { code($0.id) }, limit: limits.listedPerGroup)
      table += "\n| \(group.count) | \(text(capped(reason, 300))) | \(ids) |"
    }
    return (table, groups.dropFirst(limits.listedPerGroup))
  }

  /// Skipped vectors counted by reason.
  static func skipped(_ skips: [VectorResult], _ limits: Limits) -> [String] {
    guard !skips.isEmpty else { return [] }
    let (table, rest) = reasons(skips, limits)
    var blocks = ["### Skipped", "\(Count.of(skips.count, "vector")) did not apply:", table]
    if !rest.isEmpty {
      blocks.append(
        "… and \(rest.count) more reasons (\(Count.of(rest.map(\.1.count).reduce(0, +), "vector")))")
    }
    return blocks
  }
}
