import Foundation

/// One run of a runner's vectors: a worker task per adapter, each taking the next vector and sending its steps inline
/// (no task and no thread hand-off per step) through its adapter, while the process's `Watchdog` keeps the deadlines.
///
/// A step sent with `ConformanceAdapter`'s default `send` arms its deadline in the worker's slot, which costs a lock and
/// a clock read; the watchdog is armed once for the earliest deadline and re-armed when it fires. When a step overruns
/// (a handler that never answers, or blocks its thread), the watchdog records the timeout as that vector's result,
/// cancels the stuck worker and starts a replacement on the same adapter, which goes on with the next vectors; whatever
/// the abandoned worker returns later is dropped. An adapter that keeps its deadlines itself arms nothing.
///
/// Each result is reported as its vector ends. Over an adapter that reports late faults (`ConformanceAdapter.lateFaults`:
/// an implementation that answers a request twice shows it while the next one runs), the run then asks for one once
/// the next vector ran on the same adapter (or the worker ends, within `settle` seconds), and a vector it shows one on
/// becomes an error (`onAmend`). When the run is cancelled (SIGINT, SIGTERM), the vectors in flight are reported at
/// once as not run (an error when no stop reason was given), and so are the vectors not started, once the feed ended.
///
/// The vectors come from a `VectorFeed`: a worker takes each one as soon as it is added (waiting for it while the feed
/// is open), so a run starts on the first vector file while the others load.
final class CatalogRun: @unchecked Sendable {
  /// How long a worker waits at most, after its last vector, for the implementation to end its output (the second
  /// answer it may still write comes before): as long as `ConformanceAdapter.shutdown()` gives it to exit.
  static let settleGrace = 1.0
  /// How long a worker keeps its thread before it yields to Swift's cooperative pool, in nanoseconds: a run of many
  /// vectors could otherwise hold a pool thread for its whole length, and other tasks (another run, a step's waiting
  /// partner, a cancelled test) would wait for it; each yield wakes another pool thread (a futex wake-up, which
  /// profiles of in-process runs showed at a 1 ms slice).
  static let slice: UInt64 = 5_000_000

  /// One worker's slot: which worker owns it, the vector and step it is sending, and the result it holds.
  struct Slot {
    var generation = 0
    var task: Task<Void, Never>?
    var vector: Int?
    var step = 0
    var startedAt = DispatchTime(uptimeNanoseconds: 0)
    var prior: [Result<Observation, any Error>] = []
    /// The vector's plan, once made: the evidence of a result the run makes for it (a timeout, a cancellation).
    var plan: VectorPlan?
    /// What an interleaved vector's step already failed with, reported at the deadline in place of the timeout: the
    /// first step in order that did not answer decides its result (see `advance`).
    var failure: (any Error)?
    /// When the step in flight times out, in uptime nanoseconds; 0 while no deadline is armed.
    var deadline: UInt64 = 0
    /// The seconds of that deadline, for its message.
    var seconds = 0.0
    /// How many steps hold the deadline: an interleaved vector's steps share the first one's.
    var armed = 0
    /// The last vector, until the next one ran on the adapter (or the worker ended) and the adapter was asked for a
    /// late fault on it.
    var held: (index: Int, id: String)?
  }

  let runner: Runner
  let feed: VectorFeed
  let control: RunControl
  let settle: Double
  let onStart: @Sendable (Int) -> Void
  let onResult: @Sendable (Int, VectorResult) -> Void
  let onAmend: @Sendable (Int, VectorResult) -> Void

  let lock = NSLock()
  var slots: [Slot]
  private var results: [VectorResult?] = []
  private var reported = 0
  private var next = 0
  var cancelled = false
  private var reporting = 0
  private var continuation: CheckedContinuation<Void, Never>?
  var watch: Watchdog.Token?
  var watchArmedFor = UInt64.max

  init(
    runner: Runner, feed: VectorFeed, control: RunControl, settle: Double,
    onStart: @escaping @Sendable (Int) -> Void = { _ in },
    onResult: @escaping @Sendable (Int, VectorResult) -> Void = { _, _ in },
    onAmend: @escaping @Sendable (Int, VectorResult) -> Void = { _, _ in }
  ) {
    self.runner = runner
    self.feed = feed
    self.control = control
    self.settle = settle
    self.onStart = onStart
    self.onResult = onResult
    self.onAmend = onAmend
    slots = Array(repeating: Slot(), count: min(runner.adapters.count, feed.total ?? .max))
  }

  /// Runs every vector of the feed; the results in their order, once it ended.
  func run() async -> [VectorResult] {
    guard feed.total != 0 else { return [] }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let start = lock.withLock {
          guard !cancelled else { return false }
          self.continuation = continuation
          return true
        }
        guard start else { return continuation.resume() }
        for worker in slots.indices { startWorker(worker) }
      }
    } onCancel: {
      cancel()
    }
    await feed.wait(for: .max)
    let (untaken, watch) = lock.withLock { (next, self.watch) }
    if let watch { Watchdog.shared.cancel(watch) }
    for index in untaken..<(feed.total ?? untaken) {
      let result =
        control.stopReason.map { VectorResult(feed[index], notRun: $0.description) }
        ?? Runner.failed(feed[index], step: 0, error: CancellationError(), prior: [], since: .now())
      lock.withLock { reporting += 1 }
      report(index, result)
    }
    // Moved out, not copied: a copy retains every string and array of every result.
    return lock.withLock { results.indices.map { results[$0].take()! } }
  }

  /// Starts a worker on slot `worker` (its adapter's), owning the slot from now on.
  func startWorker(_ worker: Int) {
    lock.withLock {
      guard !cancelled else { return }
      slots[worker].generation += 1
      let generation = slots[worker].generation
      slots[worker].task = Task { await self.work(worker, generation: generation) }
    }
  }

  /// A worker's loop: takes the next vector, runs it with its steps inline, asks for a late fault on the one before,
  /// and reports the result, unless the watchdog or a cancellation took the vector from it meanwhile.
  private func work(_ worker: Int, generation: Int) async {
    let adapter = runner.adapters[worker]
    let lateFaults = adapter.lateFaults
    let watch = Watch(run: self, worker: worker, generation: generation)
    var yielded = DispatchTime.now().uptimeNanoseconds
    while let (index, loaded) = await take(worker, generation: generation) {
      let now = DispatchTime.now().uptimeNanoseconds
      if now &- yielded >= Self.slice {
        yielded = now
        await Task.yield()
        if Task.isCancelled { return }  // taken from it while it yielded: reported already
      }
      let result: VectorResult
      if let reason = control.stopReason {
        result = VectorResult(loaded, notRun: reason.description)
      } else {
        onStart(index)
        result = await runner.judge(loaded, on: adapter, watch: watch)
      }
      if let lateFaults { release(worker, generation: generation, lateFaults, grace: 0) }
      guard claim(worker, generation: generation, index: index, holding: lateFaults != nil) else { return }
      report(index, result)
    }
    if let lateFaults { release(worker, generation: generation, lateFaults, grace: settle) }
    if lock.withLock({ isDone }) { finish() }  // the feed ended after the last result
  }

  /// The next vector for this worker and its index, marked in flight, once the feed has it; nil when none is left or
  /// the slot is no longer its own.
  private func take(_ worker: Int, generation: Int) async -> (Int, LoadedVector)? {
    while true {
      let (taken, waitFor): ((Int, LoadedVector)?, Int?) = lock.withLock {
        guard slots[worker].generation == generation, !cancelled else { return (nil, nil) }
        let (loaded, open) = feed.vector(at: next)
        guard let loaded else { return (nil, open ? next : nil) }
        defer { next += 1 }
        slots[worker].vector = next
        slots[worker].step = 0
        slots[worker].startedAt = DispatchTime.now()
        slots[worker].prior = []
        slots[worker].plan = nil
        slots[worker].failure = nil
        return ((next, loaded), nil)
      }
      guard taken == nil, let waitFor else { return taken }
      await feed.wait(for: waitFor)
    }
  }

  /// Whether the run is over: every vector of the ended feed reported, or the run cancelled and what was in flight
  /// reported. Call with the lock held.
  private var isDone: Bool { (cancelled || reported == feed.total) && reporting == 0 }

  /// Claims a worker's vector for it to report, and `holding` it until the adapter was asked for a late fault on it;
  /// false when it was taken from it meanwhile (and reported already).
  private func claim(_ worker: Int, generation: Int, index: Int, holding: Bool) -> Bool {
    lock.withLock {
      guard slots[worker].generation == generation, slots[worker].vector == index else { return false }
      slots[worker].vector = nil
      reporting += 1
      if holding {
        slots[worker].held = (index, feed[index].vector.id)
        reporting += 1  // the run does not end before it is asked
      }
      return true
    }
  }

  /// Asks the adapter for a late fault on the worker's held vector, waiting up to `grace` seconds, and makes the
  /// vector an error with it.
  private func release(
    _ worker: Int, generation: Int, _ lateFaults: (String, Double) -> (any Error)?, grace: Double
  ) {
    let held: (index: Int, id: String)? = lock.withLock {
      guard slots[worker].generation == generation else { return nil }
      defer { slots[worker].held = nil }
      return slots[worker].held
    }
    guard let (index, id) = held else { return }
    if let fault = lateFaults(id, grace) {
      let amended: VectorResult? = lock.withLock {
        guard let result = results[index], result.status != .error else { return nil }
        results[index] = Runner.attribute(fault, to: result)
        return results[index]
      }
      if let amended { onAmend(index, amended) }
    }
    let done = lock.withLock {
      reporting -= 1
      return isDone
    }
    if done { finish() }
  }

  /// Stores a result counted as being reported, counts it for `--max-failures` and hands it to `onResult`; the last one
  /// resumes the caller.
  func report(_ index: Int, _ result: VectorResult) {
    let result = runner.evidence?.complete(result) ?? result
    control.count(result)
    onResult(index, result)
    let done = lock.withLock {
      if index >= results.count { results += repeatElement(nil, count: index + 1 - results.count) }
      results[index] = result
      reporting -= 1
      reported += 1
      return isDone
    }
    if done { finish() }
  }

  /// Resumes the caller once: every vector has its result, or the run was cancelled and what was in flight reported.
  private func finish() {
    let continuation = lock.withLock {
      defer { self.continuation = nil }
      return self.continuation
    }
    continuation?.resume()
  }

  /// The results a slot leaves when its worker is abandoned, counted as being reported: its vector in flight as
  /// failed with `error` (or what an interleaved step failed with) after the steps that answered, not run when the run
  /// was cancelled with a reason; its held vector is no longer asked about. Call with the lock held.
  func abandon(_ worker: Int, _ error: any Error) -> [(Int, VectorResult)] {
    let slot = slots[worker]
    var left: [(Int, VectorResult)] = []
    if slot.held != nil { reporting -= 1 }
    if let index = slot.vector {
      let failure = slot.failure ?? error
      var result = Runner.failed(
        feed[index], step: slot.step, error: failure, prior: slot.prior[...], since: slot.startedAt)
      if let plan = slot.plan { result = result.withEvidence(plan, slot.prior + [.failure(failure)]) }
      if cancelled, let reason = control.stopReason { Runner.markNotRun(&result, reason: reason) }
      left.append((index, result))
    }
    reporting += left.count
    slots[worker] = Slot(generation: slot.generation + 1)
    return left
  }

  /// Reports the vectors in flight as not run (an error without a stop reason), cancels the workers, and leaves the
  /// vectors not started to `run()`.
  private func cancel() {
    let (left, tasks) = lock.withLock {
      cancelled = true
      let tasks = slots.map(\.task)
      let left = slots.indices.flatMap { abandon($0, CancellationError()) }
      return (left, tasks)
    }
    for task in tasks { task?.cancel() }
    for (index, result) in left { report(index, result) }
    if lock.withLock({ reporting == 0 }) { finish() }
  }

}
