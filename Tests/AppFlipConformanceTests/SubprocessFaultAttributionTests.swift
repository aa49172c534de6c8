import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 10, item 8: a fault over `--exec` lands on the request that made it, and is seen as soon as it happens.
@Suite(
  "Subprocess fault attribution",
  .enabled(if: PythonFixtures.python, "needs python3 for Tests/Fixtures/subprocess (CI always runs it)"))
struct SubprocessFaultAttributionTests {
  static func hostile(_ mode: String, on vector: String) -> String {
    Subprocess.python("Tests/Fixtures/subprocess/hostile_handler.py", [mode, vector])
  }

  @Test(
    "Two answers to one request are an error on that vector, and the vectors after it keep their verdicts",
    arguments: [2, 5])
  func twoAnswers(position: Int) async throws {
    let catalog = Subprocess.someAreas
    let target = catalog.vectors[position].vector.id
    let adapter = SubprocessAdapter(command: Self.hostile("two-answers", on: target), timeout: 10)
    defer { adapter.shutdown() }
    let results = await Runner(adapter: adapter, timeout: Subprocess.patience).run(catalog)
    let reference = await Subprocess.referenceResults(catalog)
    #expect(results.count == catalog.vectors.count)
    let hit = try #require(results.first { $0.id == target })
    #expect(hit.status == .error)
    #expect(hit.message.contains("answered request"), "\(hit.message)")
    #expect(hit.message.contains("vector \"\(target)\""), "\(hit.message)")
    #expect(hit.message.contains("again after its answer"), "\(hit.message)")
    let others = zip(results, reference).filter { $0.0.id != target }
    #expect(others.map { Subprocess.verdict($0.0) } == others.map { Subprocess.verdict($0.1) })
  }

  @Test("Two answers to the last vector's request are an error on it too")
  func twoAnswersLast() async throws {
    let catalog = VectorFilter(idPatterns: ["check-order/*"]).apply(to: Subprocess.catalog)
    let target = try #require(catalog.vectors.last).vector.id
    let adapter = SubprocessAdapter(command: Self.hostile("two-answers", on: target), timeout: 10)
    defer { adapter.shutdown() }
    let results = await Runner(adapter: adapter, timeout: Subprocess.patience).run(catalog)
    let hit = try #require(results.last)
    #expect(hit.id == target)
    #expect(hit.status == .error)
    #expect(hit.message.contains("again after its answer"), "\(hit.message)")
    #expect(results.dropLast().allSatisfy { $0.status != .error })
  }

  /// `hostile_handler.py late-answer VECTOR AFTER MARKER` (see the fixture), with a fresh marker path.
  static func lateAnswer(on vector: String, after: Int) -> (command: String, marker: URL) {
    let marker = FileManager.default.temporaryDirectory.appendingPathComponent("late-answer-\(UUID().uuidString)")
    let command = Subprocess.python(
      "Tests/Fixtures/subprocess/hostile_handler.py", ["late-answer", vector, String(after), marker.path])
    return (command, marker)
  }

  // An adapter reused for a second run (a partner calling the runner twice, a harness): a fault it recorded on a
  // vector after the run had asked about it was handed to that vector's next run, failing its correct answer.
  @Test("A second answer that comes after its vector was asked about is no error on the vector's next run")
  func lateAnswerAfterSettle() async throws {
    let catalog = VectorFilter(idPatterns: ["check-order/*"]).apply(to: Subprocess.catalog)
    let target = catalog.vectors[1].vector.id
    // Two run messages later: the run asks about the target once the vector after it ran, before the next is sent.
    let (command, marker) = Self.lateAnswer(on: target, after: 2)
    defer { try? FileManager.default.removeItem(at: marker) }
    let adapter = SubprocessAdapter(command: command, timeout: 10)
    defer { adapter.shutdown() }
    let runner = Runner(adapter: adapter, timeout: Subprocess.patience)
    let first = await runner.run(catalog)
    #expect(FileManager.default.fileExists(atPath: marker.path), "the fixture answered \(target) a second time")
    let second = await runner.run(catalog)
    let reference = await Subprocess.referenceResults(catalog)
    let others = zip(first, reference).filter { $0.0.id != target }
    #expect(others.map { Subprocess.verdict($0.0) } == others.map { Subprocess.verdict($0.1) })
    #expect(
      second.map { Subprocess.verdict($0) } == reference.map { Subprocess.verdict($0) }, "\(second.map(\.message))")
  }

  @Test("A second answer to a vector's earlier run, read while the vector runs again, is no error on the new run")
  func lateAnswerFromEarlierRun() async throws {
    let loaded = try #require(VectorFilter(idPatterns: ["check-order/*"]).apply(to: Subprocess.catalog).vectors.first)
    // The second answer comes just before the answer to the next run message, the vector's own again, from the same
    // process: a run of one vector leaves the implementation running. So runs `fuzz` shrinking (every candidate is
    // fuzz/case-0 on one adapter), where the old fault would make the next candidate an error it never showed.
    let (command, marker) = Self.lateAnswer(on: loaded.vector.id, after: 1)
    defer { try? FileManager.default.removeItem(at: marker) }
    let adapter = SubprocessAdapter(command: command, timeout: 10)
    defer { adapter.shutdown() }
    let runner = Runner(adapter: adapter, timeout: Subprocess.patience)
    let first = await runner.run(loaded)
    let second = await runner.run(loaded)
    #expect(
      FileManager.default.fileExists(atPath: marker.path), "the fixture answered \(loaded.vector.id) a second time")
    let reference = try #require(await Subprocess.referenceResults().first { $0.id == loaded.vector.id })
    #expect(Subprocess.verdict(first) == Subprocess.verdict(reference))
    #expect(Subprocess.verdict(second) == Subprocess.verdict(reference), "\(second.message)")
  }

  @Test(
    "An adapter that exits while its own child holds stdout, even writing to it, is reported as exited at once, with its stderr",
    arguments: ["exit-leaving-child", "exit-leaving-writer"])
  func exitLeavingChild(_ mode: String) async throws {
    let catalog = Subprocess.someAreas
    let target = catalog.vectors[2].vector.id
    let adapter = SubprocessAdapter(command: Self.hostile(mode, on: target), timeout: 30)
    defer { adapter.shutdown() }
    let results = await Runner(adapter: adapter, timeout: Subprocess.patience).run(catalog)
    let reference = await Subprocess.referenceResults(catalog)
    let hit = try #require(results.first { $0.id == target })
    #expect(hit.status == .error)
    // The writing child's bytes are the start of an answer that never ends.
    let when = mode == "exit-leaving-child" ? "before it answered request" : "in the middle of its answer to request"
    #expect(hit.message.contains("exited with status 4 \(when)"), "\(hit.message)")
    #expect(hit.diagnostics.contains("hostile_handler.py: exiting, leaving a child behind"), "\(hit.diagnostics)")
    // Not after the 30-second timeout: the process's exit is watched, not only the end of its stdout, and once a slice
    // even while stdout keeps bringing bytes (a look only after a quiet poll saw the exit after 11 to 17 seconds).
    #expect(hit.duration < (mode == "exit-leaving-child" ? 10 : 6), "\(hit.duration) s")
    let others = zip(results, reference).filter { $0.0.id != target }
    #expect(others.map { Subprocess.verdict($0.0) } == others.map { Subprocess.verdict($0.1) })
  }

  @Test("A step the runner gives up on stops waiting at once, and the next step gets a fresh implementation")
  func cancellationWakesTheRead() async throws {
    let adapter = SubprocessAdapter(command: Subprocess.faulty("hang", on: "v/hang"), timeout: 60)
    defer { adapter.shutdown() }
    _ = try await adapter.handle(Subprocess.request("v/ok"))
    let task = Task { try await adapter.handle(Subprocess.request("v/hang")) }
    try await Task.sleep(for: .milliseconds(200))
    let clock = ContinuousClock()
    let start = clock.now
    task.cancel()
    let result = await task.result
    #expect(throws: AdapterError.self) { try result.get() }
    // Long before the 60-second timeout: the read stops at once, and what is left is this task's turn on a cooperative
    // pool that a whole `swift test` keeps queued (seconds under load; the adapter no longer holds a pool thread).
    #expect(clock.now - start < .seconds(10))
    // The next step gets a fresh implementation, which answers it (opening nothing: the link has no redirect_uri).
    let after = try await adapter.handle(Subprocess.request("v/after"))
    #expect(after.opened == nil && after.authorizationRequests == [])
  }

  @Test("A link of an interleaved vector sent after another link's fault fails with that fault, not on a fresh start")
  func brokenInterleaving() async throws {
    let adapter = SubprocessAdapter(command: Subprocess.faulty("answer-before-code", on: "v/interleaved"), timeout: 10)
    defer { adapter.shutdown() }
    var first = Subprocess.request("v/interleaved")
    first.barrier = InterleavingBarrier(parties: 2)
    var second = first
    second.step = 1
    let fault = await #expect(throws: AdapterError.self) { try await adapter.handle(first) }
    #expect(fault?.message.contains("before the harness answered its code request") == true, "\(fault?.message ?? "")")
    let error = await #expect(throws: AdapterError.self) { try await adapter.handle(second) }
    #expect(error?.message.contains("before the harness answered its code request") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("step 1) was sent") == true, "\(error?.message ?? "")")
    #expect(error?.diagnostics.contains("faulty_handler.py: answer-before-code on v/interleaved") == true)
  }

  // A runner sends a subprocess adapter's steps inline (no task per step, issue 12): the adapter keeps the runner's
  // deadline and cancellation itself.
  @Test("A step sent inline ends at the runner's timeout, as a TimeoutError, even while the implementation starts")
  func slowStart() async throws {
    let adapter = SubprocessAdapter(command: "sleep 30", timeout: 10)
    defer { adapter.shutdown() }
    let result = await Runner.send(Subprocess.request("v/slow-start"), to: adapter, within: 1)
    #expect(throws: TimeoutError.self) { try result.get() }
    #expect(Runner.describe(Self.error(result)) == "did not answer within 1.0 seconds")
  }

  @Test("A step sent inline that the task cancels ends as a CancellationError, as under the runner's own deadline")
  func cancelled() async throws {
    let adapter = SubprocessAdapter(command: Subprocess.faulty("hang", on: "v/hang"), timeout: 60)
    defer { adapter.shutdown() }
    await #expect(throws: Never.self) { try await adapter.send(Subprocess.request("v/ok"), within: 60) }
    let step = Task { await Runner.send(Subprocess.request("v/hang"), to: adapter, within: 60) }
    try await Task.sleep(for: .milliseconds(300))
    step.cancel()
    let result = await step.value
    #expect(throws: CancellationError.self) { try result.get() }
    // The implementation, stopped mid-answer, is started again for the next step.
    await #expect(throws: Never.self) { try await adapter.send(Subprocess.request("v/ok-again"), within: 60) }
  }

  /// The error of a failed result, or a description of the success.
  static func error(_ result: Result<Observation, any Error>) -> any Error {
    switch result {
    case .success(let observation): return AdapterError(message: "succeeded: \(observation)")
    case .failure(let error): return error
    }
  }
}
