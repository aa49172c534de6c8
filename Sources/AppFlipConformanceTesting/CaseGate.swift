/// Lets at most `limit` cases run at once (`ConformanceOptions.jobs`), the others waiting their turn in order.
actor CaseGate {
  private let limit: Int
  private var running = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// A gate for `limit` cases at once (at least one).
  init(limit: Int) { self.limit = max(1, limit) }

  /// Waits for a free place.
  func enter() async {
    if running < limit {
      running += 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  /// Gives the place to the next waiting case, or frees it.
  func leave() {
    if waiting.isEmpty {
      running -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
