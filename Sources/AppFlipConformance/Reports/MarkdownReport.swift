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
  /// How much the report may hold.
  package struct Limits: Sendable, Hashable {
    /// The most UTF-8 bytes the report may take; GitHub accepts 1 MiB (1,048,576 bytes) per step summary.
    package var maxBytes: Int
    /// The most failing vectors shown with their diff in one rule group; the rest are listed by id.
    package var detailedPerGroup: Int
    /// The most vector ids (or skip reasons) listed in one group; the rest are counted.
    package var listedPerGroup: Int
    /// The most characters of one code block (a diff, an error message); a longer one is cut with a note.
    package var maxBlockCharacters: Int
    /// The most errors shown with their message; the rest are listed by id.
    package var detailedErrors: Int

    /// Creates limits; the defaults keep a report of any size under GitHub's 1 MiB with room to spare.
    package init(
      maxBytes: Int = 1_000_000, detailedPerGroup: Int = 10, listedPerGroup: Int = 20,
      maxBlockCharacters: Int = 4_000, detailedErrors: Int = 20
    ) {
      self.maxBytes = maxBytes
      self.detailedPerGroup = detailedPerGroup
      self.listedPerGroup = listedPerGroup
      self.maxBlockCharacters = maxBlockCharacters
      self.detailedErrors = detailedErrors
    }
  }

  /// The Markdown for these results; `stopReason` is why the run stopped early (a signal, `--max-failures`), if it did.
  package static func render(
    _ results: [VectorResult], implementation: String, configuration: PartnerConfiguration, strict: Bool = false,
    registry: FlagRegistry = .bundled, limits: Limits = Limits(), stopReason: String? = nil
  ) -> String {
    let head = header(
      results, implementation: implementation, configuration: configuration, strict: strict, stopReason: stopReason,
      limits)
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

  /// Writes rendered Markdown: a regular file atomically (the folder created if needed), a FIFO or device written
  /// through, and GitHub's `$GITHUB_STEP_SUMMARY` appended to, since other steps write their summaries there too.
  package static func write(_ markdown: String, to url: URL) throws {
    try ReportFile.write(Data(markdown.utf8), to: url.path, mode: appends(to: url.path) ? .append : .replace)
  }

  /// Whether a path is this GitHub Actions step's summary file, which is appended to rather than replaced.
  static func appends(to path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    guard let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty else { return false }
    return URL(fileURLWithPath: summary).standardizedFileURL.path == URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// The rule's one-line meaning (after RULES.md), or `nil` for a rule this report does not know.
  package static func meaning(of rule: String) -> String? { notes[rule]?.meaning }

  /// One concrete sentence on how to fix a handler that breaks the rule.
  package static func fix(for rule: String) -> String {
    notes[rule]?.fix ?? "Make the implementation meet \(rule) as RULES.md states it."
  }

  // MARK: Sections

  private static func header(
    _ results: [VectorResult], implementation: String, configuration: PartnerConfiguration, strict: Bool,
    stopReason: String?, _ limits: Limits
  ) -> [String] {
    let summary = RunSummary(results)
    var verdict: String
    if let stopReason {
      let notRun = results.filter(\.isNotRun).count
      verdict = "⏹️ **Interrupted**: \(text(stopReason)); \(count(notRun, "vector")) not run, so this is not a pass"
      if !summary.isSuccess { verdict += " (and " + problems(summary).joined(separator: ", ") + ")" }
    } else if summary.isSuccess {
      verdict = "✅ **Passed**: no vector failed and none errored"
      if summary.warnings > 0 { verdict += "; \(count(summary.warnings, "vector")) with warnings (SHOULD)" }
    } else {
      verdict = "❌ **Failed**: " + problems(summary).joined(separator: ", ")
    }
    // The stale column shows only when a waiver is stale, so the table stays as it was for every other run.
    let staleHead = summary.stale > 0 ? " stale waivers |" : ""
    let staleRule = summary.stale > 0 ? "---:|" : ""
    let staleCell = summary.stale > 0 ? " \(summary.stale) |" : ""
    var totals = """
      | passed | failed | warnings | skipped | errors |\(staleHead) total |
      |---:|---:|---:|---:|---:|\(staleRule)---:|
      | \(summary.passed) | \(summary.failed) | \(summary.warnings) | \(summary.skipped) | \(summary.errors) |\(staleCell) \(summary.total) |
      """
    if summary.inconclusive > 0 { totals += "\n\n\(count(summary.inconclusive, "vector")) inconclusive, in the total." }
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
    return [
      "## \(SuiteInfo.name) \(SuiteInfo.version): \(text(implementation))", verdict + ".", totals, setup,
    ]
  }

  /// What keeps a run from passing, e.g. `2 vectors failed`, `1 vector could not be judged`.
  private static func problems(_ summary: RunSummary) -> [String] {
    var parts: [String] = []
    if summary.failed > 0 { parts.append("\(count(summary.failed, "vector")) failed") }
    if summary.errors > 0 { parts.append("\(count(summary.errors, "vector")) could not be judged") }
    if summary.stale > 0 { parts.append("\(count(summary.stale, "waiver")) stale") }
    if summary.inconclusive > 0 { parts.append("\(count(summary.inconclusive, "vector")) inconclusive") }
    return parts
  }

  /// Failures grouped by the rule of their first MUST finding, each with its diff, within `budget` bytes.
  private static func failures(
    _ failed: [VectorResult], budget: Int, registry: FlagRegistry, _ limits: Limits
  ) -> [String] {
    guard !failed.isEmpty else { return [] }
    let groups = grouped(failed, by: { primaryRule($0, .must) })
    let intros = groups.map { rule, group in
      var heading = "#### \(text(rule))"
      if let meaning = meaning(of: rule) { heading += ": \(text(meaning))" }
      heading += " (\(count(group.count, "vector")))"
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
      blocks.append("… and \(rest.count) more: \(listed(rest.map { code($0.id) }, limit: limits.listedPerGroup))")
    }
    if truncated > 0 {
      blocks.append(
        "> **Truncated:** \(count(truncated, "failing vector")) shown without a diff, to stay within "
          + "\(limits.maxBytes) bytes (GitHub accepts 1 MiB per job summary); the JSON results file has every diff.")
    }
    return blocks
  }

  /// One failing vector: its id, level, file and the bug classes its findings show, then its diff in a code block.
  private static func failureEntry(_ result: VectorResult, registry: FlagRegistry, _ limits: Limits) -> [String] {
    var line = "**\(code(result.id))** · \(result.level.rawValue) · \(code(result.file))"
    let flags = registry.evidenced(result)
    if !flags.isEmpty {
      line += " · bug classes: " + flags.map { code($0) }.joined(separator: ", ")
    }
    return [line, fence(capped(result.details, limits.maxBlockCharacters))]
  }

  /// Failures grouped by bug class: a vector counts under each of its flags that one of its findings shows
  /// (`FlagRegistry.evidenced(_:)`), not under every flag it declares.
  private static func bugClasses(_ failed: [VectorResult], registry: FlagRegistry, _ limits: Limits) -> [String] {
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
      blocks.append("#### \(text(flag)) (\(count(group.count, "vector")))")
      if let entry = registry.flags[flag] {
        blocks.append("*What goes wrong:* \(text(entry.description)) *Effect:* \(text(entry.effect))")
      } else {
        blocks.append("*Not in the flag registry (Vectors/flags.json).*")
      }
      let ids = group.map { "\(code($0.id)) (\(text(primaryRule($0, .must))))" }
      blocks.append("Vectors: " + listed(ids, limit: limits.listedPerGroup))
    }
    if unflagged > 0 {
      blocks.append("\(count(unflagged, "failing vector")) show none of the bug classes they are flagged with.")
    }
    return blocks
  }

  /// Stale waivers: vectors a waiver expects to fail that now pass, each with the waiver to remove.
  private static func stale(_ stale: [VectorResult], _ limits: Limits) -> [String] {
    guard !stale.isEmpty else { return [] }
    let items = stale.prefix(limits.listedPerGroup).map { "- \(code($0.id)): \(text($0.message))" }
    var blocks = [
      "### Stale waivers",
      "\(count(stale.count, "vector")) passed although a waiver expects \(stale.count == 1 ? "it" : "them") to fail; "
        + "they fail the run until the waiver is removed (`--waivers FILE --write-waivers FILE` drops stale waivers).",
      items.joined(separator: "\n"),
    ]
    let rest = stale.dropFirst(limits.listedPerGroup)
    if !rest.isEmpty {
      blocks.append("… and \(rest.count) more: \(listed(rest.map { code($0.id) }, limit: limits.listedPerGroup))")
    }
    return blocks
  }

  /// Warnings summarised by the rule of their first SHOULD finding: meaning, count, ids, fix.
  private static func warnings(_ warned: [VectorResult], _ limits: Limits) -> [String] {
    guard !warned.isEmpty else { return [] }
    let items = grouped(warned, by: { primaryRule($0, .should) }).map { rule, group in
      var item = "- **\(text(rule))**"
      if let meaning = meaning(of: rule) { item += " \(text(meaning))" }
      item += " (\(group.count)): " + listed(group.map { code($0.id) }, limit: limits.listedPerGroup)
      return item + ". Fix: \(text(fix(for: rule)))"
    }
    return [
      "### Warnings (SHOULD)",
      "\(count(warned.count, "vector")) met every MUST check but not every SHOULD check; they fail only with "
        + "`--strict`. The JSON results and JUnit reports have their diffs.",
      items.joined(separator: "\n"),
    ]
  }

  /// Errors, each with its message (and the implementation's stderr) in a code block.
  private static func errors(_ errored: [VectorResult], _ limits: Limits) -> [String] {
    guard !errored.isEmpty else { return [] }
    var blocks = [
      "### Errors",
      "\(count(errored.count, "vector")) could not be judged: the implementation threw, hung or "
        + "answered garbage, or the vector file is bad.",
    ]
    for result in errored.prefix(limits.detailedErrors) {
      blocks += [
        "**\(code(result.id))** · \(code(result.file))", fence(capped(result.details, limits.maxBlockCharacters)),
      ]
    }
    let rest = errored.dropFirst(limits.detailedErrors)
    if !rest.isEmpty {
      blocks.append("… and \(rest.count) more: \(listed(rest.map { code($0.id) }, limit: limits.listedPerGroup))")
    }
    return blocks
  }

  /// Inconclusive endpoint vectors counted by reason: refusals that prove nothing without a proven session.
  private static func inconclusive(_ results: [VectorResult], _ limits: Limits) -> [String] {
    guard !results.isEmpty else { return [] }
    return [
      "### Inconclusive",
      "\(count(results.count, "vector")) proved nothing (never counted as passed): the server's own page answered"
        + " and no signed-in request was shown to get a code (AF-EP-5).",
      reasons(results, limits).table,
    ]
  }

  /// A table of results counted by reason (their message), and the groups left out of it.
  private static func reasons(
    _ results: [VectorResult], _ limits: Limits
  ) -> (table: String, rest: ArraySlice<(String, [VectorResult])>) {
    let groups = grouped(results, by: { capped($0.message.isEmpty ? "no reason given" : $0.message, 300) })
    var table = "| vectors | reason |\n|---:|---|"
    for (reason, group) in groups.prefix(limits.listedPerGroup) {
      table += "\n| \(group.count) | \(text(reason)) |"
    }
    return (table, groups.dropFirst(limits.listedPerGroup))
  }

  /// Skipped vectors counted by reason.
  private static func skipped(_ skips: [VectorResult], _ limits: Limits) -> [String] {
    guard !skips.isEmpty else { return [] }
    let (table, rest) = reasons(skips, limits)
    var blocks = ["### Skipped", "\(count(skips.count, "vector")) did not apply:", table]
    if !rest.isEmpty {
      blocks.append(
        "… and \(rest.count) more reasons (\(count(rest.map(\.1.count).reduce(0, +), "vector")))")
    }
    return blocks
  }

  // MARK: Assembly

  /// Joins blocks with blank lines; past `maxBytes`, leaves out the last blocks (never the first `keeping`) with a note.
  private static func assemble(_ blocks: [String], keeping: Int, maxBytes: Int) -> String {
    let noteReserve = 400
    var kept: [String] = []
    var used = 0
    for (index, block) in blocks.enumerated() {
      let needed = size([block]) + (index == blocks.count - 1 ? 0 : noteReserve)
      if index >= keeping, used + needed > maxBytes {
        kept.append(
          "> **Truncated:** \(count(blocks.count - index, "more block")) left out to stay within \(maxBytes) bytes "
            + "(GitHub accepts 1 MiB per job summary); the JSON results file has every result.")
        break
      }
      kept.append(block)
      used += size([block])
    }
    return kept.joined(separator: "\n\n") + "\n"
  }

  /// The bytes blocks take once joined.
  private static func size(_ blocks: [String]) -> Int {
    blocks.reduce(0) { $0 + $1.utf8.count + 2 }
  }

  /// Results grouped by a key, biggest group first, then keys in rule order; results keep their order.
  private static func grouped(
    _ results: [VectorResult], by key: (VectorResult) -> String
  ) -> [(String, [VectorResult])] {
    var groups: [String: [VectorResult]] = [:]
    for result in results { groups[key(result), default: []].append(result) }
    return groups.sorted { lhs, rhs in
      lhs.value.count != rhs.value.count ? lhs.value.count > rhs.value.count : ruleOrder(lhs.key, rhs.key)
    }.map { ($0.key, $0.value) }
  }

  /// The rule a result is filed under: its first finding at `level`, else its first finding.
  private static func primaryRule(_ result: VectorResult, _ level: Level) -> String {
    (result.findings.first { $0.level == level } ?? result.findings.first)?.rule ?? "no finding"
  }

  /// Orders rule ids with their numbers compared as numbers (`AF-RE-2` before `AF-RE-10`).
  private static func ruleOrder(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.split(separator: "-")
    let right = rhs.split(separator: "-")
    for (a, b) in zip(left, right) where a != b {
      if let x = Int(a), let y = Int(b) { return x < y }
      return a < b
    }
    return left.count < right.count
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// Items joined with commas, at most `limit` of them, then "… and K more".
  private static func listed(_ items: [String], limit: Int) -> String {
    var out = items.prefix(limit).joined(separator: ", ")
    if items.count > limit { out += ", … and \(items.count - limit) more" }
    return out
  }

  // MARK: Escaping

  /// Text made inert in Markdown: punctuation that starts markup is backslash-escaped, line breaks become spaces.
  static func text(_ string: String) -> String {
    let characters = Array(visible(capped(string, 1_000), lineBreaks: false))
    var out = ""
    for (index, character) in characters.enumerated() {
      switch character {
      case "\\", "`", "*", "[", "]", "<", ">", "|", "#", "~", "&", "$", "!":
        out += "\\\(character)"
      case "_":
        // An underscore inside a word never starts emphasis in GFM; elsewhere it might.
        let inWord =
          index > 0 && index < characters.count - 1 && characters[index - 1].isLetterOrDigit
          && characters[index + 1].isLetterOrDigit
        out += inWord ? "_" : "\\_"
      default:
        out.append(character)
      }
    }
    return out
  }

  /// An inline code span whose fence is longer than any backtick run inside it.
  static func code(_ string: String) -> String {
    let content = visible(capped(string, 200), lineBreaks: false)
    guard !content.isEmpty else { return "(empty)" }
    let ticks = String(repeating: "`", count: longestRun(of: "`", in: content) + 1)
    let pad = content.first == "`" || content.last == "`" || (content.first == " " && content.last == " ") ? " " : ""
    return ticks + pad + content + pad + ticks
  }

  /// A fenced code block whose fence is longer than any backtick run inside it.
  static func fence(_ string: String) -> String {
    var content = visible(string, lineBreaks: true)
    while content.hasSuffix("\n") { content.removeLast() }
    let ticks = String(repeating: "`", count: max(3, longestRun(of: "`", in: content) + 1))
    return ticks + "text\n" + content + "\n" + ticks
  }

  /// The string cut to `limit` characters, with a note of how many were left out.
  static func capped(_ string: String, _ limit: Int) -> String {
    let total = string.count
    guard total > limit else { return string }
    return String(string.prefix(limit)) + " … (\(total - limit) more characters)"
  }

  /// Control characters shown as `\u{…}`; line breaks kept (or turned into spaces) and tabs kept.
  private static func visible(_ string: String, lineBreaks: Bool) -> String {
    var out = ""
    out.unicodeScalars.reserveCapacity(string.unicodeScalars.count)
    for scalar in string.unicodeScalars {
      switch scalar.value {
      case 0x0A: out += lineBreaks ? "\n" : " "
      case 0x09: out.unicodeScalars.append(scalar)
      case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF:
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  private static func longestRun(of target: Character, in string: String) -> Int {
    var longest = 0
    var current = 0
    for character in string {
      current = character == target ? current + 1 : 0
      longest = max(longest, current)
    }
    return longest
  }

  // MARK: Rules

  /// Each rule's one-line meaning (after RULES.md) and one concrete fix sentence.
  private static let notes: [String: (meaning: String, fix: String)] = [
    "AF-V-1": (
      "A valid link gets exactly one code request and a reply to its redirect_uri",
      "For a valid link, request exactly one code for Google's client id, bound to the incoming redirect_uri, "
        + "and open that redirect_uri with the result."
    ),
    "AF-V-2": (
      "An invalid request with a valid redirect_uri gets error=invalid_request and no code",
      "When redirect_uri is valid but client_id or state is wrong, missing or duplicated, request no code and "
        + "open redirect_uri with error=invalid_request."
    ),
    "AF-RU-4": (
      "A missing, duplicated or disallowed redirect_uri opens nothing and requests no code",
      "Check redirect_uri first: unless it appears exactly once and equals an allowed URL byte for byte, "
        + "open nothing and request no code."
    ),
    "AF-IN-1": (
      "client_id, state and redirect_uri are required; an empty value counts as missing",
      "Treat a missing or empty client_id, state or redirect_uri as missing: answer invalid_request, "
        + "or nothing when it is redirect_uri."
    ),
    "AF-IN-2": (
      "An App Flip parameter given more than once makes the request invalid",
      "Refuse a request in which client_id, scope, state or redirect_uri appears more than once; never pick one."
    ),
    "AF-IN-3": (
      "Unknown parameters are ignored",
      "Ignore query parameters you do not know instead of failing the request."
    ),
    "AF-IN-4": (
      "The query is split on & only and percent-decoded exactly once (RFC 3986)",
      "Split the query on & only, drop the fragment, and percent-decode each name and value exactly once, "
        + "keeping + as +."
    ),
    "AF-IN-5": (
      "client_id equals the configured Google client id byte for byte",
      "Compare client_id to the configured id byte for byte (Array(a.utf8) == Array(b.utf8)), not with String ==."
    ),
    "AF-IN-6": (
      "Malformed input never crashes the handler and counts as invalid",
      "Treat a broken percent escape or invalid UTF-8 as an invalid value and never crash on it."
    ),
    "AF-IN-7": (
      "scope=a+b is ambiguous: nothing is asserted beyond no crash",
      "Do not crash on a literal + in scope."
    ),
    "AF-IN-8": (
      "where the sources leave room, every defensible answer passes",
      "Reject an undecodable state or scope with invalid_request, or echo the state's bytes and drop the scope."
    ),
    "AF-IN-9": (
      "a raw + in the incoming link is a plus, as iOS reads it",
      "Decode the incoming link per RFC 3986 (URLComponents), not as a form: a raw + is a plus."
    ),
    "AF-RU-1": (
      "redirect_uri equals one allowed URL exactly",
      "Accept redirect_uri only when, after one percent-decoding, it equals one allowed URL exactly."
    ),
    "AF-RU-2": (
      "redirect_uri is never normalized",
      "Compare redirect_uri to the allow-list as an exact string after one percent-decoding; never normalize it."
    ),
    "AF-RU-3": (
      "The reply goes to, and the code is bound to, the redirect_uri that arrived",
      "Reply to, and request the code for, the redirect_uri that arrived, never a hard-coded or normalized one."
    ),
    "AF-RE-1": (
      "The reply URL starts with the incoming redirect_uri, byte for byte, and has no fragment",
      "Build the reply from the validated redirect_uri exactly as it arrived, and add no fragment."
    ),
    "AF-RE-2": (
      "A success reply carries code and the exact state once each, and no error",
      "On success, append code and the incoming state exactly once each, and no error."
    ),
    "AF-RE-3": (
      "An error reply carries one App Flip error code and no code",
      "On failure, append exactly one error (cancelled, unrecoverable, invalid_request or access_denied) and no code."
    ),
    "AF-RE-4": (
      "Outcomes map to the App Flip error codes",
      "Map sign-in failure, offline and timeout to cancelled, a disabled account to unrecoverable, denied consent "
        + "to access_denied, and invalid requests to invalid_request."
    ),
    "AF-RE-5": (
      "An error reply returns the incoming state when there was exactly one, byte for byte",
      "Return the incoming state in error replies when the request had exactly one valid state, and invent none "
        + "otherwise."
    ),
    "AF-RE-6": (
      "Reply values read the same under RFC 3986 and form decoding",
      "Percent-encode reply values strictly (+ as %2B, space as %20, & = # % encoded), not with "
        + "URLComponents.queryItems or a form encoder."
    ),
    "AF-RE-7": (
      "error_description appears at most once and uses only NQSCHAR",
      "Send error_description at most once, in printable ASCII without double quotes or backslashes."
    ),
    "AF-RE-8": (
      "The reply carries only code, state, error and error_description",
      "Put only code, state, error and error_description in the reply; never echo client_id or tokens."
    ),
    "AF-RE-9": (
      "The reply is opened with universal links only",
      "Open the reply with UIApplication.OpenExternalURLOptionsKey.universalLinksOnly set to true (a string key such as"
        + " \"universalLinksOnly\" is ignored by UIKit)."
    ),
    "AF-RE-10": (
      "Every request gets a new code and its own state",
      "Mint a new code for every request and return each request's own state, even when requests interleave."
    ),
    "AF-EP-1": (
      "The authorization endpoint accepts each App Flip redirect URL and redirects with one code and the exact state",
      "Accept each of the twelve App Flip redirect URLs for Google's client id, and redirect with one code and "
        + "the exact state."
    ),
    "AF-EP-2": (
      "The authorization endpoint refuses any other redirect_uri without redirecting off-site",
      "Compare redirect_uri to the App Flip URLs as exact strings and never redirect anywhere else."
    ),
    "AF-EP-3": (
      "A failed client check with a valid App Flip redirect_uri gets error=invalid_request there",
      "When client verification fails for a valid App Flip redirect_uri, redirect there with error=invalid_request."
    ),
    "AF-EP-4": (
      "No error goes to an unvalidated redirect_uri, and no code to a client_id that is not byte-equal",
      "Validate client_id (byte for byte) and redirect_uri before anything else; when either fails, show an error page."
    ),
    "AF-EP-5": (
      "A server-side redirect is form-encoded; a refusal on the server's own page proves nothing without a session",
      "Run with the signed-in test user's session (--cookie-file, --login-command) so the preflight gets a code."
    ),
  ]
}

extension Character {
  fileprivate var isLetterOrDigit: Bool { isLetter || isNumber }
}
