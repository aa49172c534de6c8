import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance
@testable import AppFlipConformanceTesting

/// The reference handler, leaking a private parameter of the partner's into every reply it opens.
struct LeakingHandler: AppFlipHandler {
  var reference = ReferenceHandlerAdapter()

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    guard var opened = try await reference.handle(link, authorizer: authorizer) else { return nil }
    opened.url += "&acme_session=SECRET"
    return opened
  }
}

/// A partner's own levels decide how its findings count (RULES.md, "Levels"): a vector citing a partner rule asserts
/// its expectation at that rule's level, capped by its own.
@Suite("Partner rule levels")
struct PartnerLevelTests {
  /// A partner folder: the Acme rules (ACME-1 MUST, ACME-RU-2 SHOULD) and one vector per citation and level.
  func folder(_ vectors: [String]) throws -> PartnerFolder {
    let folder = try PartnerFolder()
    try folder.write("rules.json", PartnerFolder.rules)
    try folder.write("acme.json", Fixtures.file(vectors, area: "acme"))
    return folder
  }

  /// An accepted vector with this id, level and rules: the reply carries code and state only.
  static func vector(_ id: String, level: String = "must", rules: [String] = ["ACME-1", "AF-RE-8"]) -> String {
    Fixtures.accepted(id: id).replacingOccurrences(
      of: #""rules": ["AF-RE-2"], "level": "must""#,
      with: #""rules": [\#(rules.map { "\"\($0)\"" }.joined(separator: ", "))], "level": "\#(level)""#)
  }

  @Test(
    "A broken expectation counts at the level of the partner rule the vector cites, capped by the vector's",
    arguments: [
      ("must", ["ACME-1", "AF-RE-8"], Status.failed, Level.must, "ACME-1"),
      ("should", ["ACME-1"], .warning, .should, "ACME-1"),
      ("must", ["ACME-RU-2", "ACME-1"], .failed, .must, "ACME-1"),
      ("must", ["ACME-RU-2"], .warning, .should, "ACME-RU-2"),
      ("must", ["AF-RE-8"], .warning, .should, nil),
    ] as [(String, [String], Status, Level, String?)])
  func levels(level: String, rules: [String], status: Status, findingLevel: Level, partnerRule: String?) async throws {
    let folder = try folder([Self.vector("acme/leak", level: level, rules: rules)])
    defer { folder.remove() }
    let catalog = folder.load()
    #expect(catalog.problems.isEmpty, "\(catalog.problems)")
    let results = await Runner(adapter: InProcessAdapter(LeakingHandler())).run(catalog)
    let result = try #require(results.first)
    #expect(result.status == status, "\(result.details)")
    #expect(result.findings.map(\.rule) == ["AF-RE-8"])
    #expect(result.findings.first?.level == findingLevel)
    #expect(result.findings.first?.partnerRule == partnerRule)
    // The reference handler keeps the expectation: nothing to raise.
    #expect(await Runner(adapter: InProcessAdapter(ReferenceHandlerAdapter())).run(catalog).map(\.status) == [.passed])
  }

  @Test("A suite preference beside the expectation (an ambiguous reply encoding, AF-RE-6) keeps its own level")
  func preferencesKeepTheirLevel() async throws {
    let vector = Fixtures.accepted(id: "acme/plus").replacingOccurrences(
      of: #""rules": ["AF-RE-2"]"#, with: #""rules": ["ACME-1"]"#
    ).replacingOccurrences(of: #""code": "c1""#, with: #""code": "c+1""#)
    let folder = try folder([vector])
    defer { folder.remove() }
    // URLComponents-style encoding leaves + literal: RFC 3986 reads the code, form decoding a space.
    struct LiteralPlus: AppFlipHandler {
      func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
        _ = await authorizer.requestCode(
          clientID: PartnerConfiguration.default.clientID, redirectURI: Fixtures.redirect, scopes: ["devices"])
        return OpenedURL(url: Fixtures.redirect + "?code=c+1&state=s1", universalLinksOnly: true)
      }
    }
    let result = try #require(await Runner(adapter: InProcessAdapter(LiteralPlus())).run(folder.load()).first)
    #expect(result.status == .warning, "\(result.details)")
    #expect(result.findings.map(\.rule) == ["AF-RE-6"] && result.findings.allSatisfy { $0.partnerRule == nil })
  }

  @Test("The command line fails the run and names the partner rule on the console, in JUnit, JSON and Markdown")
  func commandReports() async throws {
    let folder = try folder([Self.vector("acme/leak")])
    defer { folder.remove() }
    let out = folder.root.appendingPathComponent("out")
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      [
        "--no-bundled", "--vectors", folder.root.path, "--exec",
        Subprocess.python("Tests/Fixtures/subprocess/leaking_handler.py"),
        "--report", out.appendingPathComponent("j.xml").path, "--json", out.appendingPathComponent("r.json").path,
        "--markdown", out.appendingPathComponent("r.md").path,
      ], output: captured.output)
    #expect(code == .failure, "\(captured.out)\n\(captured.err)")
    #expect(captured.out.contains("FAIL acme/leak"), "\(captured.out)")
    #expect(captured.out.contains("✗ reply.acme_session [AF-RE-8, MUST under ACME-1]"), "\(captured.out)")
    let junit = try String(contentsOf: out.appendingPathComponent("j.xml"), encoding: .utf8)
    #expect(junit.contains(#"<failure type="ACME-1" message="AF-RE-8 reply.acme_session (ACME-1)">"#), "\(junit)")
    let markdown = try String(contentsOf: out.appendingPathComponent("r.md"), encoding: .utf8)
    #expect(markdown.contains("*Your rules:* `ACME-1` (MUST)") && markdown.contains("MUST under ACME-1"), "\(markdown)")
    let json = try JSONValue.parse(Data(contentsOf: out.appendingPathComponent("r.json")))
    let schema = try JSONValue.parse(Data(contentsOf: JSONResultsReportTests.schemaURL))
    #expect(SchemaCheck.problems(of: json, against: schema) == [])
    let finding = try #require(
      try JSONDecoder().decode(
        JSONResultsReport.Document.self, from: Data(contentsOf: out.appendingPathComponent("r.json"))
      ).results.first?.findings.first)
    #expect(finding.partnerRule == "ACME-1" && finding.level == .must)
  }

  @Test("The Swift Testing harness fails the case and names the partner rule in its message and reports")
  func harnessReports() async throws {
    let folder = try folder([Self.vector("acme/leak")])
    defer { folder.remove() }
    let out = folder.root.appendingPathComponent("out")
    let harness = ConformanceHarness(
      name: "partner-levels", handler: LeakingHandler(),
      options: ConformanceOptions(
        vectors: [folder.root.path], bundled: false, junit: out.appendingPathComponent("j.xml").path,
        markdown: out.appendingPathComponent("r.md").path, json: out.appendingPathComponent("r.json").path))
    let testCase = try #require(harness.cases.first { $0.id == "acme/leak" })
    let result = await harness.run(testCase)
    // `check` records exactly this status and these details as the test's issue.
    #expect(result.status == .failed)
    #expect(result.details.contains("[AF-RE-8, MUST under ACME-1]"), "\(result.details)")
    let summary = HarnessSummary.render([result], seconds: 0, options: ConformanceOptions())
    #expect(summary.contains("failing rules: ACME-1 (1 vector), AF-RE-8 (1 vector)"), "\(summary)")
    for name in ["j.xml", "r.md", "r.json"] {
      let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
      #expect(text.contains("ACME-1"), "\(name): \(text)")
    }
  }
}
