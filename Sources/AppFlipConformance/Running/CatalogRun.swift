import Foundation

/// Runs a catalog's vectors on one worker task per runner, each sending its steps inline (no task and no thread
/// hand-off per step), while one watchdog keeps every step's deadline.
///
/// A worker notes the step it sends and its deadline in its slot, which costs a lock and a clock read; the process's
/// `Watchdog` is armed once for the earliest deadline and re-armed when it fires. When a step overruns (a handler that
/// never answers, or blocks its thread), the watchdog records the timeout as that vector's result, cancels the stuck
/// worker and starts a replacement on the same runner, which goes on with the next vectors; whatever the abandoned worker
/// returns later is dropped. When the run is cancelled (SIGINT, SIGTERM), the vectors in flight are reported at once as
/// not run (an error when no stop reason was given, as a step cancelled under `withTimeout` is), and the vectors not
/// started are run, cancelled, by `Runner.run(_:control:onStart:)`, which reports them as not run.
final class CatalogRun: @unchecked Sendable {
  /// One worker's slot: which worker owns it, and the vector and step it is sending.
  struct Slot {
    var generation = 0
    var task: Task<Void, Never>?
    var vector: Int?
    var step = 0
    var startedAt = DispatchTime(uptimeNanoseconds: 0)
    var prior: [Result<Observation, any Error>] = []
    /// What an interleaved vector's step already failed with, reported at the deadline in place of the timeout: the
    /// first step in order that did not answer decides its result (see `advance`).
    var failure: (any Error)?
    /// When the step in flight times out, in uptime nanoseconds; 0 while no step is in flight.
    var deadline: UInt64 = 0
  }

  let runners: [Runner]
  let vectors: [LoadedVector]
  let control: RunControl
  let onStart: @Sendable (LoadedVector) -> Void
  let onResult: @Sendable (VectorResult) -> Void

  private let lock = NSLock()
  private var slots: [Slot]
  private var results: [VectorResult?]
  private var remaining: Int
  private var next = 0
  private var cancelled = false
  private var untaken: Range<Int> = 0..<0
  private var reporting = 0
  private var continuation: CheckedContinuation<Void, Never>?
  private var watch: Watchdog.Token?
  private var watchArmedFor = UInt64.max

  init(
    runners: [Runner], vectors: [LoadedVector], control: RunControl,
    onStart: @escaping @Sendable (LoadedVector) -> Void, onResult: @escaping @Sendable (VectorResult) -> Void
  ) {
    self.runners = runners
    self.vectors = vectors
    self.control = control
    self.onStart = onStart
    self.onResult = onResult
    slots = Array(repeating: Slot(), count: runners.count)
    results = Array(repeating: nil, count: vectors.count)
    remaining = vectors.count
  }

  /// Runs every vector; the results in catalog order.
  func run() async -> [VectorResult] {
    guard !vectors.isEmpty else { return [] }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let start = lock.withLock {
          guard !cancelled else { return false }
          self.continuation = continuation
          return true
        }
        guard start else { return continuation.resume() }
        for worker in runners.indices { startWorker(worker) }
      }
    } onCancel: {
      cancel()
    }
    let (range, watch) = lock.withLock { (untaken, self.watch) }
    if let watch { Watchdog.shared.cancel(watch) }
    for index in range {
      let result = await runners[0].run(vectors[index], control: control, onStart: onStart)
      onResult(result)
      lock.withLock { results[index] = result }
    }
    // Moved out, not copied: a copy retains every string and array of every result.
    return lock.withLock {
      var all: [VectorResult] = []
      all.reserveCapacity(results.count)
      for index in results.indices {
        var taken: VectorResult?
        swap(&taken, &results[index])
        all.append(taken!)
      }
      return all
    }
  }

  /// Starts a worker on slot `worker` (its runner's), owning the slot from now on.
  private func startWorker(_ worker: Int) {
    lock.withLock {
      guard !cancelled else { return }
      slots[worker].generation += 1
      let generation = slots[worker].generation
      slots[worker].task = Task { await self.work(worker, generation: generation) }
    }
  }

  /// A worker's loop: takes the next vector, runs it with its steps inline, and reports the result unless the
  /// watchdog or a cancellation took the vector from it meanwhile.
  private func work(_ worker: Int, generation: Int) async {
    let runner = runners[worker]
    let watch = StepWatch(run: self, worker: worker, generation: generation)
    while let index = take(worker, generation: generation) {
      await runner.fairShare.yieldIfDue()
      if Task.isCancelled { return }  // taken from it while it yielded: reported already
      let result: VectorResult
      // The vector is read in place each time, not copied into a local: a copy retains every string and array in it.
      if let reason = control.stopReason {
        result = Runner.notRun(vectors[index], reason: reason.description)
      } else {
        onStart(vectors[index])
        result = await runner.run(vectors[index], watch: watch)
      }
      guard claim(worker, generation: generation, index: index, result) else { return }
      report(result)
    }
  }

  /// The next vector for this worker, marked in flight; nil when none is left or the slot is no longer its own.
  private func take(_ worker: Int, generation: Int) -> Int? {
    lock.withLock {
      guard slots[worker].generation == generation, !cancelled, next < vectors.count else { return nil }
      defer { next += 1 }
      slots[worker].vector = next
      slots[worker].step = 0
      slots[worker].startedAt = DispatchTime.now()
      slots[worker].prior = []
      return next
    }
  }

  /// Stores a worker's result; false when its vector was taken from it meanwhile (and reported already).
  private func claim(_ worker: Int, generation: Int, index: Int, _ result: VectorResult) -> Bool {
    lock.withLock {
      guard slots[worker].generation == generation, slots[worker].vector == index else { return false }
      slots[worker].vector = nil
      results[index] = result
      reporting += 1
      return true
    }
  }

  /// Counts a stored result for `--max-failures` and hands it to `onResult`; the last one resumes the caller.
  private func report(_ result: VectorResult) {
    control.count(result)
    onResult(result)
    let done = lock.withLock {
      reporting -= 1
      remaining -= 1
      return remaining == 0 || (cancelled && reporting == 0)
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

  /// Reports the vectors in flight as not run (an error without a stop reason), cancels the workers, and leaves the
  /// vectors not started to `run()`.
  private func cancel() {
    let abandoned = lock.withLock {
      cancelled = true
      untaken = next..<vectors.count
      next = vectors.count
      var abandoned: [(VectorResult, Task<Void, Never>?)] = []
      for worker in slots.indices {
        guard let index = slots[worker].vector else {
          slots[worker].task?.cancel()
          continue
        }
        var result = Runner.failed(
          vectors[index], step: slots[worker].step, error: slots[worker].failure ?? CancellationError(),
          prior: slots[worker].prior[...], since: slots[worker].startedAt)
        if let reason = control.stopReason { Runner.markNotRun(&result, reason: reason) }
        results[index] = result
        reporting += 1
        abandoned.append((result, slots[worker].task))
        slots[worker] = Slot(generation: slots[worker].generation + 1)
      }
      return abandoned
    }
    for (_, task) in abandoned { task?.cancel() }
    for (result, _) in abandoned { report(result) }
    if lock.withLock({ reporting == 0 }) { finish() }
  }

  /// Called by the watchdog: reports each overdue step's vector as timed out, replaces its worker, and re-arms.
  private func check() {
    let now = DispatchTime.now().uptimeNanoseconds
    let overdue = lock.withLock {
      watch = nil
      watchArmedFor = .max
      var overdue: [(worker: Int, result: VectorResult, task: Task<Void, Never>?)] = []
      guard !cancelled else { return overdue }
      for worker in slots.indices {
        let slot = slots[worker]
        guard slot.deadline != 0, let index = slot.vector else { continue }
        guard slot.deadline <= now else {
          armIfNeeded(slot.deadline)
          continue
        }
        let result = runners[worker].failed(
          vectors[index], step: slot.step, error: slot.failure ?? TimeoutError(seconds: runners[worker].timeout),
          prior: slot.prior[...], since: slot.startedAt)
        results[index] = result
        reporting += 1
        overdue.append((worker, result, slot.task))
        slots[worker] = Slot(generation: slot.generation + 1)
      }
      return overdue
    }
    for (worker, result, task) in overdue {
      task?.cancel()
      startWorker(worker)
      report(result)
    }
  }

  /// Arms the watchdog for `deadline` when it is earlier than the one armed (call with the lock held).
  private func armIfNeeded(_ deadline: UInt64) {
    guard deadline < watchArmedFor else { return }
    if let watch { Watchdog.shared.cancel(watch) }
    watchArmedFor = deadline
    watch = Watchdog.shared.schedule(at: deadline) { [self] in check() }
  }

  /// Notes that the worker sends step `step` of its vector now, after the steps that answered `prior`.
  func begin(_ worker: Int, generation: Int, step: Int, prior: [Result<Observation, any Error>]) {
    let deadline = Watchdog.deadline(after: runners[worker].timeout)
    lock.withLock {
      guard slots[worker].generation == generation else { return }
      slots[worker].step = step
      if step > 0 { slots[worker].prior = prior }
      slots[worker].failure = nil
      guard deadline != .max else { return }
      slots[worker].deadline = deadline
      armIfNeeded(deadline)
    }
  }

  /// Notes, under the deadline already set, which step of an interleaved vector now decides its result: the first
  /// that has not answered, or the first that failed with `failure`, after the steps that answered `prior`.
  func advance(
    _ worker: Int, generation: Int, step: Int, prior: [Result<Observation, any Error>], failure: (any Error)?
  ) {
    lock.withLock {
      guard slots[worker].generation == generation else { return }
      slots[worker].step = step
      slots[worker].prior = prior
      slots[worker].failure = failure
    }
  }

  /// Notes that the worker's step answered (or threw).
  func end(_ worker: Int, generation: Int) {
    lock.withLock {
      guard slots[worker].generation == generation else { return }
      slots[worker].deadline = 0
    }
  }
}
