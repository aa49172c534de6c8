import Foundation

/// A value shared between threads, read and changed only inside `withLock`.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Creates a lock around `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` on the value while holding the lock, and returns what it returns.
  package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
