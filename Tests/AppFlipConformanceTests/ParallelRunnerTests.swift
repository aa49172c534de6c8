import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// The reports of one command-line run, with every time taken out, so that two runs can be compared.
struct TimelessReports: Equatable {
  var junit: String
  var json: String
  var markdown: String
  var console: String

  /// Runs `appflip-conformance` with `arguments` plus report paths in a fresh folder, and reads its reports back.
  static func run(_ arguments: [String]) async throws -> TimelessReports {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let paths = ["junit.xml", "results.json", "summary.md"].map { folder.appendingPathComponent($0).path }
    let output = CapturedOutput()
    let code = await ConformanceCommand.run(
      arguments + ["--report", paths[0], "--json", paths[1], "--markdown", paths[2]], output: output.output)
    #expect(code == .success, "\(output.out)\n\(output.err)")
    let junit = try String(contentsOfFile: paths[0], encoding: .utf8)
      .replacingOccurrences(of: #"time(stamp)?="[^"]*""#, with: "", options: .regularExpression)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: paths[1]))) as? [String: Any])
    let timeless = try JSONSerialization.data(withJSONObject: withoutTimes(json), options: [.sortedKeys])
    return TimelessReports(
      junit: junit, json: String(decoding: timeless, as: UTF8.self),
      markdown: try String(contentsOfFile: paths[2], encoding: .utf8),
      console: output.out.replacingOccurrences(of: folder.path, with: "FOLDER"))
  }

  /// A JSON value without its `duration` and `startedAt` fields, at any depth.
  private static func withoutTimes(_ value: Any) -> Any {
    if let object = value as? [String: Any] {
      return object.filter { !["duration", "startedAt"].contains($0.key) }.mapValues(withoutTimes)
    }
    if let array = value as? [Any] { return array.map(withoutTimes) }
    return value
  }
}

/// Wraps the in-process reference adapter and records which worker handled each vector's steps.
struct RecordingAdapter: ConformanceAdapter {
  var worker: Int
  var log: StepLog
  let inner = InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }

  var name: String { inner.name }
  var acceptsInterleaving: Bool { true }
  var acceptsConfiguration: Bool { true }

  func handle(_ request: HandlerRequest) async throws -> Observation {
    log.record(vector: request.vectorID, worker: worker)
    return try await inner.handle(request)
  }
}

/// Which workers handled each vector's steps.
final class StepLog: @unchecked Sendable {
  private let lock = NSLock()
  private var workers: [String: Set<Int>] = [:]

  func record(vector: String, worker: Int) {
    lock.withLock { _ = workers[vector, default: []].insert(worker) }
  }

  var byVector: [String: Set<Int>] { lock.withLock { workers } }
}

@Suite("Parallel runs")
struct ParallelRunnerTests {
  static let catalog = VectorLoader.loadBundled()

  @Test("Runs each vector whole on one worker, uses every worker, and returns the results in catalog order")
  func eachVectorOnOneWorker() async throws {
    let log = StepLog()
    let parallel = await Runner(adapters: (0..<3).map { RecordingAdapter(worker: $0, log: log) }).run(Self.catalog)
    let serialLog = StepLog()
    let serial = await Runner(adapter: RecordingAdapter(worker: 0, log: serialLog)).run(Self.catalog)

    #expect(parallel.map(\.id) == Self.catalog.vectors.map(\.vector.id))
    #expect(
      parallel.map { "\($0.id) \($0.status) \($0.message) \($0.findings)" }
        == serial.map { "\($0.id) \($0.status) \($0.message) \($0.findings)" })
    let workers = log.byVector
    // Every vector the runner sends to its adapter (not one it skips before, such as one that does not render).
    #expect(Set(workers.keys) == Set(serialLog.byVector.keys))
    #expect(workers.count > Self.catalog.vectors.count / 2)
    #expect(workers.values.allSatisfy { $0.count == 1 })
    #expect(Set(workers.values.flatMap { $0 }) == [0, 1, 2])
  }

  @Test("A run asked to stop reports the vectors not started as not run, in catalog order")
  func stopped() async throws {
    let control = RunControl()
    control.stop(.interrupted)
    let adapter = InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }
    let results = await Runner(adapters: [adapter, adapter]).run(Self.catalog, control: control)
    #expect(results.map(\.id) == Self.catalog.vectors.map(\.vector.id))
    #expect(results.allSatisfy { $0.status == .skipped && $0.message == "not run: interrupted (SIGINT)" })
  }

  @Test("In-process, --jobs 3 writes the same JUnit, JSON, Markdown and console report as --jobs 1, but for times")
  func inProcessReportsMatch() async throws {
    let one = try await TimelessReports.run(["--jobs", "1"])
    let three = try await TimelessReports.run(["--jobs", "3"])
    #expect(one.junit.contains("<testcase"))
    #expect(one == three)
  }

  @Test(
    "--jobs takes a positive whole number, and defaults to the cores, but 1 against an endpoint or with --max-failures, never more than the vectors"
  )
  func jobsOption() throws {
    #expect(try CommandLineOptions.parse(["--jobs", "4"]).jobs == 4)
    #expect(
      throws: UsageError.invalidValue(option: "--jobs", value: "0", expected: "a positive whole number of adapters")
    ) {
      try CommandLineOptions.parse(["--jobs", "0"])
    }
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    func jobs(_ arguments: [String], work: Int = 1_000) throws -> Int {
      ConformanceCommand.jobs(try CommandLineOptions.parse(arguments), work: work)
    }
    #expect(try jobs([]) == cores)
    #expect(try jobs(["--exec", "x"]) == cores)
    #expect(try jobs(["--endpoint", "http://127.0.0.1:1/"]) == 1)
    #expect(try jobs(["--max-failures", "2"]) == 1)
    #expect(try jobs(["--max-failures", "2", "--jobs", "2"]) == 2)
    #expect(try jobs(["--jobs", "1000000"], work: 28) == 28)
    #expect(try jobs(["--jobs", "3"], work: 0) == 1)
  }
}
