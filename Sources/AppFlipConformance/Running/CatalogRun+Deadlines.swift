import Foundation

/// How a run keeps its steps' deadlines on the process's one watchdog: a step sent with `ConformanceAdapter`'s default
/// `send` arms its deadline in its worker's slot; when one passes, the watchdog reports the step's vector as timed out
/// and replaces the worker.
extension CatalogRun {
  /// A worker's hold on its slot, through which the steps it sends inline arm and end their deadline.
  struct Watch: StepWatch {
    let run: CatalogRun
    let worker: Int
    let generation: Int

    func arm(seconds: Double) { run.arm(worker, generation: generation, seconds: seconds) }

    func disarm() { run.disarm(worker, generation: generation) }

    /// Notes the vector's plan, for a result the run makes for it.
    func note(plan: VectorPlan) {
      run.lock.withLock { if run.slots[worker].generation == generation { run.slots[worker].plan = plan } }
    }

    /// Notes which step decides the vector's result if the deadline passes: see `CatalogRun.note`.
    func note(step: Int, prior: [Result<Observation, any Error>], failure: (any Error)? = nil) {
      run.note(worker, generation: generation, step: step, prior: prior, failure: failure)
    }
  }

  /// Called by the watchdog: reports each overdue step's vector as timed out, replaces its worker, and re-arms.
  func check() {
    let now = DispatchTime.now().uptimeNanoseconds
    let overdue = lock.withLock {
      watch = nil
      watchArmedFor = .max
      var overdue: [(worker: Int, left: [(Int, VectorResult)], task: Task<Void, Never>?)] = []
      guard !cancelled else { return overdue }
      for worker in slots.indices {
        let slot = slots[worker]
        guard slot.deadline != 0, slot.vector != nil else { continue }
        guard slot.deadline <= now else {
          armIfNeeded(slot.deadline)
          continue
        }
        overdue.append((worker, abandon(worker, TimeoutError(seconds: slot.seconds)), slot.task))
      }
      return overdue
    }
    for (worker, left, task) in overdue {
      task?.cancel()
      startWorker(worker)
      for (index, result) in left { report(index, result) }
    }
  }

  /// Arms the watchdog for `deadline` when it is earlier than the one armed (call with the lock held).
  func armIfNeeded(_ deadline: UInt64) {
    guard deadline < watchArmedFor else { return }
    if let watch { Watchdog.shared.cancel(watch) }
    watchArmedFor = deadline
    watch = Watchdog.shared.schedule(at: deadline) { [self] in check() }
  }

  /// Starts the deadline of the worker's step, `seconds` from now; the steps of an interleaved vector share the first.
  func arm(_ worker: Int, generation: Int, seconds: Double) {
    let deadline = Watchdog.deadline(after: seconds)
    lock.withLock {
      guard slots[worker].generation == generation else { return }
      slots[worker].armed += 1
      guard slots[worker].armed == 1, deadline != .max else { return }
      slots[worker].deadline = deadline
      slots[worker].seconds = seconds
      armIfNeeded(deadline)
    }
  }

  /// Ends the deadline of the worker's step once every step that shares it answered (or threw).
  func disarm(_ worker: Int, generation: Int) {
    lock.withLock {
      guard slots[worker].generation == generation else { return }
      slots[worker].armed -= 1
      if slots[worker].armed == 0 { slots[worker].deadline = 0 }
    }
  }

  /// Notes which step decides the vector's result if the deadline passes, after the steps that answered `prior`: the
  /// step sent now, or an interleaved vector's first step that has not answered, or that failed with `failure`.
  func note(
    _ worker: Int, generation: Int, step: Int, prior: [Result<Observation, any Error>], failure: (any Error)?
  ) {
    lock.withLock {
      guard slots[worker].generation == generation else { return }
      slots[worker].step = step
      slots[worker].prior = prior
      slots[worker].failure = failure
    }
  }
}
