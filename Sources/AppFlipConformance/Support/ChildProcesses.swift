import Foundation

/// The child processes a run starts outside an adapter's own process group (curl for an `https:` endpoint): each is
/// killed when the process ends (`appflip-conformance`'s main, a second SIGINT), so none outlives it even when a
/// signal cut its step short and the run ended before the step's thread could end its curl.
///
/// Process-wide: other runs in the same process (tests, a caller of the library) may have children of their own in
/// flight, so only the end of the process kills them all.
package enum ChildProcesses {
  private static let live = Locked<Set<pid_t>>([])

  /// Notes a child that has started.
  static func started(_ pid: pid_t) { live.withLock { _ = $0.insert(pid) } }

  /// Notes a child that was ended and reaped.
  static func ended(_ pid: pid_t) { live.withLock { _ = $0.remove(pid) } }

  /// Kills every child still noted (SIGKILL: the run ignores SIGINT and SIGTERM, and a child inherits that).
  package static func killAll() {
    for pid in live.withLock({ $0 }) { kill(pid, SIGKILL) }
  }
}
