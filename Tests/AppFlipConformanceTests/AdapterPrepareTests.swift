import Foundation
import Testing

@testable import AppFlipConformance

/// A run starts its implementation while the vectors load (`ConformanceAdapter.prepare()`), and only when it will run
/// them: a Python handler's start-up (or a JVM's) then overlaps the loading instead of following it.
@Suite("An implementation starts while the vectors load")
struct AdapterPrepareTests {
  /// The tests that start the Python fixtures; the others start `sleep` or a command that fails.
  static let python = ConditionTrait.enabled(
    if: PythonFixtures.python, "needs python3 for Tests/Fixtures/subprocess (CI always runs it)")

  @Test("prepare() starts the implementation in the background: it has introduced itself before any step", Self.python)
  func prepareStarts() {
    let prepared = SubprocessAdapter(command: Subprocess.faulty("none"), timeout: 30)
    let idle = SubprocessAdapter(command: Subprocess.faulty("none"), timeout: 30)
    defer {
      prepared.shutdown()
      idle.shutdown()
    }
    prepared.prepare()
    // The question waits on the session's queue for the start under way; an adapter not prepared has not started.
    #expect(prepared.implementation?.isEmpty == false)
    #expect(idle.implementation == nil)
  }

  @Test("shutdown() cuts short a start prepare() began: a handler that never answers start does not hold it up")
  func shutdownCutsPreparedStart() {
    let adapter = SubprocessAdapter(command: "sleep 60", timeout: 30)
    adapter.prepare()
    Thread.sleep(forTimeInterval: 0.2)  // the start under way, waiting for a ready message that never comes
    let clock = ContinuousClock()
    let start = clock.now
    adapter.shutdown()
    // Without the cut, it waits for the start's deadline: the 30 s timeout.
    #expect(clock.now - start < .seconds(10))
  }

  @Test("A usage error found once the definitions load stops the implementation prepared meanwhile", Self.python)
  func usageErrorStopsPrepared() async throws {
    // A token only this test's process carries on its command line (the vector id its fault is limited to).
    let token = "prepared-\(UUID().uuidString)"
    let code = await ConformanceCommand.run(
      ["--exec", Subprocess.faulty("none", on: token), "--flag", "no-such-flag", "--report", "/dev/null"],
      output: CapturedOutput().output)
    #expect(code == .usage)
    let clock = ContinuousClock()
    let start = clock.now
    while !Self.processes(carrying: token).isEmpty, clock.now - start < .seconds(5) {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(Self.processes(carrying: token).isEmpty)
  }

  /// The processes whose command line holds `token` (Linux's /proc; none elsewhere).
  static func processes(carrying token: String) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.filter { entry in
      guard entry.allSatisfy(\.isNumber),
        let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
      else { return false }
      return String(decoding: line, as: UTF8.self).contains(token)
    }
  }

  @Test("After shutdown a step starts the implementation again, even after it failed to start three times in a row")
  func shutdownForgetsFailedStarts() async throws {
    let adapter = SubprocessAdapter(command: "exit 3", timeout: 30)
    defer { adapter.shutdown() }
    let loaded = try #require(VectorLoader.loadBundled().vectors.first { $0.vector.id == "reply/code-plus" })
    let runner = Runner(adapter: adapter)
    var messages: [String] = []
    for _ in 0..<4 { messages.append(await runner.run(loaded).message) }
    #expect(messages.prefix(3).allSatisfy { $0.contains("did not start") }, "\(messages)")
    #expect(messages[3].contains("failed to start 3 times in a row, so it is not started again"), "\(messages[3])")
    adapter.shutdown()
    let again = await runner.run(loaded).message
    #expect(again.contains("did not start") && !again.contains("not started again"), "\(again)")
  }

  @Test("A run starts one process per job, once; --list, --validate and a bad configuration start none", Self.python)
  func startsOnlyToRun() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prepare-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pidFile = folder.appendingPathComponent("pids")
    let badConfig = folder.appendingPathComponent("bad.json")
    try Data("{".utf8).write(to: badConfig)
    let exec = "env APPFLIP_FAULTY_PID_FILE=\(Subprocess.quoted(pidFile.path)) " + Subprocess.faulty("none")
    let common = ["--exec", exec, "--filter", "flow/*", "--report", folder.appendingPathComponent("j.xml").path]
    for extra in [["--list"], ["--validate"], ["--config", badConfig.path]] {
      _ = await ConformanceCommand.run(common + extra, output: CapturedOutput().output)
      #expect(!FileManager.default.fileExists(atPath: pidFile.path), "\(extra)")
    }
    let code = await ConformanceCommand.run(common + ["--jobs", "2"], output: CapturedOutput().output)
    #expect(code == .success)
    // Each process writes its pid and its parent's: two per job.
    #expect(try Subprocess.pids(in: pidFile).count == 4)
  }
}
