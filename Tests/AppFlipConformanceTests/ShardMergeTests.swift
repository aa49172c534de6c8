import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 23, item 4: the shards of a run, merged (`appflip-conformance merge`), give the JUnit, JSON and Markdown
/// reports one unsharded run gives, times aside; the Skipped table counts one cause once, with the ids.
@Suite("Merging shards")
struct ShardMergeTests {
  let folder: PartnerFolder

  init() throws {
    folder = try PartnerFolder()
  }

  func path(_ name: String) -> String { folder.root.appendingPathComponent(name).path }

  /// A partner folder with failures, a warning, waived, stale and unmatched waivers, a bad vector, skips and the
  /// partner's own rules and flags.
  func partnerRun() throws -> [String] {
    try folder.write("mine/rules.json", PartnerFolder.rules)
    try folder.write("mine/flags.json", PartnerFolder.flags)
    let wrong = """
      {"verdict": "rejected", "reply": {"base": "\(Fixtures.redirect)", "error": "invalid_request", "state": "s1"}}
      """
    var vectors = [
      PartnerFolder.vector(id: "t/leak").replacingOccurrences(of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}"),
      Fixtures.accepted(id: "t/warns", expect: wrong)
        .replacingOccurrences(of: #""level": "must""#, with: #""level": "should""#),
      Fixtures.accepted(id: "t/waived", expect: wrong), Fixtures.accepted(id: "t/stale"),
      Fixtures.accepted(id: "t/typo", extra: #""sepc": [],"#),
    ]
    vectors += (0..<12).map { Fixtures.accepted(id: "t/passes-\($0)") }
    try folder.write("mine/t.json", Fixtures.file(vectors))
    try folder.write(
      "waivers.json",
      #"{"schemaVersion": 1, "waivers": [{"id": "t/waived", "reason": "tracked in ACME-12"}, {"id": "t/stale", "reason": "fixed"}, {"id": "t/gone", "reason": "x"}]}"#
    )
    return ["--vectors", path("mine"), "--waivers", path("waivers.json"), "--platform", "ios16", "--quiet"]
  }

  /// Runs the command; its exit code.
  func run(_ arguments: [String]) async -> ConformanceCommand.ExitCode {
    await ConformanceCommand.run(arguments, output: .init(out: { _ in }, err: { _ in }))
  }

  /// The three reports written under `name`, times made stable.
  func reports(_ name: String) throws -> [String] {
    try ["xml", "json", "md"].map {
      GoldenReportTests.stable(try String(contentsOfFile: path("\(name).\($0)"), encoding: .utf8), folder: "")
    }
  }

  func outputs(_ name: String) -> [String] {
    ["--report", path("\(name).xml"), "--json", path("\(name).json"), "--markdown", path("\(name).md")]
  }

  @Test("Three shards merged give the JUnit, JSON and Markdown of one run, the bundled vectors and a partner's")
  func mergedEqualsOneRun() async throws {
    defer { folder.remove() }
    let arguments = try partnerRun()
    #expect(await run(arguments + outputs("all")) == .usage)
    for index in 1...3 { _ = await run(arguments + ["--shard", "\(index)/3"] + outputs("shard-\(index)")) }
    let merged = await run(["merge"] + outputs("merged") + [3, 1, 2].map { path("shard-\($0).json") })
    #expect(merged == .failure)
    let (one, shards) = (try reports("all"), try reports("merged"))
    for (name, (expected, actual)) in zip(["JUnit", "JSON", "Markdown"], zip(one, shards)) {
      #expect(actual == expected, "the merged \(name) report differs from the unsharded run's")
    }
    #expect(
      one[0].contains("t/leak") && one[2].contains("acme-session-leak") && one[2].contains("`waiver t/gone`")
        && one[2].contains("`t/waived`"))
    // Each shard's own reports name it, and name the whole selection's digest.
    let shard = try reports("shard-2")
    #expect(shard[0].contains(#"<property name="run.shard" value="2/3"/>"#) && !one[0].contains("run.shard"))
    let digest = try #require(try JSONResultsReport.read(from: URL(fileURLWithPath: path("all.json"))).selection)
    #expect(shard[1].contains(digest.digest) && shard[2].contains("shard 2/3 of them"))
  }

  @Test("A merge refuses a missing shard, a shard given twice, a whole run, and shards of another selection")
  func refusals() async throws {
    defer { folder.remove() }
    let arguments = try partnerRun()
    _ = await run(arguments + outputs("all"))
    for index in 1...2 { _ = await run(arguments + ["--shard", "\(index)/2"] + outputs("half-\(index)")) }
    _ = await run(arguments + ["--shard", "2/2", "--filter", "t/passes-*"] + outputs("other"))
    let cases: [([String], String)] = [
      (["half-1"], "shard 2/2 is missing"), (["half-1", "half-1"], "are both shard 1/2"),
      (["all", "half-1"], "holds no shard"), (["half-1", "other"], "the vectors' digest is"),
    ]
    for (inputs, words) in cases {
      let errors = Lines()
      let code = await ConformanceCommand.run(
        ["merge", "--json", path("m.json")] + inputs.map { path("\($0).json") },
        output: .init(out: { _ in }, err: { errors.add($0) }))
      #expect(code == .usage && errors.all.joined().contains(words), "\(inputs): \(errors.all)")
    }
  }

  @Test("The Skipped table counts one cause once, its differing values shown as …, with the ids; waived ids listed")
  func skippedTable() throws {
    func skipped(_ id: String, _ message: String) -> VectorResult {
      VectorResult(id: id, area: "a", file: "f", level: .must, status: .skipped, message: message)
    }
    let results =
      (0..<14).map {
        skipped("v/\($0)", "its link is undeliverable: a broken percent-escape \"%G\($0)\" at character \($0 * 7), so")
      } + [skipped("v/waived", "waived: tracked in ACME-12"), skipped("v/other", "waived: tracked in ACME-13")]
    let markdown = MarkdownReport.render(results, implementation: "x", configuration: .default)
    #expect(
      markdown.contains(
        "| 14 | its link is undeliverable: a broken percent-escape \"…\" at character …, so | `v/0`, `v/1`, "))
    #expect(markdown.contains("| 1 | waived: tracked in ACME-12 | `v/waived` |"), "\(markdown)")
    #expect(markdown.contains("| 1 | waived: tracked in ACME-13 | `v/other` |"))
  }
}
