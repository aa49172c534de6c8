import Foundation
import Testing

@testable import AppFlipConformance

@Suite("Crash journal")
struct RunJournalTests {
  /// `count` cases as planned, ids `t/0`, `t/1`, ….
  static func planned(_ count: Int) -> RunRecord {
    RunRecord(
      results: (0..<count).map {
        VectorResult(id: "t/\($0)", area: "t", file: "f.json", level: .must, spec: ["s"], status: .skipped)
      }, implementation: "impl", configuration: .default)
  }

  @Test("The journal is valid JUnit after every write: results appended as they end, the rest in place")
  func validAfterEachWrite() throws {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    let path = folder.root.appendingPathComponent("journal.xml").path
    let journal = RunJournal(Self.planned(3), path: path)
    defer { journal.end() }
    let read = { try JUnitReader.read(try String(contentsOfFile: path, encoding: .utf8)) }
    let before = try read()
    #expect(before.counts["testcase"] == 3 && before.counts["skipped"] == 3 && before.counts["error"] == nil)
    journal.start(0)
    journal.start(1)
    #expect(try read().counts["error"] == 2)
    var failed = Self.planned(3).results[1]
    failed.status = .failed
    failed.findings = [
      Finding(rule: "AF-RE-2", level: .must, field: "reply.state", expected: "\"s1\"", actual: "\"s2\"", message: "m")
    ]
    #expect(!journal.finish(1, failed))
    let xml = try String(contentsOfFile: path, encoding: .utf8)
    let after = try JUnitReader.read(xml)
    // The running and the not-run case stay in place; the result is appended after them.
    #expect(after.testcases.map { $0["name"] ?? "" } == ["t/0", "t/2", "t/1"])
    #expect(after.counts["error"] == 1 && after.counts["skipped"] == 1 && after.counts["failure"] == 1)
    let running = try #require(xml.range(of: "the process ended while this vector ran"))
    let notRun = try #require(xml.range(of: "not run: the run ended before this vector"))
    let failure = try #require(xml.range(of: "AF-RE-2 reply.state"))
    #expect(running.lowerBound < notRun.lowerBound && notRun.lowerBound < failure.lowerBound)
    #expect(!journal.finish(0, Self.planned(3).results[0]))
    #expect(journal.finish(2, Self.planned(3).results[2]), "the last case to end says so")
    #expect(try read().counts["testcase"] == 3)
    #expect(journal.record.results.map(\.status) == [.skipped, .failed, .skipped])
    #expect(journal.record.results.map(\.isNotRun) == [false, false, false])
    // A late fault amends a result: the case is listed once, with the new one.
    var amended = Self.planned(3).results[0]
    amended.status = .error
    amended.message = "the implementation answered request 1 again after its answer"
    #expect(!journal.finish(0, amended))
    let last = try read()
    #expect(last.counts["testcase"] == 3 && last.counts["error"] == 1 && last.counts["failure"] == 1)
    #expect(journal.record.results.map(\.status) == [.error, .failed, .skipped])
  }

  @Test("The journal writes bytes in proportion to the cases: 1 000 cases about ten times what 100 do")
  func linear() throws {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    func bytes(_ count: Int) -> Int {
      let journal = RunJournal(Self.planned(count), path: folder.root.appendingPathComponent("\(count).xml").path)
      defer { journal.end() }
      for (index, result) in Self.planned(count).results.enumerated() {
        journal.start(index)
        journal.finish(index, result)
      }
      return journal.bytesWritten
    }
    let (small, large) = (bytes(100), bytes(1_000))
    // Rewriting the whole report as each case starts would write about a hundred times as much.
    #expect(small > 100 * 200)
    #expect(Double(large) / Double(small) > 9 && Double(large) / Double(small) < 11.5, "\(small) and \(large) bytes")
  }

  @Test("A journal with no path, or one that is not a regular file, keeps the record in memory only")
  func inMemory() {
    for path in [nil, "/dev/null"] {
      let journal = RunJournal(Self.planned(2), path: path)
      journal.start(0)
      #expect(!journal.finish(0, Self.planned(2).results[0]))
      #expect(journal.bytesWritten == 0)
      #expect(journal.record.results.map(\.isNotRun) == [false, true])
    }
  }
}

@Suite(
  "Crash journal of a killed run", .serialized,
  .enabled(if: PythonFixtures.python, "needs python3 for Tests/Fixtures/subprocess (CI always runs it)"))
struct KilledRunJournalTests {
  @Test("A run of 10 000 vectors killed while one hangs leaves a report naming that vector, the rest not run or ended")
  func killed() async throws {
    let binary = try #require(SignalCases.executable, "appflip-conformance is built with the tests")
    let folder = try PartnerFolder()
    defer { folder.remove() }
    let vectors = folder.root.appendingPathComponent("10000.json")
    try BadInputTests.vectorFile((0..<10_000).map { BadInputTests.vector("g/\($0)") }).write(to: vectors)
    let report = folder.root.appendingPathComponent("junit.xml").path
    let process = Process()
    process.executableURL = binary
    process.currentDirectoryURL = Subprocess.root
    process.arguments = [
      "--no-bundled", "--vectors", vectors.path, "--jobs", "1", "--timeout", "600", "--report", report, "--exec",
      Subprocess.python("Tests/Fixtures/subprocess/hostile_handler.py", ["hang", "g/100"]),
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let running = #"name="g/100" time="0"><error type="implementation-error" message="the process ended while"#
    let clock = ContinuousClock()
    let start = clock.now
    while clock.now - start < .seconds(120), process.isRunning,
      !((try? String(contentsOfFile: report, encoding: .utf8))?.contains(running) ?? false)
    {
      try await Task.sleep(for: .milliseconds(100))
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    let junit = try String(contentsOfFile: report, encoding: .utf8)
    let reader = try JUnitReader.read(junit)
    #expect(junit.contains(running))
    #expect(reader.counts["testcase"] == 10_000)
    #expect(reader.counts["error"] == 1)
    #expect(reader.counts["skipped"] == 10_000 - 101, "every vector after g/100 not run")
    #expect(reader.testcases.last?["name"] == "g/99", "the vectors before it ended, and are reported as they did")
  }
}
