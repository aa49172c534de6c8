import Foundation

/// The vectors of a run as they load: its workers take each one as soon as it is added, so they start on the first
/// file while the others load, and the run ends once the feed ended and every vector it holds was reported.
package final class VectorFeed: Sendable {
  private typealias State = (vectors: [LoadedVector], ended: Bool, waiting: [CheckedContinuation<Void, Never>])
  private let state = Locked<State>(([], false, []))

  /// A feed of these vectors, ended: nothing is added to it.
  package init(_ vectors: [LoadedVector]) {
    state.withLock { $0 = (vectors, true, []) }
  }

  /// An open feed, which vectors are added to until it ends.
  package init() {}

  /// Adds vectors after those added before; nothing once the feed ended.
  package func add(_ vectors: [LoadedVector]) {
    wake {
      guard !$0.ended else { return }
      $0.vectors += vectors
    }
  }

  /// Ends the feed: a run of it ends once the vectors it holds were reported.
  package func end() {
    wake { $0.ended = true }
  }

  /// The vector at `index`, once it was added.
  subscript(index: Int) -> LoadedVector { state.withLock { $0.vectors[index] } }

  /// The vector at `index` if it was added; nil if not, with whether more may still be added.
  func vector(at index: Int) -> (LoadedVector?, open: Bool) {
    state.withLock { (index < $0.vectors.count ? $0.vectors[index] : nil, !$0.ended) }
  }

  /// How many vectors it holds, once it ended; nil while it is open.
  var total: Int? { state.withLock { $0.ended ? $0.vectors.count : nil } }

  /// Waits until the vector at `index` is added or the feed ends (`Int.max`: until it ends); each change wakes every
  /// waiter, which waits again until its own condition holds.
  func wait(for index: Int) async {
    var ready = false
    while !ready {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        ready = state.withLock {
          guard !$0.ended, index >= $0.vectors.count else { return true }
          $0.waiting.append(continuation)
          return false
        }
        if ready { continuation.resume() }
      }
    }
  }

  /// Changes the state, then resumes every run waiting for it.
  private func wake(_ change: (inout State) -> Void) {
    let waiting = state.withLock { state in
      change(&state)
      defer { state.waiting = [] }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }
}
