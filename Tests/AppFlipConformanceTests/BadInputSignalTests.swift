import AppFlip
import AppFlipConformance
import AppFlipConformanceTesting
import Foundation
import Testing

/// How a signal case drives the built `appflip-conformance`.
struct SignalCase: Sendable, CustomTestStringConvertible {
  var name: String
  /// Arguments after the reports; `$D` is the case's folder.
  var arguments: [String]
  /// Signals to send, each after this many seconds from the start.
  var signals: [(Int32, Double)]
  var exit: Int32
  /// The run must end within this many seconds of the first signal.
  var within: Double
  /// Words the JUnit report must hold.
  var junitWords: [String]
  /// Close the command's stdout at once (`| head -1`).
  var closeStdout = false
  /// Load 100 000 vectors (`SignalCases.manyVectors`): a signal a second in lands while they load.
  var manyVectors = false
  /// Make `$D/in.json` a FIFO that nobody writes.
  var fifoInput = false
  /// Pass no reports of its own (`fuzz`, or a case that names its own); only the exit code and the time are checked.
  var reports = true
  /// Run in the case's folder `$D` (for relative paths), not in the package's root.
  var inFolder = false

  var testDescription: String { name }
}

enum SignalCases {
  static let slowAdapter = Subprocess.python("Tests/Fixtures/subprocess/hostile_handler.py", ["hang"])

  static let all: [SignalCase] = [
    SignalCase(
      name: "SIGINT stops a step in flight at once, not after its timeout",
      arguments: ["--exec", slowAdapter, "--timeout", "60"], signals: [(SIGINT, 2)], exit: 130, within: 10,
      junitWords: ["not run: interrupted (SIGINT)"]),
    SignalCase(
      name: "SIGTERM stops a step in flight at once",
      arguments: ["--exec", slowAdapter, "--timeout", "60"], signals: [(SIGTERM, 2)], exit: 143, within: 10,
      junitWords: ["not run: terminated (SIGTERM)"]),
    SignalCase(
      name: "A second SIGINT ends the run at once",
      arguments: ["--exec", slowAdapter, "--timeout", "60"], signals: [(SIGINT, 2), (SIGINT, 2.05)], exit: 130,
      within: 10, junitWords: []),
    SignalCase(
      name: "SIGHUP stops a step in flight at once, as SIGTERM does",
      arguments: ["--exec", slowAdapter, "--timeout", "60"], signals: [(SIGHUP, 2)], exit: 129, within: 10,
      junitWords: ["not run: hung up (SIGHUP)"]),
    SignalCase(
      name: "SIGINT while 100 000 vectors load ends the run at once with every report",
      arguments: [], signals: [(SIGINT, 1)], exit: 130, within: 10, junitWords: ["not run: interrupted (SIGINT)"],
      manyVectors: true),
    SignalCase(
      name: "SIGTERM while 100 000 vectors load ends the run at once with every report",
      arguments: [], signals: [(SIGTERM, 1)], exit: 143, within: 10, junitWords: ["not run: terminated (SIGTERM)"],
      manyVectors: true),
    SignalCase(
      name: "SIGHUP while 100 000 vectors load ends the run at once with every report",
      arguments: [], signals: [(SIGHUP, 1)], exit: 129, within: 10, junitWords: ["not run: hung up (SIGHUP)"],
      manyVectors: true),
    SignalCase(
      name: "A FIFO given as --vectors is refused at once, with every report",
      arguments: ["--no-bundled", "--vectors", "$D/in.json"], signals: [], exit: 2, within: 10,
      junitWords: ["in.json", "named pipe (FIFO)"], fifoInput: true),
    SignalCase(
      name: "SIGINT stops fuzz with 130, not 0",
      arguments: ["fuzz", "--seconds", "60", "--out", "$D/fuzz"], signals: [(SIGINT, 2)], exit: 130, within: 10,
      junitWords: [], reports: false),
    SignalCase(
      name: "SIGHUP stops fuzz with 129",
      arguments: ["fuzz", "--seconds", "60", "--out", "$D/fuzz"], signals: [(SIGHUP, 2)], exit: 129, within: 10,
      junitWords: [], reports: false),
    SignalCase(
      name: "./r.xml and r.xml are one file: refused before anything runs",
      arguments: ["--no-bundled", "--vectors", "ok.json", "--report", "./r.xml", "--json", "r.xml"], signals: [],
      exit: 2, within: 10, junitWords: [], reports: false, inFolder: true),
    SignalCase(
      name: "A closed stdout never ends the run before its reports",
      arguments: [], signals: [], exit: 0, within: 120, junitWords: ["testsuites"], closeStdout: true),
  ]

  /// A file of 100 000 valid vectors (about 60 MB), written once for every case that loads it, inside the package's
  /// `.build` (as `crashReport`), so it is neither left in the temporary folder nor shared with another checkout.
  static let manyVectors: String = {
    let path = Subprocess.root.appendingPathComponent(".build/badinput-many/100000.json")
    try? FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    // A file of one vector, its vector copied as bytes with 100 000 ids: building 100 000 strings in a debug build
    // would hold a thread of the test process (and so the other suites) for seconds.
    let file = String(decoding: BadInputTests.vectorFile([BadInputTests.vector("g/@")]), as: UTF8.self)
    let start = file.range(of: "{\"id\"")!.lowerBound
    let halves = file[start...].dropLast(2).components(separatedBy: "g/@").map { Data($0.utf8) }
    var data = Data(file[..<start].utf8)
    for index in 0..<100_000 {
      if index > 0 { data.append(UInt8(ascii: ",")) }
      data.append(halves[0])
      data.append(contentsOf: "g/\(index)".utf8)
      data.append(halves[1])
    }
    data.append(contentsOf: "]}".utf8)
    try? data.write(to: path)
    return path.path
  }()

  static var count: Int { all.count + 1 }

  /// The `appflip-conformance` executable built with the tests (see `Subprocess.swiftWrapper`).
  static var executable: URL? {
    let folders = [
      Bundle.main.executableURL?.deletingLastPathComponent(),
      Bundle.main.bundleURL.deletingLastPathComponent(),
      Subprocess.root.appendingPathComponent(".build/debug"),
    ]
    return folders.compactMap { $0?.appendingPathComponent("appflip-conformance") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }
}

@Suite("BadInput: signals and crashes", .serialized)
struct BadInputSignalTests {
  @Test("Acts on signals at once and still writes every report", arguments: SignalCases.all)
  func signal(_ testCase: SignalCase) async throws {
    let binary = try #require(SignalCases.executable, "appflip-conformance is built with the tests")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("badinput-signal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let process = Process()
    process.executableURL = binary
    process.currentDirectoryURL = testCase.inFolder ? folder : Subprocess.root
    try BadInputTests.vectorFile().write(to: folder.appendingPathComponent("ok.json"))
    let reports = [
      "--report", folder.path + "/junit.xml", "--json", folder.path + "/results.json", "--markdown",
      folder.path + "/s.md",
    ]
    process.arguments =
      (testCase.reports ? reports : [])
      + testCase.arguments.map { $0.replacingOccurrences(of: "$D", with: folder.path) }
    if testCase.manyVectors { process.arguments! += ["--no-bundled", "--vectors", SignalCases.manyVectors] }
    if testCase.fifoInput { #expect(mkfifo(folder.appendingPathComponent("in.json").path, 0o644) == 0) }
    // Nobody reads the console here: a pipe would fill up and block the command, so only the closed-stdout case
    // gets one (closed at once, as `| head -1` does).
    let stdout = Pipe()
    process.standardOutput = testCase.closeStdout ? stdout : FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    if testCase.closeStdout { try stdout.fileHandleForReading.close() }
    let start = Date()
    var first: Date?
    for (number, delay) in testCase.signals {
      let wait = delay - Date().timeIntervalSince(start)
      if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
      kill(process.processIdentifier, number)
      first = first ?? Date()
    }
    while process.isRunning {
      if Date().timeIntervalSince(first ?? start) > testCase.within {
        process.terminate()
        Issue.record("still running \(testCase.within) s after the first signal")
        break
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == testCase.exit)
    if testCase.exit == 130 && testCase.signals.count > 1 { return }  // ended at once: reports may be partial
    // Nothing is written where it must not be: no report at all for a refused command line.
    #expect(testCase.reports || !FileManager.default.fileExists(atPath: folder.path + "/r.xml"))
    guard testCase.reports else { return }
    let junit = try String(contentsOfFile: folder.path + "/junit.xml", encoding: .utf8)
    let reader = try JUnitReader.read(junit)
    #expect((reader.counts["testcase"] ?? 0) >= 1)
    for word in testCase.junitWords { #expect(junit.contains(word), "JUnit lacks \"\(word)\"") }
    let json = try Data(contentsOf: folder.appendingPathComponent("results.json"))
    #expect((try? JSONSerialization.jsonObject(with: json)) != nil)
    BadInputTests.keep(
      folder.appendingPathComponent("junit.xml"),
      for: BadInputCase(
        name: "signal " + testCase.name, entries: [], arguments: [], exit: testCase.exit, words: []))
  }

  /// Where the crashing child writes its report: inside the package's `.build`, so parallel runs of other
  /// checkouts never share it.
  static let crashReport = Subprocess.root.appendingPathComponent(".build/badinput-crash/junit.xml").path

  @Test("A handler that crashes the process leaves a report naming the running vector and the rest not run")
  func crash() async throws {
    try? FileManager.default.removeItem(atPath: Self.crashReport)
    await #expect(processExitsWith: .failure) {
      let crashing = ClosureHandler { link, authorizer in
        if link.contains("state=s1") { fatalError("a partner handler's force unwrap") }
        return try await ReferenceHandlerAdapter().handle(link, authorizer: authorizer)
      }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let vectors = folder.appendingPathComponent("v.json")
      let second = Fixtures.accepted(id: "c/crash")
      let others = ["c/first", "c/third", "c/fourth"].map {
        Fixtures.accepted(id: $0).replacingOccurrences(of: "s1", with: "s9")
      }
      try? Fixtures.file([others[0], second, others[1], others[2]]).write(to: vectors)
      let harness = ConformanceHarness(
        handler: crashing, vectors: [vectors], bundled: false, junit: BadInputSignalTests.crashReport)
      for testCase in harness.cases { _ = await harness.run(testCase) }
    }
    let junit = try String(contentsOfFile: Self.crashReport, encoding: .utf8)
    let reader = try JUnitReader.read(junit)
    #expect(reader.counts["testcase"] == 4)
    #expect(junit.contains("the process ended while this vector ran"))
    let crashed = reader.testcases.first { $0["name"] == "c/crash" }
    #expect(crashed != nil)
    #expect(junit.components(separatedBy: "not run: the run ended before this vector").count - 1 >= 2)
    #expect(!junit.contains("tests=\"1\""))
    BadInputTests.keep(
      URL(fileURLWithPath: Self.crashReport),
      for: BadInputCase(
        name: "crash", entries: [], arguments: [], exit: 1, words: []))
  }
}
