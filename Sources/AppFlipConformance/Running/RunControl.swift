import Foundation

/// Stops a run early and says why: an interruption (SIGINT, SIGTERM) or too many failures; vectors not run are reported as such.
public final class RunControl: @unchecked Sendable {
  private let lock = NSLock()
  private var reason: String?
  private var failures = 0
  /// Stop after this many failed or errored vectors; `nil` never stops for failures.
  package let maxFailures: Int?

  /// Creates a control.
  public init(maxFailures: Int? = nil) {
    self.maxFailures = maxFailures
  }

  /// Asks the run to stop before its next vector.
  public func stop(_ why: String) {
    lock.withLock { if reason == nil { reason = why } }
  }

  /// Why the run stops, once it has been asked to.
  public var stopReason: String? { lock.withLock { reason } }

  /// Counts a result, stopping the run when failures reach `maxFailures`.
  func count(_ result: VectorResult) {
    guard result.status == .failed || result.status == .error, let maxFailures else { return }
    let reached = lock.withLock {
      failures += 1
      return failures >= maxFailures
    }
    if reached { stop("--max-failures \(maxFailures) reached") }
  }
}
