import Foundation
import Testing

@testable import AppFlipConformance

/// A runner sends a subprocess adapter's steps inline, without a task of its own per step (issue 12): the adapter keeps
/// the runner's deadline and cancellation itself, as the runner's `withTimeout` did.
@Suite("Subprocess step limit")
struct SubprocessStepLimitTests {
  @Test("A step sent inline ends at the runner's timeout, as a TimeoutError, even while the implementation starts")
  func slowStart() async throws {
    let adapter = SubprocessAdapter(command: "sleep 30", timeout: 10)
    defer { adapter.shutdown() }
    let result = await Runner(adapter: adapter, timeout: 1).handle(Subprocess.request("v/slow-start"))
    #expect(throws: TimeoutError.self) { try result.get() }
    #expect(Runner.describe(Self.error(result)) == "did not answer within 1.0 seconds")
  }

  @Test("A step sent inline that the task cancels ends as a CancellationError, as under the runner's own deadline")
  func cancelled() async throws {
    let adapter = SubprocessAdapter(command: Subprocess.faulty("hang", on: "v/hang"), timeout: 60)
    defer { adapter.shutdown() }
    let runner = Runner(adapter: adapter, timeout: 60)
    await #expect(throws: Never.self) { try await runner.handle(Subprocess.request("v/ok")).get() }
    let step = Task { await runner.handle(Subprocess.request("v/hang")) }
    try await Task.sleep(for: .milliseconds(300))
    step.cancel()
    let result = await step.value
    #expect(throws: CancellationError.self) { try result.get() }
    // The implementation, stopped mid-answer, is started again for the next step.
    await #expect(throws: Never.self) { try await runner.handle(Subprocess.request("v/ok-again")).get() }
  }

  /// The error of a failed result, or a description of the success.
  static func error(_ result: Result<Observation, any Error>) -> any Error {
    switch result {
    case .success(let observation): return SubprocessError(message: "succeeded: \(observation)")
    case .failure(let error): return error
    }
  }
}
