import AppFlip
import Foundation

/// Runs the implementation behind a `SubprocessAdapter`: starts it on first use, sends one request at a time, and
/// restarts it after a crash, a hang, a wrong `seq` or a line that is not a message.
///
/// All mutable state is touched only on `queue`, a serial Dispatch queue outside Swift's cooperative pool (waiting for
/// the child blocks a thread): that is what makes the `@unchecked Sendable` sound, and what keeps one request in flight.
final class SubprocessSession: @unchecked Sendable {
  /// The command line, run as `/bin/sh -c "exec COMMAND"`.
  let command: String
  /// Seconds one request (a restart included) may take before the child is killed.
  let budget: Double
  /// Failed starts in a row after which the command is not started again.
  static let startAttempts = 3

  private let queue = DispatchQueue(label: "appflip-conformance.subprocess")
  private var child: SubprocessChild?
  private var ready: SubprocessProtocol.Ready?
  private var nextSeq = 1
  private var failedStarts = 0
  private var startFailure: SubprocessError?

  init(command: String, budget: Double) {
    self.command = command
    self.budget = budget
  }

  deinit {
    child?.stop(grace: 1)
  }

  /// Stops the implementation if it runs (`stop`, then its process group is killed after at most a second), waiting for
  /// the step in flight, if any; a later step starts it again.
  func shutdown() {
    queue.sync {
      child?.stop(grace: 1)
      child = nil
    }
  }

  /// Sends one step and waits for its response on the session's queue; a cancelled task stops the wait.
  func handle(_ request: HandlerRequest) async throws -> Observation {
    let cancellation = SubprocessCancellation()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        queue.async {
          continuation.resume(with: Result { try self.perform(request, cancellation) })
        }
      }
    } onCancel: {
      cancellation.cancel()
    }
  }

  /// Whether the implementation declared the `configuration` capability; starts it if it never started. True when it
  /// cannot start, so that each vector reports the start failure instead of a misleading skip.
  var acceptsConfiguration: Bool {
    queue.sync {
      if ready == nil { _ = try? start(deadline: .now() + budget, cancellation: SubprocessCancellation()) }
      return ready?.capabilities.configuration ?? true
    }
  }

  /// `NAME VERSION (LANGUAGE)` from the implementation's `ready` message, once it started.
  var implementation: String? { queue.sync { ready?.summary } }

  private func perform(_ request: HandlerRequest, _ cancellation: SubprocessCancellation) throws -> Observation {
    let deadline = DispatchTime.now() + budget
    let child = try start(deadline: deadline, cancellation: cancellation)
    let seq = nextSeq
    nextSeq += 1
    let mark = child.stderrCount
    let what = "request \(seq) (vector \"\(request.vectorID)\", step \(request.step))"
    func fail(_ problem: String, restart: Bool) -> SubprocessError {
      if restart {
        child.kill()
        self.child = nil
      }
      return SubprocessError(
        message: problem + (restart ? "; it was stopped and is started again for the next step" : ""),
        diagnostics: child.stderr(since: mark))
    }

    let line: [UInt8]
    do {
      try child.write(
        SubprocessProtocol.run(seq: seq, request: request), deadline: deadline,
        isCancelled: { cancellation.isCancelled })
      line = try readMessage(child, deadline: deadline, cancellation: cancellation)
    } catch {
      throw fail(describe(error, answering: what), restart: true)
    }
    guard let envelope = try? JSONDecoder().decode(SubprocessProtocol.Envelope.self, from: Data(line)) else {
      throw fail(
        "answered \(what) with a line that is not a JSON object: \(Self.quoted(line)); stdout carries only protocol "
          + "messages, one JSON object per line, so write logs to stderr", restart: true)
    }
    guard let answered = envelope.seq else {
      throw fail("answered \(what) without an integer \"seq\": \(Self.quoted(line))", restart: true)
    }
    guard answered == seq else {
      let hint = answered < seq ? " (a second answer to an earlier request?)" : ""
      throw fail(
        "answered \(what) with seq \(answered)\(hint); each response carries the seq of the run message it answers",
        restart: true)
    }
    let response: SubprocessProtocol.Response
    do {
      response = try JSONDecoder().decode(SubprocessProtocol.Response.self, from: Data(line))
    } catch {
      throw fail(
        "answered \(what) with a message that breaks the protocol: \(SubprocessProtocol.describe(error)) "
          + "(Docs/PROTOCOL.md, \"result\"); the line: \(Self.quoted(line))", restart: false)
    }

    child.drainStderr()
    let diagnostics = child.stderr(since: mark)
    switch response {
    case .skipped(let reason):
      throw ImplementationSkipped(reason: reason)
    case .errored(let message):
      throw SubprocessError(
        message: "reported an error on \(what): \(Quoted.string(message))", diagnostics: diagnostics)
    case .handled(let opened, let authorization):
      let reportsUniversalLinks = ready?.capabilities.universalLinksOnly ?? false
      if reportsUniversalLinks, let opened, opened.universalLinksOnly == nil, opened.options == nil {
        throw fail(
          "answered \(what) without \"opened.universalLinksOnly\"; it declared capabilities.universalLinksOnly true, so "
            + "report true or false, or the raw \"opened.options\" (or declare the capability false)", restart: false)
      }
      return Observation(
        opened: opened.map {
          OpenedURL(
            url: $0.url, universalLinksOnly: reportsUniversalLinks ? $0.universalLinksOnly : nil, options: $0.options)
        },
        authorizationRequests: authorization, diagnostics: diagnostics)
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
    func fail(_ problem: String) -> SubprocessError {
      child.kill()
      return SubprocessError(
        message: "did not start: \(problem); check that \(Quoted.string(command)) runs from this folder and answers "
          + "{\"cmd\":\"start\",\"version\":\(SubprocessProtocol.version)} with a ready message (Docs/PROTOCOL.md)",
        diagnostics: child.stderr(since: 0))
    }
    let line: [UInt8]
    do {
      try child.write(SubprocessProtocol.start(), deadline: deadline, isCancelled: { cancellation.isCancelled })
      line = try readMessage(child, deadline: deadline, cancellation: cancellation)
    } catch {
      throw fail(describe(error, answering: "start"))
    }
    guard let envelope = try? JSONDecoder().decode(SubprocessProtocol.Envelope.self, from: Data(line)) else {
      throw fail("it answered start with a line that is not a JSON object: \(Self.quoted(line))")
    }
    guard envelope.version == SubprocessProtocol.version else {
      throw fail(
        "it answered with protocol version \(envelope.version.map(String.init) ?? "none") (field \"version\"); this "
          + "harness speaks version \(SubprocessProtocol.version)")
    }
    do {
      ready = try JSONDecoder().decode(SubprocessProtocol.Ready.self, from: Data(line))
    } catch {
      throw fail("its ready message breaks the protocol: \(SubprocessProtocol.describe(error)): \(Self.quoted(line))")
    }
    return child
  }

  /// The next line that is not blank.
  private func readMessage(
    _ child: SubprocessChild, deadline: DispatchTime, cancellation: SubprocessCancellation
  ) throws(SubprocessChild.Fault) -> [UInt8] {
    while true {
      let line = try child.readLine(deadline: deadline, isCancelled: { cancellation.isCancelled })
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
      return "did not answer \(target) within \((budget * 100).rounded() / 100) seconds"
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
