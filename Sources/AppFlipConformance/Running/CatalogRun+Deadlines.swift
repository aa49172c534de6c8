import Foundation

/// How a run keeps its steps' deadlines on the process's one watchdog: a step sent with `ConformanceAdapter`'s default
/// `send` arms its deadline in its worker's slot; when one passes, the watchdog reports the step's vector as timed out
/// and replaces the worker.
extension CatalogRun {
  /// A worker's hold on its slot, through which the steps it sends inline arm and end their deadline, and note what a
  /// result the run makes for its vector needs; each does nothing once the slot is no longer the worker's.
  struct Watch: StepWatch {
    let run: CatalogRun
    let worker: Int
    let generation: Int

    /// Changes the worker's slot, if it is still its own.
    private func withSlot(_ change: (inout Slot) -> Void) {
      run.lock.withLock {
        guard run.slots[worker].generation == generation else { return }
        change(&run.slots[worker])
      }
    }

    /// Starts the deadline of the worker's step, `seconds` from now; the steps of an interleaved vector share the first.
    func arm(seconds: Double) {
      let deadline = Watchdog.deadline(after: seconds)
      withSlot { slot in
        slot.armed += 1
        guard slot.armed == 1, deadline != .max else { return }
        slot.deadline = deadline
        slot.seconds = seconds
        run.armIfNeeded(deadline)
      }
    }

    /// Ends the deadline of the worker's step once every step that shares it answered (or threw).
    func disarm() {
      withSlot { slot in
        slot.armed -= 1
        if slot.armed == 0 { slot.deadline = 0 }
      }
    }

    /// Notes the vector's plan, for a result the run makes for it.
    func note(plan: VectorPlan) { withSlot { $0.plan = plan } }

    /// Notes which step decides the vector's result if the deadline passes, after the steps that answered `prior`: the
    /// step sent now, or an interleaved vector's first step that has not answered, or that failed with `failure`.
    func note(step: Int, prior: [Result<Observation, any Error>], failure: (any Error)? = nil) {
      withSlot { slot in
        slot.step = step
        slot.prior = prior
        slot.failure = failure
      }
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
}
