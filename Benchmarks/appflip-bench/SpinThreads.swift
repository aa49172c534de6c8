import AppFlipConformance
import Foundation

/// Runs pieces of work on threads of their own, one each, outside every pool, and waits for all of them.
enum SpinThreads {
  /// Each piece's result, in order.
  static func run(_ pieces: [@Sendable () -> UInt64]) -> [UInt64] {
    let results = Results(count: pieces.count)
    let done = DispatchSemaphore(value: 0)
    for (index, piece) in pieces.enumerated() {
      let thread = Thread {
        results.set(index, piece())
        done.signal()
      }
      thread.start()
    }
    for _ in pieces { done.wait() }
    return results.all
  }

  /// Where the threads leave their results.
  private final class Results: Sendable {
    private let values: Locked<[UInt64]>

    init(count: Int) { values = Locked([UInt64](repeating: 0, count: count)) }

    func set(_ index: Int, _ value: UInt64) { values.withLock { $0[index] = value } }

    var all: [UInt64] { values.withLock { $0 } }
  }
}
