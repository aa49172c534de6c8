import AppFlip
import Foundation

extension SubprocessAdapter {
  /// Handles one line from the implementation: a code request (version 2) or a step's result.
  func receive(_ line: [UInt8], from child: SubprocessChild, first: Step) {
    let version = ready?.version ?? 1
    let incoming: SubprocessProtocol.Incoming
    do throws(SubprocessProtocol.Unreadable) {
      incoming = try SubprocessProtocol.Incoming(line, version: version)
    } catch {
      let problem =
        switch error {
        case .notObject:
          "answered \(first.what) with a line that is not a JSON object: \(Self.quoted(line)); stdout carries only "
            + "protocol messages, one JSON object per line, so write logs to stderr"
        case .noSeq: "answered \(first.what) without an integer \"seq\": \(Self.quoted(line))"
        case .duplicate(let field):
          "answered \(first.what) with the field \"\(field)\" twice in one object; a JSON reader would keep only one, "
            + "so send each field once: \(Self.quoted(line))"
        }
      fault(first, problem)
      return
    }
    let seq = incoming.seq
    if inFlight[seq] == nil, let done = answered[seq] {
      lateAnswer(line, to: done, isCodeRequest: incoming.isCodeRequest && version >= 2, child: child)
      return
    }
    if let codeRequest = incoming.codeRequest {
      receiveCodeRequest(line, codeRequest, seq: seq, first: first)
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
    // Whatever the child wrote to stderr before this line was read with it (`SubprocessChild.pollOnce`).
    let diagnostics = child.stderr(since: step.mark)
    func fail(_ message: String) {
      finish(step, .failure(AdapterError(message: message, diagnostics: diagnostics)))
    }
    let response: SubprocessProtocol.Response
    do {
      let unexpected = SubprocessProtocol.Violation(path: "", problem: "is not a response")
      response = try (incoming.response ?? .failure(unexpected)).get()
    } catch {
      fail(
        "answered \(step.what) with a message that breaks the protocol: \(error) (Docs/PROTOCOL.md, \"result\"); the "
          + "line: \(Self.quoted(line))")
      return
    }
    switch response {
    case .skipped(let reason):
      finish(step, .failure(ImplementationSkipped(reason: reason)))
    case .errored(let message):
      fail("reported an error on \(step.what): \(Quoted.string(message))")
    case .handled(let opened, let authorization):
      let reportsUniversalLinks = ready?.capabilities.universalLinksOnly ?? false
      if reportsUniversalLinks, let opened, opened.universalLinksOnly == nil, opened.options == nil {
        fail(
          "answered \(step.what) without \"opened.universalLinksOnly\"; it declared capabilities.universalLinksOnly "
            + "true, so report true or false, or the raw \"opened.options\" (or declare the capability false)")
        return
      }
      // An adapter that declared it cannot tell how it opened the URL is not judged on AF-RE-9: neither the flag nor the
      // options it sends anyway count (Docs/PROTOCOL.md, `capabilities.universalLinksOnly`).
      let observation = Observation(
        opened: reportsUniversalLinks ? opened : opened.map { OpenedURL(url: $0.url, universalLinksOnly: nil) },
        authorizationRequests: version >= 2 ? step.authorization : authorization, diagnostics: diagnostics)
      finish(step, .success(observation))
    }
  }

  /// A message for a step already answered: an error on that step's vector (`settle` hands it over), not on the step
  /// in flight, which goes on; the child is restarted before the next step.
  private func lateAnswer(_ line: [UInt8], to done: Step, isCodeRequest: Bool, child: SubprocessChild) {
    child.drainStderr()
    let what = isCodeRequest ? "asked for a code for" : "answered"
    let problem =
      "\(what) \(done.what) again after its answer; each run message gets exactly one response (and each code "
      + "answer one code request), so send it once: \(Self.quoted(line)); it was stopped and is started again for the "
      + "next step"
    // Read once a later run of the vector was sent, it belongs to the earlier run, which was reported already: not to
    // the later one, which `settle` asks about by the same vector id.
    func later(_ vectorID: String, _ run: Int, _ seq: Int) -> Bool {
      vectorID == done.request.vectorID && run != done.request.run && seq > done.seq
    }
    let rerun =
      inFlight.values.contains { later($0.request.vectorID, $0.request.run, $0.seq) }
      || answered.values.contains { later($0.request.vectorID, $0.request.run, $0.seq) }
    if faultsAfterAnswers[done.request.vectorID] == nil, !rerun {
      if faultsAfterAnswers.count >= Self.answeredMemory { faultsAfterAnswers.removeAll() }
      let fault = AdapterError(message: problem, diagnostics: child.stderr(since: done.mark))
      faultsAfterAnswers[done.request.vectorID] = (done.request.run, fault)
    }
    restartPending = true
  }

  /// Reads what the implementation wrote while no step was in flight and hands over the fault it shows on `vectorID`'s
  /// steps, such as a second answer; nil when there is none. With a `grace` (the run is over), it then asks the
  /// implementation to stop and reads until its output ends, waiting no longer than `grace` seconds before it kills
  /// it: its last words come before its exit, so a well-behaved one costs its exit, not a fixed wait (Docs/PROTOCOL.md:
  /// after a second the harness kills you). A later step starts it again.
  func settle(vectorID: String, grace: Double) -> AdapterError? {
    queue.sync {
      if inFlight.isEmpty, let child, !restartPending {
        queued.withLock { $0.reading = true }
        defer { queued.withLock { $0.reading = false } }
        readLate(from: child, until: nil)
        if grace > 0 {
          child.askToStop()
          readLate(from: child, until: .now() + grace)
          child.stop(grace: 0)
          self.child = nil
          restartPending = false
        }
      }
      return faultsAfterAnswers.removeValue(forKey: vectorID)?.fault
    }
  }

  /// Reads the lines `child` wrote after its answers, each a second answer (`lateAnswer`): without a `deadline` those
  /// already written, a line naming no answered request blamed on the last one answered; with one, every line until
  /// its output ends or the deadline passes, after the stop, when only a line naming an answered request is one (the
  /// rest is its last words on the way out, no fault of a vector).
  private func readLate(from child: SubprocessChild, until deadline: DispatchTime?) {
    while deadline != nil || child.hasLine() {
      guard let line = try? child.readLine(deadline: deadline ?? .now(), isCancelled: { self.isWaiting })
      else { return }  // its output ended, the deadline passed, or a step waits
      if Self.isBlank(line) { continue }
      let seq = JSONSyntax.value(of: line, maxDepth: SubprocessProtocol.lineDepth)?["seq"]?.integer
      let last = deadline == nil ? answered.max { $0.key < $1.key }?.value : nil
      guard let done = seq.flatMap({ answered[$0] }) ?? last else {
        if deadline == nil { return } else { continue }
      }
      lateAnswer(line, to: done, isCodeRequest: false, child: child)
    }
  }

  /// Records a version 2 code request and answers it with the step's outcome, after the step's barrier (an
  /// interleaved vector's) lets it through.
  func receiveCodeRequest(
    _ line: [UInt8], _ decoded: Result<AuthorizationRequest, SubprocessProtocol.Violation>, seq: Int, first: Step
  ) {
    guard let step = inFlight[seq] else {
      let steps = inFlight.keys.sorted().map(String.init).joined(separator: ", ")
      fault(
        first,
        "asked for a code for request \(seq), which is not in flight (in flight: \(steps)), while the harness waited "
          + "for \(first.what); a code request carries the seq of the run message its handler is working on")
      return
    }
    let request: AuthorizationRequest
    do {
      request = try decoded.get()
    } catch {
      fault(
        step,
        "asked for a code for \(step.what) with a message that breaks the protocol: "
          + "\(error) (Docs/PROTOCOL.md, \"codeRequest\"); the line: "
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
    step.authorization.append(request)
    step.codePending = true
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

  /// Handles every complete line the implementation has written by now, without waiting for more.
  func receiveBuffered(from child: SubprocessChild) {
    while self.child === child, child.hasLine(), let first = firstInFlight {
      guard let line = try? readMessage(child, deadline: .now(), cancellation: { false }) else { return }
      receive(line, from: child, first: first)
    }
  }

  /// Sends the scripted outcome for the step's pending code request, unless the step or its child is gone.
  func answerCode(_ seq: Int, generation: Int) {
    guard let child, generation == self.generation, inFlight[seq] != nil else { return }
    // What the implementation already wrote comes first: an answer it sent before this code answer is a fault.
    receiveBuffered(from: child)
    guard self.child === child, let step = inFlight[seq], step.codePending else { return }
    step.codePending = false
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

  /// Queues the event loop's next turn while a step is in flight.
  func schedulePump() {
    guard !pumpScheduled, !inFlight.isEmpty else { return }
    pumpScheduled = true
    queue.async { self.pump() }
  }

  /// The event loop's turn: gives up on a step past its time, else reads for at most a slice and handles the line; the
  /// next turn is queued while a step is in flight.
  private func pump() {
    pumpScheduled = false
    defer { schedulePump() }
    guard !faultLateStep(), let child, let first = firstInFlight else { return }
    var earliest = DispatchTime.distantFuture
    for step in inFlight.values where step.deadline < earliest { earliest = step.deadline }
    let end = min(DispatchTime.now() + Self.slice, earliest)
    let line: [UInt8]
    queued.withLock { $0.reading = true }
    defer { queued.withLock { $0.reading = false } }
    do {
      line = try readMessage(
        child, deadline: end,
        cancellation: { self.isWaiting || self.inFlight.values.contains { $0.cancellation.isCancelled } })
    } catch .timedOut, .cancelled {
      return
    } catch {
      fault(first, describe(error, answering: first.what))
      return
    }
    receive(line, from: child, first: first)
  }

  /// The step in flight with the lowest seq, the one a line that names no other is blamed on.
  var firstInFlight: Step? { inFlight.values.min { $0.seq < $1.seq } }

  /// Gives up on the first step in flight that the runner cancelled or that is past its time, stopping the child;
  /// whether there was one.
  @discardableResult
  func faultLateStep() -> Bool {
    guard !inFlight.isEmpty else { return false }
    let now = DispatchTime.now()
    let late = inFlight.values.lazy.filter { $0.cancellation.isCancelled || $0.deadline <= now }.min { $0.seq < $1.seq }
    guard let late else { return false }
    let cancelled = late.cancellation.isCancelled
    let limit = cancelled ? nil : late.limit
    fault(
      late, describe(cancelled ? SubprocessChild.Fault.cancelled : .timedOut, answering: late.what),
      culpritError: limit.map { TimeoutError(seconds: $0.seconds) })
    return true
  }
}
