import AppFlip
import AppFlipConformance
import Foundation
import Testing

@testable import AppFlipConformanceTesting

@Suite("Swift Testing harness")
struct ConformanceHarnessTests {
  let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("harness-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  func write(_ name: String, _ data: Data) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try data.write(to: url)
    return url
  }

  @Test(
    "Applies waivers per case: a waived failure is skipped, a stale one is stale, an unmatched one is its own error case"
  )
  func waivers() async throws {
    let wrong = Fixtures.accepted(id: "t/wrong").replacingOccurrences(
      of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    let vectors = try write("v.json", Fixtures.file([wrong, Fixtures.accepted(id: "t/ok")]))
    let waivers = try write(
      "w.json",
      Data(
        #"{"schemaVersion": 1, "waivers": [{"id": "t/wrong", "reason": "known"}, {"id": "t/ok", "reason": "old"}, {"id": "t/gone", "reason": "x"}]}"#
          .utf8))
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), vectors: [vectors], bundled: false, junit: nil, waivers: waivers)
    #expect(harness.cases.map(\.id) == ["t/wrong", "t/ok", "waiver t/gone"])
    var statuses: [Status] = []
    for testCase in harness.cases { statuses.append(await harness.run(testCase).status) }
    #expect(statuses == [.skipped, .stale, .error])
  }

  @Test("Checks the configuration first: each problem is an error case naming the field, never a handler failure")
  func checksConfiguration() async throws {
    let vectors = try write("ok.json", Fixtures.file([Fixtures.accepted()]))
    let configuration = PartnerConfiguration(
      clientID: "", universalLink: "https://acme.example/flip",
      allowList: RedirectAllowList(["https://evil.example/cb"]))
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), configuration: configuration, vectors: [vectors], bundled: false, junit: nil)
    let problems = harness.cases.filter { $0.id.hasPrefix("configuration ") }
    #expect(problems.map(\ConformanceCase.id) == ["configuration clientId", "configuration allowedRedirectUris[0]"])
    let result = await harness.run(problems[1])
    #expect(result.status == .error)
    #expect(result.area == "configuration")
    #expect(result.message.contains(#""https://evil.example/cb" is not allowed: it is not one of Google's twelve"#))
  }

  @Test("Fails a filter that selects no vector instead of running zero cases green")
  func emptySelection() async throws {
    let vectors = try write("ok.json", Fixtures.file([Fixtures.accepted()]))
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), vectors: [vectors], bundled: false,
      filter: VectorFilter(idPatterns: ["outcome/*"]), junit: nil)
    #expect(harness.cases.map(\ConformanceCase.id) == ["selection"])
    let result = await harness.run(harness.cases[0])
    #expect(result.status == .error)
    #expect(result.message.contains("--filter 'outcome/*' matches none of the 1 loaded vectors"))
  }

  @Test("Turns an unusable vector file into an error case instead of losing it")
  func badFile() async throws {
    let vectors = try write("bad.json", Data("{".utf8))
    let harness = ConformanceHarness(handler: ReferenceHandlerAdapter(), vectors: [vectors], bundled: false, junit: nil)
    #expect(harness.cases.count == 1)
    let result = await harness.run(harness.cases[0])
    #expect(result.status == .error)
    #expect(result.message.contains("bad.json"))
  }

  @Test("Keeps both a vector and the duplicate-id problem that shares its id in the JUnit report")
  func duplicateIDsInReport() async throws {
    let first = try write("a.json", Fixtures.file([Fixtures.accepted(id: "t/same")]))
    let second = try write("b.json", Fixtures.file([Fixtures.accepted(id: "t/same")]))
    let report = folder.appendingPathComponent("report.xml")
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), vectors: [first, second], bundled: false, junit: report.path)
    #expect(harness.cases.map(\.id) == ["t/same", "t/same"])
    for testCase in harness.cases.reversed() { _ = await harness.run(testCase) }
    let reader = try JUnitReader.read(try String(contentsOf: report, encoding: .utf8))
    #expect(reader.counts["testcase"] == 2)
    #expect(reader.counts["error"] == 1)
  }

  /// A failing, a warning, a waived, a stale and a passing vector, a waiver file for two of them, and a bad file.
  func mixedRun() throws -> (vectors: URL, bad: URL, waivers: URL) {
    let wrongVerdict = """
      {"verdict": "rejected", "reply": {"base": "\(Fixtures.redirect)", "error": "invalid_request", "state": "s1"}}
      """
    let vectors = try write(
      "mixed.json",
      Fixtures.file([
        Fixtures.accepted(id: "t/passes"), Fixtures.accepted(id: "t/fails", expect: wrongVerdict),
        Fixtures.accepted(id: "t/warns", expect: wrongVerdict)
          .replacingOccurrences(of: #""level": "must""#, with: #""level": "should""#),
        Fixtures.accepted(id: "t/waived", expect: wrongVerdict), Fixtures.accepted(id: "t/stale"),
      ]))
    let bad = try write("bad.json", Fixtures.file([Fixtures.accepted(id: "t/typo", extra: #""sepc": [],"#)]))
    let waivers = try write(
      "waivers.json",
      Data(
        #"{"schemaVersion": 1, "waivers": [{"id": "t/waived", "reason": "known"}, {"id": "t/stale", "reason": "old"}]}"#
          .utf8))
    return (vectors, bad, waivers)
  }

  /// Runs every case of a harness, in parallel, as Swift Testing would.
  func runAll(_ harness: ConformanceHarness) async -> [VectorResult] {
    await withTaskGroup(of: VectorResult.self) { group in
      for testCase in harness.cases { group.addTask { await harness.run(testCase) } }
      var results: [VectorResult] = []
      for await result in group { results.append(result) }
      return results
    }
  }

  @Test("One harness run writes JUnit, Markdown and JSON results equal, apart from times, to the command line's")
  func reportsEqualTheCommandLine() async throws {
    let (vectors, bad, waivers) = try mixedRun()
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      [
        "--no-bundled", "--vectors", vectors.path, "--vectors", bad.path, "--waivers", waivers.path, "--jobs", "1",
        "--report", path("cli.xml"), "--markdown", path("cli.md"), "--json", path("cli.json"),
      ], output: captured.output)
    #expect(code == .usage)
    let harness = ConformanceHarness(
      adapter: InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) },
      options: ConformanceOptions(
        vectors: [vectors.path, bad.path], bundled: false, waivers: waivers.path, junit: path("harness.xml"),
        markdown: path("harness.md"), json: path("harness.json")))
    _ = await runAll(harness)
    // The command that reruns a vector is the command line's in one, `swift test`'s in the other.
    func same(_ text: String) -> String {
      GoldenReportTests.stable(text, folder: folder.path).replacingOccurrences(
        of: #"(reproduce"? ?:? ?"?)(swift run|APPFLIP_FILTER)[^\n"]*"#, with: "$1R", options: .regularExpression)
    }
    for (cli, mine) in [("cli.xml", "harness.xml"), ("cli.md", "harness.md"), ("cli.json", "harness.json")] {
      let expected = same(try String(contentsOfFile: path(cli), encoding: .utf8))
      let actual = same(try String(contentsOfFile: path(mine), encoding: .utf8))
      #expect(expected.contains("reproduce: R") || expected.contains(#""reproduce" : "R""#), "\(cli)")
      #expect(actual == expected, "\(mine) differs from \(cli)")
    }
  }

  @Test("Two harnesses in one target keep both reports; a third that would overwrite one is a failing case instead")
  func twoHarnessesKeepTheirReports() async throws {
    let vectors = try write("two.json", Fixtures.file([Fixtures.accepted(id: "t/a"), Fixtures.accepted(id: "t/b")]))
    let template = folder.appendingPathComponent("{name}.xml").path
    func harness(_ name: String, _ filter: [String]) -> ConformanceHarness {
      ConformanceHarness(
        name: name, handler: ReferenceHandlerAdapter(), vectors: [vectors], bundled: false,
        filter: VectorFilter(idPatterns: filter), junit: template)
    }
    func junit(_ harness: ConformanceHarness) throws -> URL {
      URL(fileURLWithPath: try #require(harness.options.junit))
    }
    let first = harness("first-\(UUID().uuidString)", ["t/a"])
    let second = harness("second-\(UUID().uuidString)", ["t/*"])
    _ = await runAll(first)
    _ = await runAll(second)
    let firstReport = try JUnitReader.read(try String(contentsOf: try junit(first), encoding: .utf8))
    let secondReport = try JUnitReader.read(try String(contentsOf: try junit(second), encoding: .utf8))
    #expect(firstReport.counts["testcase"] == 1)
    #expect(secondReport.counts["testcase"] == 2)
    let before = try Data(contentsOf: try junit(first))
    let again = harness(first.name, ["t/b"])
    #expect(again.options.junit == nil)
    let clash = try #require(again.cases.first { $0.id == "reports of \(first.name)" })
    let result = await again.run(clash)
    #expect(result.status == .error)
    #expect(
      result.message
        == "ConformanceHarness \"\(first.name)\" would overwrite \"\(folder.path)/\(first.name).xml\", which "
        + "ConformanceHarness \"\(first.name)\" writes; give each harness its own name: (its reports are named after "
        + "it) or its own report paths.")
    _ = await runAll(again)
    #expect(try Data(contentsOf: try junit(first)) == before)
  }

  @Test("Writes the report once at the end, each case's wall-clock time its own, and waivers as the CLI does")
  func writesOnceAtTheEnd() async throws {
    let (vectors, _, _) = try mixedRun()
    let junit = folder.appendingPathComponent("once.xml")
    let waivers = folder.appendingPathComponent("written-waivers.json")
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(),
      options: ConformanceOptions(
        vectors: [vectors.path], bundled: false, writeWaivers: waivers.path, junit: junit.path))
    let planned = try String(contentsOf: junit, encoding: .utf8)
    #expect(planned.components(separatedBy: "not run: the run ended before this vector").count - 1 == 5)
    #expect(!FileManager.default.fileExists(atPath: waivers.path))
    _ = await runAll(harness)
    let final = try String(contentsOf: junit, encoding: .utf8)
    #expect(!final.contains("not run"))
    #expect(try JUnitReader.read(final).counts["failure"] == 2)
    let written = try WaiverFile.load(waivers)
    #expect(written.waivers.map(\.id) == ["t/fails", "t/warns", "t/waived"])
  }

  @Test("Stops after maxFailures and runs only its shard, as --max-failures and --shard do")
  func maxFailuresAndShard() async throws {
    let wrong = Fixtures.accepted(id: "t/one").replacingOccurrences(
      of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    let vectors = try write(
      "fails.json", Fixtures.file([wrong, wrong.replacingOccurrences(of: "t/one", with: "t/two")]))
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(),
      options: ConformanceOptions(vectors: [vectors.path], bundled: false, maxFailures: 1))
    var statuses: [Status] = []
    for testCase in harness.cases { statuses.append(await harness.run(testCase).status) }
    #expect(statuses == [.failed, .skipped])
    let shards = (1...2).map { index in
      ConformanceHarness(
        handler: ReferenceHandlerAdapter(),
        options: ConformanceOptions(vectors: [vectors.path], bundled: false, shard: VectorShard(index: index, count: 2))
      )
    }
    let ids = shards.flatMap { $0.cases.filter { $0.loaded != nil }.map(\.id) }
    #expect(ids.sorted() == ["t/one", "t/two"])
  }

  @Test("Ends with a summary: the counts by status, the failing rules and where the reports are")
  func summary() async throws {
    let (vectors, _, _) = try mixedRun()
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(),
      options: ConformanceOptions(vectors: [vectors.path], bundled: false))
    let results = await runAll(harness)
    let text = HarnessSummary.render(
      results.sorted { $0.id < $1.id }, seconds: 1.5,
      options: ConformanceOptions(junit: "Reports/x.xml", json: "r.json"), junitSeconds: 0.0042)
    #expect(
      text == """
        appflip-conformance \(SuiteInfo.version): 5 vectors: 2 passed, 2 failed, 1 warnings, 0 skipped, 0 errors (in 1.50 s)
        failing rules: AF-RE-3 (2 vectors), AF-V-2 (2 vectors)
        rules warned about: AF-RE-3 (1 vector), AF-V-2 (1 vector)
        reports: JUnit: Reports/x.xml (written in 4.2 ms), JSON results: r.json
        """)
  }

  @Test("Points a partner's failing vector at its own file and line, and encodes each case as its id to re-run it")
  func partnerVectorLocation() throws {
    let text = String(
      decoding: Fixtures.file([Fixtures.accepted(id: "t/a"), Fixtures.accepted(id: "t/b")]), as: UTF8.self)
    let vectors = try write("located.json", Data(text.utf8))
    let line = try #require(text.components(separatedBy: "\n").firstIndex { $0.contains(#""id": "t/b""#) }) + 1
    #expect(line > 1)
    let harness = ConformanceHarness(handler: ReferenceHandlerAdapter(), vectors: [vectors], bundled: false, junit: nil)
    let located = try #require(harness.cases.first { $0.id == "t/b" }?.source?.sourceLocation)
    #expect(located.filePath == vectors.standardizedFileURL.path)
    #expect(located.line == line)
    #expect(located.fileName == "located.json")
    let bundled = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), filter: VectorFilter(idPatterns: ["redirect-uri/allowed/prod-opa"]),
      junit: nil)
    #expect(bundled.cases.first?.source == nil)
    struct Argument: Encodable {
      let testCase: ConformanceCase
      func encode(to encoder: any Encoder) throws { try testCase.encodeTestArgument(to: encoder) }
    }
    let encoded = try JSONEncoder().encode(Argument(testCase: harness.cases[1]))
    #expect(String(decoding: encoded, as: UTF8.self) == #""t\/b""#)
  }

  @Test("APPFLIP_FILTER takes the globs --filter takes, comma-separated, to run one vector again")
  func environmentFilter() {
    #expect(ConformanceHarness.filterGlobs(["APPFLIP_FILTER": "flow/replay-*, t/one"]) == ["flow/replay-*", "t/one"])
    #expect(ConformanceHarness.filterGlobs([:]) == [])
    #expect(
      VectorSource.relative(FileManager.default.currentDirectoryPath + "/Vectors/mine.json") == "Vectors/mine.json")
  }

  /// Counts the handlers running at once.
  final class Concurrency: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private(set) var most = 0

    func enter() {
      lock.withLock {
        now += 1
        most = max(most, now)
      }
    }
    func leave() { lock.withLock { now -= 1 } }
  }

  @Test("jobs: 1 runs one case at a time, however many Swift Testing starts, and every case finishes")
  func jobsLimitConcurrency() async throws {
    let ids = (1...6).map { "t/job-\($0)" }
    let vectors = try write("jobs.json", Fixtures.file(ids.map { Fixtures.accepted(id: $0) }))
    let running = Concurrency()
    let handler = ClosureHandler { link, authorizer in
      running.enter()
      defer { running.leave() }
      try await Task.sleep(for: .milliseconds(20))
      return try await ReferenceHandlerAdapter().handle(link, authorizer: authorizer)
    }
    let harness = ConformanceHarness(
      handler: handler, options: ConformanceOptions(vectors: [vectors.path], bundled: false, jobs: 1))
    let results = await runAll(harness)
    #expect(results.map(\.status) == Array(repeating: .passed, count: 6))
    #expect(running.most == 1)
  }

  @Test("A harness's JUnit times are wall-clock: the top-level time is within the run's, and the suites add up to it")
  func junitWallClock() async throws {
    let vectors = try write(
      "wall.json", Fixtures.file((1...8).map { Fixtures.accepted(id: "t/\($0)") }, area: "t"))
    let bad = try write("wall-other.json", Fixtures.file([Fixtures.accepted(id: "u/1")], area: "u"))
    let report = folder.appendingPathComponent("wall.xml").path
    let harness = ConformanceHarness(
      name: "wall-clock", handler: ReferenceHandlerAdapter(),
      options: ConformanceOptions(vectors: [vectors.path, bad.path], bundled: false, junit: report))
    let start = DispatchTime.now().uptimeNanoseconds
    let results = await runAll(harness)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let reader = try JUnitReader.read(try String(contentsOfFile: report, encoding: .utf8))
    let total = try #require(reader.root["time"].flatMap(Double.init))
    let suites = reader.suites.compactMap { $0["time"].flatMap(Double.init) }
    #expect(results.count == 9 && suites.count == 2)
    #expect(total <= elapsed + 0.001, "JUnit says \(total) s for a run of \(elapsed) s")
    #expect(abs(suites.reduce(0, +) - total) <= 0.002, "suites \(suites) do not add up to \(total)")
  }
}
