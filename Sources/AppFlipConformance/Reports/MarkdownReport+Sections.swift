extension MarkdownReport {
  /// Failures grouped by the rule of their first MUST finding, each with its diff, within `budget` bytes.
  static func failures(
    _ failed: [VectorResult], budget: Int, registry: FlagRegistry, _ limits: Limits
  ) -> [String] {
    guard !failed.isEmpty else { return [] }
    let groups = grouped(failed, by: { primaryRule($0, .must) })
    let intros = groups.map { rule, group in
      var heading = "#### \(text(rule))"
      if let meaning = meaning(of: rule) { heading += ": \(text(meaning))" }
      heading += " (\(Count.of(group.count, "vector")))"
      return [heading, "**Fix:** \(text(fix(for: rule)))"]
    }
    // What the headings, fixes, "… and K more" lines and the note take at most; the diffs get the rest.
    let fixed = groups.map { _, group in
      let widest = group.map { code($0.id).utf8.count + 2 }.max() ?? 0
      return 100 + min(group.count, limits.listedPerGroup) * widest
    }
    var remaining = budget - 400 - size(["### Failures by rule"]) - intros.map(size).reduce(0, +) - fixed.reduce(0, +)
    var budgetSpent = false
    var truncated = 0
    var blocks = ["### Failures by rule"]
    for ((_, group), intro) in zip(groups, intros) {
      blocks += intro
      var shown = 0
      for result in group {
        guard !budgetSpent, shown < limits.detailedPerGroup else { break }
        let entry = failureEntry(result, registry: registry, limits)
        guard size(entry) <= remaining else {
          budgetSpent = true
          break
        }
        blocks += entry
        remaining -= size(entry)
        shown += 1
      }
      guard shown < group.count else { continue }
      let rest = group.dropFirst(shown)
      if budgetSpent { truncated += rest.count }
      blocks += more(rest, limits)
    }
    if truncated > 0 {
      blocks.append(
        "> **Truncated:** \(Count.of(truncated, "failing vector")) shown without a diff, to stay within "
          + "\(limits.maxBytes) bytes (GitHub accepts 1 MiB per job summary); the JSON results file has every diff.")
    }
    return blocks
  }

  /// One failing vector: its id, level, file and the bug classes its findings show, the partner's own rules it cites
  /// (each with its level and description, from its evidence), then its details (evidence and diff) in a code block.
  static func failureEntry(_ result: VectorResult, registry: FlagRegistry, _ limits: Limits) -> [String] {
    var line = "**\(code(result.id))** · \(result.level.rawValue) · \(code(result.file))"
    let flags = registry.evidenced(result)
    if !flags.isEmpty {
      line += " · bug classes: " + flags.map { code($0) }.joined(separator: ", ")
    }
    var entry = [line]
    let own = (result.evidence?.rules ?? []).filter { !VectorDefinitions.isBundledRuleID($0.id) && $0.level != "?" }
    if !own.isEmpty {
      let described = own.map { rule in
        "\(code(rule.id)) (\(rule.level)): \(text(capped(rule.sentence, limits.maxBlockCharacters)))"
      }
      entry.append("*Your rules:* " + described.joined(separator: "; "))
    }
    return entry + [fence(capped(result.details, limits.maxBlockCharacters))]
  }

  /// Failures grouped by bug class: a vector counts under each of its flags that one of its findings shows
  /// (`FlagRegistry.evidenced(_:)`), not under every flag it declares.
  static func bugClasses(_ failed: [VectorResult], registry: FlagRegistry, _ limits: Limits) -> [String] {
    guard !failed.isEmpty else { return [] }
    var byFlag: [String: [VectorResult]] = [:]
    var unflagged = 0
    for result in failed {
      let flags = registry.evidenced(result)
      if flags.isEmpty { unflagged += 1 }
      for flag in flags { byFlag[flag, default: []].append(result) }
    }
    var blocks = ["### Failures by bug class"]
    let order = byFlag.sorted { lhs, rhs in
      lhs.value.count != rhs.value.count ? lhs.value.count > rhs.value.count : lhs.key < rhs.key
    }
    for (flag, group) in order {
      blocks.append("#### \(text(flag)) (\(Count.of(group.count, "vector")))")
      if let entry = registry.flags[flag] {
        blocks.append("*What goes wrong:* \(text(entry.description)) *Effect:* \(text(entry.effect))")
      } else {
        blocks.append("*Not in the flag registry (Vectors/flags.json).*")
      }
      let ids = group.map { "\(code($0.id)) (\(text(primaryRule($0, .must))))" }
      blocks.append("Vectors: " + listed(ids, limit: limits.listedPerGroup))
    }
    if unflagged > 0 {
      blocks.append("\(Count.of(unflagged, "failing vector")) show none of the bug classes they are flagged with.")
    }
    return blocks
  }

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
