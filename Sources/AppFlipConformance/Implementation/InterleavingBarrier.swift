import Foundation

/// Holds each code request of an interleaved vector until every step has asked, so all links are in flight at once (AF-RE-10).
///
/// If a step never asks (a broken handler), the others are released after `patience` seconds, so nothing deadlocks.
public final class InterleavingBarrier: @unchecked Sendable {
  private let lock = NSLock()
  private let parties: Int
  private let patience: Double
  private var arrived = 0
  private var released = false
  private var waiting: [CheckedContinuation<Void, Never>] = []
  private var patienceWatch: Watchdog.Token?

  /// Creates a barrier for `parties` code requests.
  public init(parties: Int, patience: Double = 2) {
    self.parties = parties
    self.patience = patience
  }

  /// Waits until every party has arrived, or until the barrier gives up waiting.
  public func arrive() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let (open, first, full) = lock.withLock {
        guard !released else { return (true, false, false) }
        waiting.append(continuation)
        arrived += 1
        return (false, arrived == 1, arrived >= parties)
      }
      if open {
        continuation.resume()
      } else if full {
        release()
      } else if first {
        // On the process's one watchdog, not a Dispatch timer of its own: a catalog run makes a barrier for every run
        // of an interleaved vector, and each timer woke Dispatch's timer thread.
        let token = Watchdog.shared.schedule(after: patience) { self.release() }
        lock.withLock {
          if released { Watchdog.shared.cancel(token) } else { patienceWatch = token }
        }
      }
    }
  }

  private func release() {
    let (continuations, watch) = lock.withLock {
      released = true
      defer {
        waiting = []
        patienceWatch = nil
      }
      return (waiting, patienceWatch)
    }
    if let watch { Watchdog.shared.cancel(watch) }
    for continuation in continuations { continuation.resume() }
  }
}
