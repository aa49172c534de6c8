import Foundation
import Testing

@testable import AppFlipConformance

/// Results shared by the Markdown and JSON report tests: two failures, one warning, a pass, a skip and an error.
enum ReportSamples {
  static let userinfo = VectorResult(
    id: "redirect-uri/userinfo-before-host", area: "redirect-uri", file: "Vectors/corpus/redirect-uri.json",
    level: .must, spec: ["RFC 9700 §4.1.3"], tags: ["redirect-uri", "userinfo"], flags: ["open-redirect"],
    status: .failed,
    findings: [
      Finding(
        rule: "AF-RU-4", level: .must, field: "opened", expected: "nothing",
        actual: "\"https://evil.example@oauth-redirect.googleusercontent.com/a/com.google.OPA?code=c1&state=s1\"",
        message: "A link with a missing, duplicated or disallowed redirect_uri must open nothing.")
    ], duration: 0.0123456)

  static let stateDropped = VectorResult(
    id: "state/echo-exact", area: "state", file: "Vectors/corpus/state.json", level: .must, spec: ["RFC 6749 §4.1.2"],
    tags: ["state"], flags: ["state-tampering"], status: .failed,
    findings: [
      Finding(
        rule: "AF-RE-2", level: .must, field: "reply.state", expected: "\"s1\"", actual: "absent",
        message: "The reply must carry state."),
      Finding(
        rule: "AF-RE-8", level: .should, field: "reply.client_id", expected: "absent", actual: "\"123\"",
        message: "The reply carries only code, state, error and error_description."),
    ], duration: 0.02)

  static let plusWarning = VectorResult(
    id: "reply/state-plus", area: "reply", file: "Vectors/corpus/reply.json", level: .should, tags: ["encoding"],
    flags: ["encoding-ambiguity"], status: .warning,
    findings: [
      Finding(
        rule: "AF-RE-6", level: .should, field: "reply.state", expected: "\"a+b\"", actual: "\"a+b\" (form: \"a b\")",
        message: "RFC 3986 and form decoders read this value differently.")
    ], duration: 0.001)

  static let results = [
    VectorResult(
      id: "incoming/valid", area: "incoming", file: "Vectors/corpus/incoming.json", level: .must, spec: ["App Flip"],
      tags: ["valid"], status: .passed, duration: 0.004),
    userinfo, stateDropped, plusWarning,
    VectorResult(
      id: "configuration/kelvin", area: "configuration", file: "Vectors/corpus/configuration.json", level: .must,
      status: .skipped,
      message:
        "needs its own configuration, which handler cannot take; build the adapter from a handler factory to run it"),
    VectorResult(
      id: "flow/hang", area: "flow", file: "Vectors/corpus/flow.json", level: .must, status: .error,
      message: "the implementation did not answer within 10 seconds", diagnostics: "waiting for OAuth…"),
  ]

  static let configuration = PartnerConfiguration.default

  static func markdown(
    _ results: [VectorResult] = results, limits: MarkdownReport.Limits = MarkdownReport.Limits()
  ) -> String {
    MarkdownReport.render(results, implementation: "AcmeAppFlip 2.1", configuration: configuration, limits: limits)
  }

  /// A failed result with one MUST finding.
  static func failure(
    id: String, rule: String = "AF-RU-4", flags: [String] = ["open-redirect"], actual: String = "\"x\"",
    message: String = "m"
  ) -> VectorResult {
    VectorResult(
      id: id, area: "a", file: "f.json", level: .must, flags: flags, status: .failed,
      findings: [
        Finding(rule: rule, level: .must, field: "opened", expected: "nothing", actual: actual, message: message)
      ])
  }
}

@Suite("Markdown report")
struct MarkdownReportTests {
  /// The lines of a Markdown text.
  static func lines(_ markdown: String) -> [String] {
    markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The contents of every fenced code block, checking that each fence is closed by a fence of its own length.
  static func fencedBlocks(_ markdown: String) -> (blocks: [String], balanced: Bool) {
    var blocks: [String] = []
    var open: Int?
    var current: [String] = []
    for line in lines(markdown) {
      let ticks = line.prefix { $0 == "`" }.count
      if let length = open {
        if ticks >= length, line.allSatisfy({ $0 == "`" }) {
          blocks.append(current.joined(separator: "\n"))
          current = []
          open = nil
        } else {
          current.append(line)
        }
      } else if ticks >= 3 {
        open = ticks
      }
    }
    return (blocks, open == nil)
  }

  @Test("Pins the suite's name and version and names the implementation in the title line")
  func title() {
    let first = Self.lines(ReportSamples.markdown())[0]
    #expect(first == "## \(SuiteInfo.described): AcmeAppFlip 2.1")
  }

  @Test("Shows the totals in a table and a failing verdict")
  func totals() {
    let markdown = ReportSamples.markdown()
    #expect(markdown.contains("| passed | failed | warnings | skipped | errors | total |"))
    #expect(markdown.contains("| 1 | 2 | 1 | 1 | 1 | 6 |"))
    #expect(markdown.contains("❌ **Failed**: 2 vectors failed, 1 vector could not be judged."))
    #expect(!markdown.contains("✅"))
  }

  @Test("Gives a passing verdict when nothing failed or errored, warnings allowed")
  func passingVerdict() {
    let markdown = ReportSamples.markdown([ReportSamples.results[0], ReportSamples.plusWarning])
    #expect(markdown.contains("✅ **Passed**: no vector failed and none errored; 1 vector with warnings (SHOULD)."))
    #expect(!markdown.contains("### Failures"))
  }

  @Test("Groups failures by the rule of their first MUST finding, with the rule's meaning and a fix sentence")
  func byRule() {
    let markdown = ReportSamples.markdown()
    #expect(markdown.contains("#### AF-RU-4: A missing, duplicated or disallowed redirect_uri opens nothing"))
    #expect(markdown.contains("#### AF-RE-2: A success reply carries code and the exact state once each"))
    // AF-RE-8 is only a SHOULD finding of a failed vector: it gets no group of its own.
    #expect(!markdown.contains("#### AF-RE-8"))
    #expect(markdown.contains("**Fix:** \(MarkdownReport.text(MarkdownReport.fix(for: "AF-RU-4")))"))
    #expect(
      MarkdownReport.fix(for: "AF-RU-2")
        == "Compare redirect_uri to the allow-list as an exact string after one percent-decoding; never normalize it.")
  }

  @Test("Shows each failing vector's diff in a code block, every finding included")
  func diffs() {
    let (blocks, balanced) = Self.fencedBlocks(ReportSamples.markdown())
    #expect(balanced)
    #expect(blocks.contains(ReportSamples.stateDropped.details))
    #expect(blocks.contains(ReportSamples.userinfo.details))
  }

  @Test("Groups failures by bug class with the registry's description and effect")
  func byFlag() {
    let markdown = ReportSamples.markdown()
    let registry = FlagRegistry.bundled.flags
    #expect(markdown.contains("### Failures by bug class"))
    #expect(markdown.contains("#### open-redirect (1 vector)"))
    #expect(markdown.contains("#### state-tampering (1 vector)"))
    #expect(markdown.contains(MarkdownReport.text(registry["open-redirect"]!.description)))
    #expect(markdown.contains(MarkdownReport.text(registry["open-redirect"]!.effect)))
    #expect(markdown.contains("Vectors: `redirect-uri/userinfo-before-host` (AF-RU-4)"))
    // Warnings are not failures: their bug class is not listed.
    #expect(!markdown.contains("#### encoding-ambiguity"))
  }

  @Test("Lists a failing vector under a bug class only when one of its findings shows it, not under every flag")
  func byFindingNotByDeclaredFlag() {
    // Opens with universal links only, but answers the wrong error code: an error-mapping bug, not a universal-links one.
    let wrongCode = VectorResult(
      id: "reply/error-at-prod-opa", area: "reply", file: "f.json", level: .must,
      flags: ["universal-links", "error-mapping"], status: .failed,
      findings: [
        Finding(
          rule: "AF-RE-4", level: .must, field: "reply.error", expected: "\"cancelled\"",
          actual: "\"access_denied\"", message: "m")
      ])
    let markdown = ReportSamples.markdown([wrongCode])
    #expect(markdown.contains("#### error-mapping (1 vector)"))
    #expect(!markdown.contains("#### universal-links"))
    #expect(markdown.contains("bug classes: `error-mapping`"))
    var notUniversal = wrongCode
    notUniversal.findings = [
      Finding(
        rule: "AF-RE-9", level: .must, field: "universalLinksOnly", expected: "true", actual: "false", message: "m")
    ]
    let shown = ReportSamples.markdown([notUniversal])
    #expect(shown.contains("#### universal-links (1 vector)"))
    #expect(!shown.contains("#### error-mapping"))
    var onlyNonShowing = wrongCode
    onlyNonShowing.flags = ["universal-links"]
    #expect(ReportSamples.markdown([onlyNonShowing]).contains("1 failing vector show none of the bug classes"))
  }

  @Test("Says for every bundled bug class which rules show it, each a rule the report knows")
  func everyFlagNamesItsRules() {
    for (name, flag) in FlagRegistry.bundled.flags {
      let rules = flag.rules ?? []
      #expect(!rules.isEmpty, "\(name)")
      for rule in rules { #expect(MarkdownReport.meaning(of: rule) != nil, "\(name): \(rule)") }
    }
    #expect(FlagRegistry.bundled.flags.count >= 14)
  }

  @Test("Shows stale waivers in their own section and verdict, never as a rule group with a made-up fix")
  func staleWaivers() {
    let stale = VectorResult(
      id: "t/fixed", area: "t", file: "f.json", level: .must, status: .stale,
      message: "stale waiver: \"t/fixed\" in w.json expects this vector to fail, but it passes; remove the waiver.")
    let markdown = ReportSamples.markdown([stale])
    #expect(markdown.contains("❌ **Failed**: 1 waiver stale."))
    #expect(markdown.contains("### Stale waivers"))
    #expect(markdown.contains("- `t/fixed`: stale waiver"))
    #expect(markdown.contains("| 0 | 0 | 0 | 0 | 0 | 1 | 1 |"))
    #expect(!markdown.contains("no finding"))
    #expect(!markdown.contains("Failures by rule"))
  }

  @Test("Never reads Passed for an interrupted run, and says why and how many did not run")
  func interrupted() {
    var notRun = VectorResult(
      id: "t/2", area: "t", file: "f.json", level: .must, status: .skipped, message: "not run: interrupted (SIGINT)")
    notRun.isNotRun = true
    let markdown = MarkdownReport.render(
      [ReportSamples.results[0], notRun], implementation: "i", configuration: .default,
      stopReason: "interrupted (SIGINT)")
    #expect(!markdown.contains("Passed"))
    #expect(markdown.contains("⏹️ **Interrupted**: interrupted (SIGINT); 1 vector not run, so this is not a pass."))
  }

  @Test("Summarises warnings by rule, lists errors with their message and counts skips by reason")
  func otherSections() {
    let markdown = ReportSamples.markdown()
    #expect(markdown.contains("### Warnings (SHOULD)"))
    #expect(
      markdown.contains(
        "- **AF-RE-6** Reply values read the same under RFC 3986 and form decoding (1): `reply/state-plus`."))
    #expect(markdown.contains("### Errors"))
    #expect(markdown.contains("**`flow/hang`** · `Vectors/corpus/flow.json`"))
    #expect(Self.fencedBlocks(markdown).blocks.contains(ReportSamples.results[5].details))
    #expect(markdown.contains("### Skipped"))
    #expect(markdown.contains("| 1 | needs its own configuration, which handler cannot take;"))
  }

  @Test("Escapes pipes and Markdown punctuation in text, and fences code longer than any backtick run")
  func escaping() {
    let nasty = VectorResult(
      id: "t/``tick`", area: "t", file: "f.json", level: .must, status: .failed,
      findings: [
        Finding(
          rule: "AF-RE-2", level: .must, field: "reply.state", expected: "\"```\"", actual: "\"````|<b>\"",
          message: "m")
      ])
    let skips = (0..<2).map { index in
      VectorResult(
        id: "s/\(index)", area: "s", file: "f.json", level: .must, status: .skipped,
        message: "a | b with *stars*, <html>, _under_ and\nnewline")
    }
    let markdown = ReportSamples.markdown([nasty] + skips)
    #expect(markdown.contains("**``` t/``tick` ```**"))
    #expect(markdown.contains("\n`````text\n"))
    let (blocks, balanced) = Self.fencedBlocks(markdown)
    #expect(balanced)
    #expect(blocks.contains(nasty.details))
    #expect(markdown.contains("| 2 | a \\| b with \\*stars\\*, \\<html\\>, \\_under\\_ and newline |"))
    for line in Self.lines(markdown) where line.hasPrefix("|") {
      #expect([4, 7].contains(Self.unescapedPipes(line)), "a table row with a stray cell: \(line)")
    }
  }

  /// The pipes of a line that are not backslash-escaped (a backslash escapes the character after it).
  static func unescapedPipes(_ line: String) -> Int {
    var pipes = 0
    var escaped = false
    for character in line {
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "|" {
        pipes += 1
      }
    }
    return pipes
  }

  @Test("Shows control characters in vector data as visible escapes")
  func controlCharacters() {
    let markdown = ReportSamples.markdown([
      ReportSamples.failure(id: "t/cr\r\u{1B}", message: "line\rbreak\u{0}")
    ])
    #expect(markdown.contains("`t/cr\\u{D}\\u{1B}`"))
    #expect(markdown.contains("line\\u{D}break\\u{0}"))
    #expect(!markdown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test("Shows a bidirectional override as the console does, and the console a line separator as the report does")
  func oneSetOfControlCharacters() {
    let markdown = ReportSamples.markdown([ReportSamples.failure(id: "t/rlo\u{202E}", message: "isolate\u{2066}")])
    #expect(markdown.contains("t/rlo\\u{202E}"))
    #expect(markdown.contains("isolate\\u{2066}"))
    #expect(ConsoleText.line("a\u{2028}b\u{FFFF}") == "a\\u{2028}b\\u{FFFF}")
    #expect(ConsoleText.safe("x\u{202A}\ny") == "x\\u{202A}\ny")
  }

  @Test("Details at most N failures per rule and lists the rest by id")
  func perGroupLimit() {
    let failures = (0..<30).map { ReportSamples.failure(id: "t/\($0)") }
    let markdown = ReportSamples.markdown(failures, limits: .init(detailedPerGroup: 10, listedPerGroup: 5))
    #expect(Self.fencedBlocks(markdown).blocks.count == 10)
    #expect(markdown.contains("… and 20 more: `t/10`, `t/11`, `t/12`, `t/13`, `t/14`, … and 15 more"))
    #expect(!markdown.contains("Truncated"))
  }

  @Test("Keeps a huge run under GitHub's 1 MiB job-summary limit, with a note")
  func truncatesHugeRuns() {
    let rules = ["AF-RU-4", "AF-RE-2", "AF-V-2", "AF-IN-5"]
    let failures = (0..<4_000).map { index in
      ReportSamples.failure(
        id: "big/\(index)", rule: rules[index % rules.count], actual: String(repeating: "x", count: 20_000))
    }
    let errors = (0..<500).map { index in
      VectorResult(
        id: "err/\(index)", area: "e", file: "e.json", level: .must, status: .error,
        message: String(repeating: "boom ", count: 2_000))
    }
    let markdown = ReportSamples.markdown(failures + errors, limits: .init(detailedPerGroup: 1_000))
    #expect(markdown.utf8.count <= 1_000_000)
    #expect(markdown.contains("> **Truncated:**"))
    #expect(markdown.contains("more characters)"))
    #expect(markdown.contains("… and 480 more: `err/20`"))
    #expect(Self.fencedBlocks(markdown).balanced)
    #expect(markdown.contains("#### AF-IN-5"))
  }

  @Test("Leaves out whole blocks, never half a code block, when the byte limit is tiny")
  func tinyLimit() {
    let failures = (0..<20).map { ReportSamples.failure(id: "t/\($0)", actual: String(repeating: "y", count: 500)) }
    let markdown = ReportSamples.markdown(failures + ReportSamples.results, limits: .init(maxBytes: 3_000))
    #expect(markdown.utf8.count <= 3_000)
    #expect(markdown.hasPrefix("## \(SuiteInfo.described)"))
    #expect(markdown.contains("> **Truncated:**"))
    #expect(Self.fencedBlocks(markdown).balanced)
  }

  @Test("Reads each rule's meaning and fix from RULES.md, whose bundled copy is the same file")
  func rulesFromTheDocument() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let original = try String(contentsOf: root.appendingPathComponent("RULES.md"), encoding: .utf8)
    let copy = try String(contentsOf: root.appendingPathComponent("Vectors/RULES.md"), encoding: .utf8)
    #expect(
      copy == original,
      """
      Vectors/RULES.md (the copy the Markdown report reads) differs from RULES.md; \
      run `swift run appflip-lint --update` or copy the file
      """)
    let rules = RulesDocument(markdown: original)
    let redirect = try #require(rules.rule("AF-RU-4"))
    #expect(MarkdownReport.meaning(of: "AF-RU-4") == redirect.summary)
    #expect(MarkdownReport.fix(for: "AF-RU-4") == redirect.fix)
    #expect(redirect.fix?.hasPrefix("Check redirect_uri first") == true)
    // A row without the two columns has neither; the report then falls back to pointing at RULES.md.
    let bare = RulesDocument(markdown: "| AF-XX-9 | a rule | MUST | a source |\n")
    #expect(bare.rules.map(\.id) == ["AF-XX-9"])
    #expect(bare.rule("AF-XX-9")?.summary == nil)
    #expect(bare.rule("AF-XX-9")?.fix == nil)
  }

  @Test("Has a meaning and a fix sentence for every rule in RULES.md")
  func everyRule() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let rules = RulesDocument(
      markdown: try String(contentsOf: root.appendingPathComponent("RULES.md"), encoding: .utf8))
    #expect(rules.ids.count >= 20)
    for id in rules.ids {
      #expect(MarkdownReport.meaning(of: id) != nil, "no meaning for \(id)")
      #expect(MarkdownReport.fix(for: id) != "Make the implementation meet \(id) as RULES.md states it.")
    }
    #expect(MarkdownReport.fix(for: "AF-XX-1") == "Make the implementation meet AF-XX-1 as RULES.md states it.")
  }
}
