import AppFlip
import AppFlipMutants
import Foundation
import Testing

@testable import AppFlipConformance

@Suite("Fuzzer")
struct FuzzerTests {
  static func reference() -> some ConformanceAdapter {
    InProcessAdapter(name: "reference") { ReferenceHandlerAdapter(configuration: $0) }
  }

  /// How many links the long fuzz runs generate: `APPFLIP_FUZZ_LINKS`, or 10 000 so that `swift test` stays quick;
  /// `.ci/run` sets 200 000.
  static let links = Int(ProcessInfo.processInfo.environment["APPFLIP_FUZZ_LINKS"] ?? "") ?? 10_000

  @Test("The reference handler yields no finding in 10 000 links (200 000 in .ci/run): oracle and reference agree")
  func referenceAgrees() async {
    let total = Self.links
    let seeds: [UInt64] = [1, 2, 3, 4]
    let reports = await withTaskGroup(of: Fuzzer.Report.self) { group in
      for seed in seeds {
        group.addTask {
          await Fuzzer(adapters: [Self.reference()], configuration: .default, seed: seed).run(
            links: total / seeds.count)
        }
      }
      var reports: [Fuzzer.Report] = []
      for await report in group { reports.append(report) }
      return reports
    }
    #expect(reports.map(\.links).reduce(0, +) >= total)
    let findings = reports.flatMap(\.findings)
    #expect(
      findings.isEmpty,
      "\(findings.map { "\($0.key): \($0.vector.description)\n  \($0.vector.steps.map { "\($0.incoming)" })" }.joined(separator: "\n"))"
    )
  }

  @Test("The same seed generates the same links, case by case in any order; another seed others")
  func seedReproduces() {
    func links(_ seed: UInt64, _ numbers: [Int] = Array(1...200)) -> [FuzzCase] {
      let generator = FuzzGenerator(configuration: .default, seed: seed)
      return numbers.map { generator.fuzzCase($0) }
    }
    #expect(links(42) == links(42))
    #expect(links(42, Array((1...200).reversed())) == links(42).reversed())
    #expect(links(42) != links(43))
    #expect(Set(links(42)).count > 190)
  }

  @Test("Generates every kind of case: single links, replays, sequences and interleaved links")
  func generatesEveryKind() {
    let generator = FuzzGenerator(configuration: .default, seed: 5)
    let cases = (1...1_000).map { generator.fuzzCase($0) }
    #expect(cases.contains { $0.interleaved && $0.links.count >= 2 })
    #expect(cases.contains { !$0.interleaved && $0.links.count == 2 })
    #expect(cases.filter { $0.links.count == 1 }.count > 600)
  }

  @Test("fuzz on the command line: a summary line, exit 0 for a conformant handler, exit 2 on bad usage")
  func commandLine() async {
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(["fuzz", "--links", "300", "--seed", "9"], output: captured.output)
    #expect(code == .success)
    #expect(captured.out.contains("seed 9: 0 distinct findings"), "\(captured.out)")
    let bad = CapturedOutput()
    #expect(await ConformanceCommand.run(["fuzz", "--links", "many"], output: bad.output) == .usage)
    #expect(bad.err.contains("--links") && bad.err.contains("many"), "\(bad.err)")
  }

  @Test(
    "fuzz refuses a limit that is not a positive, finite number, quoting it as a run's --timeout does",
    arguments: [
      ("--seconds", "inf"), ("--seconds", "nan"), ("--seconds", "0"), ("--seconds", "-1"), ("--seconds", "soon"),
      ("--links", "0"), ("--links", "-5"), ("--links", "1.5"),
    ])
  func refusesLimits(option: String, value: String) async {
    let captured = CapturedOutput()
    #expect(await ConformanceCommand.run(["fuzz", option, value], output: captured.output) == .usage)
    #expect(captured.err.contains(option) && captured.err.contains(value), "\(captured.err)")
    #expect(captured.err.contains("a positive"), "\(captured.err)")
  }
}

@Suite("Fuzzer against the mutants")
struct FuzzerMutantTests {
  /// Google's twelve URLs and a client id with a `K`, so that Unicode equivalence (U+212A) can show at all.
  static let withK = PartnerConfiguration(
    clientID: "123456789012-Kappflip.apps.googleusercontent.com", universalLink: "https://partner.example/appflip")

  @Test(
    "Each mutant yields a shrunk vector within 20 000 links that, loaded from its file, fails the mutant and passes the reference",
    arguments: Mutant.all.map(\.name))
  func findsMutant(name: String) async throws {
    let mutant = try #require(Mutant.all.first { $0.name == name })
    let adapter = InProcessAdapter(name: name) { AnyAppFlipHandler(mutant.make($0)) }
    // Folding an escape's hex case shows only with an allowed URL that holds an escape: a partner's own.
    let configuration = name == "escape-case-folded-redirect" ? PartnerURLs.configurations[0] : Self.withK
    let fuzzer = Fuzzer(adapters: [adapter], configuration: configuration, seed: 7)
    let report = await fuzzer.run(links: 20_000, maxFindings: 1)
    let finding = try #require(report.findings.first, "\(name) survived \(report.links) fuzzed links")
    print("\(name): \(finding.key) after \(finding.foundAfter) links; \(finding.vector.steps.map { "\($0.incoming)" })")
    let file = VectorFile(schemaVersion: 1, area: "fuzz", description: "found", vectors: [finding.vector])
    let catalog = VectorLoader.decode(try JSONEncoder().encode(file), displayPath: "fuzz.json")
    #expect(catalog.problems.isEmpty, "\(catalog.problems)")
    let loaded = try #require(catalog.vectors.first)
    let caught = await Runner(adapter: adapter, configuration: configuration).run(loaded)
    #expect(caught.status != .passed && caught.status != .skipped, "\(caught.status)")
    let keys = caught.findings.map {
      "\($0.rule) \($0.field.hasPrefix("steps[") ? String($0.field.drop { $0 != "." }.dropFirst()) : $0.field)"
    }
    #expect(
      finding.key == "error" ? caught.status == .error : keys.contains(finding.key), "\(finding.key) not in \(keys)")
    let reference = InProcessAdapter(name: "reference") { ReferenceHandlerAdapter(configuration: $0) }
    let passed = await Runner(adapter: reference, configuration: configuration).run(loaded)
    #expect(passed.status == .passed, "\(passed.findings.map { "\($0.rule) \($0.field) \($0.actual)" })")
  }
}
