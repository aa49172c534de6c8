import Foundation

/// How many work items wait behind a session's read, so the read gives way to them at once.
final class SubprocessWorkCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  /// Adds `delta` (1 when an item is queued, -1 when it runs).
  func add(_ delta: Int) {
    lock.withLock { count += delta }
  }

  /// Whether any item waits.
  var isWaiting: Bool { lock.withLock { count > 0 } }
}
