/// Connects the runner to an implementation under test: in-process, a subprocess, or an HTTP endpoint.
///
/// The adapter knows nothing about the rules: it delivers a link and reports what happened.
public protocol ConformanceAdapter: Sendable {
  /// A short name of the implementation, for reports.
  var name: String { get }

  /// Which vectors the adapter runs: the app's handler, or an authorization endpoint.
  var profile: VectorFile.Profile { get }

  /// Whether the adapter can have several links of one vector in flight at once (interleaved vectors).
  var acceptsInterleaving: Bool { get }

  /// Why the adapter cannot take interleaved vectors, when it cannot: the end of "sends its links interleaved, which …".
  var interleavingRefusal: String { get }

  /// Whether the adapter builds its implementation for each request's configuration, so vectors with their own configuration can run.
  var acceptsConfiguration: Bool { get }

  /// How the implementation introduced itself (name, version, language), once it has; `nil` when it does not say.
  var implementation: String? { get }

  /// Delivers one link and reports what the implementation did; throws when it cannot tell.
  func handle(_ request: HandlerRequest) async throws -> Observation

  /// Delivers one link as `handle(_:)` does, under a deadline `seconds` away: a run sends every step through this.
  ///
  /// The default sends the step inline and has the run keep the deadline on the process's watchdog: a step still
  /// running when it passes (a handler that never answers, or blocks its thread) is reported as timed out, and the
  /// run goes on without waiting for it. An adapter that keeps deadlines itself and never waits past one (a
  /// subprocess, an HTTP client) overrides it (Docs/ADAPTERS.md).
  func send(_ request: HandlerRequest, within seconds: Double) async throws -> Observation

  /// How to ask for a fault the implementation showed on a vector after its steps were answered (a second answer to
  /// one of them), given the vector's id and seconds to wait for one; `nil` when it cannot show one. A run then holds
  /// each result until the next vector ran on the same adapter (or until its end), asks, and reports the vector as an
  /// error with the fault. It asks with 0 seconds while it goes on, and with some at its end, when the adapter may stop
  /// the implementation and read until its output ends.
  var lateFaults: (@Sendable (_ vectorID: String, _ grace: Double) -> (any Error)?)? { get }

  /// Begins starting what the adapter needs for its first step (a process) without waiting for it: a run calls it
  /// before it loads its vectors, so that an implementation's start-up overlaps the loading.
  func prepare()

  /// Stops whatever the adapter started (a process, a connection) at the end of a run; a later step may start it again.
  func shutdown()
}

extension ConformanceAdapter {
  /// Adapters run one fixed configuration unless they say otherwise.
  public var acceptsConfiguration: Bool { false }

  /// Adapters take one link at a time unless they say otherwise.
  public var acceptsInterleaving: Bool { false }

  /// The reason interleaved vectors are skipped, unless the adapter says better.
  public var interleavingRefusal: String { "\(name) cannot take; run it in-process" }

  /// Adapters test the app's handler unless they say otherwise.
  public var profile: VectorFile.Profile { .app }

  /// Implementations do not introduce themselves unless the adapter says otherwise.
  public var implementation: String? { nil }

  /// Adapters that start nothing have nothing to prepare.
  public func prepare() {}

  /// Adapters that start nothing have nothing to stop.
  public func shutdown() {}

  /// Sends the step inline while the run keeps its deadline on the process's watchdog; outside a run, with none.
  public func send(_ request: HandlerRequest, within seconds: Double) async throws -> Observation {
    guard let watch = request.watch else { return try await handle(request) }
    watch.arm(seconds: seconds)
    defer { watch.disarm() }
    return try await handle(request)
  }

  /// Adapters see nothing after a step is answered unless they say otherwise: an in-process handler has answered once
  /// it returns.
  public var lateFaults: (@Sendable (_ vectorID: String, _ grace: Double) -> (any Error)?)? { nil }
}

/// Keeps the deadline of a step that a run's worker sends inline (`CatalogRun`): armed on the process's watchdog while
/// the step runs; if it passes first, the run reports the step as timed out and goes on with another worker.
package protocol StepWatch: Sendable {
  /// Starts the step's deadline, `seconds` from now (a step sent with others, an interleaved vector's, shares the
  /// first one).
  func arm(seconds: Double)
  /// Ends it: the step answered or threw.
  func disarm()
}

/// Thrown when an implementation does not answer a step in time.
package struct TimeoutError: Error, Sendable, CustomStringConvertible {
  /// The limit that passed, in seconds.
  package var seconds: Double

  /// The timeout, in words.
  package var description: String { "did not answer within \(seconds) seconds" }
}
