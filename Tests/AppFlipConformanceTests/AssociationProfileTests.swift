import Foundation
import Testing

@testable import AppFlipConformance

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A run of the association profile by the built command in a process of its own (as a partner runs it, and off this
/// process's cooperative pool, which timing-bound tests share), with its reports in a folder of its own.
struct AssociationRun {
  /// The fixtures: association files with each mistake, and a configuration naming `ABCDE12345.com.partner.app`.
  static let fixtures = SourceTree.root.appendingPathComponent("Tests/Fixtures/association")

  let code: ConformanceCommand.ExitCode?
  /// What the command printed on standard output and standard error.
  let out: String
  let err: String
  let folder: URL
  /// Each result of the JSON report by id.
  let results: [String: [String: Any]]

  /// Runs the command with `arguments` plus its reports in a fresh folder (JUnit, JSON, Markdown), and a `--timeout`
  /// of 60 s unless `arguments` give one: a machine busy with other builds must not turn a slow answer into an error.
  static func run(_ arguments: [String]) async throws -> AssociationRun {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("association-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let binary = try #require(SignalCases.executable, "appflip-conformance is built with the tests")
    let process = Process()
    process.executableURL = binary
    process.arguments =
      arguments + (arguments.contains("--timeout") ? [] : ["--timeout", "60"]) + [
        "--quiet", "--report", folder.appendingPathComponent("junit.xml").path, "--json",
        folder.appendingPathComponent("results.json").path, "--markdown",
        folder.appendingPathComponent("summary.md").path,
      ]
    let out = folder.appendingPathComponent("out.txt")
    let err = folder.appendingPathComponent("err.txt")
    for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    #expect(await EndpointSignalTests.exit(of: process, within: 120), "the run did not end within 120 s")
    let code = ConformanceCommand.ExitCode(rawValue: process.terminationStatus)
    var results: [String: [String: Any]] = [:]
    if let data = try? Data(contentsOf: folder.appendingPathComponent("results.json")),
      let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    {
      for result in document["results"] as? [[String: Any]] ?? [] { results[result["id"] as? String ?? ""] = result }
    }
    let junit = folder.appendingPathComponent("junit.xml")
    if let keep = ProcessInfo.processInfo.environment["APPFLIP_BADINPUT_REPORTS"], !keep.isEmpty {
      // Kept for the junit-10 schema check of `.ci/run`, beside the BadInput suite's.
      try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
      try? FileManager.default.copyItem(
        at: junit, to: URL(fileURLWithPath: keep).appendingPathComponent("association-\(folder.lastPathComponent).xml"))
    }
    return AssociationRun(
      code: code, out: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
      err: (try? String(contentsOf: err, encoding: .utf8)) ?? "", folder: folder, results: results)
  }

  /// Whether the JUnit report is well-formed XML.
  var junitIsXML: Bool { XMLParser(contentsOf: folder.appendingPathComponent("junit.xml"))?.parse() == true }

  /// Runs against one fixture file (`--association-file`) with the fixtures' configuration.
  static func file(_ name: String, _ arguments: [String] = []) async throws -> AssociationRun {
    try await run(
      [
        "--association-file", fixtures.appendingPathComponent(name).path, "--config",
        fixtures.appendingPathComponent("appflip.json").path,
      ] + arguments)
  }

  /// A result's status.
  func status(_ id: String) -> String? { results[id]?["status"] as? String }

  /// A result's findings' messages and actual values, and its message, as one text.
  func text(_ id: String) -> String {
    let findings = results[id]?["findings"] as? [[String: Any]] ?? []
    return
      ([results[id]?["message"] as? String ?? ""]
      + findings.flatMap { [$0["message"] as? String ?? "", $0["actual"] as? String ?? ""] }).joined(separator: "\n")
  }

  /// What the evidence of a result says the run saw for its first step.
  func did(_ id: String) -> String? {
    ((results[id]?["evidence"] as? [String: Any])?["steps"] as? [[String: Any]])?.first?["did"] as? String
  }

  /// The rules a result's findings cite.
  func rules(_ id: String) -> [String] {
    (results[id]?["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
  }

  /// The ids with this status.
  func ids(_ status: String) -> [String] { results.filter { $0.value["status"] as? String == status }.keys.sorted() }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite("Association profile: the file against every App Flip link (--association-file)", .serialized)
struct AssociationProfileTests {
  /// How the one sentence on standard error begins when the file could not be used.
  static let unchecked = "error: no App Flip link was checked, since "

  @Test(
    "A correct file, in the modern and in the older format, passes every vector it can check",
    arguments: [
      "modern.json", "legacy.json",
    ])
  func correct(_ name: String) async throws {
    let run = try await AssociationRun.file(name)
    defer { run.remove() }
    #expect(run.code == .success, "\(run.out)\n\(run.err)")
    #expect(!run.err.contains("error:"), "\(run.err)")
    #expect(run.ids("failed").isEmpty && run.ids("error").isEmpty && run.ids("inconclusive").isEmpty)
    #expect(run.status("association/links/plain") == "passed")
    #expect(run.status("outcomes/granted-prod-opa") == "passed", "the app vectors' links are matched too")
    #expect(
      run.status("association/file/served")?.contains("skipped") == true
        || run.status("association/file/served") == "skipped")
    #expect(run.text("association/file/served").contains("--association-file"))
    #expect(run.results.count > 400)
  }

  @Test(
    "Each mistake fails with a sentence naming its cause",
    arguments: [
      (
        "excluded-earlier.json", "association/links/plain",
        "applinks.details[0].components[0] is the first component that matches this link, and it excludes it"
      ),
      ("query-requires-parameter.json", "association/links/plain", "\"?\" item \"response_type\": the link has none"),
      (
        "case-sensitive.json", "association/links/plain",
        "only the case differs: Apple matches case-sensitively unless \"caseSensitive\" is false"
      ),
      ("wrong-team.json", "association/app-id/listed", "whose team id \"FGHIJ67890\" is not \"ABCDE12345\""),
      (
        "paths-not.json", "association/links/plain",
        "applinks.details[0].paths[0] is the first path that matches this link, and it excludes it"
      ),
      (
        "not-json.html", "association/file/json",
        "the file is not JSON: line 1, column 1: expected a value, found \"<\""
      ),
      (
        "no-links.json", "association/app-id/claims-links",
        "claim no link: no component or path that is not an exclusion"
      ),
      (
        "decoded-pattern.json", "association/links/plain",
        "but Apple compares the percent-encoded URL unless \"percentEncoded\" is false"
      ),
    ])
  func mistake(_ name: String, _ id: String, _ cause: String) async throws {
    let run = try await AssociationRun.file(name, ["--filter", "association/*", "--filter", "outcomes/granted-*"])
    defer { run.remove() }
    #expect(run.code == .failure)
    #expect(run.status(id) == "failed")
    #expect(run.text(id).contains(cause), "\(run.text(id))")
    #expect(!run.rules(id).isEmpty && run.rules(id).allSatisfy { $0.hasPrefix("AF-UL-") }, "\(run.rules(id))")
    // The evidence says what Apple decides for a link, and how the file was read for a check of the file itself.
    let did = run.did(id) ?? "no evidence"
    let link = id.hasPrefix("association/links/")
    #expect(link ? did.hasSuffix("the website opens") : did.hasPrefix("read \""), "\(did)")
    let summary = try String(contentsOf: run.folder.appendingPathComponent("summary.md"), encoding: .utf8)
    #expect(summary.contains("AF-UL-"))
    let junit = try String(contentsOf: run.folder.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.contains(id) && run.junitIsXML)
  }

  @Test("Another app's entry that claims the App Flip link first warns, naming that app")
  func otherAppFirst() async throws {
    let run = try await AssociationRun.file("other-app-first.json", ["--filter", "association/*"])
    defer { run.remove() }
    #expect(run.code == .success)
    #expect(run.status("association/app-id/first-for-app-flip") == "warning")
    #expect(
      run.text("association/app-id/first-for-app-flip").contains("claimed first by ABCDE12345.com.partner.classic"))
    let strict = try await AssociationRun.file("other-app-first.json", ["--strict", "--filter", "association/*"])
    defer { strict.remove() }
    #expect(strict.code == .failure)
  }

  @Test("What the first failing check keeps from being read is inconclusive, naming that check")
  func inconclusive() async throws {
    let run = try await AssociationRun.file("wrong-team.json", ["--filter", "association/*"])
    defer { run.remove() }
    #expect(run.status("association/links/plain") == "inconclusive")
    #expect(run.text("association/links/plain").contains("association/app-id/listed"))
    #expect(run.ids("failed") == ["association/app-id/listed"])
    let json = try await AssociationRun.file("not-json.html", ["--filter", "association/*", "--filter", "outcomes/*"])
    defer { json.remove() }
    #expect(json.status("association/app-id/listed") == "inconclusive")
    #expect(json.text("outcomes/granted-prod-opa").contains("association/file/json"))
  }

  @Test("Only links Google can send must open the app; the app vectors' other links are noted")
  func googleLinks() async throws {
    let run = try await AssociationRun.file(
      "query-requires-parameter.json",
      ["--filter", "outcomes/granted-prod-opa", "--filter", "check-order/bad-redirect-*"])
    defer { run.remove() }
    #expect(run.status("outcomes/granted-prod-opa") == "failed", "a valid App Flip link")
    #expect(run.status("check-order/bad-redirect-wrong-client-id") == "passed", "an attack Google never sends")
    let findings = run.results["check-order/bad-redirect-wrong-client-id"]?["findings"] as? [[String: Any]] ?? []
    #expect(findings.first?["level"] as? String == "may")
    #expect(AssociationRules.isGoogleLink("https://p/a?client_id=c&scope=a%20b&state=s&redirect_uri=https%3A%2F%2Fx"))
    #expect(AssociationRules.isGoogleLink("https://p/a?redirect_uri=https://x/a&state=s&client_id=c"))
    #expect(!AssociationRules.isGoogleLink("https://p/a?client_id=c&state=s&redirect_uri=https%3a%2f%2fx"))
    #expect(!AssociationRules.isGoogleLink("https://p/a?client_id=%63&state=s&redirect_uri=x"))
    #expect(!AssociationRules.isGoogleLink("https://p/a?client%5Fid=c&state=s&redirect_uri=x"))
    #expect(!AssociationRules.isGoogleLink("https://p/a?client_id=c&state=s&redirect_uri=x&x=1"))
    #expect(!AssociationRules.isGoogleLink("https://p/a?client_id=c&state=s&state=t&redirect_uri=x"))
  }

  @Test(
    "A file over Apple's 128 KB, and one of 10 MB, fail the size check; the 10 MB one is read no further than 1 MiB")
  func oversized() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let modern = try String(contentsOf: AssociationRun.fixtures.appendingPathComponent("modern.json"), encoding: .utf8)
    let padded = modern.replacingOccurrences(
      of: "\"The account pages\"", with: "\"" + String(repeating: "x", count: 200 * 1024) + "\"")
    for (name, data, actual) in [
      ("over-128k.json", Data(padded.utf8), "\(padded.utf8.count) bytes"),
      ("ten-mb.json", Data(repeating: 0x20, count: 10 * 1024 * 1024), "over 1 MiB (the suite reads no more)"),
    ] {
      let path = folder.appendingPathComponent(name).path
      try data.write(to: URL(fileURLWithPath: path))
      let run = try await AssociationRun.run(
        [
          "--association-file", path, "--config", AssociationRun.fixtures.appendingPathComponent("appflip.json").path,
          "--filter", "association/*",
        ])
      defer { run.remove() }
      #expect(run.code == .failure)
      #expect(run.status("association/file/size") == "failed")
      #expect(run.text("association/file/size").contains(actual), "\(run.text("association/file/size"))")
      #expect(run.status("association/links/plain") == "inconclusive")
      #expect(run.err.hasPrefix(Self.unchecked + "the file is larger than Apple's 128 KB limit"), "\(run.err)")
    }
    #expect(
      AssociationSource.read(folder.appendingPathComponent("ten-mb.json").path).size == EndpointHTTPClient.bodyLimit)
  }

  @Test("Invalid JSON is a failure that quotes line and column")
  func invalidJSON() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-\(UUID().uuidString).json").path
    try Data(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.partner.app"],}]}}"#.utf8)
      .write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try await AssociationRun.run(
      [
        "--association-file", path, "--config", AssociationRun.fixtures.appendingPathComponent("appflip.json").path,
        "--filter", "association/*",
      ])
    defer { run.remove() }
    #expect(run.status("association/file/json") == "failed")
    #expect(
      run.text("association/file/json").contains("is not JSON: line 1, column "), "\(run.text("association/file/json"))"
    )
    #expect(run.err.hasPrefix(Self.unchecked + "the file is not JSON: line 1, column "), "\(run.err)")
    #expect(run.err.split(separator: "\n").count == 1, "one sentence: \(run.err)")
  }

  @Test("A configuration without appID exits 2, naming the field, and still writes every report")
  func missingAppID() async throws {
    let config = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).json").path
    try Data(#"{"universalLink": "https://partner.example/appflip"}"#.utf8).write(to: URL(fileURLWithPath: config))
    defer { try? FileManager.default.removeItem(atPath: config) }
    let run = try await AssociationRun.run(
      ["--association-file", AssociationRun.fixtures.appendingPathComponent("modern.json").path, "--config", config])
    defer { run.remove() }
    #expect(run.code == .usage)
    #expect(run.err.contains("field \"appID\": missing"))
    #expect(run.results[config]?["status"] as? String == "error")
    #expect(FileManager.default.fileExists(atPath: run.folder.appendingPathComponent("junit.xml").path))
  }

  @Test(
    "Bad options get one sentence and exit 2",
    arguments: [
      (["--association-file", "/no/such/aasa.json"], "--association-file"),
      (["--association-file", "/tmp"], "it is a folder, not a file"),
      (["--association", "--cacert", "/no/such/ca.pem"], "--cacert"),
      (["--association", "--endpoint", "https://auth.example/authorize"], "--association"),
      (["--association", "--scope", "openid"], "--scope"),
    ])
  func badOptions(_ arguments: [String], _ named: String) async {
    let output = CapturedOutput()
    let code = await ConformanceCommand.run(arguments, output: output.output)
    #expect(code == .usage)
    #expect(output.err.hasPrefix("error: ") && output.err.contains(named), "\(output.err)")
  }

  @Test("An appID that is not TEAMID.bundle.id is refused as the configuration loads")
  func appIDFormat() throws {
    for bad in ["com.partner.app", "abcde12345.com.partner.app", "ABCDE12345.", "ABCDE1234.com.partner.app"] {
      let data = Data(#"{"appID": "\#(bad)"}"#.utf8)
      #expect(throws: (any Error).self) { try JSONDecoder().decode(PartnerConfiguration.self, from: data) }
    }
    let good = try JSONDecoder().decode(
      PartnerConfiguration.self, from: Data(#"{"appID": "ABCDE12345.com.p-1.app"}"#.utf8))
    #expect(good.appID == "ABCDE12345.com.p-1.app")
  }
}
