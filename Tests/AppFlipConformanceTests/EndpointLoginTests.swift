import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 22, item 2 (and issue 28's old green report): a `--login-command` bounded like the rest of the run, ended
/// with its whole process group by SIGINT, SIGTERM, SIGHUP or its timeout, its cookie jar private and always removed,
/// and every report written when it gives no session.
@Suite("Endpoint login command: bounded, interruptible, private, and never leaves an old report", .serialized)
struct EndpointLoginTests {
  /// A folder for one test, and what the login command there leaves in it: its jar's path and the pids it started.
  struct Scratch {
    let folder: URL
    init() throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-login-test-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    var path: String { folder.path }
    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// A login command that notes its jar's path and its own pid and its child's, then hangs (a `sleep` in the
    /// background, as a script waiting on a server would); with `ignoringTERM`, both ignore SIGTERM.
    func hangingLogin(ignoringTERM: Bool = false) -> String {
      (ignoringTERM ? "trap '' TERM; " : "")
        + "echo \"$APPFLIP_COOKIE_JAR\" > '\(path)/jar-path'; sleep 600 & echo $$ $! > '\(path)/pids'; wait"
    }

    /// The pids the login command wrote, once it wrote both.
    func pids() -> [pid_t] {
      let text = (try? String(contentsOfFile: path + "/pids", encoding: .utf8)) ?? ""
      return text.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
    }

    /// Waits until the login command has started its child (up to 30 s).
    func waitForLogin() async throws {
      for _ in 0..<600 where pids().count < 2 { try await Task.sleep(nanoseconds: 50_000_000) }
      try #require(pids().count == 2, "the login command never started")
    }

    /// The folder the run made for the jar.
    var jarFolder: String? {
      (try? String(contentsOfFile: path + "/jar-path", encoding: .utf8)).map {
        ($0.trimmingCharacters(in: .newlines) as NSString).deletingLastPathComponent
      }
    }
  }

  /// Whether every one of `pids` has ended, waiting up to a second. An orphan that ended stays a zombie until the
  /// system's init collects it, which some containers' init never does: on Linux a zombie counts as ended.
  static func gone(_ pids: [pid_t]) async -> Bool {
    func running(_ pid: pid_t) -> Bool {
      guard kill(pid, 0) == 0 else { return false }
      let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
      guard let close = stat.lastIndex(of: ")") else { return true }
      return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
    for _ in 0..<100 {
      if !pids.contains(where: running) { return true }
      try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return false
  }

  /// Seconds since `start`.
  static func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }

  /// Starts the built command with a hanging login against a port nothing listens on, reporting into `scratch`.
  static func start(_ scratch: Scratch, login: String, _ more: [String] = []) throws -> Process {
    let binary = try #require(SignalCases.executable, "appflip-conformance is built with the tests")
    let process = Process()
    process.executableURL = binary
    process.arguments =
      [
        "--endpoint", "http://127.0.0.1:9/oauth/authorize", "--login-command", login, "--quiet", "--report",
        scratch.path + "/junit.xml", "--json", scratch.path + "/results.json",
      ] + more
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  struct SignalCase: Sendable, CustomTestStringConvertible {
    var signal: Int32
    var name: String
    var exits: [Int32]
    var ignoringTERM: Bool
    var testDescription: String { "\(name)\(ignoringTERM ? " (the login ignores SIGTERM)" : "")" }
  }

  // SIGHUP is handled as SIGTERM (143); issue 28 may give it a code of its own (129), which this test accepts.
  static let signals = [
    SignalCase(signal: SIGINT, name: "SIGINT", exits: [130], ignoringTERM: false),
    SignalCase(signal: SIGTERM, name: "SIGTERM", exits: [143], ignoringTERM: false),
    SignalCase(signal: SIGHUP, name: "SIGHUP", exits: [143, 129], ignoringTERM: false),
    SignalCase(signal: SIGINT, name: "SIGINT", exits: [130], ignoringTERM: true),
  ]

  @Test(
    "A signal during the login ends the run at once: its exit code, every report, no process and no jar left",
    arguments: signals)
  func signalled(_ testCase: SignalCase) async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let process = try Self.start(scratch, login: scratch.hangingLogin(ignoringTERM: testCase.ignoringTERM))
    defer { if process.isRunning { process.terminate() } }
    try await scratch.waitForLogin()
    let jarFolder = try #require(scratch.jarFolder)
    #expect(FileManager.default.fileExists(atPath: jarFolder))

    let signalled = DispatchTime.now()
    kill(process.processIdentifier, testCase.signal)
    #expect(await EndpointSignalTests.exit(of: process, within: 30))
    let seconds = Self.seconds(since: signalled)
    // "At once" is bounded by 10 s, as the other signal tests do, far below the 120 s --login-timeout a broken run
    // waits out: with every suite sharing CI's two cores, a 1.5 s bound was missed at 1.8 s. Measured idle: 0.02 s.
    #expect(seconds < 10, "the run took \(seconds) s to end after \(testCase.name)")
    #expect(process.terminationReason == .exit && testCase.exits.contains(process.terminationStatus))
    #expect(await Self.gone(scratch.pids()), "the login command or its child is still running")
    #expect(!FileManager.default.fileExists(atPath: jarFolder), "the jar's folder was left behind")
    let junit = try String(contentsOfFile: scratch.path + "/junit.xml", encoding: .utf8)
    #expect(junit.contains("not run: ") && !junit.contains("<failure"), "every vector is reported as not run")
    let json = try JSONSerialization.jsonObject(
      with: Data(contentsOf: scratch.folder.appendingPathComponent("results.json")))
    #expect((json as? [String: Any])?["interrupted"] != nil)
  }

  @Test("A login that hangs past --login-timeout is ended at once after it: exit 2, every report, nothing left")
  func hung() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    try Data("<testsuites tests=\"98\" failures=\"0\"/>".utf8).write(
      to: scratch.folder.appendingPathComponent("junit.xml"))
    let started = DispatchTime.now()
    let process = try Self.start(scratch, login: scratch.hangingLogin(ignoringTERM: true), ["--login-timeout", "1"])
    defer { if process.isRunning { process.terminate() } }
    #expect(await EndpointSignalTests.exit(of: process, within: 60))
    let seconds = Self.seconds(since: started)
    // 1 s of timeout, 0.5 s of SIGTERM grace, then SIGKILL (1.7 s measured idle); a login left running waits out the
    // 60 s above. Bounded like the signal tests, for the same reason.
    #expect(seconds < 10, "the run took \(seconds) s with a login timeout of 1 s")
    #expect(process.terminationStatus == 2)
    #expect(await Self.gone(scratch.pids()), "the login command or its child is still running")
    let jarFolder = try #require(scratch.jarFolder)
    #expect(!FileManager.default.fileExists(atPath: jarFolder), "the jar's folder was left behind")
    let junit = try String(contentsOfFile: scratch.path + "/junit.xml", encoding: .utf8)
    #expect(junit.contains("did not finish within 1.0 seconds (--login-timeout)"), "the old report was left in place")
  }

  @Test("The jar is a 0600 file in a 0700 folder while the login runs, and both are gone once it returns")
  func privateJar() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let line = "127.0.0.1\\tFALSE\\t/\\tFALSE\\t0\\tsession\\tabc"
    let login = Task {
      try await EndpointLogin.run(
        "echo \"$APPFLIP_COOKIE_JAR\" > '\(scratch.path)/jar-path'; printf '\(line)\\n' > \"$APPFLIP_COOKIE_JAR\";"
          + " while [ ! -e '\(scratch.path)/go' ]; do sleep 0.02; done",
        endpoint: URL(string: "http://127.0.0.1:9/")!, timeout: 30)
    }
    for _ in 0..<600 where scratch.jarFolder == nil { try await Task.sleep(nanoseconds: 20_000_000) }
    let folder = try #require(scratch.jarFolder)
    let mode = { (path: String) in
      ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue
    }
    #expect(mode(folder) == 0o700)
    #expect(mode(folder + "/cookies.txt") == 0o600)
    _ = FileManager.default.createFile(atPath: scratch.path + "/go", contents: nil)
    let jar = try await login.value
    #expect(jar.cookies.map(\.value) == ["abc"])
    #expect(!FileManager.default.fileExists(atPath: folder))
  }

  @Test("A login that exits 0 without writing a cookie gives no session, and says so")
  func noSession() async throws {
    let empty = await #expect(throws: EndpointLoginError.self) {
      try await EndpointLogin.run("true", endpoint: URL(string: "http://127.0.0.1:9/")!)
    }
    #expect(empty?.description.contains("wrote no cookie") == true)
  }

  @Test("A failing login replaces an old green report: every vector inconclusive with the reason, exit 2")
  func failingLoginWritesReports() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let report = scratch.folder.appendingPathComponent("r.xml")
    try Data("<testsuites tests=\"98\" failures=\"0\"/>".utf8).write(to: report)
    let errors = Lines()
    let code = await ConformanceCommand.run(
      [
        "--endpoint", "http://127.0.0.1:9/oauth/authorize", "--login-command", "echo wrong password >&2; exit 3",
        "--quiet", "--report", report.path, "--json", scratch.path + "/r.json",
      ], output: .init(out: { _ in }, err: { errors.add($0) }))
    #expect(code == .usage)
    #expect(errors.all.contains { $0.contains("exited 3") && $0.contains("wrong password") })
    let junit = try String(contentsOf: report, encoding: .utf8)
    #expect(junit.contains("session could not be set up") && junit.contains("exited 3"))
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.folder.appendingPathComponent("r.json")))
    let summary = try #require((json as? [String: Any])?["summary"] as? [String: Any])
    #expect(summary["inconclusive"] as? Int == summary["total"] as? Int && summary["passed"] as? Int == 0)
  }

  @Test("A cookie jar that cannot be read also writes every report, exit 2")
  func badCookieFile() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let code = await ConformanceCommand.run(
      [
        "--endpoint", "http://127.0.0.1:9/oauth/authorize", "--cookie-file", scratch.path + "/missing.txt", "--quiet",
        "--report", scratch.path + "/r.xml",
      ], output: .init(out: { _ in }, err: { _ in }))
    #expect(code == .usage)
    #expect(try String(contentsOfFile: scratch.path + "/r.xml", encoding: .utf8).contains("cannot read the cookie jar"))
  }
}
