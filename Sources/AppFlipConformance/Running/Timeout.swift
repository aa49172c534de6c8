import Foundation

/// Thrown when an implementation does not answer a step in time.
public struct TimeoutError: Error, Sendable, CustomStringConvertible {
  /// The limit that passed, in seconds.
  public var seconds: Double

  /// The timeout, in words.
  public var description: String { "did not answer within \(seconds) seconds" }
}

/// Runs `body`, giving up after `seconds` even if `body` never returns or ignores cancellation.
///
/// The clock runs on a Dispatch queue, outside Swift's cooperative pool, so a handler that blocks a thread cannot stop it.
func withTimeout<T: Sendable>(
  seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  let gate = ResumeOnce<T>()
  return try await withCheckedThrowingContinuation { continuation in
    gate.set(continuation)
    let task = Task {
      do {
        gate.resume(with: .success(try await body()))
      } catch {
        gate.resume(with: .failure(error))
      }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      task.cancel()
      gate.resume(with: .failure(TimeoutError(seconds: seconds)))
    }
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
