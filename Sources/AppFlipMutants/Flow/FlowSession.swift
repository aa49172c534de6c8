import AppFlipConformance
import Foundation

/// A lock-protected shared session holding the pending flow's state, as an app-wide singleton would.
public final class FlowSession: Sendable {
  private let pendingState = Locked<String?>(nil)

  /// Creates an empty session.
  public init() {}

  /// Starts a flow: keeps `state` unless a state is already pending (the bug: it is never cleared), and returns the pending one.
  public func begin(state: String) -> String {
    pendingState.withLock { pendingState in
      if pendingState == nil { pendingState = state }
      return pendingState ?? state
    }
  }
}
