import Foundation

/// One timer for every deadline in the process: steps register a deadline and cancel it when they answer.
///
/// One Dispatch timer is armed for the earliest live deadline, so a cancelled deadline costs nothing later (a Dispatch
/// timer per step still fires after it is cancelled, costing CPU and memory long after the step). Few deadlines are
/// live at once (a catalog run arms one for its earliest step, an interleaved vector's barrier one), so they are kept
/// by id and the earliest is found by a scan.
final class Watchdog: @unchecked Sendable {
  /// The process's watchdog.
  static let shared = Watchdog()

  /// A registered deadline, to cancel.
  struct Token: Sendable, Hashable {
    fileprivate var id: UInt64
  }

  private let lock = NSLock()
  private let queue = DispatchQueue(label: "appflip-conformance.watchdog")
  private let timer: any DispatchSourceTimer
  private var live: [UInt64: (deadline: UInt64, action: @Sendable () -> Void)] = [:]
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
      live[nextID] = (deadline, action)
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
    lock.withLock { live[token.id] = nil }
  }

  /// Runs every action whose deadline passed, then arms the timer for the next.
  private func fire() {
    let now = DispatchTime.now().uptimeNanoseconds
    let due = lock.withLock {
      armedFor = .max
      let due = live.filter { $0.value.deadline <= now }
      for id in due.keys { live[id] = nil }
      armIfNeeded()
      return due.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }.map(\.value.action)
    }
    for action in due { action() }
  }

  /// Arms the timer for the earliest deadline when it is earlier than the one armed (call with the lock held).
  private func armIfNeeded() {
    guard let earliest = live.values.lazy.map(\.deadline).min(), earliest < armedFor else { return }
    armedFor = earliest
    timer.schedule(deadline: DispatchTime(uptimeNanoseconds: earliest), leeway: .milliseconds(10))
  }
}
