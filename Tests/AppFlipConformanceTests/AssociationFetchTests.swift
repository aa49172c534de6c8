import Foundation
import Testing

@testable import AppFlipConformance

/// The association profile fetching the file over https from a fixture server on 127.0.0.1
/// (`Tests/Fixtures/association/server.py`, a certificate made with openssl for the test and trusted with `--cacert`).
@Suite(
  "Association profile over https (--association against a loopback server)", .serialized,
  .enabled(
    if: PythonFixtures.python && TestCertificate.available,
    "needs python3, openssl and curl; CI installs what it needs and always runs it")
)
struct AssociationFetchTests {
  /// Starts the server in `mode` with a certificate of its own, runs `body` with them, and stops the server.
  func withServer<T>(_ mode: String, _ body: (TestCertificate, FixtureServer) async throws -> T) async throws -> T {
    let tls = try await TestCertificate()
    defer { tls.remove() }
    let server = try await FixtureServer.start(
      "../association/server.py", ["--tls", tls.certificate, tls.key, "--mode", mode])
    defer { server.stop() }
    return try await body(tls, server)
  }

  /// Runs the association profile against the server in `mode` with `arguments`, trusting its certificate.
  func run(_ mode: String, trust: Bool = true, _ arguments: [String] = []) async throws -> AssociationRun {
    try await withServer(mode) { tls, server in
      let config = tls.folder.appendingPathComponent("config.json")
      try Data(
        #"{"universalLink": "https://127.0.0.1:\#(server.ready.port)/appflip", "appID": "ABCDE12345.com.partner.app"}"#
          .utf8
      ).write(to: config)
      return try await AssociationRun.run(
        ["--association", "--config", config.path] + (trust ? ["--cacert", tls.certificate] : []) + arguments)
    }
  }

  @Test("A correct file served at the well-known URL passes, the CDN's user agent getting the same file")
  func served() async throws {
    let run = try await run(
      "file",
      [
        "--filter", "association/*", "--filter", "outcomes/granted-prod-opa", "--filter",
        "configuration/universal-link-*",
      ])
    defer { run.remove() }
    #expect(run.code == .success, "\(run.out)\n\(run.err)")
    for id in [
      "association/file/served", "association/file/size", "association/file/json", "association/app-id/listed",
      "association/cdn/no-credentials", "association/cdn/apple-user-agent", "association/links/plain",
      "outcomes/granted-prod-opa",
    ] {
      #expect(run.status(id) == "passed", "\(id): \(run.text(id))")
    }
    #expect(run.status("association/cdn/apple-network") == "skipped")
    #expect(run.text("association/cdn/apple-network").contains("cannot be checked from this machine"))
    #expect(run.status("configuration/universal-link-with-query") == "skipped", "another host is never fetched")
  }

  @Test(
    "What the server gets wrong fails its check with a sentence naming the cause",
    arguments: [
      (
        "redirect", "association/file/served", "failed",
        "HTTP 301 to \"https://www.127.0.0.1/.well-known/apple-app-site-association\""
      ),
      ("not-found", "association/file/served", "failed", "HTTP 404"),
      ("not-json", "association/file/json", "failed", "the file is not JSON: line 1, column 1"),
      ("oversize", "association/file/size", "failed", "bytes"),
      ("huge", "association/file/size", "failed", "over 1 MiB (the suite reads no more)"),
      ("unauthorized", "association/cdn/no-credentials", "warning", "HTTP 401"),
      ("forbid-apple", "association/cdn/apple-user-agent", "warning", "HTTP 403"),
      ("text-plain", "association/file/json", "warning", "\"text/plain\""),
    ])
  func mistakes(_ mode: String, _ id: String, _ status: String, _ cause: String) async throws {
    let run = try await run(mode, ["--filter", "association/*"])
    defer { run.remove() }
    #expect(run.status(id) == status, "\(id): \(run.text(id))")
    #expect(run.text(id).contains(cause), "\(run.text(id))")
    #expect(!run.rules(id).isEmpty && run.rules(id).allSatisfy { $0.hasPrefix("AF-UL-") }, "\(run.rules(id))")
    // A 401 is no file either: served fails too.
    let unusable = status == "failed" || mode == "unauthorized"
    #expect(run.code == (unusable ? .failure : .success))
    if unusable { #expect(run.status("association/links/plain") == "inconclusive") }
    // The file could not be used: one sentence on standard error says so (none when it could).
    #expect(run.err.hasPrefix(AssociationProfileTests.unchecked) == unusable, "\(run.err)")
    #expect(run.junitIsXML)
  }

  @Test("A host that does not answer within --timeout is an error of the served check, and the run ends with reports")
  func hang() async throws {
    let binary = try #require(SignalCases.executable, "appflip-conformance is built with the tests")
    try await withServer("never") { tls, server in
      let config = tls.folder.appendingPathComponent("config.json")
      try Data(
        #"{"universalLink": "https://127.0.0.1:\#(server.ready.port)/appflip", "appID": "ABCDE12345.com.partner.app"}"#
          .utf8
      ).write(to: config)
      let process = Process()
      process.executableURL = binary
      process.arguments = [
        "--association", "--config", config.path, "--cacert", tls.certificate, "--timeout", "2", "--quiet", "--report",
        tls.folder.appendingPathComponent("junit.xml").path, "--json", tls.folder.appendingPathComponent("r.json").path,
      ]
      let err = tls.folder.appendingPathComponent("err.txt")
      _ = FileManager.default.createFile(atPath: err.path, contents: nil)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = try FileHandle(forWritingTo: err)
      try process.run()
      defer { if process.isRunning { process.terminate() } }
      // One wait for the file, not one per vector: 465 vectors waiting 2 s each would take 15 minutes.
      #expect(await EndpointSignalTests.exit(of: process, within: 60), "the run did not end within 60 s")
      #expect(process.terminationStatus == 1)
      let document = try JSONSerialization.jsonObject(
        with: Data(contentsOf: tls.folder.appendingPathComponent("r.json")))
      let results = (document as? [String: Any])?["results"] as? [[String: Any]] ?? []
      let errors = results.filter { $0["status"] as? String == "error" }
      #expect(errors.map { $0["id"] as? String } == ["association/file/served"])
      #expect((errors.first?["message"] as? String)?.contains("did not answer within 2.0 seconds") == true)
      #expect(results.filter { $0["status"] as? String == "inconclusive" }.count > 400)
      let sentence = try String(contentsOf: err, encoding: .utf8)
      #expect(sentence.hasPrefix(AssociationProfileTests.unchecked + "the association file could not be fetched: "))
      #expect(sentence.contains("did not answer within 2.0 seconds; check the host, or raise --timeout"), "\(sentence)")
    }
  }

  @Test("A step that stops waiting for the file leaves every later step an answer that did not come in time")
  func abandoned() async throws {
    try await withServer("never") { tls, server in
      let source = AssociationSource(file: nil, timeout: 30, caCertificate: tls.certificate)
      let link = "https://127.0.0.1:\(server.ready.port)/appflip"
      let waiting = Task { await source.snapshot(for: link) }
      try await Task.sleep(nanoseconds: 300_000_000)
      waiting.cancel()
      let first = await waiting.value
      let later = await source.snapshot(for: link)
      for snapshot in [first, later] {
        #expect(snapshot.failure?.contains("did not answer within 30.0 seconds; check the host") == true)
      }
    }
  }

  @Test("A certificate the run does not trust is an error that names --cacert")
  func untrusted() async throws {
    let run = try await run("file", trust: false, ["--filter", "association/*"])
    defer { run.remove() }
    #expect(run.status("association/file/served") == "error")
    #expect(run.text("association/file/served").contains("--cacert"), "\(run.text("association/file/served"))")
    #expect(run.err.hasPrefix(AssociationProfileTests.unchecked) && run.err.contains("--cacert"), "\(run.err)")
  }

  @Test("An unreachable host is an error of the served check; every other check says it could not be judged")
  func unreachable() async throws {
    let config = FileManager.default.temporaryDirectory.appendingPathComponent("unreachable-\(UUID().uuidString).json")
    try Data(#"{"universalLink": "https://127.0.0.1:1/appflip", "appID": "ABCDE12345.com.partner.app"}"#.utf8)
      .write(to: config)
    defer { try? FileManager.default.removeItem(at: config) }
    let run = try await AssociationRun.run(["--association", "--config", config.path, "--filter", "association/*"])
    defer { run.remove() }
    #expect(run.code == .failure)
    #expect(run.status("association/file/served") == "error")
    #expect(run.text("association/file/served").contains("cannot be fetched"))
    #expect(run.ids("inconclusive").contains("association/links/plain"))
    #expect(
      run.err.hasPrefix(AssociationProfileTests.unchecked + "the association file could not be fetched: "),
      "\(run.err)")
  }

  @Test("The second request goes out as Apple's CDN, with its user agent")
  func userAgents() async throws {
    try await withServer("file") { tls, server in
      let url = "https://127.0.0.1:\(server.ready.port)/.well-known/apple-app-site-association"
      let snapshot = await AssociationSource.fetch(url, timeout: 60, caCertificate: tls.certificate)
      #expect(snapshot.status == 200 && snapshot.file != nil && snapshot.asApple?.sameBody == true)
      let agents = try await EndpointTransport.send(
        URL(string: "https://127.0.0.1:\(server.ready.port)/agents")!, headers: [], timeout: 60,
        caCertificate: tls.certificate)
      let seen = String(decoding: agents.body, as: UTF8.self).split(separator: "\n").map(String.init)
      #expect(seen.contains("AASA-Bot/1.0.0"), "\(seen)")
      #expect(seen.contains { $0.hasPrefix("appflip-conformance/") })
    }
  }
}
