import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The subprocess examples and fixtures, and how to run them.
enum Subprocess {
  /// The package root: this file is `Tests/AppFlipConformanceTests/SubprocessAdapterTests.swift`.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// A path quoted for `/bin/sh`.
  static func quoted(_ path: String) -> String {
    "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  static func python(_ relativePath: String, _ arguments: [String] = []) -> String {
    ([PythonFixtures.interpreter, root.appendingPathComponent(relativePath).path] + arguments).map(quoted)
      .joined(separator: " ")
  }

  /// `Tests/Fixtures/subprocess/faulty_handler.py FAULT [VECTOR]`.
  static func faulty(_ fault: String, on vector: String? = nil) -> String {
    python("Tests/Fixtures/subprocess/faulty_handler.py", [fault] + (vector.map { [$0] } ?? []))
  }

  /// `command` behind a wrapper, as `npm start` or a proxy would run it: `sh` starts it as a child of its own and waits
  /// for it (it cannot `exec` it, as it needs its status), and the fixture writes its pid and `sh`'s to `pidFile`.
  static func wrapped(_ command: String, pidFile: URL) -> String {
    "env APPFLIP_FAULTY_PID_FILE=\(quoted(pidFile.path)) sh -c \(quoted(command + " || exit 1"))"
  }

  /// A fresh path for a fixture's pid file.
  static func pidFile() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-pids-\(UUID().uuidString)")
  }

  /// The pids a fixture wrote to `file`.
  static func pids(in file: URL) throws -> [pid_t] {
    try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
  }

  /// The processes of `pids` that still exist after up to `seconds` (`kill(pid, 0)` does not fail with ESRCH).
  static func survivors(_ pids: [pid_t], within seconds: Double) async throws -> [pid_t] {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      let alive = pids.filter { kill($0, 0) == 0 || errno != ESRCH }
      if alive.isEmpty || Date() >= deadline { return alive }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// A step for the `echo` and `hang` fixtures.
  static func request(_ vectorID: String) -> HandlerRequest {
    HandlerRequest(
      vectorID: vectorID, step: 0, link: "https://p.example/appflip?state=s", outcome: .granted(code: "c"),
      configuration: PartnerConfiguration(clientID: "id", universalLink: "https://p.example/"))
  }

  /// The `appflip-reference-subprocess` executable, built with the tests: `swift build --build-tests` and `swift test`
  /// build every product of the package into the same folder as the test bundle (`.build/<triple>/debug`). That folder
  /// is where the running test executable lives on Linux (`Bundle.main`), and the test bundle's parent on macOS, where
  /// `xctest` or `swiftpm-testing-helper` is the main executable; `.build/debug` is the last resort.
  static var swiftWrapper: URL? {
    let folders = [
      Bundle.main.executableURL?.deletingLastPathComponent(),
      Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent(),
      Bundle.main.bundleURL.deletingLastPathComponent(),
      root.appendingPathComponent(".build/debug"),
    ]
    return folders.compactMap { $0?.appendingPathComponent("appflip-reference-subprocess") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// The runner's timeout where nothing should time out: generous, because a full `swift test` keeps both cores and
  /// Swift's cooperative pool busy, which delays the runner's clock; the adapter's own clock runs on its Dispatch queue.
  static let patience = 60.0

  /// The bundled app vectors.
  static let catalog = VectorLoader.loadBundled()

  /// Three areas, multi-step and configuration vectors included: enough to see a fault land on one vector only.
  static let someAreas = VectorFilter(idPatterns: ["check-order/*", "configuration/*", "flow/*"]).apply(to: catalog)

  /// The in-process reference run over every bundled vector, once: what every subprocess run must match.
  static let reference = Task {
    let adapter = InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }
    return await Runner(adapter: adapter).run(catalog)
  }

  /// The reference results of `catalog`'s vectors.
  static func referenceResults(_ catalog: VectorCatalog = catalog) async -> [VectorResult] {
    let ids = Set(catalog.vectors.map(\.vector.id))
    return await reference.value.filter { ids.contains($0.id) }
  }

  /// The interleaved vectors: several links in flight at once, which needs protocol version 2.
  static let interleaved = Set(catalog.vectors.filter(\.vector.interleaved).map(\.vector.id))

  /// What a version 1 run gives where in-process gives `result`: the same, but interleaved vectors are skipped.
  static func expectedV1(_ result: VectorResult) -> String {
    verdict(result, status: interleaved.contains(result.id) ? .skipped : result.status)
  }

  /// A result's id, status and findings: what two runs must agree on.
  static func verdict(_ result: VectorResult, status: Status? = nil) -> String {
    "\(result.id) \((status ?? result.status).rawValue) \(result.findings)"
  }
}

private final class BundleMarker {}

/// Each test case's outcome in a JUnit file: `passed`, `failure`, `error` or `skipped`, by `classname|name`.
final class JUnitVerdicts: NSObject, XMLParserDelegate {
  var outcomes: [String: String] = [:]
  private var current: String?

  static func read(_ url: URL) throws -> [String: String] {
    let reader = JUnitVerdicts()
    let parser = XMLParser(data: try Data(contentsOf: url))
    parser.delegate = reader
    guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
    return reader.outcomes
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if name == "testcase" {
      let key = "\(attributes["classname"] ?? "")|\(attributes["name"] ?? "")"
      current = key
      outcomes[key] = "passed"
    } else if let current, ["failure", "error", "skipped"].contains(name) {
      outcomes[current] = name
    }
  }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    if name == "testcase" { current = nil }
  }
}

/// Run in parallel, like every suite: a step waits for the implementation on the adapter's Dispatch queue, not on one of
/// the test process's few cooperative threads, so Python processes over the whole catalog leave the in-process steps
/// beside them their threads and their deadlines.
@Suite(
  "Subprocess adapter",
  .enabled(
    if: PythonFixtures.python, "needs python3 for Examples/python and Tests/Fixtures/subprocess (CI always runs it)")
)
struct SubprocessAdapterTests {
  enum Example: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case python = "Examples/python/appflip_handler.py"
    case minimalPython = "Examples/python/minimal_adapter.py"
    case swiftWrapper = "Examples/swift-reference (appflip-reference-subprocess)"
    case pythonV1 = "Tests/Fixtures/subprocess/v1_handler.py"
    case minimalPythonV1 = "Tests/Fixtures/subprocess/v1_minimal_adapter.py"

    var testDescription: String { rawValue }

    /// The protocol version the example speaks.
    var version: Int { [.pythonV1, .minimalPythonV1].contains(self) ? 1 : 2 }

    func command() throws -> String {
      switch self {
      case .python, .minimalPython, .pythonV1, .minimalPythonV1:
        return Subprocess.python(rawValue)
      case .swiftWrapper:
        let binary = try #require(
          Subprocess.swiftWrapper,
          "appflip-reference-subprocess is not built next to the tests; run `swift build --build-tests` first")
        return Subprocess.quoted(binary.path)
      }
    }
  }

  @Test(
    "An example adapter gives the in-process verdict on every bundled vector (v2: interleaved too; v1: those skipped)",
    arguments: Example.allCases)
  func parity(_ example: Example) async throws {
    let adapter = SubprocessAdapter(command: try example.command(), timeout: 10)
    let results = await Runner(adapter: adapter, timeout: Subprocess.patience).run(Subprocess.catalog)
    let reference = await Subprocess.referenceResults()
    #expect(results.count == Subprocess.catalog.vectors.count)
    #expect(!Subprocess.interleaved.isEmpty)
    if example.version == 2 {
      #expect(results.map { Subprocess.verdict($0) } == reference.map { Subprocess.verdict($0) })
      #expect(adapter.acceptsInterleaving)
    } else {
      #expect(results.map { Subprocess.verdict($0) } == reference.map(Subprocess.expectedV1))
      #expect(!adapter.acceptsInterleaving)
      for result in results where Subprocess.interleaved.contains(result.id) {
        #expect(result.message.contains("needs protocol version 2"), "\(result.message)")
        #expect(result.message.contains("chose version 1 in its ready message"), "\(result.message)")
      }
    }
    #expect(results.filter { $0.status == .passed }.count * 10 >= results.count * 9)
    #expect(adapter.acceptsConfiguration)
    #expect(adapter.implementation?.hasSuffix(", protocol \(example.version))") == true)
  }

  @Test("A version 2 handler that keeps one shared pending request fails the interleaved vectors, and only those")
  func sharedPendingRequest() async throws {
    let adapter = SubprocessAdapter(
      command: Subprocess.python("Tests/Fixtures/subprocess/shared_pending_handler.py"), timeout: 10)
    let results = await Runner(adapter: adapter, timeout: Subprocess.patience).run(Subprocess.catalog)
    let reference = await Subprocess.referenceResults()
    let interleaved = zip(results, reference).filter { Subprocess.interleaved.contains($0.0.id) }
    let others = zip(results, reference).filter { !Subprocess.interleaved.contains($0.0.id) }
    #expect(!interleaved.isEmpty)
    #expect(interleaved.allSatisfy { $0.1.status == .passed && $0.0.status == .failed })
    #expect(interleaved.allSatisfy { $0.0.findings.contains { $0.field.hasSuffix("reply.state") } })
    #expect(others.map { Subprocess.verdict($0.0) } == others.map { Subprocess.verdict($0.1) })
  }

  /// One deliberate fault, where it lands, and what its error says.
  struct Fault: Sendable, CustomTestStringConvertible {
    var name: String
    var message: String
    var status = Status.error
    var timeout = 10.0

    /// Whether the fault leaves the implementation unable to go on, so that it is restarted.
    var restarts: Bool { status == .error && !["bad-field", "error"].contains(name) }

    var testDescription: String { name }

    static let all = [
      Fault(name: "crash", message: "exited with status 3 before it answered request"),
      Fault(name: "hang", message: "did not answer request", timeout: 5),
      Fault(name: "garbage", message: "with a line that is not a JSON object: bytes 6E 6F 74"),
      Fault(name: "wrong-seq", message: "with seq "),
      Fault(name: "half-line", message: "in the middle of its answer to request"),
      Fault(name: "log-stdout", message: "\"handling "),
      Fault(name: "bad-field", message: "field \"authorisation\" is not part of protocol version 2"),
      Fault(name: "error", message: "reported an error on request"),
      Fault(name: "skip", message: "this handler has no sandbox client", status: .skipped),
      Fault(name: "code-not-in-flight", message: ", which is not in flight (in flight: "),
      Fault(
        name: "bad-code-request", message: "field \"codeRequest.redirectURI\" is not part of protocol version 2"),
    ]
  }

  @Test(
    "A fault lands on its vector with the implementation's stderr, and every other vector still gets its verdict",
    arguments: Fault.all)
  func fault(_ fault: Fault) async throws {
    let catalog = Subprocess.someAreas
    let target = catalog.vectors[2].vector.id  // the third vector
    let adapter = SubprocessAdapter(command: Subprocess.faulty(fault.name, on: target), timeout: fault.timeout)
    let results = await Runner(adapter: adapter, timeout: Subprocess.patience).run(catalog)
    let reference = await Subprocess.referenceResults(catalog)

    #expect(results.count == catalog.vectors.count)
    let hit = try #require(results.first { $0.id == target })
    #expect(hit.status == fault.status)
    #expect(hit.message.contains(fault.message), "\(hit.message)")
    #expect(hit.message.contains("it was stopped and is started again") == fault.restarts, "\(hit.message)")
    if fault.status == .error {
      #expect(hit.message.contains("vector \"\(target)\""))
      #expect(hit.diagnostics.contains("faulty_handler.py: \(fault.name) on \(target)"), "\(hit.diagnostics)")
    }
    let others = zip(results, reference).filter { $0.0.id != target }
    #expect(others.map { Subprocess.verdict($0.0) } == others.map { Subprocess.verdict($0.1) })

    let report = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-\(UUID().uuidString).xml")
    defer { try? FileManager.default.removeItem(at: report) }
    try JUnitReport.write(results, implementation: adapter.name, to: report)
    let xml = try JUnitReader.read(String(decoding: try Data(contentsOf: report), as: UTF8.self))
    #expect(xml.counts["testcase"] == catalog.vectors.count)
    #expect(xml.counts["error", default: 0] == (fault.status == .error ? 1 : 0))
  }

  /// A fault with several links in flight, and what its error says. An answer before the code answer, or a second code
  /// request before the first was answered, can only happen while the harness holds a code request: the interleaving
  /// barrier does, until every link has asked; otherwise the harness answers at once.
  static let interleavedFaults = [
    ("crash", "exited with status 3 before it answered request"),
    ("garbage", "with a line that is not a JSON object"),
    ("answer-before-code", "before the harness answered its code request"),
    ("second-code", "asked for a second code for request"),
  ]

  @Test(
    "A fault with an interleaved vector's links in flight makes that vector an error, and the next gets a fresh start",
    arguments: interleavedFaults)
  func faultWhileInterleaved(_ fault: String, _ message: String) async throws {
    let catalog = VectorFilter(idPatterns: ["flow/*"]).apply(to: Subprocess.catalog)
    let target = try #require(catalog.vectors.first { $0.vector.interleaved }).vector.id
    let adapter = SubprocessAdapter(command: Subprocess.faulty(fault, on: target), timeout: 10)
    let results = await Runner(adapter: adapter, timeout: Subprocess.patience).run(catalog)
    let reference = await Subprocess.referenceResults(catalog)
    let hit = try #require(results.first { $0.id == target })
    #expect(hit.status == .error)
    #expect(hit.message.contains("vector \"\(target)\""), "\(hit.message)")
    #expect(hit.message.contains(message), "\(hit.message)")
    #expect(hit.message.contains("it was stopped and is started again"), "\(hit.message)")
    #expect(hit.diagnostics.contains("faulty_handler.py: \(fault) on \(target)"), "\(hit.diagnostics)")
    let others = zip(results, reference).filter { $0.0.id != target }
    #expect(others.map { Subprocess.verdict($0.0) } == others.map { Subprocess.verdict($0.1) })
  }

  @Test("A step the runner gives up on first stops the implementation, and the next step gets a fresh one")
  func runnerTimeout() async throws {
    let catalog = Subprocess.someAreas
    let target = catalog.vectors[2].vector.id
    let adapter = SubprocessAdapter(command: Subprocess.faulty("hang", on: target), timeout: Subprocess.patience)
    let results = await Runner(adapter: adapter, timeout: 10).run(catalog)
    let reference = await Subprocess.referenceResults(catalog)
    let hit = try #require(results.first { $0.id == target })
    #expect(hit.status == .error)
    #expect(hit.message.contains("did not answer within 10.0 seconds"), "\(hit.message)")
    let others = zip(results, reference).filter { $0.0.id != target }
    #expect(others.map { Subprocess.verdict($0.0) } == others.map { Subprocess.verdict($0.1) })
  }

  @Test("A hanging implementation behind a wrapper leaves no process behind once its step times out")
  func noOrphanAfterTimeout() async throws {
    let pidFile = Subprocess.pidFile()
    defer { try? FileManager.default.removeItem(at: pidFile) }
    let command = Subprocess.wrapped(Subprocess.faulty("hang", on: "v/hang"), pidFile: pidFile)
    let adapter = SubprocessAdapter(command: command, timeout: 4)
    _ = try await adapter.handle(Subprocess.request("v/ok"))  // started, so a slow start cannot be the timeout
    let error = await #expect(throws: AdapterError.self) { try await adapter.handle(Subprocess.request("v/hang")) }
    #expect(error?.message.contains("did not answer request 2") == true, "\(error?.message ?? "")")
    let pids = try Subprocess.pids(in: pidFile)
    #expect(pids.count == 2, "the fixture and the sh waiting for it: \(pids)")
    // Killing only the sh would leave the fixture sleeping, its parent now pid 1.
    let survivors = try await Subprocess.survivors(pids, within: 2)
    #expect(survivors == [])
    for pid in survivors { kill(pid, SIGKILL) }  // so that a failure leaves nothing behind either
    adapter.shutdown()
  }

  @Test("shutdown() stops the implementation and what it started, and is harmless when there is nothing to stop")
  func shutdown() async throws {
    SubprocessAdapter(command: Subprocess.faulty("echo")).shutdown()  // never started

    let pidFile = Subprocess.pidFile()
    defer { try? FileManager.default.removeItem(at: pidFile) }
    let adapter = SubprocessAdapter(command: Subprocess.wrapped(Subprocess.faulty("echo"), pidFile: pidFile))
    _ = try await adapter.handle(Subprocess.request("v/1"))
    let pids = try Subprocess.pids(in: pidFile)
    #expect(pids.count == 2)
    #expect(try await Subprocess.survivors(pids, within: 0) == pids)
    adapter.shutdown()
    let survivors = try await Subprocess.survivors(pids, within: 2)
    #expect(survivors == [])
    for pid in survivors { kill(pid, SIGKILL) }
    adapter.shutdown()  // already stopped
    // A later step starts it again; shutting down after it was killed from outside is harmless too.
    let restarted = try #require(try await adapter.handle(Subprocess.request("v/2")).authorizationRequests?.first)
    let pid = try #require(pid_t(restarted.scopes.last ?? ""))
    #expect(!pids.contains(pid))
    let all = try Subprocess.pids(in: pidFile)
    #expect(all.count == 4)
    for pid in all.dropFirst(2) { kill(pid, SIGKILL) }
    adapter.shutdown()
    #expect(try await Subprocess.survivors(all, within: 2) == [])

    let failed = SubprocessAdapter(command: Subprocess.faulty("exit-at-start"))
    await #expect(throws: AdapterError.self) { try await failed.handle(Subprocess.request("v/1")) }
    failed.shutdown()
  }

  @Test(
    "Starts the implementation with no signal blocked or ignored, though the harness blocks or ignores some",
    .enabled(
      if: FileManager.default.fileExists(atPath: "/proc/self/status"),
      "reads the child's signal state from /proc/self/status, which only Linux has"))
  func cleanSignalState() async throws {
    // The session's Dispatch thread blocks most signals, SubprocessChild ignores SIGPIPE, and a run of the command line
    // ignores SIGINT and SIGTERM (InterruptionWatch): none of it may reach the implementation. Briefly, as this
    // affects every process the test process starts meanwhile.
    let previous = [SIGINT, SIGTERM].map { ($0, signal($0, SIG_IGN)) }
    let adapter = SubprocessAdapter(command: "grep '^Sig' /proc/self/status >&2", timeout: 10)
    let error = await #expect(throws: AdapterError.self) {
      try await adapter.handle(Subprocess.request("v/signals"))
    }
    for (number, handler) in previous { signal(number, handler) }
    let diagnostics = error?.diagnostics ?? ""
    var masks: [String: UInt64] = [:]
    for line in diagnostics.split(separator: "\n") {
      let fields = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
      if fields.count == 2 { masks[fields[0]] = UInt64(fields[1], radix: 16) }
    }
    #expect(masks["SigBlk"] == 0, "\(diagnostics)")
    // Bit n-1 is signal n. glibc's posix_spawn always leaves its own two signals (32 and 33, below SIGRTMIN) ignored,
    // and a program that uses them installs its handlers.
    let glibcSignals: UInt64 = 0b11 << 31
    #expect(masks["SigIgn"].map { $0 & ~glibcSignals } == 0, "\(diagnostics)")
    #expect(error?.message.contains("exited with status 0 before it answered start") == true)
  }

  @Test("An implementation that exits at start makes every vector an error quoting its stderr, and is given up on")
  func exitAtStart() async throws {
    let adapter = SubprocessAdapter(command: Subprocess.faulty("exit-at-start"), timeout: 10)
    let results = await Runner(adapter: adapter, timeout: Subprocess.patience).run(Subprocess.someAreas)
    let ran = results.filter { !Subprocess.interleaved.contains($0.id) }
    #expect(ran.count > 40)
    #expect(ran.allSatisfy { $0.status == .error })
    #expect(ran.allSatisfy { $0.diagnostics.contains("cannot read my configuration") })
    #expect(ran[0].message.contains("did not start: exited with status 2 before it answered start"))
    #expect(ran.last?.message.contains("failed to start 3 times in a row, so it is not started again") == true)
  }

  @Test("An implementation that speaks another protocol version is refused, naming both versions")
  func otherVersion() async throws {
    let adapter = SubprocessAdapter(command: Subprocess.faulty("version-3"), timeout: 10)
    let results = await Runner(adapter: adapter, timeout: Subprocess.patience).run(Subprocess.someAreas)
      .filter { !Subprocess.interleaved.contains($0.id) }
    #expect(results.allSatisfy { $0.status == .error })
    let message = try #require(results.first?.message)
    #expect(
      message.contains("protocol version 3 (field \"version\"); this harness speaks versions 1 and 2"), "\(message)")
  }

  @Test("Starts the implementation once for every step, and carries links and configuration byte for byte")
  func bytesAndReuse() async throws {
    let adapter = SubprocessAdapter(command: Subprocess.faulty("echo"), timeout: 10)
    let strings = [
      "e\u{301}", "\u{E9}", "\u{212A}", "\u{0}", "\u{2028}\u{2029}", "\u{1F600}", "\u{FEFF}", "\"\\/", "\r\n\t",
      "\u{7F}\u{80}", "%FF%00+", "\u{10FFFF}",
    ]
    var processes: Set<String> = []
    for (index, text) in strings.enumerated() {
      let configuration = PartnerConfiguration(clientID: "id-\(text)", universalLink: "https://p.example/\(text)")
      let link = "https://p.example/appflip?state=\(text)#\(text)"
      let request = HandlerRequest(
        vectorID: "v/\(index)", step: 0, link: link, outcome: .granted(code: text), configuration: configuration)
      let observation = try await adapter.handle(request)
      let opened = try #require(observation.opened)
      #expect(Bytes.equal(opened.url, link), "\(Quoted.string(opened.url)) != \(Quoted.string(link))")
      #expect(opened.universalLinksOnly == true)
      let authorization = try #require(observation.authorizationRequests?.first)
      #expect(Bytes.equal(authorization.clientID, configuration.clientID))
      #expect(Bytes.equal(authorization.redirectURI, link))
      #expect(authorization.scopes.first == "v/\(index)")
      processes.insert(authorization.scopes.last ?? "")
    }
    #expect(processes.count == 1)
    #expect(adapter.implementation == "appflip-python-example 1.0.0 (python, protocol 2)")
  }

  @Test("Writes the harness's messages in pure ASCII, with exactly the fields their JSON Schemas define")
  func messagesMatchSchemas() throws {
    let text = "e\u{301}\u{0}\u{2028}\u{1F600}\"\\"
    let request = HandlerRequest(
      vectorID: "v", step: 1, link: "https://p.example/?s=\(text)", outcome: .consentDenied,
      configuration: PartnerConfiguration(clientID: text, universalLink: "https://p.example/"))
    let messages = [
      ("start", SubprocessProtocol.start(), 1), ("run", SubprocessProtocol.run(seq: 7, request: request), 1),
      ("run", SubprocessProtocol.run(seq: 7, request: request, version: 2), 2),
      ("code", SubprocessProtocol.code(seq: 7, outcome: .granted(code: text)), 2),
      ("stop", SubprocessProtocol.stop(), 1),
    ]
    for (name, line, version) in messages {
      #expect(line.last == UInt8(ascii: "\n") && line.dropLast().allSatisfy { $0 >= 0x20 && $0 < 0x7F })
      let message = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
      let schemaURL = Subprocess.root.appendingPathComponent("Docs/protocol/\(name).schema.json")
      let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
      let properties = try #require(schema["properties"] as? [String: Any])
      // Version 2's run has no outcome: the handler asks for its code instead.
      let versionOneOnly: Set<String> = name == "run" && version == 2 ? ["outcome"] : []
      #expect(Set(message.keys) == Set(properties.keys).subtracting(versionOneOnly), "\(name)")
      #expect(Set(message.keys).isSuperset(of: schema["required"] as? [String] ?? []))
      if name == "run" {
        let configuration = try #require(message["configuration"] as? [String: Any])
        let configurationSchema = try #require(properties["configuration"] as? [String: Any])
        let configurationFields = try #require(configurationSchema["properties"] as? [String: Any])
        #expect(Set(configuration.keys) == Set(configurationFields.keys))
        #expect(Bytes.equal(try #require(configuration["clientId"] as? String), text))
        #expect(Bytes.equal(try #require(message["link"] as? String), request.link))
        #expect(message["outcome"] as? [String: String] == (version == 1 ? ["result": "consent-denied"] : nil))
      }
    }
  }

  @Test("Over --exec, --jobs 2 writes the same reports as --jobs 1, but for times, each job with a process of its own")
  func parallelReportsMatch() async throws {
    let pidFile = Subprocess.pidFile()
    defer { try? FileManager.default.removeItem(at: pidFile) }
    let command = "env APPFLIP_FAULTY_PID_FILE=\(Subprocess.quoted(pidFile.path)) " + Subprocess.faulty("none")
    let arguments = ["--exec", command, "--timeout", "30", "--filter", "flow/*", "--filter", "check-order/*"]
    let one = try await TimelessReports.run(arguments + ["--jobs", "1"])
    let processesForOne = try Subprocess.pids(in: pidFile).count
    let two = try await TimelessReports.run(arguments + ["--jobs", "2"])
    #expect(one.junit.contains("interleaved"))
    #expect(one == two)
    #expect(processesForOne == 2, "one process (and its parent): \(processesForOne / 2)")
    #expect(try Subprocess.pids(in: pidFile).count - processesForOne == 4, "two processes")
  }

  @Test("The command line runs --exec with the Python example, exits 0 and writes JUnit with the in-process verdicts")
  func commandLine() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-cli-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let subprocessReport = folder.appendingPathComponent("exec.xml")
    let inProcessReport = folder.appendingPathComponent("in-process.xml")
    let output = CapturedOutput()
    let code = await ConformanceCommand.run(
      [
        "--exec", Subprocess.python("Examples/python/appflip_handler.py"), "--report", subprocessReport.path,
        "--timeout", "30",
      ],
      output: output.output)
    #expect(code == .success, "\(output.out)\n\(output.err)")
    let inProcessCode = await ConformanceCommand.run(
      ["--report", inProcessReport.path], output: CapturedOutput().output)
    #expect(inProcessCode == .success)

    let subprocess = try JUnitVerdicts.read(subprocessReport)
    let inProcess = try JUnitVerdicts.read(inProcessReport)
    let interleaved = Set(
      Subprocess.catalog.vectors.filter(\.vector.interleaved).map { "appflip.\($0.area)|\($0.vector.id)" })
    #expect(!interleaved.isEmpty && interleaved.isSubset(of: subprocess.keys))
    #expect(subprocess.count == Subprocess.catalog.vectors.count)
    #expect(subprocess == inProcess)
  }
}
