import Foundation

/// Lets a runner give its thread back to Swift's cooperative pool about every 5 milliseconds.
///
/// A catalog run sends its steps inline on its workers' threads (`CatalogRun`), so a run of many vectors could
/// otherwise hold a pool thread for its whole length, and other tasks (another run, a step's waiting partner, a
/// cancelled test) would wait for it.
final class FairShare: Sendable {
  /// How long a runner keeps its thread before it yields, in nanoseconds: each yield wakes another pool thread (a futex
  /// wake-up, which profiles of in-process runs showed at a 1 ms slice).
  static let slice: UInt64 = 5_000_000

  private let lastYield = Locked<UInt64>(0)

  /// Yields to the pool when a slice has passed since the last yield; otherwise returns at once.
  func yieldIfDue() async {
    let now = DispatchTime.now().uptimeNanoseconds
    let due = lastYield.withLock { lastYield in
      guard now &- lastYield >= FairShare.slice else { return false }
      lastYield = now
      return true
    }
    if due { await Task.yield() }
  }
}
