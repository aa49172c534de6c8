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

  /// Adapters that start nothing have nothing to stop.
  public func shutdown() {}
}
