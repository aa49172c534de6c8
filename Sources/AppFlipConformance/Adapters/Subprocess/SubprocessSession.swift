import AppFlip
import Foundation

/// Runs the implementation behind a `SubprocessAdapter`: starts it on first use, sends each step, answers the handler's
/// code requests (version 2), and restarts it after a crash, a hang, a wrong `seq`, a line that is not a message, or a
/// code request or answer out of turn.
///
/// All mutable state is touched only on `queue`, a serial Dispatch queue outside Swift's cooperative pool (waiting for
/// the child blocks a thread): that is what makes the `@unchecked Sendable` sound. The queue runs an event loop: each
/// `pump` reads for at most a slice, handles the line it got, and queues itself again while a step is in flight, so
/// steps sent meanwhile (an interleaved vector's) and code answers the barrier released get their turn in between.
final class SubprocessSession: @unchecked Sendable {
  /// The command line, run as `/bin/sh -c "exec COMMAND"`.
  let command: String
  /// Seconds one request (a restart included) may take before the child is killed.
  let budget: Double
  /// Failed starts in a row after which the command is not started again.
  static let startAttempts = 3
  /// The longest one read waits before the loop looks at deadlines and cancellations again.
  static let slice = 0.05
  /// Seconds a start may take at least, whatever the step's budget: an interpreter or a JVM on a busy CI machine can
  /// take seconds to start, which is no fault of the step it starts for (the runner's timeout still bounds both).
  static let startBudget = 10.0

  private let queue = DispatchQueue(label: "appflip-conformance.subprocess")
  private let queued = SubprocessWorkCount()
  private var child: SubprocessChild?
  /// Counts starts, so that a code answer released after a restart is not sent to the new child.
  private var generation = 0
  private var ready: SubprocessProtocol.Ready?
  private var nextSeq = 1
  private var failedStarts = 0
  private var startFailure: SubprocessError?
  private var inFlight: [Int: Step] = [:]
  private var pumpScheduled = false

  init(command: String, budget: Double) {
    self.command = command
    self.budget = budget
  }

  deinit {
    child?.stop(grace: 1)
  }

  /// Stops the implementation if it runs (`stop`, then its process group is killed after at most a second); a step
  /// still in flight becomes an error. A later step starts it again.
  func shutdown() {
    queue.sync {
      let steps = inFlight.values.sorted { $0.seq < $1.seq }
      inFlight = [:]
      for step in steps {
        step.continuation.resume(throwing: SubprocessError(message: "was stopped before it answered \(step.what)"))
      }
      child?.stop(grace: 1)
      child = nil
    }
  }

  /// Sends one step and waits for its result; a cancelled task stops the wait (and the child, which is mid-answer).
  func handle(_ request: HandlerRequest) async throws -> Observation {
    let cancellation = SubprocessCancellation()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        enqueue { self.begin(request, cancellation: cancellation, continuation: continuation) }
      }
    } onCancel: {
      cancellation.cancel()
    }
  }

  /// Whether the implementation declared the `configuration` capability; starts it if it never started. True when it
  /// cannot start, so that each vector reports the start failure instead of a misleading skip.
  var acceptsConfiguration: Bool {
    queue.sync {
      startOnce()
      return ready?.capabilities.configuration ?? true
    }
  }

  /// Whether the implementation speaks version 2, and so can have several links in flight; starts it if it never
  /// started. True when it cannot start, for the same reason as `acceptsConfiguration`.
  var acceptsInterleaving: Bool {
    queue.sync {
      startOnce()
      return (ready?.version ?? 2) >= 2
    }
  }

  /// The protocol version the implementation chose, once it started.
  var version: Int? { queue.sync { ready?.version } }

  /// `NAME VERSION (LANGUAGE, protocol N)` from the implementation's `ready` message, once it started.
  var implementation: String? { queue.sync { ready?.summary } }

  /// Starts the implementation if it never answered `start`, to learn its capabilities.
  private func startOnce() {
    if ready == nil { _ = try? start(deadline: startDeadline(), cancellation: SubprocessCancellation()) }
  }

  /// When a start begun now must have answered.
  private func startDeadline() -> DispatchTime {
    .now() + max(budget, Self.startBudget)
  }

  /// Runs `work` on the queue, letting a read in progress give way to it.
  private func enqueue(_ work: @escaping @Sendable () -> Void) {
    queued.add(1)
    queue.async {
      self.queued.add(-1)
      work()
    }
  }

  /// Starts the implementation if needed and sends the step.
  private func begin(
    _ request: HandlerRequest, cancellation: SubprocessCancellation,
    continuation: CheckedContinuation<Observation, any Error>
  ) {
    // A step the runner gave up on may still hold the child: stop it first, so this step gets a fresh one.
    faultLateStep()
    let child: SubprocessChild
    do {
      child = try start(deadline: startDeadline(), cancellation: cancellation)
    } catch {
      continuation.resume(throwing: error)
      return
    }
    let deadline = DispatchTime.now() + budget
    let seq = nextSeq
    nextSeq += 1
    let step = Step(
      seq: seq, request: request, deadline: deadline, mark: child.stderrCount, cancellation: cancellation,
      continuation: continuation)
    inFlight[seq] = step
    do {
      let line = SubprocessProtocol.run(seq: seq, request: request, version: ready?.version ?? 1)
      try child.write(line, deadline: deadline, isCancelled: { cancellation.isCancelled })
    } catch {
      fault(step, describe(error, answering: step.what))
      return
    }
    schedulePump()
  }

  private func schedulePump() {
    guard !pumpScheduled, !inFlight.isEmpty else { return }
    pumpScheduled = true
    queue.async { self.pump() }
  }

  /// One turn of the loop: gives up on a step past its time, else reads for at most a slice and handles the line.
  private func pump() {
    pumpScheduled = false
    guard !faultLateStep(), let child, let first = inFlight.values.min(by: { $0.seq < $1.seq }) else { return }
    let now = DispatchTime.now()
    let steps = inFlight.values.sorted { $0.seq < $1.seq }
    let earliest = steps.map(\.deadline).min() ?? now
    let end = min(now + Self.slice, earliest)
    let line: [UInt8]
    do {
      line = try readMessage(
        child, deadline: end,
        cancellation: { self.queued.isWaiting || steps.contains { $0.cancellation.isCancelled } })
    } catch .timedOut, .cancelled {
      schedulePump()
      return
    } catch {
      fault(first, describe(error, answering: first.what))
      return
    }
    receive(line, from: child, first: first)
    schedulePump()
  }

  /// Gives up on the first step in flight that the runner cancelled or that is past its time, stopping the child;
  /// whether there was one.
  @discardableResult
  private func faultLateStep() -> Bool {
    let now = DispatchTime.now()
    let steps = inFlight.values.sorted { $0.seq < $1.seq }
    guard let late = steps.first(where: { $0.cancellation.isCancelled || $0.deadline <= now }) else { return false }
    let problem =
      late.cancellation.isCancelled
      ? "had not answered \(late.what) when the step's time ran out"
      : "did not answer \(late.what) within \((budget * 100).rounded() / 100) seconds"
    fault(late, problem)
    return true
  }

  /// Handles one line from the implementation: a code request (version 2) or a step's result.
  private func receive(_ line: [UInt8], from child: SubprocessChild, first: Step) {
    let version = ready?.version ?? 1
    guard let envelope = try? JSONDecoder().decode(SubprocessProtocol.Envelope.self, from: Data(line)) else {
      fault(
        first,
        "answered \(first.what) with a line that is not a JSON object: \(Self.quoted(line)); stdout carries only "
          + "protocol messages, one JSON object per line, so write logs to stderr")
      return
    }
    guard let seq = envelope.seq else {
      fault(first, "answered \(first.what) without an integer \"seq\": \(Self.quoted(line))")
      return
    }
    if let problem = JSONSyntax.problem(in: Data(line)), let field = problem.duplicateField {
      fault(
        first,
        "answered \(first.what) with the field \"\(field)\" twice in one object; a JSON reader would keep only one, so "
          + "send each field once: \(Self.quoted(line))")
      return
    }
    if envelope.isCodeRequest && version >= 2 {
      receiveCodeRequest(line, seq: seq, first: first)
      return
    }
    guard let step = inFlight[seq] else {
      let hint = seq < first.seq ? " (a second answer to an earlier request?)" : ""
      fault(
        first,
        "answered \(first.what) with seq \(seq)\(hint); each response carries the seq of the run message it answers")
      return
    }
    guard !step.codePending else {
      fault(
        step,
        "answered \(step.what) before the harness answered its code request; the handler waits for the "
          + "{\"cmd\":\"code\"} message before it answers (Docs/PROTOCOL.md, \"code\")")
      return
    }
    let response: SubprocessProtocol.Response
    do {
      response = try SubprocessProtocol.decoder(version: version).decode(
        SubprocessProtocol.Response.self, from: Data(line))
    } catch {
      finish(
        step,
        .failure(
          SubprocessError(
            message: "answered \(step.what) with a message that breaks the protocol: "
              + "\(SubprocessProtocol.describe(error, version: version)) (Docs/PROTOCOL.md, \"result\"); the line: "
              + Self.quoted(line),
            diagnostics: child.stderr(since: step.mark))))
      return
    }
    child.drainStderr()
    let diagnostics = child.stderr(since: step.mark)
    switch response {
    case .skipped(let reason):
      finish(step, .failure(ImplementationSkipped(reason: reason)))
    case .errored(let message):
      finish(
        step,
        .failure(
          SubprocessError(
            message: "reported an error on \(step.what): \(Quoted.string(message))", diagnostics: diagnostics)))
    case .handled(let opened, let authorization):
      let reportsUniversalLinks = ready?.capabilities.universalLinksOnly ?? false
      if reportsUniversalLinks, let opened, opened.universalLinksOnly == nil, opened.options == nil {
        finish(
          step,
          .failure(
            SubprocessError(
              message: "answered \(step.what) without \"opened.universalLinksOnly\"; it declared "
                + "capabilities.universalLinksOnly true, so report true or false, or the raw \"opened.options\" "
                + "(or declare the capability false)",
              diagnostics: diagnostics)))
        return
      }
      let observation = Observation(
        opened: opened.map {
          OpenedURL(
            url: $0.url, universalLinksOnly: reportsUniversalLinks ? $0.universalLinksOnly : nil, options: $0.options)
        },
        authorizationRequests: version >= 2 ? step.authorization : authorization, diagnostics: diagnostics)
      finish(step, .success(observation))
    }
  }

  /// Records a version 2 code request and answers it with the step's outcome, after the step's barrier (an
  /// interleaved vector's) lets it through.
  private func receiveCodeRequest(_ line: [UInt8], seq: Int, first: Step) {
    guard var step = inFlight[seq] else {
      let steps = inFlight.keys.sorted().map(String.init).joined(separator: ", ")
      fault(
        first,
        "asked for a code for request \(seq), which is not in flight (in flight: \(steps)), while the harness waited "
          + "for \(first.what); a code request carries the seq of the run message its handler is working on")
      return
    }
    let codeRequest: SubprocessProtocol.CodeRequest
    do {
      codeRequest = try SubprocessProtocol.decoder(version: 2).decode(
        SubprocessProtocol.CodeRequest.self, from: Data(line))
    } catch {
      fault(
        step,
        "asked for a code for \(step.what) with a message that breaks the protocol: "
          + "\(SubprocessProtocol.describe(error, version: 2)) (Docs/PROTOCOL.md, \"codeRequest\"); the line: "
          + Self.quoted(line))
      return
    }
    guard !step.codePending else {
      fault(
        step,
        "asked for a second code for \(step.what) before the harness answered the first; a handler waits for each "
          + "code answer")
      return
    }
    step.authorization.append(codeRequest.request)
    step.codePending = true
    inFlight[seq] = step
    let generation = generation
    if let barrier = step.request.barrier {
      Task {
        await barrier.arrive()
        self.enqueue { self.answerCode(seq, generation: generation) }
      }
    } else {
      answerCode(seq, generation: generation)
    }
  }

  /// Sends the scripted outcome for the step's pending code request, unless the step or its child is gone.
  private func answerCode(_ seq: Int, generation: Int) {
    guard let child, generation == self.generation, var step = inFlight[seq], step.codePending else { return }
    step.codePending = false
    inFlight[seq] = step
    do {
      try child.write(
        SubprocessProtocol.code(seq: seq, outcome: step.request.outcome), deadline: step.deadline,
        isCancelled: { step.cancellation.isCancelled })
    } catch {
      fault(step, describe(error, answering: "the code answer for \(step.what)"))
      return
    }
    schedulePump()
  }

  /// Ends a step with its result.
  private func finish(_ step: Step, _ result: Result<Observation, any Error>) {
    inFlight[step.seq] = nil
    step.continuation.resume(with: result)
  }

  /// A fault no answer can follow: kills the child, which starts again for the next step, and makes `culprit` an error
  /// saying `problem`, and every other step in flight one saying it was in flight too.
  private func fault(_ culprit: Step, _ problem: String) {
    let child = self.child
    child?.kill()
    self.child = nil
    let steps = inFlight.values.sorted { $0.seq < $1.seq }
    inFlight = [:]
    for step in steps {
      let clause = step.seq == culprit.seq ? problem : "\(problem), while \(step.what) was in flight too"
      step.continuation.resume(
        throwing: SubprocessError(
          message: clause + "; it was stopped and is started again for the next step",
          diagnostics: child?.stderr(since: step.mark) ?? ""))
    }
  }

  /// The running child, started and greeted if there is none; after `startAttempts` failures in a row, the last one.
  private func start(deadline: DispatchTime, cancellation: SubprocessCancellation) throws -> SubprocessChild {
    if let child { return child }
    if failedStarts >= Self.startAttempts, let startFailure {
      throw SubprocessError(
        message: "failed to start \(failedStarts) times in a row, so it is not started again; the last time it "
          + startFailure.message,
        diagnostics: startFailure.diagnostics)
    }
    do throws(SubprocessError) {
      let child = try launch(deadline: deadline, cancellation: cancellation)
      failedStarts = 0
      startFailure = nil
      generation += 1
      self.child = child
      return child
    } catch {
      failedStarts += 1
      startFailure = error
      throw error
    }
  }

  /// Starts the command, sends `start` and reads `ready`.
  private func launch(deadline: DispatchTime, cancellation: SubprocessCancellation) throws(SubprocessError)
    -> SubprocessChild
  {
    let child: SubprocessChild
    do {
      child = try SubprocessChild(command: command)
    } catch {
      let shell = Quoted.string("exec " + command)
      throw SubprocessError(message: "could not be started as /bin/sh -c \(shell): \(error.localizedDescription)")
    }
    let start = String(decoding: SubprocessProtocol.start().dropLast(), as: UTF8.self)
    func fail(_ problem: String) -> SubprocessError {
      child.kill()
      return SubprocessError(
        message: "did not start: \(problem); check that \(Quoted.string(command)) runs from this folder and answers "
          + "\(start) with a ready message (Docs/PROTOCOL.md)",
        diagnostics: child.stderr(since: 0))
    }
    let line: [UInt8]
    do {
      try child.write(SubprocessProtocol.start(), deadline: deadline, isCancelled: { cancellation.isCancelled })
      line = try readMessage(child, deadline: deadline, cancellation: { cancellation.isCancelled })
    } catch {
      throw fail(describe(error, answering: "start"))
    }
    guard let envelope = try? JSONDecoder().decode(SubprocessProtocol.Envelope.self, from: Data(line)) else {
      throw fail("it answered start with a line that is not a JSON object: \(Self.quoted(line))")
    }
    if let problem = JSONSyntax.problem(in: Data(line)), let field = problem.duplicateField {
      throw fail("it answered start with the field \"\(field)\" twice in one object: \(Self.quoted(line))")
    }
    guard let version = envelope.version, SubprocessProtocol.versions.contains(version) else {
      throw fail(
        "it answered with protocol version \(envelope.version.map(String.init) ?? "none") (field \"version\"); this "
          + "harness speaks versions "
          + SubprocessProtocol.versions.map(String.init).joined(separator: " and "))
    }
    do {
      ready = try SubprocessProtocol.decoder(version: version).decode(SubprocessProtocol.Ready.self, from: Data(line))
    } catch {
      throw fail(
        "its ready message breaks the protocol: \(SubprocessProtocol.describe(error, version: version)): "
          + Self.quoted(line))
    }
    return child
  }

  /// The next line that is not blank.
  private func readMessage(
    _ child: SubprocessChild, deadline: DispatchTime, cancellation: () -> Bool
  ) throws(SubprocessChild.Fault) -> [UInt8] {
    while true {
      let line = try child.readLine(deadline: deadline, isCancelled: cancellation)
      if !line.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) { return line }
    }
  }

  /// A child's fault as a clause: "exited with status 1 before it answered request 3 (…)".
  private func describe(_ error: any Error, answering target: String) -> String {
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
    case nil:
      return "failed before it answered \(target): \(error)"
    }
  }

  /// A line for a message: quoted, cut after 200 bytes, invalid UTF-8 as hex.
  static func quoted(_ line: [UInt8]) -> String {
    Quoted.bytes(Array(line.prefix(200))) + (line.count > 200 ? "…" : "")
  }
}
