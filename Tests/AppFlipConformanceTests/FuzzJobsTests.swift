import AppFlip
import AppFlipMutants
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 25, item 2: `fuzz --jobs N` splits a seed's links over N workers and finds what one worker finds.
@Suite("fuzz --jobs")
struct FuzzJobsTests {
  /// What a report found, field by field: its cases and links, and each finding's key, when it was found, its
  /// shrunk vector (as JSON) and that vector's result.
  static func found(_ report: Fuzzer.Report) throws -> [String] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try ["\(report.cases) cases, \(report.links) links"]
      + report.findings.map { finding in
        let vector = String(decoding: try encoder.encode(finding.vector), as: UTF8.self)
        let result = finding.result
        return "\(finding.key) after \(finding.foundAfter): \(vector) \(result.id) \(result.status) \(result.findings)"
      }
  }

  @Test(
    "In-process, 2 workers find the same shrunk findings in the same order as 1, for three seeds", arguments: [1, 2, 3])
  func inProcess(seed: UInt64) async throws {
    let mutant = try #require(Mutant.all.first { $0.name == "trimmed-values" })
    func fuzz(jobs: Int) async throws -> [String] {
      let adapters = (0..<jobs).map { _ in InProcessAdapter(name: "trimmed") { AnyAppFlipHandler(mutant.make($0)) } }
      let report = await Fuzzer(adapters: adapters, configuration: .default, seed: seed).run(links: 1_000)
      return try Self.found(report)
    }
    let one = try await fuzz(jobs: 1)
    #expect(one.count > 3, "\(one)")
    #expect(try await fuzz(jobs: 2) == one)
    // maxFindings stops where one worker stops: after the first n findings in case order.
    let adapters = (0..<2).map { _ in InProcessAdapter(name: "trimmed") { AnyAppFlipHandler(mutant.make($0)) } }
    let first = await Fuzzer(adapters: adapters, configuration: .default, seed: seed).run(links: 1_000, maxFindings: 2)
    let firstTwo = try Self.found(first).dropFirst()
    #expect(Array(firstTwo) == Array(one.dropFirst().prefix(2)))
  }

  @Test(
    "Over --exec, fuzz --jobs 2 (a process each) writes the same findings file and lines as --jobs 1, for three seeds",
    .enabled(if: PythonFixtures.python, "needs python3 for Tests/Fixtures (CI always runs it)"), arguments: [1, 2, 3])
  func overExec(seed: Int) async throws {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    let exec = Subprocess.python("Tests/Fixtures/subprocess/trimming_handler.py")
    func fuzz(jobs: Int) async throws -> (lines: [String], file: Data) {
      // One folder for both: the file's description names it.
      let out = folder.root.appendingPathComponent("out")
      let captured = CapturedOutput()
      let arguments = [
        "fuzz", "--links", "1000", "--seed", "\(seed)", "--jobs", "\(jobs)", "--exec", exec, "--out", out.path,
        "--timeout", "\(Subprocess.patience)",
      ]
      #expect(await ConformanceCommand.run(arguments, output: captured.output) == .failure, "\(captured.err)")
      #expect(captured.out.contains("(--jobs \(jobs))"), "\(captured.out)")
      let lines = captured.out.split(separator: "\n").filter { $0.hasPrefix("FAIL") || $0.hasPrefix("WARN") }
      return (lines.map(String.init), try Data(contentsOf: out.appendingPathComponent("fuzz-findings.json")))
    }
    let one = try await fuzz(jobs: 1)
    #expect(one.lines.count > 1, "\(one.lines)")
    let two = try await fuzz(jobs: 2)
    #expect(two.lines == one.lines)
    #expect(two.file == one.file)
  }

  /// A finding of key `key` shown by case `number`.
  static func finding(_ key: String, case number: Int) -> Fuzzer.Finding {
    let fuzzCase = FuzzGenerator(configuration: .default, seed: 1).fuzzCase(number)
    let vector = fuzzCase.vector(id: "fuzz/case-\(number)", description: "case", configuration: .default)
    let result = VectorResult(id: vector.id, origin: .vectorFile, file: "fuzz", message: key)
    return Fuzzer.Finding(key: key, vector: vector, result: result, foundAfter: 0)
  }

  @Test("A finding belongs to the lowest case that shows it, whichever case a worker finishes first")
  func ledgerOrder() {
    let ledger = FuzzLedger(links: 7, maxFindings: .max) { _, _ in }
    #expect((1...5).map { _ in ledger.take() } == [1, 2, 3, 4, 5])
    // Case 4 shows "a" first and is shrunk; case 2 shows it later, and is the one one worker would have shrunk.
    #expect(ledger.judged(4, links: 1, key: "a") == "a")
    #expect(ledger.judged(3, links: 2, key: "b") == "b")
    #expect(ledger.judged(2, links: 3, key: "a") == "a")
    #expect(ledger.judged(5, links: 1, key: "c") == "c")
    ledger.found(Self.finding("a", case: 4), case: 4)
    ledger.found(Self.finding("a", case: 2), case: 2)
    ledger.found(Self.finding("b", case: 3), case: 3)
    ledger.found(Self.finding("c", case: 5), case: 5)
    #expect(ledger.take() == 6)
    #expect(ledger.judged(1, links: 1, key: "b") == "b")
    ledger.found(Self.finding("b", case: 1), case: 1)
    // 1 + 3 + 2 + 1 links reach 7 with case 4: one worker judges four cases, and these report four.
    #expect(ledger.take() == nil)
    let report = ledger.report()
    #expect(report.cases == 4 && report.links == 7)
    #expect(report.findings.map(\.vector.id) == ["fuzz/case-1", "fuzz/case-2"])
    #expect(report.findings.map(\.key) == ["b", "a"])
    #expect(report.findings.map(\.foundAfter) == [1, 4])
  }

  @Test("With maxFindings, workers stop where one worker stops: after the case that shows the n-th finding")
  func ledgerMaxFindings() {
    let ledger = FuzzLedger(links: nil, maxFindings: 1) { _, _ in }
    #expect(ledger.take() == 1)
    #expect(ledger.take() == 2)
    #expect(ledger.judged(2, links: 1, key: "a") == "a")
    #expect(ledger.take() == nil)
    #expect(ledger.judged(1, links: 1, key: "b") == "b")
    ledger.found(Self.finding("a", case: 2), case: 2)
    ledger.found(Self.finding("b", case: 1), case: 1)
    let report = ledger.report()
    #expect(report.cases == 1 && report.links == 1 && report.findings.map(\.key) == ["b"])
  }

  @Test("fuzz --jobs takes a positive whole number, quoting what it got")
  func badJobs() async {
    for value in ["0", "two", "-1"] {
      let captured = CapturedOutput()
      #expect(await ConformanceCommand.run(["fuzz", "--jobs", value], output: captured.output) == .usage)
      #expect(captured.err.contains("--jobs") && captured.err.contains(value), "\(captured.err)")
    }
  }
}
