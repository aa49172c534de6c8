import Foundation

/// Thrown when an implementation does not answer a step in time.
public struct TimeoutError: Error, Sendable, CustomStringConvertible {
  /// The limit that passed, in seconds.
  public var seconds: Double

  /// The timeout, in words.
  public var description: String { "did not answer within \(seconds) seconds" }
}

/// Runs `body`, giving up after `seconds` if it has not answered by then; cancelling the caller cancels `body` and
/// returns at once.
///
/// The body starts at once on the caller's thread (`Task.immediate`; a new task on Apple platforms before 26), so a
/// step that answers without suspending (an in-process handler) costs no hop to another thread and back; one that
/// suspends and never resumes (a lost continuation, a reply that never comes) times out while the run goes on. The
/// clock starts when `body` starts. The deadline is kept by one `Watchdog` for the whole process, on a Dispatch queue
/// outside Swift's cooperative pool, so a step that answers in time costs a heap entry instead of a timer that fires
/// later anyway. A body that blocks its thread without ever suspending is reported as timed out when it returns.
func withTimeout<T: Sendable>(
  seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  let gate = ResumeOnce<T>()
  let running = TaskHandle()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      gate.set(continuation)
      let deadline = Watchdog.shared.schedule(after: seconds) {
        // The timeout first: cancelling first would let the body's CancellationError win the race.
        gate.resume(with: .failure(TimeoutError(seconds: seconds)))
        running.task?.cancel()
      }
      let step: @Sendable () async -> Void = {
        defer { Watchdog.shared.cancel(deadline) }
        do {
          gate.resume(with: .success(try await body()))
        } catch {
          gate.resume(with: .failure(error))
        }
      }
      let task: Task<Void, Never>
      if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
        task = Task.immediate { await step() }
      } else {
        // Before Task.immediate, the step starts on another thread of the pool.
        task = Task { await step() }
      }
      running.task = task
      // A deadline or cancellation that came while the body ran on this thread could not cancel it yet.
      if gate.isDone { task.cancel() }
    }
  } onCancel: {
    running.task?.cancel()
    gate.resume(with: .failure(CancellationError()))
  }
}

/// The task running a body, for the timer to cancel.
private final class TaskHandle: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Task<Void, Never>?

  var task: Task<Void, Never>? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

/// A continuation that the first of several racers resumes.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<T, any Error>?
  private var pending: Result<T, any Error>?
  private var done = false

  func set(_ continuation: CheckedContinuation<T, any Error>) {
    lock.lock()
    if let pending {
      lock.unlock()
      continuation.resume(with: pending)
      return
    }
    self.continuation = continuation
    lock.unlock()
  }

  /// Whether a racer already won.
  var isDone: Bool {
    lock.lock()
    defer { lock.unlock() }
    return done
  }

  func resume(with result: Result<T, any Error>) {
    lock.lock()
    guard !done else {
      lock.unlock()
      return
    }
    done = true
    guard let continuation else {
      pending = result
      lock.unlock()
      return
    }
    self.continuation = nil
    lock.unlock()
    continuation.resume(with: result)
  }
}
