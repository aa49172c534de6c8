import Foundation

/// Set when the task awaiting a subprocess request is cancelled (the runner gave up on it), so the waiting read stops.
final class SubprocessCancellation: @unchecked Sendable {
  private let lock = NSLock()
  private var cancelled = false

  /// Marks the request cancelled.
  func cancel() {
    lock.withLock { cancelled = true }
  }

  /// Whether the request was cancelled.
  var isCancelled: Bool { lock.withLock { cancelled } }
}
