import Foundation

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
