import AppFlip
import AppFlipConformance
import Foundation
import Testing

/// The reference handler, but the vector `t/block` blocks its thread (a semaphore wait, for `blockSeconds`) and the
/// vector `t/hang` never answers.
struct MisbehavingAdapter: ConformanceAdapter {
  /// Blocks a step's thread until the test releases it, and says whether it has returned.
  final class Blocker: @unchecked Sendable {
    let seconds: Double
    private let lock = NSLock()
    private let gate = DispatchSemaphore(value: 0)
    private var done = false

    init(seconds: Double) { self.seconds = seconds }

    func block() {
      // Blocks without suspending until released: a run that waited for this step could not end before the test
      // releases it, whatever the machine's load. Bounded, so a failing test still gets its thread back.
      _ = gate.wait(timeout: .now() + seconds)
      lock.withLock { done = true }
    }

    /// Lets the blocked step return.
    func release() { gate.signal() }

    var returned: Bool { lock.withLock { done } }

    /// Waits, suspended, until the blocked step has returned and given its thread back.
    func waitForReturn() async {
      while !returned { try? await Task.sleep(for: .milliseconds(50)) }
    }
  }

  var blocker = Blocker(seconds: 60)
  let inner = InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }

  var name: String { "misbehaving" }

  func handle(_ request: HandlerRequest) async throws -> Observation {
    switch request.vectorID {
    case "t/block":
      blocker.block()
      return Observation(opened: nil, authorizationRequests: [])
    case "t/hang":
      // Hangs for good, idle, ignoring cancellation.
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
      return Observation(opened: nil, authorizationRequests: [])
    default:
      return try await inner.handle(request)
    }
  }
}

/// The reference handler, but in the interleaved vectors `t/i-hang` and `t/i-throw` step 1 never answers, and in
/// `t/i-throw` step 0 throws first.
struct InterleavedFaultAdapter: ConformanceAdapter {
  struct Refused: Error, CustomStringConvertible {
    var description: String { "refused" }
  }

  let inner = InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }

  var name: String { "interleaved-faults" }
  var acceptsInterleaving: Bool { true }

  func handle(_ request: HandlerRequest) async throws -> Observation {
    guard request.vectorID.hasPrefix("t/i-") else { return try await inner.handle(request) }
    if request.step == 1 {
      // Hangs for good, idle, ignoring cancellation.
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
    }
    if request.vectorID == "t/i-throw" { throw Refused() }
    return Observation(opened: nil, authorizationRequests: [])
  }
}

/// Collects what a run hands to `onResult`.
final class ResultLog: @unchecked Sendable {
  private let lock = NSLock()
  private var ids: [String] = []
  func add(_ result: VectorResult) { add(id: result.id) }
  func add(id: String) { lock.withLock { ids.append(id) } }
  var all: [String] { lock.withLock { ids } }
}

@Suite("Catalog runs: steps sent inline under one watchdog", .serialized)
struct CatalogRunTests {
  static let ids = ["t/a", "t/block", "t/b", "t/hang", "t/c"]
  static let catalog = Fixtures.catalog(ids.map { Fixtures.accepted(id: $0) })

  @Test(
    "A handler that blocks its thread, or never answers, in the middle of a catalog times out on schedule, and the vectors after it still pass",
    arguments: [1, 2])
  func blockingStepTimesOut(jobs: Int) async {
    let log = ResultLog()
    let blocker = MisbehavingAdapter.Blocker(seconds: 60)
    let runner = Runner(adapters: (0..<jobs).map { _ in MisbehavingAdapter(blocker: blocker) }, timeout: 0.3)
    let results = await runner.run(Self.catalog, onResult: log.add)
    // The blocked step holds its thread until released; the run must have ended without waiting for it.
    let ranPastTheBlock = blocker.returned
    blocker.release()
    await blocker.waitForReturn()
    #expect(!ranPastTheBlock)
    #expect(results.map(\.id) == Self.ids)
    #expect(results.map(\.status) == [.passed, .error, .passed, .error, .passed])
    #expect(results[1].message == "the implementation did not answer within 0.3 seconds")
    #expect(results[3].message == "the implementation did not answer within 0.3 seconds")
    #expect(log.all.sorted() == Self.ids.sorted())
  }

  @Test("A stuck step's timeout names its step, and the vector's earlier steps are not judged")
  func namesTheStep() async {
    let twoSteps = Fixtures.twoSteps(id: "t/hang")
    let catalog = Fixtures.catalog([twoSteps, Fixtures.accepted(id: "t/after")])
    #expect(catalog.problems.isEmpty)
    let results = await Runner(adapter: MisbehavingAdapter(), timeout: 0.3).run(catalog)
    #expect(results.map(\.status) == [.error, .passed])
    #expect(results.first?.message == "step 0: the implementation did not answer within 0.3 seconds")
  }

  @Test(
    "An interleaved vector's stuck or failing step is reported in a catalog run as when the vector runs alone: the first step in order that did not answer"
  )
  func interleavedFaults() async {
    let catalog = Fixtures.catalog([
      Fixtures.interleaved(id: "t/i-hang"), Fixtures.interleaved(id: "t/i-throw"), Fixtures.interleaved(id: "t/after"),
    ])
    #expect(catalog.problems.isEmpty)
    // Step 0 answers at once, but only once its task runs: a deadline of 2 s leaves room for a loaded machine.
    let runner = Runner(adapter: InterleavedFaultAdapter(), timeout: 2)
    let results = await runner.run(catalog)
    #expect(results.map(\.status) == [.error, .error, .passed])
    #expect(results.first?.message == "step 1: the implementation did not answer within 2.0 seconds")
    #expect(results.dropFirst().first?.message == "step 0: the implementation threw: refused")
    // Alone, in a run of its own: the same results.
    for (loaded, inCatalog) in zip(catalog.vectors, results) {
      let alone = await runner.run(loaded)
      #expect(alone.status == inCatalog.status, "\(loaded.vector.id)")
      #expect(alone.message == inCatalog.message, "\(loaded.vector.id)")
    }
  }

  @Test(
    "Cancelling a catalog run abandons the step in flight at once: it and the vectors after it are reported as not run",
    arguments: [1, 2])
  func cancellation(jobs: Int) async {
    let catalog = Fixtures.catalog(["t/a", "t/hang", "t/b"].map { Fixtures.accepted(id: $0) })
    let control = RunControl()
    let log = ResultLog()
    let starts = ResultLog()
    // One worker is stuck in `t/hang`; with two, the other finishes `t/b` first, so only one vector is left out.
    let runner = Runner(adapters: (0..<jobs).map { _ in MisbehavingAdapter() }, timeout: 60)
    let clock = ContinuousClock()
    let started = clock.now
    let onStart: @Sendable (LoadedVector) -> Void = { starts.add(id: $0.vector.id) }
    let task = Task { await runner.run(catalog, control: control, onStart: onStart, onResult: log.add) }
    // Cancelled once `t/hang` is in flight (and, with two workers, once `t/b` has its result), however loaded the
    // machine is.
    let ready = jobs == 1 ? ["t/a"] : ["t/a", "t/b"]
    while clock.now - started < .seconds(8), !(starts.all.contains("t/hang") && Set(ready).isSubset(of: log.all)) {
      try? await Task.sleep(for: .milliseconds(20))
    }
    try? await Task.sleep(for: .milliseconds(50))
    control.stop(.interrupted)
    task.cancel()
    let results = await task.value
    #expect(clock.now - started < .seconds(10))
    #expect(results.map(\.id) == ["t/a", "t/hang", "t/b"])
    #expect(results[0].status == .passed)
    #expect(results[1].status == .skipped)
    #expect(results[1].message == "not run: interrupted (SIGINT) while it ran")
    #expect(results[1].isNotRun)
    #expect(results[2].status == (jobs == 1 ? .skipped : .passed))
    if jobs == 1 { #expect(results[2].message == "not run: interrupted (SIGINT)") }
    #expect(log.all.sorted() == ["t/a", "t/b", "t/hang"])
  }

  @Test("Cancelling a catalog run without a stop reason reports the step in flight as an error")
  func cancellationWithoutReason() async {
    let catalog = Fixtures.catalog(["t/a", "t/hang"].map { Fixtures.accepted(id: $0) })
    let runner = Runner(adapter: MisbehavingAdapter(), timeout: 60)
    let starts = ResultLog()
    let task = Task { await runner.run(catalog, onStart: { starts.add(id: $0.vector.id) }) }
    let clock = ContinuousClock()
    let started = clock.now
    // Cancelled once `t/hang` is in flight, however loaded the machine is.
    while clock.now - started < .seconds(8), !starts.all.contains("t/hang") {
      try? await Task.sleep(for: .milliseconds(20))
    }
    try? await Task.sleep(for: .milliseconds(50))
    task.cancel()
    let results = await task.value
    #expect(results.map(\.status) == [.passed, .error])
    #expect(results[1].message == "the implementation did not answer: the run was cancelled while this step ran")
    #expect(!results[1].message.contains("CancellationError"), "no Swift type name: \(results[1].message)")
  }
}
