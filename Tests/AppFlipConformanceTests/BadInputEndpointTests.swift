import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 28, what goes out on the wire: one Host header, no proxy from the environment, a body whose length is
/// certain, and no curl child left behind by a signal.
@Suite(
  "BadInput: endpoint requests carry only what the user meant",
  .serialized,
  .enabled(
    if: PythonFixtures.python,
    "needs python3 (standard library only) for Tests/Fixtures/oauth-server/faults.py; CI installs what it needs and always runs it"
  )
)
struct BadInputEndpointTests {
  @Test("A Host header the user gives replaces the suite's own: the request has one Host, and no other duplicate")
  func oneHost() throws {
    let parts = try EndpointHTTPClient.RequestParts("http://127.0.0.1:8000/authorize?x=1")
    let request = EndpointHTTPClient.request(
      parts, headers: [("host", "staging.example"), ("X-Test", "1")])
    let lines = request.split(separator: "\r\n").map(String.init)
    #expect(lines.filter { $0.lowercased().hasPrefix("host:") } == ["Host: staging.example"])
    #expect(lines.contains("X-Test: 1"))
    let plain = EndpointHTTPClient.request(parts, headers: [])
    #expect(plain.split(separator: "\r\n").filter { $0.hasPrefix("Host:") } == ["Host: 127.0.0.1:8000"])
  }

  @Test("A header the user gives replaces the suite's own of its name, and one the user repeats is sent each time")
  func userHeaders() throws {
    let given = [("accept", "application/json"), ("Cookie", "sid=1"), ("Cookie", "csrf=2"), ("User-Agent", "CDN")]
    let parts = try EndpointHTTPClient.RequestParts("http://127.0.0.1:8000/authorize")
    let http = EndpointHTTPClient.request(parts, headers: given).split(separator: "\r\n").map(String.init)
    let curl = EndpointCurl.configuration("https://h/", headers: given, seconds: 1, caCertificate: nil)
      .split(separator: "\n").filter { $0.hasPrefix("header = ") }.map { String($0.dropFirst(10).dropLast()) }
    for (path, lines) in [("http", http), ("curl", curl)] {
      let named = { (name: String) in lines.filter { $0.lowercased().hasPrefix(name + ":") } }
      #expect(named("accept") == ["Accept: application/json"], "\(path): \(lines)")
      #expect(named("cookie") == ["Cookie: sid=1", "Cookie: csrf=2"], "\(path): \(lines)")
      #expect(named("user-agent") == ["User-Agent: CDN"], "\(path): \(lines)")
    }
  }

  @Test("Two Content-Length headers that disagree are an error naming both; two that agree are one length")
  func contentLengths() async throws {
    let server = try await FixtureServer.start("faults.py")
    defer { server.stop() }
    let adapter = EndpointAdapter(endpoint: server.url("/two-lengths"), headers: [], timeout: 5)
    guard case .conflictingLengths(_, "5, 6")? = await EndpointFaultTests.failure(of: adapter, path: "/two-lengths")
    else {
      Issue.record("/two-lengths is not .conflictingLengths")
      return
    }
    #expect(EndpointError.conflictingLengths(url: "u", values: "5, 6").description.contains("send one Content-Length"))
    let same = try await EndpointTransport.send(server.url("/same-lengths"), headers: [], timeout: 5)
    #expect(same.page == "hello")
  }

  @Test("curl is told to reach the endpoint itself, never a proxy from $https_proxy or $ALL_PROXY")
  func noProxyOption() {
    let options = EndpointCurl.configuration("https://h/", headers: [], seconds: 1, caCertificate: nil)
    #expect(options.split(separator: "\n").contains("noproxy = \"*\""))
  }

  /// Runs the built command against the https fault server with these arguments and environment; its exit status.
  static func run(_ arguments: [String], environment: [String: String] = [:], folder: URL) throws -> Process {
    let binary = try #require(SignalCases.executable, "appflip-conformance is built with the tests")
    let process = Process()
    process.executableURL = binary
    process.arguments =
      arguments + ["--quiet", "--report", folder.path + "/junit.xml", "--json", folder.path + "/results.json"]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }
}

/// The https side of `BadInputEndpointTests`: the built command against the fault server over TLS.
@Suite(
  "BadInput: https endpoint requests go to the endpoint only, and leave no curl behind",
  .serialized,
  .enabled(
    if: PythonFixtures.python && TestCertificate.available, "needs python3, openssl and curl; CI installs them")
)
struct BadInputHTTPSTests {
  /// The fault server over TLS with a fresh certificate, and a folder for the run's reports, all removed afterwards.
  static func withTLSFaults(_ body: (TestCertificate, FixtureServer, URL) async throws -> Void) async throws {
    let tls = try await TestCertificate()
    defer { tls.remove() }
    let server = try await FixtureServer.start("faults.py", ["--tls", tls.certificate, tls.key])
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-tls-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(tls, server, folder)
  }

  @Test("An https endpoint is reached directly with $https_proxy and $ALL_PROXY set to a dead proxy")
  func environmentProxyIgnored() async throws {
    try await Self.withTLSFaults { tls, server, folder in
      let dead = "http://127.0.0.1:9"
      let process = try BadInputEndpointTests.run(
        [
          "--endpoint", "https://127.0.0.1:\(server.ready.port)/offsite", "--cacert", tls.certificate,
          "--no-preflight", "--filter", "endpoint/accepted/*",
        ],
        environment: ["https_proxy": dead, "HTTPS_PROXY": dead, "ALL_PROXY": dead, "all_proxy": dead], folder: folder)
      #expect(await EndpointSignalTests.exit(of: process, within: 60), "the run did not end within 60 s")
      let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
      #expect(!junit.contains("could not connect"), "a request went to the proxy")
      #expect(!junit.contains("<error"), "a request failed")
    }
  }

  @Test("SIGINT during an https request ends the run with no curl left holding the connection")
  func noCurlLeft() async throws {
    try await Self.withTLSFaults { tls, server, folder in
      for _ in 0..<3 {
        let process = try BadInputEndpointTests.run(
          [
            "--endpoint", "https://127.0.0.1:\(server.ready.port)/never", "--cacert", tls.certificate, "--no-preflight",
            "--filter", "endpoint/accepted/*", "--timeout", "60",
          ], folder: folder)
        var waited = 0
        while await EndpointSignalTests.held(server, caCertificate: tls.certificate) < 1 && waited < 600 {
          try await Task.sleep(nanoseconds: 50_000_000)
          waited += 1
        }
        try #require(await EndpointSignalTests.held(server, caCertificate: tls.certificate) == 1, "no request came")
        kill(process.processIdentifier, SIGINT)
        #expect(await EndpointSignalTests.exit(of: process, within: 30), "the run did not end within 30 s")
        #expect(process.terminationStatus == 130)
        // The server sees the connection close only once curl is gone.
        var held = 1
        for _ in 0..<100 where held > 0 {
          try await Task.sleep(nanoseconds: 50_000_000)
          held = await EndpointSignalTests.held(server, caCertificate: tls.certificate)
        }
        #expect(held == 0, "a curl child still holds the request open after the run ended")
      }
    }
  }
}
