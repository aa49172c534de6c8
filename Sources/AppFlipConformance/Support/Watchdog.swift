import Foundation

/// One timer for every deadline in the process: steps register a deadline and cancel it when they answer.
///
/// Deadlines sit in a min-heap; one Dispatch timer is armed for the earliest live one, so a cancelled deadline costs a
/// heap entry and nothing later (a Dispatch timer per step still fires after it is
/// cancelled, costing CPU and memory long after the step).
final class Watchdog: @unchecked Sendable {
  /// The process's watchdog.
  static let shared = Watchdog()

  /// A registered deadline, to cancel.
  struct Token: Sendable, Hashable {
    fileprivate var id: UInt64
  }

  private struct Entry {
    var deadline: UInt64
    var id: UInt64
  }

  private let lock = NSLock()
  private let queue = DispatchQueue(label: "appflip-conformance.watchdog")
  private let timer: any DispatchSourceTimer
  private var heap: [Entry] = []
  private var actions: [UInt64: @Sendable () -> Void] = [:]
  private var nextID: UInt64 = 0
  private var armedFor = UInt64.max

  private init() {
    timer = DispatchSource.makeTimerSource(queue: queue)
    timer.setEventHandler { [unowned self] in self.fire() }
    timer.activate()
  }

  /// Calls `action` on the watchdog's queue after `seconds`, unless cancelled first.
  func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> Token {
    schedule(at: Self.deadline(after: seconds), action)
  }

  /// Calls `action` on the watchdog's queue at `deadline` (uptime nanoseconds), unless cancelled first.
  func schedule(at deadline: UInt64, _ action: @escaping @Sendable () -> Void) -> Token {
    lock.withLock {
      nextID &+= 1
      actions[nextID] = action
      push(Entry(deadline: deadline, id: nextID))
      armIfNeeded()
      return Token(id: nextID)
    }
  }

  /// The uptime in nanoseconds `seconds` from now; `UInt64.max` (never) when that is too far to count.
  static func deadline(after seconds: Double) -> UInt64 {
    // Saturates: an infinite or huge timeout never wraps around to an immediate one, and never traps.
    let nanoseconds = seconds.isNaN ? 0 : min(max(0, seconds) * 1e9, Double(UInt64.max / 4))
    let now = DispatchTime.now().uptimeNanoseconds
    return now.addingReportingOverflow(UInt64(nanoseconds)).overflow ? .max : now + UInt64(nanoseconds)
  }

  /// Forgets a deadline: its action will not run unless it is already running (callers resume a continuation once).
  func cancel(_ token: Token) {
    lock.withLock {
      actions[token.id] = nil
      while let top = heap.first, actions[top.id] == nil { pop() }
    }
  }

  /// Runs every action whose deadline passed, then arms the timer for the next.
  private func fire() {
    let now = DispatchTime.now().uptimeNanoseconds
    var due: [@Sendable () -> Void] = []
    lock.withLock {
      armedFor = .max
      while let top = heap.first, top.deadline <= now {
        pop()
        if let action = actions.removeValue(forKey: top.id) { due.append(action) }
      }
      while let top = heap.first, actions[top.id] == nil { pop() }
      armIfNeeded()
    }
    for action in due { action() }
  }

  /// Arms the timer for the earliest deadline when it is earlier than the one armed (call with the lock held).
  private func armIfNeeded() {
    guard let top = heap.first, top.deadline < armedFor else { return }
    armedFor = top.deadline
    timer.schedule(deadline: DispatchTime(uptimeNanoseconds: top.deadline), leeway: .milliseconds(10))
  }

  private func push(_ entry: Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].deadline < heap[parent].deadline else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private func pop() {
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
      if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
