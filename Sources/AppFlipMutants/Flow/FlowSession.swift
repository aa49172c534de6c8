import Foundation

/// A lock-protected shared session holding the pending flow's state, as an app-wide singleton would.
public final class FlowSession: @unchecked Sendable {
  private let lock = NSLock()
  private var pendingState: String?

  /// Creates an empty session.
  public init() {}

  /// Starts a flow: keeps `state` unless a state is already pending (the bug: it is never cleared), and returns the pending one.
  public func begin(state: String) -> String {
    lock.withLock {
      if pendingState == nil { pendingState = state }
      return pendingState ?? state
    }
  }
}
