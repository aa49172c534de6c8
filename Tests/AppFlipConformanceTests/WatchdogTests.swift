import Foundation
import Testing

@testable import AppFlipConformance

@Suite("Watchdog")
struct WatchdogTests {
  final class Fired: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    func add(_ name: String) { lock.withLock { names.append(name) } }
    var all: [String] { lock.withLock { names } }
  }

  @Test("Runs the deadlines that pass, in order, and never a cancelled one")
  func firesInOrder() async throws {
    let fired = Fired()
    let late = Watchdog.shared.schedule(after: 0.3) { fired.add("late") }
    _ = Watchdog.shared.schedule(after: 0.2) { fired.add("second") }
    let cancelled = Watchdog.shared.schedule(after: 0.05) { fired.add("cancelled") }
    _ = Watchdog.shared.schedule(after: 0.1) { fired.add("first") }
    Watchdog.shared.cancel(cancelled)
    try await Task.sleep(for: .milliseconds(800))
    #expect(fired.all == ["first", "second", "late"])
    _ = late
  }

  @Test("Fires a deadline registered after the earliest one was cancelled")
  func laterAfterCancelled() async throws {
    let fired = Fired()
    let early = Watchdog.shared.schedule(after: 0.05) { fired.add("early") }
    Watchdog.shared.cancel(early)
    _ = Watchdog.shared.schedule(after: 0.15) { fired.add("later") }
    try await Task.sleep(for: .milliseconds(600))
    #expect(fired.all == ["later"])
  }

  @Test(
    "An infinite or huge timeout neither traps nor fires at once",
    arguments: [Double.infinity, 1e11, .greatestFiniteMagnitude])
  func hugeTimeouts(seconds: Double) async throws {
    let fired = Fired()
    let token = Watchdog.shared.schedule(after: seconds) { fired.add("fired") }
    try await Task.sleep(for: .milliseconds(200))
    Watchdog.shared.cancel(token)
    #expect(fired.all.isEmpty)
    // A run whose steps may take that long still runs them.
    let catalog = Fixtures.catalog([Fixtures.accepted()])
    let runner = Runner(adapter: InProcessAdapter(ReferenceHandlerAdapter()), timeout: seconds)
    #expect(await runner.run(catalog.vectors[0]).status == .passed)
  }
}
