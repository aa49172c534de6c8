import Foundation

/// Thrown when an implementation does not answer a step in time.
package struct TimeoutError: Error, Sendable, CustomStringConvertible {
  /// The limit that passed, in seconds.
  package var seconds: Double

  /// The timeout, in words.
  package var description: String { "did not answer within \(seconds) seconds" }
}

/// Runs `body`, giving up after `seconds` if it has not answered by then; cancelling the caller cancels `body` and
/// returns at once.
///
/// The body runs in a task of its own, so a handler that blocks its thread without ever suspending (a semaphore
/// wait, a deadlock) still times out on schedule and the run goes on. The clock starts when `body` starts running, so
/// time spent queued behind other tasks (hundreds of parallel test cases) does not count. The deadline is kept by one
/// `Watchdog` for the whole process, on a Dispatch queue outside Swift's cooperative pool, so a handler that blocks a
/// thread cannot stop it, and a step that answers in time costs a heap entry instead of a timer that fires later anyway.
func withTimeout<T: Sendable>(
  seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  let gate = ResumeOnce<T>()
  let running = Locked<Task<Void, Never>?>(nil)
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      gate.set(continuation)
      let task = Task {
        let deadline = Watchdog.shared.schedule(after: seconds) {
          // The timeout first: cancelling first would let the body's CancellationError win the race.
          gate.resume(with: .failure(TimeoutError(seconds: seconds)))
          running.withLock { $0 }?.cancel()
        }
        defer { Watchdog.shared.cancel(deadline) }
        do {
          gate.resume(with: .success(try await body()))
        } catch {
          gate.resume(with: .failure(error))
        }
      }
      running.withLock { $0 = task }
    }
  } onCancel: {
    running.withLock { $0 }?.cancel()
    gate.resume(with: .failure(CancellationError()))
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
