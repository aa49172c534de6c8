import AppFlip
import Foundation

extension SubprocessSession {
  /// Queues the event loop's next turn while a step is in flight.
  func schedulePump() {
    guard !pumpScheduled, !inFlight.isEmpty else { return }
    pumpScheduled = true
    queue.async { self.pump() }
  }

  /// The event loop's turn: one read, then the next turn is queued while a step is in flight.
  private func pump() {
    pumpScheduled = false
    pumpOnce()
    schedulePump()
  }

  /// Gives up on a step past its time, else reads for at most a slice and handles the line.
  func pumpOnce() {
    guard !faultLateStep(), let child, let first = firstInFlight() else { return }
    var earliest = DispatchTime.distantFuture
    for step in inFlight.values where step.deadline < earliest { earliest = step.deadline }
    let end = min(DispatchTime.now() + Self.slice, earliest)
    let line: [UInt8]
    queued.setReading(true)
    defer { queued.setReading(false) }
    do {
      line = try readMessage(
        child, deadline: end,
        cancellation: { self.queued.isWaiting || self.inFlight.values.contains { $0.cancellation.isCancelled } })
    } catch .timedOut, .cancelled {
      return
    } catch {
      fault(first, describe(error, answering: first.what))
      return
    }
    receive(line, from: child, first: first)
  }

  /// The step in flight with the lowest seq, the one a line that names no other is blamed on.
  func firstInFlight() -> Step? {
    var first: Int?
    for seq in inFlight.keys where seq < first ?? .max { first = seq }
    return first.flatMap { inFlight[$0] }
  }

  /// Gives up on the first step in flight that the runner cancelled or that is past its time, stopping the child;
  /// whether there was one.
  @discardableResult
  func faultLateStep() -> Bool {
    guard !inFlight.isEmpty else { return false }
    let now = DispatchTime.now()
    var lateSeq: Int?
    for (seq, step) in inFlight
    where seq < lateSeq ?? .max && (step.cancellation.isCancelled || step.deadline <= now) {
      lateSeq = seq
    }
    guard let lateSeq, let late = inFlight[lateSeq] else { return false }
    let problem =
      late.cancellation.isCancelled
      ? "had not answered \(late.what) when the step's time ran out"
      : "did not answer \(late.what) within \((budget * 100).rounded() / 100) seconds"
    let limit = late.cancellation.isCancelled ? nil : late.limit
    fault(late, problem, culpritError: limit.map { TimeoutError(seconds: $0.seconds) })
    return true
  }
}
