import AppFlip
import Foundation

/// Runs vectors through an App Flip handler in any language over the subprocess protocol (Docs/PROTOCOL.md).
///
/// The command runs once as `/bin/sh -c "exec COMMAND"` and answers every step as JSON lines on its stdin and stdout;
/// in version 2 it asks the harness for each code, and an interleaved vector's links are in flight at once. A crash, a
/// hang, a response with the wrong `seq`, a line that is not a message, or a code request or answer out of turn makes
/// that step an error, with what the implementation wrote to stderr, and the implementation is started again for the
/// next step.
///
/// All mutable state is touched only on `queue`, a serial Dispatch queue: that is what makes the `@unchecked Sendable`
/// sound. Every step is served by an event loop on the queue, never on the caller's thread, so a child that is slow to
/// answer holds no thread of Swift concurrency's cooperative pool (whose few threads the run's watchdog needs): each
/// `pump` reads for at most a slice, handles the line it got, and queues itself again while a step is in flight. A read
/// gives way at once to work queued meanwhile (a wake pipe interrupts its `poll`). The capability queries planning
/// makes (`acceptsConfiguration`, `acceptsInterleaving`) are synchronous: the first of them waits on the caller's thread
/// for the child to start.
public final class SubprocessAdapter: ConformanceAdapter, @unchecked Sendable {
  /// The command line, e.g. `python3 Examples/python/appflip_handler.py`.
  package let command: String
  /// Seconds a step may take; the adapter gives up slightly earlier than the runner, so its error carries stderr.
  package let timeout: Double
  /// Seconds one request (a restart included) may take before the child is killed.
  let budget: Double
  /// Failed starts in a row after which the command is not started again.
  static let startAttempts = 3
  /// The longest one read waits before the loop looks at deadlines and cancellations again.
  static let slice = 0.05
  /// Seconds a start may take at least, whatever the step's budget: an interpreter or a JVM on a busy CI machine can
  /// take seconds to start, which is no fault of the step it starts for (the runner's timeout still bounds both).
  static let startBudget = 10.0
  /// How many answered steps are remembered, to blame a late second answer on the right one.
  static let answeredMemory = 64

  let queue = DispatchQueue(label: "appflip-conformance.subprocess")
  /// How many work items wait behind a read on the queue, and whether one is in progress: an item queued during a read
  /// writes a byte to the wake pipe, which the read polls (`SubprocessChild.wakeFD`), so it gives way at once.
  let queued = Locked<(count: Int, reading: Bool)>((0, false))
  /// The wake pipe's ends, non-blocking (-1 when it could not be made).
  let wakeRead: Int32
  private let wakeWrite: Int32
  var child: SubprocessChild?
  /// Counts starts, so that a code answer released after a restart is not sent to the new child.
  var generation = 0
  var ready: SubprocessProtocol.Ready?
  var nextSeq = 1
  var failedStarts = 0
  var startFailure: AdapterError?
  var inFlight: [Int: Step] = [:]
  /// Recently answered steps, by seq, so that a second answer to one is blamed on it, not on the step in flight.
  var answered: [Int: Step] = [:]
  /// Faults found after a step was answered (a second answer), by vector id, with the run of the vector they belong
  /// to (`HandlerRequest.run`), for `settle`.
  var faultsAfterAnswers: [String: (run: Int, fault: AdapterError)] = [:]
  /// Set by a late fault: the child is restarted before the next step, once none is in flight.
  var restartPending = false
  var pumpScheduled = false
  /// The barriers of interleaved vectors a fault ended, with the fault (the last few, held, so that none is freed and
  /// its address reused): a link of one that arrives later fails with the same fault instead of being sent alone.
  var brokenBarriers: [(InterleavingBarrier, AdapterError)] = []
  /// What cancels the start `prepare()` queued, for `shutdown()` (which waits on the queue behind it).
  let preparation = Locked<SubprocessCancellation?>(nil)

  deinit {
    child?.stop(grace: 1)
    for descriptor in [wakeRead, wakeWrite] where descriptor >= 0 { close(descriptor) }
  }

  /// Stops the implementation at the end of a run: sends `stop` and closes its stdin, waits up to a second for it to
  /// exit, then kills its process group, so nothing it started is left running. Blocks until then (and until a step
  /// in flight ends); a step still in flight becomes an error. Safe to call when it never started, already exited, or
  /// was already shut down; a later step starts it again.
  public func shutdown() {
    preparation.withLock {
      $0?.cancel()
      $0 = nil
    }
    wake()  // a start `prepare()` began reads no further
    queue.sync {
      let steps = inFlight.values.sorted { $0.seq < $1.seq }
      for step in steps {
        finish(step, .failure(AdapterError(message: "was stopped before it answered \(step.what)")))
      }
      child?.stop(grace: 1)
      child = nil
      restartPending = false
      failedStarts = 0  // a later step starts it again, even after starts that failed in a row
      startFailure = nil
    }
  }

  /// Creates an adapter; the command starts with the first step (or the first question about its capabilities).
  public init(command: String, timeout: Double = 10) {
    self.command = command
    self.timeout = timeout
    budget = timeout - min(0.5, timeout * 0.1)
    let wake = try? SubprocessSpawn.makePipe()
    wakeRead = wake?.read ?? -1
    wakeWrite = wake?.write ?? -1
    for descriptor in [wakeRead, wakeWrite] where descriptor >= 0 {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
  }

  /// The command line, for reports.
  public var name: String { command }

  /// Whether the implementation declared the `configuration` capability; it is started to find out. True when it
  /// cannot start, so that each vector reports the start failure instead of a misleading skip.
  public var acceptsConfiguration: Bool {
    queue.sync {
      startOnce()
      return ready?.capabilities.configuration ?? true
    }
  }

  /// Whether the implementation speaks protocol version 2, which can have several links in flight; it is started to
  /// find out. True when it cannot start, for the same reason as `acceptsConfiguration`.
  public var acceptsInterleaving: Bool {
    queue.sync {
      startOnce()
      return (ready?.version ?? 2) >= 2
    }
  }

  /// Why interleaved vectors are skipped: the implementation chose protocol version 1.
  public var interleavingRefusal: String {
    "needs protocol version 2, and \(command) chose version 1 in its ready message, which has one link in flight at a "
      + "time; update its adapter to version 2 (Docs/PROTOCOL.md, \"Version 2\") to run it"
  }

  /// `NAME VERSION (LANGUAGE, protocol N)` as the implementation introduced itself, once it has started.
  public var implementation: String? { queue.sync { ready?.summary } }

  /// Asks for a fault the implementation showed on a vector after its steps were answered (a second answer to one of
  /// them), once it has read what the implementation wrote meanwhile, waiting up to the grace for more. A fault shown
  /// after the run asked about the vector is that run's, never handed to a later run of the vector on this adapter.
  public var lateFaults: (@Sendable (_ vectorID: String, _ grace: Double) -> (any Error)?)? {
    { [self] vectorID, grace in settle(vectorID: vectorID, grace: grace) }
  }

  /// Sends the step to the implementation and reports what it opened and the code requests it made.
  public func handle(_ request: HandlerRequest) async throws -> Observation {
    try await handle(request, limit: nil)
  }

  /// Sends the step as `handle(_:)` does, and answers within `seconds` whatever happens: the adapter keeps every
  /// deadline itself and never waits past one, so a run arms no deadline of its own for it. A step that the limit cuts
  /// short (a start under way, or a limit shorter than this adapter's own timeout) throws `TimeoutError`, as the run's
  /// deadline would; one whose task is cancelled, `CancellationError`.
  public func send(_ request: HandlerRequest, within seconds: Double) async throws -> Observation {
    do {
      return try await handle(request, limit: StepLimit(seconds: seconds))
    } catch {
      throw Task.isCancelled ? CancellationError() : error
    }
  }

  /// Sends one step and waits for its result on the queue; a cancelled task stops the wait (and the child, which is
  /// mid-answer). With a `limit`, the result comes by its deadline whatever happens, a slow start included.
  private func handle(_ request: HandlerRequest, limit: StepLimit?) async throws -> Observation {
    let cancellation = SubprocessCancellation()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        enqueue { self.begin(request, limit: limit, cancellation: cancellation, continuation: continuation) }
      }
    } onCancel: {
      cancellation.cancel()
      self.wake()
    }
  }

  /// Runs `work` on the queue, letting a read in progress give way to it.
  func enqueue(_ work: @escaping @Sendable () -> Void) {
    let reading = queued.withLock {
      $0.count += 1
      return $0.reading
    }
    if reading { wake() }
    queue.async {
      self.queued.withLock { $0.count -= 1 }
      work()
    }
  }

  /// Wakes a read in progress, so it looks at its cancellation (a step given up on) and the work queued at once.
  func wake() {
    var byte: UInt8 = 1
    if wakeWrite >= 0 { _ = write(wakeWrite, &byte, 1) }
  }

  /// Whether work waits behind the read in progress, which then gives way to it.
  var isWaiting: Bool { queued.withLock { $0.count > 0 } }

  /// Starts the implementation if needed and sends the step.
  private func begin(
    _ request: HandlerRequest, limit: StepLimit?, cancellation: SubprocessCancellation,
    continuation: CheckedContinuation<Observation, any Error>
  ) {
    let seq = nextSeq
    nextSeq += 1
    // A step the runner gave up on may still hold the child: stop it first, so this step gets a fresh one. So does a
    // child that answered a step twice, once nothing else is in flight.
    faultLateStep()
    // A fault read after the run had asked about the vector belongs to that earlier run of it, not to this one.
    if !faultsAfterAnswers.isEmpty, let left = faultsAfterAnswers[request.vectorID], left.run != request.run {
      faultsAfterAnswers[request.vectorID] = nil
    }
    if let barrier = request.barrier, let broken = brokenBarriers.first(where: { $0.0 === barrier })?.1 {
      let what = Step.what(seq: seq, vectorID: request.vectorID, step: request.step)
      let message = "\(broken.message), before \(what) was sent; it was stopped and is started again for the next step"
      continuation.resume(throwing: AdapterError(message: message, diagnostics: broken.diagnostics))
      return
    }
    if restartPending && inFlight.isEmpty {
      child?.kill()
      child = nil
      restartPending = false
    }
    let child: SubprocessChild
    do {
      child = try start(limit: limit?.deadline ?? .distantFuture, cancellation: cancellation)
    } catch {
      // A start the limit cut short is the step's timeout, as the runner's own deadline would have reported it.
      let timedOut = limit.map { DispatchTime.now() >= $0.deadline } ?? false
      continuation.resume(throwing: timedOut ? TimeoutError(seconds: limit!.seconds) : error)
      return
    }
    let now = DispatchTime.now()
    let limited = limit.flatMap { $0.deadline < now + budget ? $0 : nil }
    let step = Step(
      seq: seq, request: request, deadline: limited?.deadline ?? now + budget, mark: child.stderrCount,
      cancellation: cancellation, continuation: continuation)
    step.limit = limited
    inFlight[seq] = step
    do {
      let line = SubprocessProtocol.run(seq: seq, request: request, version: ready?.version ?? 1)
      try child.write(line, deadline: step.deadline, isCancelled: { cancellation.isCancelled })
    } catch {
      fault(step, describe(error, answering: step.what))
      return
    }
    schedulePump()
  }

  /// Ends a step with its result, and remembers it, so that a second answer to it is blamed on it.
  func finish(_ step: Step, _ result: Result<Observation, any Error>) {
    inFlight[step.seq] = nil
    answered[step.seq] = step
    // By count, not by seq: a seq that never finishes (a step that failed before it was sent) frees no older entry.
    if answered.count > Self.answeredMemory, let oldest = answered.keys.min() { answered[oldest] = nil }
    step.continuation.resume(with: result)
  }
}

/// Set when the task awaiting a subprocess request is cancelled (the runner gave up on it), so the waiting read stops.
final class SubprocessCancellation: Sendable {
  private let cancelled = Locked(false)

  /// Marks the request cancelled.
  func cancel() {
    cancelled.withLock { $0 = true }
  }

  /// Whether the request was cancelled.
  var isCancelled: Bool { cancelled.withLock { $0 } }
}

extension SubprocessAdapter {
  /// A step sent to the implementation, in flight until answered. A class, so that the adapter's bookkeeping moves one
  /// reference instead of copying the request's strings; only the adapter's queue touches it.
  final class Step {
    /// The step's request number.
    let seq: Int
    /// What the runner asked for.
    let request: HandlerRequest
    /// When the step has had its time, start included.
    let deadline: DispatchTime
    /// Where the implementation's stderr stood when the step was sent.
    let mark: Int
    /// Set when the runner gives up on the step.
    let cancellation: SubprocessCancellation
    /// Where the step's result goes.
    let continuation: CheckedContinuation<Observation, any Error>
    /// The code requests the handler made for this step (version 2), in order.
    var authorization: [AuthorizationRequest] = []
    /// Whether a code request waits for the harness's answer (version 2).
    var codePending = false
    /// The caller's limit, when it ends the step before the adapter's own budget: the step then times out as the
    /// runner's deadline would have it.
    var limit: StepLimit?

    init(
      seq: Int, request: HandlerRequest, deadline: DispatchTime, mark: Int, cancellation: SubprocessCancellation,
      continuation: CheckedContinuation<Observation, any Error>
    ) {
      self.seq = seq
      self.request = request
      self.deadline = deadline
      self.mark = mark
      self.cancellation = cancellation
      self.continuation = continuation
    }

    /// `request 12 (vector "…", step 0)`, for messages.
    var what: String { Self.what(seq: seq, vectorID: request.vectorID, step: request.step) }

    /// `request 12 (vector "…", step 0)`.
    static func what(seq: Int, vectorID: String, step: Int) -> String {
      "request \(seq) (vector \"\(vectorID)\", step \(step))"
    }
  }

  /// A deadline the caller sets for one step, start included, and its length for messages.
  struct StepLimit {
    /// When the step must have ended.
    var deadline: DispatchTime
    /// Seconds from the call to the deadline.
    var seconds: Double

    /// A limit `seconds` from now.
    init(seconds: Double) {
      self.seconds = seconds
      let nanoseconds = min(max(0, seconds.isNaN ? 0 : seconds) * 1e9, Double(UInt64.max / 4))
      deadline = .now() + .nanoseconds(Int(nanoseconds))
    }
  }

  /// A fault no answer can follow: kills the child, which starts again for the next step, and makes `culprit` an error
  /// saying `problem` (or `culpritError`), and every other step in flight one saying it was in flight too.
  func fault(_ culprit: Step, _ problem: String, culpritError: (any Error)? = nil) {
    let child = self.child
    child?.kill()
    self.child = nil
    restartPending = false
    let steps = inFlight.values.sorted { $0.seq < $1.seq }
    // Links in flight at once share the child: what it wrote since the first of them was sent belongs to each, whichever
    // link the runner happened to send first.
    let mark = steps.first?.mark ?? culprit.mark
    if let barrier = culprit.request.barrier {
      // Links of this interleaved vector that the runner has not sent yet fail with it, not on a fresh start.
      if brokenBarriers.count >= 8 { brokenBarriers.removeFirst() }
      brokenBarriers.append(
        (barrier, AdapterError(message: problem, diagnostics: child?.stderr(since: mark) ?? "")))
    }
    for step in steps {
      if step.seq == culprit.seq, let culpritError {
        finish(step, .failure(culpritError))
        continue
      }
      let clause = step.seq == culprit.seq ? problem : "\(problem), while \(step.what) was in flight too"
      finish(
        step,
        .failure(
          AdapterError(
            message: clause + "; it was stopped and is started again for the next step",
            diagnostics: child?.stderr(since: mark) ?? "")))
    }
  }

  /// A child's fault as a clause: "exited with status 1 before it answered request 3 (…)".
  func describe(_ error: any Error, answering target: String) -> String {
    switch error as? SubprocessChild.Fault {
    case .exited(let how, let partial)?:
      return partial.isEmpty
        ? "\(how) before it answered \(target)"
        : "\(how) in the middle of its answer to \(target): \(Self.quoted(partial))"
    case .timedOut?:
      let seconds = target == "start" ? max(budget, Self.startBudget) : budget
      return "did not answer \(target) within \((seconds * 100).rounded() / 100) seconds"
    case .cancelled?:
      return "had not answered \(target) when the step's time ran out"
    case .lineTooLong?:
      return "wrote a line longer than \(SubprocessChild.lineLimit >> 20) MB in its answer to \(target)"
    case .closedStdin?:
      return "closed its standard input while it ran on, so \(target) could not reach it; an adapter reads requests "
        + "from stdin until the harness closes it (Docs/PROTOCOL.md)"
    case nil:
      return "failed before it answered \(target): \(error)"
    }
  }

  /// A line for a message: quoted, cut after 200 bytes, invalid UTF-8 as hex.
  static func quoted(_ line: [UInt8]) -> String {
    Quoted.bytes(Array(line.prefix(200))) + (line.count > 200 ? "…" : "")
  }
}
