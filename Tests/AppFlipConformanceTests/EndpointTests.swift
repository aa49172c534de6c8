import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

extension EndpointAnswer {
  /// An answer with at most one `Location` and no head, as the tests make them.
  init(status: Int, location: String?, body: some Collection<UInt8>) {
    self.init(status: status, locations: location.map { [$0] } ?? [], rawControl: nil, body: body)
  }
}

/// A Python server from `Tests/Fixtures/oauth-server/` on 127.0.0.1, started for one test and stopped at its end.
final class FixtureServer: @unchecked Sendable {
  /// The JSON line a fixture prints when it listens.
  struct Ready: Decodable, Sendable {
    var port: Int
    var endpoint: String?
    var cookie: String?
    var closedPort: Int?
    var port6: Int?
    var login: String?
    var tokenEndpoint: String?
    var clientSecret: String?
  }

  struct StartError: Error, CustomStringConvertible {
    var description: String
  }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/oauth-server")
  static let install = "python3 -m pip install -r Tests/Fixtures/oauth-server/requirements.txt"

  let process: Process
  let input: Pipe
  let log: URL
  let ready: Ready

  private init(process: Process, input: Pipe, log: URL, ready: Ready) {
    self.process = process
    self.input = input
    self.log = log
    self.ready = ready
  }

  /// Starts `script` with `arguments` and waits for its ready line.
  static func start(_ script: String, _ arguments: [String] = []) async throws -> FixtureServer {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [PythonFixtures.interpreter, folder.appendingPathComponent(script).path] + arguments
    let input = Pipe()
    let output = Pipe()
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-fixture-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.standardInput = input
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    let line = await firstLine(of: output.fileHandleForReading, process: process, timeout: 60)
    guard let ready = try? JSONDecoder().decode(Ready.self, from: line) else {
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      try? FileManager.default.removeItem(at: log)
      throw StartError(
        description:
          "\(script) \(arguments.joined(separator: " ")) printed no ready line (\(String(decoding: line, as: UTF8.self)));"
          + " stderr: \(errors.suffix(1500)); is its Python package installed? \(install)")
    }
    return FixtureServer(process: process, input: input, log: log, ready: ready)
  }

  /// Closes the server's standard input (it exits on its own), terminating it if it lingers; the waiting happens off
  /// the cooperative pool (two threads on a two-core machine), so stopping servers never stalls other tests.
  func stop() {
    try? input.fileHandleForWriting.close()
    let process = self.process
    let log = self.log
    DispatchQueue.global().async {
      let deadline = Date().addingTimeInterval(5)
      while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      try? FileManager.default.removeItem(at: log)
    }
  }

  /// The URL of a path on the server.
  func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(ready.port)\(path)")!
  }

  /// Reads up to the first newline, off the cooperative pool; kills the process when it takes longer than `timeout`.
  private static func firstLine(of handle: FileHandle, process: Process, timeout: Double) async -> Data {
    await withCheckedContinuation { continuation in
      let done = DoneFlag()
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        if !done.isSet, process.isRunning { process.terminate() }
      }
      DispatchQueue.global().async {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          line.append(chunk)
        }
        done.set()
        continuation.resume(returning: line.prefix { $0 != UInt8(ascii: "\n") })
      }
    }
  }

  private final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
  }
}

/// Whether Python (and the real server's packages) can run here; CI always runs the tests so a missing install fails.
enum PythonFixtures {
  static let inCI = ProcessInfo.processInfo.environment["CI"] != nil

  /// Whether python3 can import `modules` (comma-separated).
  static func canImport(_ modules: String) -> Bool { canRun(interpreter, "-c", "import \(modules)") }

  /// Whether `tool arguments…` runs and exits 0.
  static func canRun(_ tool: String, _ arguments: String...) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return false
    }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  static let python = inCI || canImport("json")

  /// The interpreter `python3` runs, resolved once: on a machine where `python3` is a launcher (pyenv's shims are bash
  /// scripts that start several processes, ~0.1 s of CPU each time), the suite's hundreds of fixture starts pay it
  /// once instead of each time; `python3` itself where it cannot be asked.
  static let interpreter: String = {
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import sys; print(sys.executable)"]
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "python3" }
    let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    process.waitUntilExit()
    return FileManager.default.isExecutableFile(atPath: path) ? path : "python3"
  }()
  static let oauthServer = inCI || canImport("authlib, flask, sqlalchemy")
  static let oauthlib = inCI || canImport("oauthlib")
  static let djangoOAuthToolkit = inCI || canImport("django, oauth2_provider")
}

@Suite(
  "EndpointAdapter against a stub endpoint",
  .enabled(
    if: PythonFixtures.python,
    "needs python3 (standard library only) for Tests/Fixtures/oauth-server/stub.py; CI installs what it needs and always runs it"
  )
)
struct EndpointAdapterTests {
  static let request = HandlerRequest(
    vectorID: "endpoint/test", step: 0,
    link: "https://partner.example/appflip?response_type=code&state=a%2Bb%20c%26d&redirect_uri=https%3A%2F%2Fx",
    outcome: .granted(code: "unused"), configuration: .default)

  func adapter(_ url: URL, headers: [(String, String)] = [], timeout: Double = 5) -> EndpointAdapter {
    EndpointAdapter(endpoint: url, headers: headers, timeout: timeout)
  }

  @Test("An off-site redirect is what the endpoint opened, with the Location exactly as sent")
  func offSite() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let observation = try await adapter(stub.url("/offsite")).handle(Self.request)
    #expect(
      observation.opened
        == OpenedURL(
          url: "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=c%2F1&state=a%2Bb%20c",
          universalLinksOnly: nil))
    #expect(observation.authorizationRequests == nil)
  }

  @Test("The link's query is sent byte for byte, after & when the endpoint has a query, with the configured headers")
  func sendsQueryAndHeaders() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let endpoint = adapter(
      stub.url("/echo?tenant=a"), headers: [("Cookie", "session=abc; theme=dark"), ("X-Test", "yes")])
    let observation = try await endpoint.handle(Self.request)
    #expect(
      observation.opened?.url
        == "https://echo.example/?tenant=a&response_type=code&state=a%2Bb%20c%26d&redirect_uri=https%3A%2F%2Fx"
        + "#cookie=session=abc; theme=dark|x-test=yes")
  }

  @Test("A redirect within the endpoint's origin (its login page) opens nothing and says so")
  func sameOrigin() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let observation = try await adapter(stub.url("/same-origin")).handle(Self.request)
    #expect(observation.opened == nil)
    #expect(observation.diagnostics.contains("/login?next=%2Foauth"))
    #expect(observation.diagnostics.contains("--cookie"))
  }

  @Test("A redirect to another port of the same host, or a scheme-relative one to another host, is off-site")
  func otherOrigins() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    #expect(try await adapter(stub.url("/other-port")).handle(Self.request).opened?.url == "http://127.0.0.1:1/cb")
    #expect(try await adapter(stub.url("/relative-off")).handle(Self.request).opened?.url == "http://evil.example/cb")
  }

  @Test("A page without a redirect opens nothing and quotes the page")
  func page() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let observation = try await adapter(stub.url("/page")).handle(Self.request)
    #expect(observation.opened == nil)
    #expect(observation.diagnostics.contains("HTTP 200"))
    #expect(observation.diagnostics.contains("Allow Google"))
  }

  @Test("A 5xx answer is an error with the status and the start of the body")
  func serverError() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let error = await #expect(throws: EndpointError.self) {
      try await adapter(stub.url("/error")).handle(Self.request)
    }
    #expect(error?.description.contains("HTTP 500") == true)
    #expect(error?.diagnostics == "Traceback: database is locked")
  }

  @Test("Through the runner, a 5xx is an error result on that vector, never a crash of the run")
  func serverErrorInRunner() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let catalog = VectorLoader.loadBundled(.endpoint)
    let vector = try #require(catalog.vectors.first)
    let result = await Runner(adapter: adapter(stub.url("/error")), timeout: 60).run(vector)
    #expect(result.status == .error)
    #expect(result.message.contains("HTTP 500"))
    #expect(result.diagnostics.contains("database is locked"))
  }

  @Test("A refused connection is an error that names the endpoint")
  func refused() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let closed = URL(string: "http://127.0.0.1:\(try #require(stub.ready.closedPort))/oauth/authorize")!
    let error = await #expect(throws: EndpointError.self) { try await adapter(closed).handle(Self.request) }
    guard case .unreachable(let url, _)? = error else {
      Issue.record("expected .unreachable, got \(String(describing: error))")
      return
    }
    #expect(url.hasPrefix(closed.absoluteString + "?response_type=code"))
  }

  @Test("An endpoint that does not answer in time is an error after the timeout")
  func timeout() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let error = await #expect(throws: EndpointError.self) {
      try await adapter(stub.url("/slow"), timeout: 0.5).handle(Self.request)
    }
    guard case .timedOut(_, let seconds)? = error else {
      Issue.record("expected .timedOut, got \(String(describing: error))")
      return
    }
    #expect(seconds == 0.5)
  }

  @Test("A redirect to the request itself is a loop, reported as an error")
  func loop() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let error = await #expect(throws: EndpointError.self) {
      try await adapter(stub.url("/loop")).handle(Self.request)
    }
    guard case .redirectLoop? = error else {
      Issue.record("expected .redirectLoop, got \(String(describing: error))")
      return
    }
  }

  @Test("A redirect with two Location headers fails AF-EP-6 and opens nothing; one with none is an error")
  func locationCount() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let two = try await adapter(stub.url("/two")).handle(Self.request)
    #expect(two.opened == nil)
    #expect(two.findings.map(\.rule) == ["AF-EP-6"] && two.findings.first?.level == .must)
    #expect(
      two.findings.first?.actual
        == "the answer has 2 Location headers (\"https://a.example/1\", \"https://b.example/2\")")
    let bare = await #expect(throws: EndpointError.self) { try await adapter(stub.url("/bare")).handle(Self.request) }
    guard case .missingLocation(302, _)? = bare else {
      Issue.record("expected .missingLocation, got \(String(describing: bare))")
      return
    }
  }
}

@Suite("EndpointAdapter: reading an answer, and which redirects leave the endpoint's origin")
struct EndpointOriginTests {
  static let requestURL = URL(string: "http://127.0.0.1:8080/oauth/authorize?state=s1")!

  static let sameOrigin = [
    "/login?next=%2Foauth", "login", "?error=access_denied", "HTTP://127.0.0.1:8080/x", "http://127.0.0.1:8080",
    "http://user@127.0.0.1:8080/x", "//127.0.0.1:8080/x", "http://127.0.0.1:08080/x",
  ]
  static let offSite = [
    "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=c1&state=s1", "http://127.0.0.1/x",
    "https://127.0.0.1:8080/x", "http://localhost:8080/x", "http://127.0.0.2:8080/x", "javascript:alert(1)",
    "com.partner.app://callback?code=c1", "http://127.0.0.1:8080@evil.example/x",
  ]

  @Test("A redirect on the endpoint's scheme, host (any case) and port opens nothing", arguments: sameOrigin)
  func same(_ location: String) throws {
    let observation = try EndpointAdapter.observe(
      EndpointAnswer(status: 302, location: location, body: []), requestURL: Self.requestURL)
    #expect(observation.opened == nil)
  }

  @Test("A redirect to another scheme, host or port is opened exactly as sent", arguments: offSite)
  func off(_ location: String) throws {
    let observation = try EndpointAdapter.observe(
      EndpointAnswer(status: 303, location: location, body: []), requestURL: Self.requestURL)
    #expect(observation.opened == OpenedURL(url: location, universalLinksOnly: nil))
  }

  @Test("Default ports count as written: http://host/ and http://host:80/ are one origin")
  func defaultPort() throws {
    let observation = try EndpointAdapter.observe(
      EndpointAnswer(status: 302, location: "http://127.0.0.1:80/login", body: []),
      requestURL: URL(string: "http://127.0.0.1/oauth/authorize")!)
    #expect(observation.opened == nil)
  }

  @Test("Any status other than 3xx or 5xx opens nothing, even with a Location header")
  func nonRedirect() throws {
    for status in [200, 201, 400, 401, 403, 404] {
      let observation = try EndpointAdapter.observe(
        EndpointAnswer(status: status, location: "https://evil.example/", body: Array("denied".utf8)),
        requestURL: Self.requestURL)
      #expect(observation.opened == nil)
      #expect(observation.diagnostics.contains("HTTP \(status)"))
    }
  }

  @Test("A link whose query holds a byte a URL must encode is an error, never sent re-encoded")
  func unencodable() async {
    let adapter = EndpointAdapter(endpoint: URL(string: "http://127.0.0.1:9/oauth/authorize")!, headers: [], timeout: 1)
    let request = HandlerRequest(
      vectorID: "endpoint/test", step: 0, link: "https://partner.example/appflip?state=a b",
      outcome: .granted(code: "unused"), configuration: .default)
    let error = await #expect(throws: EndpointError.self) { try await adapter.handle(request) }
    #expect(error == .invalidRequestURL("http://127.0.0.1:9/oauth/authorize?state=a b"))
  }

  @Test("A relative redirect that resolves to the request URL is a loop")
  func relativeLoop() {
    #expect(throws: EndpointError.self) {
      try EndpointAdapter.observe(
        EndpointAnswer(status: 307, location: "/oauth/authorize?state=s1", body: []), requestURL: Self.requestURL)
    }
  }
}

@Suite(
  "Endpoint profile against a real OAuth 2.0 server (Authlib, Tests/Fixtures/oauth-server)",
  .enabled(
    if: PythonFixtures.oauthServer,
    "needs Authlib, Flask and SQLAlchemy for python3: python3 -m pip install -r Tests/Fixtures/oauth-server/requirements.txt"
  )
)
struct EndpointRealServerTests {
  static let catalog = VectorLoader.loadBundled(.endpoint)

  /// Every accepted vector: the 12 App Flip URLs and the unusual states.
  static var accepted: Set<String> {
    Set(catalog.vectors.filter { $0.vector.steps.first?.expect.verdict == .accepted }.map(\.vector.id))
  }

  /// The client-verification vectors (AF-EP-3, SHOULD): Authlib shows an error page, so they warn.
  static var clientVerification: Set<String> {
    Set(
      catalog.vectors.map(\.vector.id).filter {
        $0.hasPrefix("endpoint/client-exact/")
      })
  }

  /// The AF-EP-4 vectors: a code only for a byte-equal client_id.
  static var clientExact: Set<String> {
    Set(catalog.vectors.map(\.vector.id).filter { $0.hasPrefix("endpoint/client-exact/") })
  }

  /// The AF-EP-4 vectors: a foreign redirect_uri with another error.
  static var foreignError: Set<String> {
    Set(catalog.vectors.map(\.vector.id).filter { $0.hasPrefix("endpoint/foreign-error/") })
  }

  static let sandbox: Set<String> = [
    "endpoint/accepted/sandbox-chromecast", "endpoint/accepted/sandbox-chromecast-dev",
    "endpoint/accepted/sandbox-chromecast-enterprise", "endpoint/accepted/sandbox-opa",
    "endpoint/accepted/sandbox-opa-dev", "endpoint/accepted/sandbox-opa-enterprise",
  ]

  /// Authlib answers HTTP 500 for these redirect_uri values (a character outside NQSCHAR in its error description).
  static let outsideNQSChar: Set<String> = [
    "endpoint/refused/backslash/in-path", "endpoint/refused/backslash/before-at",
    "endpoint/refused/look-alike/homoglyph-cyrillic-o", "endpoint/refused/look-alike/fullwidth-dot",
    "endpoint/refused/whitespace/trailing-tab", "endpoint/refused/whitespace/trailing-newline",
    "endpoint/refused/whitespace/inner-newline", "endpoint/refused/whitespace/trailing-nul",
    "endpoint/refused/whitespace/inner-tab",
  ]

  /// The vector ids of each status other than passed.
  struct Outcome: Equatable, CustomStringConvertible {
    var failed: Set<String> = []
    var warned: Set<String> = []
    var errored: Set<String> = []
    var inconclusive: Set<String> = []
    var other: Set<String> = []

    var description: String {
      "failed \(failed.sorted()), warned \(warned.sorted()), errored \(errored.sorted()),"
        + " inconclusive \(inconclusive.sorted()), other \(other.sorted())"
    }
  }

  /// Starts the fixture with `arguments`, runs every bundled endpoint vector against it, and stops it.
  func run(
    _ arguments: [String], script: String = "server.py", signedIn: Bool = true, proven: Bool? = nil, pkce: Bool = false
  ) async throws -> Outcome {
    #expect(Self.catalog.problems.isEmpty, "\(Self.catalog.problems)")
    let server = try await FixtureServer.start(script, arguments)
    defer { server.stop() }
    let endpoint = try #require(server.ready.endpoint.flatMap(URL.init(string:)))
    let cookie = try #require(server.ready.cookie)
    let adapter = EndpointAdapter(
      endpoint: endpoint, headers: signedIn ? [("Cookie", cookie)] : [], timeout: 10, parameters: [], scope: nil,
      pkce: pkce)
    let preflight = await adapter.prove(configuration: .default)
    let isProven = if case .proven = preflight { true } else { false }
    #expect(isProven == (proven ?? signedIn), "\(preflight)")
    let results = await Runner(adapter: adapter, timeout: 15).run(Self.catalog)
    var outcome = Outcome()
    for result in results {
      switch result.status {
      case .passed: break
      case .failed: outcome.failed.insert(result.id)
      case .warning: outcome.warned.insert(result.id)
      case .error: outcome.errored.insert(result.id)
      case .skipped, .stale: outcome.other.insert(result.id)
      case .inconclusive: outcome.inconclusive.insert(result.id)
      }
    }
    return outcome
  }

  @Test("The bundled endpoint profile has at least 40 vectors, 23 of them accepted, all loading cleanly")
  func corpus() {
    #expect(Self.catalog.problems.isEmpty)
    #expect(Self.catalog.vectors.count >= 40)
    #expect(Self.accepted.count == 23)
    #expect(Self.clientVerification.count == 9)
    #expect(Self.foreignError.count == 10)
  }

  @Test("A correctly configured server passes every vector; only AF-EP-3's error page warns, space as + is only noted")
  func correct() async throws {
    let outcome = try await run([])
    #expect(
      outcome == Outcome(warned: Self.clientVerification), "\(outcome)")
  }

  // The oauthlib fixture, as the Authlib one's SQLite session fails requests that overlap.
  @Test("Against an endpoint, --jobs 2 writes the same reports as --jobs 1, but for times")
  func parallelReportsMatch() async throws {
    let server = try await FixtureServer.start("oauthlib_server.py")
    defer { server.stop() }
    let endpoint = try #require(server.ready.endpoint)
    let arguments = ["--endpoint", endpoint, "--cookie", try #require(server.ready.cookie)]
    let one = try await TimelessReports.run(arguments + ["--jobs", "1"])
    let two = try await TimelessReports.run(arguments + ["--jobs", "2"])
    #expect(one.junit.contains("endpoint/accepted/prod-opa"))
    #expect(one == two)
  }

  @Test("Without the sandbox URLs, exactly the six sandbox vectors fail")
  func noSandbox() async throws {
    let outcome = try await run(["--no-sandbox"])
    #expect(
      outcome == Outcome(failed: Self.sandbox, warned: Self.clientVerification),
      "\(outcome)")
  }

  @Test(
    "With only /r/ project URLs the preflight gets no code: the accepted vectors fail, every refusal is inconclusive")
  func projectURLsOnly() async throws {
    let outcome = try await run(["--project-urls-only"], proven: false)
    let refusals = Set(Self.catalog.vectors.map(\.vector.id)).subtracting(Self.accepted)
    #expect(outcome == Outcome(failed: Self.accepted, inconclusive: refusals), "\(outcome)")
  }

  @Test("Without the signed-in user's cookie the accepted vectors fail and every refusal is inconclusive, not passed")
  func signedOut() async throws {
    let outcome = try await run([], signedIn: false)
    let refusals = Set(Self.catalog.vectors.map(\.vector.id)).subtracting(Self.accepted)
    #expect(outcome == Outcome(failed: Self.accepted, inconclusive: refusals), "\(outcome)")
  }

  @Test(
    "Errors redirected to an unvalidated redirect_uri fail exactly the foreign-error and refused vectors it sends off")
  func openRedirectErrors() async throws {
    let outcome = try await run(["--open-redirect-errors"])
    #expect(outcome.failed.isSuperset(of: Self.foreignError), "\(outcome)")
    #expect(outcome.failed.allSatisfy { $0.hasPrefix("endpoint/foreign-error/") || $0.hasPrefix("endpoint/refused/") })
    #expect(outcome.warned == Self.clientVerification && outcome.errored.isEmpty && outcome.inconclusive.isEmpty)
  }

  @Test("A client_id trimmed before the lookup gets a code: exactly the padded client_id vectors fail (MUST)")
  func trimmedClientID() async throws {
    let outcome = try await run(["--trim-client-id"])
    let padded: Set = [
      "endpoint/client-exact/trailing-space", "endpoint/client-exact/leading-space",
      "endpoint/client-exact/trailing-tab", "endpoint/client-exact/trailing-dot", "endpoint/client-exact/trailing-nul",
    ]
    #expect(outcome == Outcome(failed: padded, warned: Self.clientVerification.subtracting(padded)), "\(outcome)")
  }

  @Test("A redirect_uri check after a URL parse and a path decoding fails the tab, newline and escape vectors")
  func parsedRedirect() async throws {
    let outcome = try await run(["--parsed-redirect"])
    let decoded: Set = [
      "endpoint/refused/whitespace/inner-tab", "endpoint/refused/percent/encoded-slash-in-path",
      "endpoint/refused/whitespace/trailing-tab", "endpoint/refused/whitespace/trailing-newline",
      "endpoint/refused/whitespace/inner-newline", "endpoint/refused/percent/encoded-dot-in-bundle",
      "endpoint/refused/percent/encoded-letter-in-path", "endpoint/refused/percent/encoded-host-character",
    ]
    #expect(outcome == Outcome(failed: decoded, warned: Self.clientVerification), "\(outcome)")
  }

  @Test("Authlib's HTTP 500 for a redirect_uri outside NQSCHAR is an error on exactly those nine vectors")
  func unguarded() async throws {
    let outcome = try await run(["--unguarded"])
    #expect(
      outcome
        == Outcome(warned: Self.clientVerification, errored: Self.outsideNQSChar),
      "\(outcome)")
  }
}

@Suite(
  "Endpoint profile against oauthlib's WebApplicationServer (Tests/Fixtures/oauth-server/oauthlib_server.py)",
  .enabled(
    if: PythonFixtures.oauthlib,
    "needs oauthlib for python3: python3 -m pip install -r Tests/Fixtures/oauth-server/requirements.txt")
)
struct EndpointOAuthlibTests {
  typealias Outcome = EndpointRealServerTests.Outcome

  @Test("Configured exactly, oauthlib passes every vector; only AF-EP-3's error page warns")
  func correct() async throws {
    let outcome = try await EndpointRealServerTests().run([], script: "oauthlib_server.py")
    #expect(outcome == Outcome(warned: EndpointRealServerTests.clientVerification), "\(outcome)")
  }

  @Test("A redirect_uri check that folds case and trims fails exactly the case, trailing-slash and newline vectors")
  func loose() async throws {
    let outcome = try await EndpointRealServerTests().run(["--loose-redirect"], script: "oauthlib_server.py")
    let expected: Set = [
      "endpoint/refused/case/scheme-upper", "endpoint/refused/case/host-mixed",
      "endpoint/refused/case/host-sandbox-upper", "endpoint/refused/case/path-upper-a",
      "endpoint/refused/case/bundle-lower", "endpoint/refused/case/bundle-chromecast-lower",
      "endpoint/refused/trailing/slash", "endpoint/refused/whitespace/trailing-newline",
    ]
    #expect(outcome == Outcome(failed: expected, warned: EndpointRealServerTests.clientVerification), "\(outcome)")
  }

  @Test("A server that requires PKCE stops the preflight with --pkce as the fix, and passes with --pkce")
  func pkce() async throws {
    let server = try await FixtureServer.start("oauthlib_server.py", ["--require-pkce"])
    defer { server.stop() }
    let endpoint = try #require(server.ready.endpoint.flatMap(URL.init(string:)))
    let headers = [("Cookie", try #require(server.ready.cookie))]
    let without = await EndpointAdapter(endpoint: endpoint, headers: headers, timeout: 10).prove(
      configuration: .default)
    guard case .failed(let diagnosis) = without else {
      Issue.record("the preflight got a code without PKCE")
      return
    }
    #expect(diagnosis.contains("requires PKCE; add --pkce"))
    let outcome = try await EndpointRealServerTests().run(["--require-pkce"], script: "oauthlib_server.py", pkce: true)
    #expect(outcome == Outcome(warned: EndpointRealServerTests.clientVerification), "\(outcome)")
  }
}

/// Issue 9 follow-up: the older endpoint vectors attack the partner's configured redirect URI, not a sample URL.
@Suite("Endpoint vectors written with {redirect_uri} attack the configuration's own URL")
struct EndpointPlaceholderVectorTests {
  static let catalog = VectorLoader.loadBundled(.endpoint)

  /// The rendered link of a bundled endpoint vector under a configuration.
  func link(_ id: String, _ configuration: PartnerConfiguration) throws -> String {
    let vector = try #require(Self.catalog.vectors.first { $0.vector.id == id }?.vector)
    guard let step = try? RenderedStep.render(vector.steps[0], with: configuration, profile: .endpoint)
    else {
      Issue.record("\(id) did not render")
      return ""
    }
    return step.link
  }

  @Test("No redirect-uri, client or state vector names a literal App Flip URL; only the twelve accepted ones do")
  func noLiterals() {
    let literal = Self.catalog.vectors.filter { loaded in
      loaded.vector.steps.contains { step in
        guard case .params(let parameters, _) = step.incoming else { return false }
        return parameters.contains { $0.name == "redirect_uri" && ($0.value ?? "").contains("googleusercontent") }
      }
    }.map(\.vector.id)
    #expect(
      Set(literal)
        == Set(EndpointRealServerTests.accepted.filter { $0.hasPrefix("endpoint/accepted/") }).union([
          "endpoint/refused/project/r-sandbox-project-id", "endpoint/refused/scheme/http-sandbox",
        ]), "\(literal.sorted())")
  }

  @Test("Under a configuration whose first URL is sandbox OPA, the near-misses and the states are built from it")
  func configured() throws {
    let sandbox = "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA"
    let configuration = PartnerConfiguration(
      clientID: "42-partner.apps.googleusercontent.com", universalLink: "https://partner.example/appflip",
      allowList: RedirectAllowList([sandbox]))
    let encoded = PercentEncoding.encode(sandbox)
    #expect(try link("endpoint/refused/trailing/slash", configuration).contains("redirect_uri=\(encoded)%2F&"))
    #expect(
      try link("endpoint/refused/case/host-sandbox-upper", configuration)
        .contains("OAUTH-REDIRECT-SANDBOX.GOOGLEUSERCONTENT.COM"))
    #expect(try link("endpoint/refused/look-alike/bundle-prefix", configuration).contains("com.google.OP&"))
    #expect(try link("endpoint/client-exact/other-client", configuration).contains("redirect_uri=\(encoded)&"))
    #expect(try link("endpoint/state/plus", configuration).contains("redirect_uri=\(encoded)&"))
  }
}

@Suite("An endpoint's redirect query")
struct EndpointQueryTests {
  @Test("Is split in UTF-8: '&' followed by a combining accent still ends a parameter, and values are form-decoded")
  func splitInUTF8() {
    let parameters = EndpointAdapter.parameters(of: "https://g.example/r?code=a+b&\u{301}state=s%2B#frag&x=y")
    #expect(parameters.map(\.0) == ["code", "\u{301}state"])
    #expect(parameters.map(\.1) == ["a b", "s+"])
  }
}
