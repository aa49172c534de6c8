/// Runs vectors through an App Flip handler in any language over the subprocess protocol (Docs/PROTOCOL.md).
///
/// The command runs once as `/bin/sh -c "exec COMMAND"` and answers every step as JSON lines on its stdin and stdout;
/// in version 2 it asks the harness for each code, and an interleaved vector's links are in flight at once. A crash, a
/// hang, a response with the wrong `seq`, a line that is not a message, or a code request or answer out of turn makes
/// that step an error, with what the implementation wrote to stderr, and the implementation is started again for the
/// next step.
public struct SubprocessAdapter: ConformanceAdapter {
  /// The command line, e.g. `python3 Examples/python/appflip_handler.py`.
  package let command: String
  /// Seconds a step may take; the adapter gives up slightly earlier than the runner, so its error carries stderr.
  package let timeout: Double
  private let session: SubprocessSession

  /// Creates an adapter; the command starts with the first step (or the first question about its capabilities).
  public init(command: String, timeout: Double = 10) {
    self.command = command
    self.timeout = timeout
    session = SubprocessSession(command: command, budget: timeout - min(0.5, timeout * 0.1))
  }

  /// The command line, for reports.
  public var name: String { command }

  /// Whether the implementation declared the `configuration` capability (it is started to find out).
  public var acceptsConfiguration: Bool { session.acceptsConfiguration }

  /// Whether the implementation speaks protocol version 2, which can have several links in flight (it is started to
  /// find out).
  public var acceptsInterleaving: Bool { session.acceptsInterleaving }

  /// Why interleaved vectors are skipped: the implementation chose protocol version 1.
  public var interleavingRefusal: String {
    "needs protocol version 2, and \(command) chose version 1 in its ready message, which has one link in flight at a "
      + "time; update its adapter to version 2 (Docs/PROTOCOL.md, \"Version 2\") to run it"
  }

  /// `NAME VERSION (LANGUAGE, protocol N)` as the implementation introduced itself, once it has started.
  public var implementation: String? { session.implementation }

  /// Starts the implementation in the background if it never started, so that its start-up (an interpreter's, a JVM's)
  /// overlaps the run's loading; the first step or capability question waits for it as it would have started it.
  public func prepare() {
    session.prepare()
  }

  /// Stops the implementation at the end of a run: sends `stop` and closes its stdin, waits up to a second for it to
  /// exit, then kills its process group, so nothing it started is left running. Blocks until then (and until a step
  /// in flight ends). Safe to call when it never started, already exited, or was already shut down; a later step
  /// starts it again.
  public func shutdown() {
    session.shutdown()
  }

  /// Asks for a fault the implementation showed on a vector after its steps were answered (a second answer to one of
  /// them), once it has read what the implementation wrote meanwhile, waiting up to the grace for more. A fault shown
  /// after the run asked about the vector is that run's, never handed to a later run of the vector on this adapter.
  public var lateFaults: (@Sendable (_ vectorID: String, _ grace: Double) -> (any Error)?)? {
    { [session] vectorID, grace in session.settle(vectorID: vectorID, grace: grace) }
  }

  /// Sends the step to the implementation and reports what it opened and the code requests it made.
  public func handle(_ request: HandlerRequest) async throws -> Observation {
    try await session.handle(request)
  }

  /// Sends the step as `handle(_:)` does, and answers within `seconds` whatever happens: the adapter keeps every
  /// deadline itself and never waits past one, so a run arms no deadline of its own for it. A step that the limit cuts
  /// short (a start under way, or a limit shorter than this adapter's own timeout) throws `TimeoutError`, as the run's
  /// deadline would; one whose task is cancelled, `CancellationError`.
  public func send(_ request: HandlerRequest, within seconds: Double) async throws -> Observation {
    do {
      return try await session.handle(request, limit: SubprocessSession.StepLimit(seconds: seconds))
    } catch {
      throw Task.isCancelled ? CancellationError() : error
    }
  }
}
