import Foundation
import Testing

@testable import AppFlipConformance

/// A run starts its implementation while the vectors load (`ConformanceAdapter.prepare()`), and only when it will run
/// them: a Python handler's start-up (or a JVM's) then overlaps the loading instead of following it.
@Suite(
  "An implementation starts while the vectors load",
  .enabled(if: PythonFixtures.python, "needs python3 for Tests/Fixtures/subprocess (CI always runs it)")
)
struct AdapterPrepareTests {
  @Test("prepare() starts the implementation in the background: it has introduced itself before any step")
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

  @Test("A run starts one process per job, once; --list, --validate and a bad configuration start none")
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
