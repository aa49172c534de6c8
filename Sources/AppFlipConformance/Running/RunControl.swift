import Foundation

/// Stops a run early and says why: an interruption (SIGINT, SIGTERM) or too many failures; vectors not run are reported as such.
public final class RunControl: Sendable {
  private let state = Locked<(reason: StopReason?, failures: Int)>((nil, 0))
  /// Stop after this many failed or errored vectors; `nil` never stops for failures.
  package let maxFailures: Int?

  /// Creates a control.
  public init(maxFailures: Int? = nil) {
    self.maxFailures = maxFailures
  }

  /// Asks the run to stop before its next vector; the first reason given is kept.
  public func stop(_ why: StopReason) {
    state.withLock { if $0.reason == nil { $0.reason = why } }
  }

  /// Why the run stops, once it has been asked to.
  public var stopReason: StopReason? { state.withLock { $0.reason } }

  /// Counts a result, stopping the run when failures reach `maxFailures`.
  func count(_ result: VectorResult) {
    guard result.status == .failed || result.status == .error, let maxFailures else { return }
    let reached = state.withLock {
      $0.failures += 1
      return $0.failures >= maxFailures
    }
    if reached { stop(.maxFailures(maxFailures)) }
  }
}
