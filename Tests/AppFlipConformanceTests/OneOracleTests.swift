import AppFlip
import AppFlipMutants
import Foundation
import Testing

@testable import AppFlipConformance
@testable import AppFlipConformanceTesting

/// Where the sources leave room, every defensible answer passes (RULES.md "Decisions", AF-IN-8, AF-RU-5), and the
/// corpus and the fuzzer's rules oracle agree on which answers those are: one oracle.
@Suite("One oracle: every defensible answer passes the corpus and the fuzzer")
struct OneOracleTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var configuration: String
    var choices: IndependentHandler.Choices
    var testDescription: String { "\(configuration): \(choices)" }
  }

  /// The bundled vectors, loaded once for the 40 runs of the corpus.
  static let catalog = VectorLoader.loadBundled()

  static func describe(_ results: [VectorResult]) -> String {
    results.prefix(10).map { result in
      "\(result.id): \(result.status.rawValue) "
        + result.findings.map { "\($0.rule) \($0.field)" }.joined(separator: "; ")
    }.joined(separator: "\n")
  }

  @Test(
    "An independent handler passes every bundled vector whichever answer it takes where the sources leave room",
    arguments: TestConfigurations.names.flatMap { name in
      IndependentHandler.Choices.all.map { Case(configuration: name, choices: $0) }
    })
  func corpusAcceptsEveryAnswer(_ testCase: Case) async throws {
    let configuration = try #require(TestConfigurations.byName[testCase.configuration])
    let adapter = InProcessAdapter(name: "independent") {
      IndependentHandler(configuration: $0, choices: testCase.choices)
    }
    let results = await Runner(adapter: adapter, configuration: configuration).run(Self.catalog)
    #expect(results.filter { $0.status == .passed }.count > 400)
    let attention = results.filter(\.status.needsAttention)
    #expect(attention.isEmpty, "\(attention.count) do not pass:\n\(Self.describe(attention))")
  }

  /// Fuzzes `adapter` with seed 7 for a tenth of `FuzzerTests.links` (1 000 links; 20 000 in `.ci/run`) and expects
  /// no finding, warnings included.
  static func expectNoFinding(_ adapter: any ConformanceAdapter, _ configuration: PartnerConfiguration) async {
    let links = FuzzerTests.links / 10
    let report = await Fuzzer(adapters: [adapter], configuration: configuration, seed: 7).run(links: links)
    #expect(report.links >= links)
    let found = report.findings.map { "\($0.key) \($0.result.status.rawValue): \($0.vector.description)" }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  /// The issue's configurations for the fuzzer: the default, Google Home only, and the partner's two own URLs in both
  /// orders.
  static let fuzzConfigurations: [(String, PartnerConfiguration)] = [
    ("default", .default), ("google-home", TestConfigurations.googleHome),
    ("partner-urls", TestConfigurations.partnerURLs), ("partner-urls-reversed", TestConfigurations.partnerURLsReversed),
  ]

  @Test(
    "fuzz (seed 7, 1 000 links; 20 000 in .ci/run) finds nothing, warnings included, in an independent handler taking the preferred or every other answer",
    arguments: fuzzConfigurations.flatMap { name, _ in
      [IndependentHandler.Choices(), .others(.refuse)].map { Case(configuration: name, choices: $0) }
    })
  func fuzzerAcceptsEveryAnswer(_ testCase: Case) async throws {
    let configuration = try #require(Self.fuzzConfigurations.first { $0.0 == testCase.configuration }?.1)
    let adapter = InProcessAdapter(name: "independent") {
      IndependentHandler(configuration: $0, choices: testCase.choices)
    }
    await Self.expectNoFinding(adapter, configuration)
  }

  @Test(
    "fuzz (seed 7, 1 000 links; 20 000 in .ci/run) finds nothing, warnings included, in the Python example over the subprocess protocol",
    .enabled(if: PythonFixtures.python, "needs python3 for Examples/python (CI always runs it)"),
    arguments: fuzzConfigurations.map(\.0))
  func pythonExample(name: String) async throws {
    let configuration = try #require(Self.fuzzConfigurations.first { $0.0 == name }?.1)
    let adapter = SubprocessAdapter(
      command: Subprocess.python("Examples/python/appflip_handler.py"), timeout: Subprocess.patience)
    defer { adapter.shutdown() }
    await Self.expectNoFinding(adapter, configuration)
  }

  /// A scratch folder holding a waiver file with these entries.
  static func waiverFolder(_ entries: String) throws -> (PartnerFolder, URL) {
    let folder = try PartnerFolder()
    return (folder, try folder.write("waivers.json", #"{"schemaVersion": 1, "waivers": ["# + entries + "]}"))
  }

  @Test("fuzz --waivers lists a waived finding as waived and exits 0; unwaived, the same finding fails the run")
  func commandWaivers() async throws {
    let (folder, waivers) = try Self.waiverFolder(
      #"{"id": "fuzz/af-re-9/*", "reason": "Opened without universal links; fix in 2.3."}"#)
    defer { folder.remove() }
    let exec = Subprocess.python("Tests/Fixtures/subprocess/options_handler.py", ["universalLinksOnly"])
    let arguments = [
      "fuzz", "--links", "200", "--seed", "3", "--exec", exec, "--out", folder.root.appendingPathComponent("out").path,
    ]
    let failing = CapturedOutput()
    #expect(await ConformanceCommand.run(arguments, output: failing.output) == .failure)
    #expect(failing.out.contains("FAIL AF-RE-9 options: fuzz/af-re-9/"), "\(failing.out)")
    let waived = CapturedOutput()
    #expect(await ConformanceCommand.run(arguments + ["--waivers", waivers.path], output: waived.output) == .success)
    #expect(
      waived.out.contains("WAIVED AF-RE-9 options: fuzz/af-re-9/")
        && waived.out.contains("waived: Opened without universal links; fix in 2.3."), "\(waived.out)")
    #expect(!waived.out.contains("FAIL"), "\(waived.out)")
  }

  @Test("ConformanceHarness.fuzz records no issue for a finding its waiver file covers")
  func harnessWaivers() async throws {
    let (folder, waivers) = try Self.waiverFolder(
      #"{"id": "fuzz/af-re-9/*", "reason": "Opened without universal links."}"#)
    defer { folder.remove() }
    let mutant = try #require(Mutant.all.first { $0.name == "universal-links-off" })
    // Unwaived, the same seed and links find the AF-RE-9 failure.
    let direct = await Fuzzer(
      adapters: [InProcessAdapter(name: "mutant") { AnyAppFlipHandler(mutant.make($0)) }], configuration: .default,
      seed: 3
    ).run(links: 200)
    #expect(direct.findings.contains { $0.vector.id.hasPrefix("fuzz/af-re-9/") && $0.result.status == .failed })
    let harness = ConformanceHarness(
      name: "fuzz-waivers", makeHandler: { AnyAppFlipHandler(mutant.make($0)) },
      options: ConformanceOptions(waivers: waivers.path))
    let recorded = await harness.fuzz(
      links: 200, seed: 3, findings: folder.root.appendingPathComponent("out").path)
    #expect(recorded == 0)
  }
}
