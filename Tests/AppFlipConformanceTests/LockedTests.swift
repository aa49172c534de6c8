import Testing

@testable import AppFlipConformance

/// The one lock of the harness keeps a value whole when many tasks change it at once.
@Suite("Locked")
struct LockedTests {
  @Test("A thousand concurrent increments under withLock all count, and withLock returns the body's value")
  func concurrentIncrements() async {
    let counter = Locked(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<1_000 { group.addTask { counter.withLock { $0 += 1 } } }
    }
    #expect(counter.withLock { $0 } == 1_000)
    #expect(counter.withLock { value -> String in "\(value)" } == "1000")
  }
}
