import Foundation

/// Counts results for the progress line.
final class ProgressCounter: Sendable {
  private let count = Locked(0)

  func next() -> Int {
    count.withLock {
      $0 += 1
      return $0
    }
  }
}
